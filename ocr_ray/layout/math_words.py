"""Passes over a formula's atoms before its rows are read: glyphs TeX draws as pieces of one symbol
(``\\coloneqq``, ``\\mapsto``, a tall delimiter in a column of pieces) made one, and runs of upright
letters made words: an operator name (``\\max`` takes limits), prose in a display
(``\\quad \\text{where }``) or ``\\mathrm``. Split from ``math`` (row reading) as a concern of its own."""
from __future__ import annotations

from itertools import pairwise

from ocr_ray.layout.math_atoms import Atom, union
from ocr_ray.layout.math_stacks import RELATIONS
from ocr_ray.layout.math_symbols import OPERATOR_NAMES, PROSE_WORDS


def colon_equals(atoms: list[Atom]) -> list[Atom]:
    """A colon raised onto the maths axis right before "=" is mathtools' \\coloneqq (a plain ":="
    sets the colon on the baseline, 0.35 pt lower at 10 pt)."""
    colons = [a for a in atoms if a.tex == ":"]
    for colon in colons:
        eq = next((a for a in atoms if a.tex == "=" and 0 <= a.x0 - colon.x1 < 0.2 * a.size
                   and colon.base < a.base - 0.025 * a.size), None)
        if eq is not None:
            atoms = [a for a in atoms if a is not colon and a is not eq] + [union([colon, eq], r"\coloneqq", eq.base,
                                                                                   eq.size, "ord")]
    return atoms


def spaced_bars(atoms: list[Atom]) -> list[Atom]:
    r"""A bar of the row's size set a thick space apart from the ink on both sides is the relation
    ``\mid``, which TeX spaces; ``|`` is an ordinary symbol set tight (``p(\mathcal{D} \mid \theta)``:
    0.32-0.45 em of white each side in CM, newtx, mathptmx; ``a|b``, ``|x|``: 0.14-0.22 em). Both print the
    same glyph in CM, and KaTeX's spacing of the one put for the other failed olmocr's MathTest (a
    fraction's ``p(\mathcal{D}|\theta)`` against its source's ``\mid``). In a script TeX sets no such space."""
    for bar in [a for a in atoms if a.tex == "|" and a.kind != "delim"]:
        beside = [a for a in atoms if a is not bar and a.y0 < bar.y1 and a.y1 > bar.y0 and a.kind != "box"]
        left = [bar.x0 - a.x1 for a in beside if a.x1 <= bar.x0 + 0.1]
        right = [a.x0 - bar.x1 for a in beside if a.x0 >= bar.x1 - 0.1]
        if left and right and min(min(left), min(right)) >= 0.27 * bar.size and bar.size >= 0.8 * max(
                a.size for a in beside):
            bar.tex = r"\mid"
    return atoms


# three full stops set as ordinary symbols (``...``), marked for ``math.build`` to write as typed
TIGHT_DOTS = "\u2024\u2024\u2024"


