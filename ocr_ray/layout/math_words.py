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
    """A tall delimiter drawn as a column of one CMEX glyph (``\\left|``: "|" over "|") -> one."""
    out: list[Atom] = []
    for a in sorted(atoms, key=lambda a: (round(a.x0), a.y0)):
        last = out[-1] if out else None
        if last is not None and a.kind == last.kind == "delim" and a.tex == last.tex \
                and abs(a.x0 - last.x0) < 0.5 and a.y0 <= last.y1 + 1.0:
            last.y1 = max(last.y1, a.y1)
            continue
        out.append(a)
    return out


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


def words(atoms: list[Atom]) -> list[Atom]:
    """Runs of upright letters on one baseline -> one atom each (an operator name such as \\max
    takes limits like a big operator)."""
    # a limit centred under "max" lies between its letters in x: runs are read among the
    # upright letters only; line by line (the rows of a matrix or cases interleave in x)
    romans = sorted((a for a in atoms if a.kind == "roman"), key=lambda a: (round(a.base), a.x0))
    out = [a for a in atoms if a.kind != "roman"]
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
        elif word in OPERATOR_NAMES:
            tex = "\\" + word
        elif word.lower() in PROSE_WORDS:
            # prose in a display (``\quad \text{where } s = ...``, cases' ``\text{if } x > 0``): a
            # word and its space, not letters run into the next symbol ("\mathrm{where}s"), after
            # the space the page leaves before it
            tex = _space_before(a, atoms) + rf"\text{{{word} }}"
        else:
            tex = rf"\mathrm{{{word}}}"
        out.append(union(romans[i:j], tex, a.base, a.size, "op" if word in _LIMIT_WORDS else "ord"))
        i = j
    return out
