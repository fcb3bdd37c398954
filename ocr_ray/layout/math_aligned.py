r"""The rows of one display block written as one formula: ``\begin{aligned}`` or ``\begin{gathered}``.

A display block of several rows (an ``align``, a ``gather``, equations set one under the other
with no prose between) was written as one ``$$`` block per row. olmOCR-Bench's ``MathTest``
renders the test's LaTeX and each candidate with KaTeX and passes a candidate that holds the
test's symbols with the same neighbours: a test of one row passes a candidate holding all rows
(the other rows are above or below, no row's neighbour left or right), but a test of the whole
``align`` passed no single row. So the rows are one formula, stacked as the page sets them: aligned
at their first relation when the page sets those relations one under the other (an ``align``'s
``&=``; a row that opens with "=" continues the one above), else centred (``gather``, equations one
under the other). Each row keeps its equation number, ``\qquad (n)``.
"""
from __future__ import annotations

import re

from ocr_ray.layout.math import numbered
from ocr_ray.layout.math_atoms import Unreadable, glyph_atom
from ocr_ray.layout.math_rows import row_size
from ocr_ray.layout.math_stacks import RELATIONS

# relations an align sets its rows at, as the builder writes them
_ALIGN_AT = RELATIONS | {r"\in", r"\coloneqq", r"\subset", r"\subseteq", r"\mapsto", r"\leftarrow", r"\gets", r"\iff",
                         r"\ll", r"\gg", r"\prec", r"\succ"}
# rows whose first relations lie within this many points of one another are aligned at them
_SAME_X = 1.5


def relation_x(glyphs: list[list]) -> float | None:
    """The left edge of a row's first relation set at the row's full size (none: None)."""
    size = row_size(glyphs)
    xs = []
    for g in glyphs:
        try:
            atom = glyph_atom(g)
        except Unreadable:
            continue
        if atom is not None and atom.tex in _ALIGN_AT and g[6] > 0.9 * size:
            xs.append(g[1])
    return min(xs, default=None)


def _first_relation(tex: str) -> int | None:
    """Where the first relation outside any group (braces, environments) starts in a row's LaTeX."""
    depth = 0
    i = 0
    while i < len(tex):
        ch = tex[i]
        if ch == "\\":
            j = i + 1
            while j < len(tex) and tex[j].isalpha():
                j += 1
            if j == i + 1:  # an escaped character (\{, \|, \,)
                i += 2
                continue
            name = tex[i:j]
            if name == r"\begin":
                depth += 1
            elif name == r"\end":
                depth -= 1
            elif depth == 0 and name in _ALIGN_AT:
                return i
            i = j
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and ch in "=<>":
            return i
        i += 1
    return None


_NUMBER_ALONE = re.compile(r"\(((?:[A-Z]\.?)?\d+(?:\.\d+)*[a-z]?)\)")


def _numbers_placed(rows: list[tuple[str, float | None, float, float]]) -> list[tuple[str, float | None, float, float]]:
    r"""A row that is an equation number alone (set apart from its formula's rows by the page's white,
    "(3)" between two rows of a two-column paper's display) is the number of the row above it, else
    of the row below: ``\qquad (3)`` beside that row, not a row of its own."""
    out = list(rows)
    for k in [k for k, row in enumerate(rows) if _NUMBER_ALONE.fullmatch(row[0])][::-1]:
        if len(out) < 2:
            break
        near = k - 1 if k > 0 and r"\qquad (" not in out[k - 1][0] else k + 1 if k + 1 < len(out) else k - 1
        tex, x, x0, x1 = out[near]
        out[near] = (numbered(tex, rows[k][0][1:-1]), x, x0, x1)
        del out[k]
    return out


def stacked(rows: list[tuple[str, float | None, float, float]]) -> str:
    """One formula of a block's rows: ``(tex, relation_x, x0, x1)`` each, top to bottom."""
    rows = _numbers_placed(rows)
    if len(rows) == 1:
        return rows[0][0]
    xs = [x for _, x, _, _ in rows if x is not None]
    common = max(xs, key=lambda x: sum(abs(y - x) <= _SAME_X for y in xs)) if xs else None
    # aligned: two rows or more with their first relation there, or one and every other row set right
    # of it (a right-hand side continued: "+\bigg(..\bigg)" under "\varepsilon(k+1) = ..")
    if common is None or sum(abs(y - common) <= _SAME_X for y in xs) < 2 and not all(
            x0 >= common - _SAME_X for _, x, x0, _ in rows if x is None or abs(x - common) > _SAME_X):
        return r"\begin{gathered}" + r" \\ ".join(tex for tex, _, _, _ in rows) + r"\end{gathered}"
    out = []
    for tex, x, x0, x1 in rows:
        at = _first_relation(tex) if x is not None and abs(x - common) <= _SAME_X else None
        if at is not None:
            out.append(f"{tex[:at]}&{tex[at:]}")
        elif x0 < common - _SAME_X and x1 <= common + _SAME_X:
            out.append(tex + "&")  # (a row ending at the relations: a left-hand side alone)
        else:
            out.append("&" + tex)  # (a row set right of them: a right-hand side continued)
    return r"\begin{aligned}" + r" \\ ".join(out) + r"\end{aligned}"