def ord_dots(atoms: list[Atom]) -> list[Atom]:
    r"""Three full stops on one baseline a period's width apart are the ``...`` of the source, not
    ``\ldots``: TeX sets ``...`` as three ordinary symbols with no space between them (pitch 0.28 em in
    CM, 0.25 in Times), and ``\ldots`` as punctuation with a thin space after each (0.44 em); KaTeX
    draws them apart (three "." against one "…"), so olmocr's MathTest passes neither for the other
    (dev5's apg-icml20 ``i = 1, 2, ..., I``, nltocode-neurips20 ``tok_{m-k},...,tok_{m+k}`` were read
    ``\ldots``). In a script TeX puts no space between punctuation: dots there stay ``\ldots``."""
    sizes = sorted(a.size for a in atoms)
    main = sizes[len(sizes) // 2]
    dots = sorted((a for a in atoms if a.tex == "." and a.size >= 0.9 * main), key=lambda a: (round(a.base), a.x0))
    found: list[list[Atom]] = []
    k = 0
    while k + 2 < len(dots):
        run = dots[k:k + 3]
        if all(abs(b.base - a.base) < 0.1 * a.size and 0 < b.x0 - a.x0 < 0.36 * a.size for a, b in pairwise(run)):
            found.append(run)
            k += 3
        else:
            k += 1
    if not found:
        return atoms
    gone = {id(a) for run in found for a in run}
    return [a for a in atoms if id(a) not in gone] + [union(run, TIGHT_DOTS, run[0].base, run[0].size, "ord")
                                                      for run in found]


def mapsto(atoms: list[Atom]) -> list[Atom]:
    """TeX draws \\mapsto as CMSY's bar piece (read "↦") overlapping the arrow "→" at its left
    end: one \\mapsto."""
    for bar in [a for a in atoms if a.tex == r"\mapsto"]:
        arrow = next((a for a in atoms if a.tex in (r"\to", r"\rightarrow") and abs(a.x0 - bar.x0) < 0.3 * a.size
                      and abs(a.base - bar.base) < 0.2 * a.size), None)
        if arrow is not None:
            atoms = [a for a in atoms if a is not bar and a is not arrow] + [
                union([bar, arrow], r"\mapsto", arrow.base, arrow.size, "ord")]
    return atoms


def stacked_pieces(atoms: list[Atom]) -> list[Atom]:
    """A tall delimiter drawn as a column of one CMEX glyph (``\\left|``: "|" over "|") -> one; a
    radical taller than cmex's largest, drawn as its bottom, a column and its top, reaches up to its
    top (the vinculum starts there: it was read as ``\\surd`` before what it covers)."""
    atoms = _radical_tops(atoms)
    out: list[Atom] = []
    for a in sorted(atoms, key=lambda a: (round(a.x0), a.y0)):
        last = out[-1] if out else None
        if last is not None and a.kind == last.kind == "delim" and a.tex == last.tex \
                and abs(a.x0 - last.x0) < 0.5 and a.y0 <= last.y1 + 1.0:
            last.y1 = max(last.y1, a.y1)
            last.scale = _bar_scale((last.y1 - last.y0) / max(last.size, 1.0))
            continue
        out.append(a)
    return out


def _bar_scale(height: float) -> str:
    r"""The size a column of cmex's bar pieces (``|``, ``\|``: they have no sized glyphs) was set
    at, from its height in em (1.25 \big, 1.84 \Big, 2.44 \bigg, 3.04 \Bigg at any size, as the
    sized parentheses are 1.2, 1.8, 2.4, 3.0): read as plain bars, ``\Big|w\Big|`` was ``|w|``
    and KaTeX set it at the text's size."""
    for limit, scale in ((1.0, ""), (1.5, r"\big"), (2.1, r"\Big"), (2.7, r"\bigg"), (3.4, r"\Bigg")):
        if height < limit:
            return scale
    return ""


def _radical_tops(atoms: list[Atom]) -> list[Atom]:
    tops = sorted((a for a in atoms if a.kind == "radical_top"), key=lambda a: -a.y1)
    for rad in (a for a in atoms if a.kind == "radical"):
        top = next((t for t in tops if rad.x0 <= t.x0 <= rad.x1 + 1.0 and t.y1 <= rad.y0 + 1.0), None)
        if top is not None:
            rad.y0, rad.x1 = top.y0, max(rad.x1, top.x1)
            tops.remove(top)
    return [a for a in atoms if a.kind != "radical_top"]


_LIMIT_WORDS = {"max", "min", "sup", "inf", "lim", "argmax", "argmin", "limsup", "liminf"}


def _space_before(first: Atom, atoms: list[Atom]) -> str:
    """The space printed before a word, from the nearest atom to its left on its baseline: ``\quad``
    after a formula's punctuation ("..., \quad where"), ``\ `` for a word space, "" otherwise (a
    cell of cases after its column's space, set by the array itself)."""
    left = [a for a in atoms if a.x1 <= first.x0 + 0.1 and abs(a.base - first.base) < 0.5 * first.size]
    if not left:
        return ""
    near = max(left, key=lambda a: a.x1)
    gap = (first.x0 - near.x1) / max(first.size, 1.0)
    if near.tex in RELATIONS:
        return ""  # TeX sets a relation's own space (\; ) after it: none to add
    if gap > 0.7:
        return r"\quad " if near.tex in (",", ";", ".") else ""
    return r"\ " if gap > 0.2 else ""


def _after_word_space(first: Atom, atoms: list[Atom]) -> bool:
    r"""A word set a word space after a letter or digit on its baseline (``n \text{ terms}``): TeX
    puts no space between an ordinary symbol and an upright word (``x\mathrm{softmax}``), a
    relation or an operator before it has its own (``= \mathrm{softmax}``)."""
    left = [a for a in atoms if a.x1 <= first.x0 + 0.1 and abs(a.base - first.base) < 0.5 * first.size]
    if not left:
        return False
    near = max(left, key=lambda a: a.x1)
    return len(near.tex) == 1 and near.tex.isalnum() and 0.2 < (first.x0 - near.x1) / max(first.size, 1.0) <= 0.7


# abbreviations displays set as prose (``\text{ s.t. }``): upright letters with periods
_ABBREVIATIONS = frozenset({"s.t.", "i.e.", "e.g.", "w.r.t.", "a.e.", "a.s.", "i.i.d.", "cf.", "resp.", "etc."})


def _abbreviations(atoms: list[Atom]) -> list[Atom]:
    """Upright letters and periods set tight on one baseline that spell an abbreviation ("s.t.",
    "i.e.") -> one upright atom, a word for ``words``: the periods broke the letters' run, and
    ``\\text{ s.t. }`` was read as ``\\mathrm{s}.\\mathrm{t}.``."""
    pieces = sorted((a for a in atoms if a.kind == "roman" or a.tex == "."), key=lambda a: (round(a.base), a.x0))
    gone: set[int] = set()
    found: list[Atom] = []
    for k, a in enumerate(pieces):
        if a.kind != "roman" or id(a) in gone:
            continue
        chain = [a]
        for b in pieces[k + 1:]:
            if abs(b.base - a.base) >= 0.5 or not -0.1 * a.size <= b.x0 - chain[-1].x1 < 0.25 * a.size:
                break
            chain.append(b)
        for n in range(len(chain), 1, -1):
            text = "".join(p.tex for p in chain[:n])
            if text in _ABBREVIATIONS:
                found.append(union(chain[:n], text, a.base, a.size, "roman"))
                gone |= {id(p) for p in chain[:n]}
                break
    return [a for a in atoms if id(a) not in gone] + found if found else atoms


def _hyphens(atoms: list[Atom]) -> list[Atom]:
    r"""A hyphen of the upright text font set tight between two upright letters joins their word
    (``\text{cosine-sim}``: read ``\mathrm{cosine}-\mathrm{sim}``, whose "-" KaTeX draws as a minus);
    TeX's minus is CMSY's "−", never the text font's hyphen."""
    letters = [a for a in atoms if a.kind == "roman"]
    for h in atoms:
        if h.tex != "-" or h.kind == "roman" or h.alphabet not in ("rm", "text"):
            continue
        tight = [a for a in letters if abs(a.base - h.base) < 0.1 * a.size and abs(a.size - h.size) < 0.3
                 and (0 <= h.x0 - a.x1 < 0.15 * a.size or 0 <= a.x0 - h.x1 < 0.15 * a.size)]
        if any(a.x1 <= h.x0 for a in tight) and any(a.x0 >= h.x1 for a in tight):
            h.kind = "roman"
    return atoms


def _between(left: Atom, right: Atom, atoms: list[Atom]) -> bool:
    """Something else is set on their baseline between two words."""
    return any(left.x1 - 0.1 < a.cx < right.x0 + 0.1 and abs(a.base - left.base) < 0.5 * left.size
               for a in atoms if a is not left and a is not right)


def _joins(prose: Atom | None, first: Atom, atoms: list[Atom]) -> bool:
    """The word starting at ``first`` follows the word of prose before it at a word space."""
    return prose is not None and abs(prose.base - first.base) < 0.5 and 0 < first.x0 - prose.x1 < 0.7 * first.size \
        and not _between(prose, first, atoms)


def _limit_under_word(letters: list[Atom], atoms: list[Atom]) -> bool:
    r"""Whether smaller glyphs right under an upright word are centred under it and no wider than it
    and a script's width on each side: a name of the source's own taking its limit below
    (``\operatorname*{minimize}_{\beta_0 \in \mathbb{R}}``), which was read as a word with its
    limit's first letter a subscript before it (``{}_{\beta}\mathrm{minimize}_{{}_{0}\in ..}``)."""
    x0, x1, y1 = letters[0].x0, letters[-1].x1, max(a.base for a in letters)
    size = letters[0].size
    under = [b for b in atoms if b not in letters and b.size < 0.9 * size and b.y0 >= y1 - 0.5
             and b.y0 - y1 < 0.8 * size and x0 - size <= b.cx <= x1 + size]
    if not under:
        return False
    u0, u1 = min(b.x0 for b in under), max(b.x1 for b in under)
    return u0 >= x0 - size and u1 <= x1 + size and abs((u0 + u1) / 2 - (x0 + x1) / 2) < 0.1 * (x1 - x0) + 0.1 * size


def _limit_under_both(letters: list[Atom], atoms: list[Atom]) -> bool:
    """Whether the smaller glyphs right under "arg max" are centred under the whole name
    (``\\operatorname*{arg\\,max}_{\\theta}``) rather than under "max" (``\\arg\\max_{\\theta}``)."""
    x0, x1, y1 = letters[0].x0, letters[-1].x1, max(a.y1 for a in letters)
    size = letters[0].size
    under = [b for b in atoms if b not in letters and b.size < 0.9 * size and b.y0 >= y1 - 0.5
             and b.y0 - y1 < 0.8 * size and x0 - 0.3 * size <= b.cx <= x1 + 0.3 * size]
    if not under:
        return False
    centre = (min(b.x0 for b in under) + max(b.x1 for b in under)) / 2
    return abs(centre - (x0 + x1) / 2) < abs(centre - (letters[3].x0 + x1) / 2)


def _word_space(run: list[Atom]) -> int:
    """Where a run of upright letters holds a word space (0: none): Times' word space (0.25 em, and
    less between the letters' ink: "of growth" 0.23 em in newtx, Termes 0.22 em) is under the 0.25 em
    that ends a run, Computer Modern's (0.33 em) is not. A gap of 0.15 em or more that is four times
    the run's typical gap between letters (0.02-0.05 em of ink) parts two words."""
    gaps = [b.x0 - a.x1 for a, b in pairwise(run)]
    if len(gaps) < 3:
        return 0
    typical = sorted(gaps)[len(gaps) // 2]
    size = run[0].size
    # (not before a capital after a small letter: a capital's side bearing in a camel-case name,
    # tacas17's "updateWorklist", leaves 0.20 em of white)
    return next((k + 1 for k, g in enumerate(gaps) if g >= 0.15 * size and g > 4 * max(typical, 0.02 * size)
                 and not (run[k].tex.islower() and run[k + 1].tex.isupper())), 0)


def _operator_apart(run: list[Atom]) -> int:
    r"""Where a run of upright letters parts an operator's name from a word after or before it at a
    thin space (1/6 em: ``\log\det`` was ``\mathrm{logdet}``, ``\text{class}\log`` one word), 0: nowhere."""
    size = run[0].size
    return next((k + 1 for k, (a, b) in enumerate(pairwise(run)) if b.x0 - a.x1 >= 0.1 * size and OPERATOR_NAMES & {
        "".join(r.tex for r in run[:k + 1]), "".join(r.tex for r in run[k + 1:])}), 0)


def _phrase_follows(romans: list[Atom], j: int, atoms: list[Atom]) -> bool:
    r"""A word with another upright word a word space after it on its baseline, nothing between
    them: a phrase of prose (``\text{rate of growth}``), not two names (TeX sets no space between
    ``\mathrm{a}\mathrm{b}``, a thin one before an operator's name: ``\text{class}\log``; a
    bracket or a comma between them, ``\mathrm{MSA}(\mathrm{LN}``, ``f_{\mathrm{row},\mathrm{col}}``)."""
    if j >= len(romans) or j == 0:
        return False
    last, nxt = romans[j - 1], romans[j]
    gap = (nxt.x0 - last.x1) / max(last.size, 1.0)
    if not (abs(nxt.base - last.base) < 0.5 and abs(nxt.size - last.size) < 0.3 and 0.15 <= gap < 0.7
            and j + 1 < len(romans) and abs(romans[j + 1].base - nxt.base) < 0.5
            and romans[j + 1].x0 - nxt.x1 < 0.15 * nxt.size) or _between(last, nxt, atoms):
        return False
    k = j + 1  # (the next word's end)
    while k < len(romans) and abs(romans[k].base - nxt.base) < 0.5 and romans[k].x0 - romans[k - 1].x1 < 0.15 * nxt.size:
        k += 1
    return "".join(r.tex for r in romans[j:k]) not in OPERATOR_NAMES


def words(atoms: list[Atom]) -> list[Atom]:
    """Runs of upright letters on one baseline -> one atom each (an operator name such as \\max
    takes limits like a big operator); words of prose in a row are one ``\\text{...}``."""
    atoms = _hyphens(_abbreviations(atoms))
    # a limit centred under "max" lies between its letters in x: runs are read among the
    # upright letters only; line by line (the rows of a matrix or cases interleave in x)
    romans = sorted((a for a in atoms if a.kind == "roman"), key=lambda a: (round(a.base), a.x0))
    out = [a for a in atoms if a.kind != "roman"]
    prose: Atom | None = None  # the last word of prose read, while the next may join it
    i = 0
    while i < len(romans):
        a = romans[i]
        j = i + 1
        while j < len(romans) and abs(romans[j].size - a.size) < 0.3 and abs(romans[j].base - a.base) < 0.5 \
                and romans[j].x0 - romans[j - 1].x1 < 0.25 * a.size:
            j += 1
        word = "".join(x.tex for x in romans[i:j])
        if word.isdigit():  # (a prose fragment's number alone: digits, no word)
            out.append(union(romans[i:j], word, a.base, a.size, "ord"))
            prose = None
            i = j
            continue
        named = word in ("argmax", "argmin") or word in OPERATOR_NAMES
        phrase = not named and _word_space(romans[i:j])
        apart = phrase or not named and _operator_apart(romans[i:j])
        if apart:  # the first word of a phrase set in a font with a narrow word space (Times), or an operator's
            j = i + apart
            word = "".join(x.tex for x in romans[i:j])
        if word in ("argmax", "argmin"):
            # \arg\max sets a thin space (1/6 em) between its words, \operatorname*{argmax} none;
            # either takes its limit below in a display (\operatorname{argmax} would set it aside)
            spaced = romans[i + 3].x0 - romans[i + 2].x1 > 0.1 * a.size
            tex = rf"\arg\{word[3:]}" if spaced else rf"\operatorname*{{{word}}}"
            if spaced and _limit_under_both(romans[i:j], atoms):
                tex = rf"\operatorname*{{arg\,{word[3:]}}}"  # one name: its limit centred under both words
        elif word in OPERATOR_NAMES:
            tex = "\\" + word
        elif word.lower() in PROSE_WORDS or word in _ABBREVIATIONS or "-" in word or phrase or _phrase_follows(romans, j, atoms) \
                or _joins(prose, a, atoms) or all(x.alphabet == "text" for x in romans[i:j]):
            # prose in a display (``\quad \text{where } s = ...``, cases' ``\text{if } x > 0``): a
            # word and its space, not letters run into the next symbol ("\mathrm{where}s"), after
            # the space the page leaves before it
            # (the next word after a word space joins it: ``\text{for all }``, not
            # ``\text{for }\ \text{all }``)
            if _joins(prose, a, atoms):
                merged = union([prose, *romans[i:j]], f"{prose.tex[:-1]}{word} }}", prose.base, prose.size, "ord")
                out = [merged if o is prose else o for o in out]
                prose = merged
                i = j
                continue
            tex = _space_before(a, atoms) + rf"\text{{{word} }}"
        elif j - i > 2 and _limit_under_word(romans[i:j], atoms):
            tex = rf"\operatorname*{{{word}}}"  # (normreg-tmlr's minimize_{\beta_0 \in \mathbb{R}, ..})
        else:
            tex = rf"\mathrm{{{word}}}"
            if j - i > 1 and _after_word_space(a, atoms):
                tex = rf"\ \text{{{word}}}"
        op = word in _LIMIT_WORDS or tex.startswith(r"\operatorname*")
        out.append(union(romans[i:j], tex, a.base, a.size, "op" if op else "ord"))
        prose = out[-1] if tex.endswith(" }") else None
        i = j
    return out
