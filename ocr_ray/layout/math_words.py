"""Passes over a formula's atoms before its rows are read: glyphs TeX draws as pieces of one symbol
(``\\coloneqq``, ``\\mapsto``, a tall delimiter in a column of pieces) made one, and runs of upright
letters made words: an operator name (``\\max`` takes limits), prose in a display
(``\\quad \\text{where }``) or ``\\mathrm``. Split from ``math`` (row reading) as a concern of its own."""
from __future__ import annotations

from ocr_ray.layout.math_atoms import Atom, union
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
            continue
        out.append(a)
    return out


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


def _between(left: Atom, right: Atom, atoms: list[Atom]) -> bool:
    """Something else is set on their baseline between two words."""
    return any(left.x1 - 0.1 < a.cx < right.x0 + 0.1 and abs(a.base - left.base) < 0.5 * left.size
               for a in atoms if a is not left and a is not right)


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


def words(atoms: list[Atom]) -> list[Atom]:
    """Runs of upright letters on one baseline -> one atom each (an operator name such as \\max
    takes limits like a big operator); words of prose in a row are one ``\\text{...}``."""
    atoms = _abbreviations(atoms)
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
        if word in ("argmax", "argmin"):
            # \arg\max sets a thin space (1/6 em) between its words, \operatorname*{argmax} none;
            # either takes its limit below in a display (\operatorname{argmax} would set it aside)
            spaced = romans[i + 3].x0 - romans[i + 2].x1 > 0.1 * a.size
            tex = rf"\arg\{word[3:]}" if spaced else rf"\operatorname*{{{word}}}"
            if spaced and _limit_under_both(romans[i:j], atoms):
                tex = rf"\operatorname*{{arg\,{word[3:]}}}"  # one name: its limit centred under both words
        elif word in OPERATOR_NAMES:
            tex = "\\" + word
        elif word.lower() in PROSE_WORDS or word in _ABBREVIATIONS or all(x.alphabet == "text" for x in romans[i:j]):
            # prose in a display (``\quad \text{where } s = ...``, cases' ``\text{if } x > 0``): a
            # word and its space, not letters run into the next symbol ("\mathrm{where}s"), after
            # the space the page leaves before it
            # (the next word after a word space joins it: ``\text{for all }``, not
            # ``\text{for }\ \text{all }``)
            if prose is not None and abs(prose.base - a.base) < 0.5 and 0 < a.x0 - prose.x1 < 0.7 * a.size \
                    and not _between(prose, a, atoms):
                merged = union([prose, *romans[i:j]], f"{prose.tex[:-1]}{word} }}", prose.base, prose.size, "ord")
                out = [merged if o is prose else o for o in out]
                prose = merged
                i = j
                continue
            tex = _space_before(a, atoms) + rf"\text{{{word} }}"
        else:
            tex = rf"\mathrm{{{word}}}"
            if j - i > 1 and _after_word_space(a, atoms):
                tex = rf"\ \text{{{word}}}"
        out.append(union(romans[i:j], tex, a.base, a.size, "op" if word in _LIMIT_WORDS else "ord"))
        prose = out[-1] if tex.endswith(" }") else None
        i = j
    return out
