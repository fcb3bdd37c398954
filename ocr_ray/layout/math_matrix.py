"""Matrices and cases in a display: rows and columns of cells between tall delimiters.

A tall delimiter (at least ``TALL`` em) that holds two or more rows of glyphs at the formula's
size, with no fraction bar among them, encloses an array: its rows are the glyphs' baselines, its
columns the gaps (at least ``COLUMN_GAP`` em: amsmath's column separation is 2 x 5 pt, a cases
condition is a quad away) that run through every row. Paired delimiters give ``pmatrix``,
``bmatrix``, ``Bmatrix``, ``vmatrix``, ``Vmatrix``; a left brace with no right one, ``cases``.
Each cell is read by the math builder's own row reader (passed in: ``math`` imports this module).
"""
from __future__ import annotations

from collections.abc import Callable

from ocr_ray.layout.math_atoms import Atom
from ocr_ray.layout.math_symbols import EXTENSION_FONTS
from ocr_ray.layout.model import Rule

TALL = 1.8
COLUMN_GAP = 0.8
_ROW_MERGE = 0.35  # baselines this close (in em) are one row: a cell's scripts sit on their own
_CLOSING = {"(": ")", "[": "]", r"\{": r"\}", "|": "|", r"\|": r"\|"}
_ENVIRONMENTS = {"(": "pmatrix", "[": "bmatrix", r"\{": "Bmatrix", "|": "vmatrix", r"\|": "Vmatrix"}


def tall_delimiters(glyphs: list[list], size: float) -> list[tuple[float, float, float, float]]:
    """Boxes of the extension font's glyph stacks at least ``TALL`` em high: one big delimiter, or
    the pieces TeX builds a taller one from (top, extension, middle, bottom), touching in a column."""
    stacks: list[list[float]] = []
    for g in sorted((g for g in glyphs if g[7].upper().startswith(EXTENSION_FONTS)), key=lambda g: g[2]):
        stack = next((s for s in stacks if min(s[2], g[3]) - max(s[0], g[1]) > 0 and g[2] <= s[3] + 1.0), None)
        if stack is None:
            stacks.append([g[1], g[2], g[3], g[4]])
        else:
            stack[0], stack[2], stack[3] = min(stack[0], g[1]), max(stack[2], g[3]), max(stack[3], g[4])
    return [(x0, y0, x1, y1) for x0, y0, x1, y1 in stacks if y1 - y0 >= TALL * size]


def matrices(atoms: list[Atom], rules: list[Rule], size: float,
             read_row: Callable[[list[Atom], list[Rule]], str],
             spans: list[tuple[float, float, float, float]]) -> list[Atom]:
    """``atoms`` with each array between tall delimiters replaced by one atom of its LaTeX.
    ``spans``: ``tall_delimiters`` of the formula's glyphs; a delimiter built from pieces is read
    from its top piece alone, whose box is stretched here over the whole stack."""
    for a in atoms:
        if a.kind == "delim":
            span = next((s for s in spans if min(s[2], a.x1) - max(s[0], a.x0) > 0 and abs(s[1] - a.y0) < 1.0), None)
            if span is not None:
                a.y1 = max(a.y1, span[3])
    for left in sorted((a for a in atoms if a.kind == "delim" and a.tex in _CLOSING
                        and a.y1 - a.y0 >= TALL * size), key=lambda a: a.x0):
        if left not in atoms:
            continue
        height = left.y1 - left.y0
        right = next((a for a in sorted(atoms, key=lambda a: a.x0) if a is not left and a.kind == "delim"
                      and a.tex == _CLOSING[left.tex] and a.x0 >= left.x1
                      and min(a.y1, left.y1) - max(a.y0, left.y0) >= 0.7 * min(height, a.y1 - a.y0)), None)
        if right is None and left.tex != r"\{":
            continue
        end = right.x0 if right is not None else max(a.x1 for a in atoms)
        inside = [a for a in atoms if a is not left and a is not right and a.x0 >= left.x1 - 0.5
                  and a.x1 <= end + 0.5 and a.y0 >= left.y0 - 1.0 and a.y1 <= left.y1 + 1.0]
        # a fraction between the delimiters (\left( \frac{a}{b} \right)) stacks glyphs too: no array
        if not inside or any(r.x1 > left.x1 and r.x0 < end and left.y0 <= r.y0 <= left.y1 for r in rules):
            continue
        cells = _cells(inside, size)
        if cells is None:
            continue
        body = r" \\ ".join(" & ".join(read_row(cell, []) for cell in row) for row in cells)
        env = "cases" if right is None else _ENVIRONMENTS[left.tex]
        parts = [left, *inside] + ([right] if right is not None else [])
        taken = {id(a) for a in parts}
        x0, x1 = min(a.x0 for a in parts), max(a.x1 for a in parts)
        y0, y1 = min(a.y0 for a in parts), max(a.y1 for a in parts)
        # TeX centres an array on the maths axis, a quarter em above the baseline
        atoms = [a for a in atoms if id(a) not in taken] + [
            Atom(rf"\begin{{{env}}}{body}\end{{{env}}}", x0, y0, x1, y1, (left.y0 + left.y1) / 2 + 0.25 * size,
                 size, "box")]
    return _bare_matrix(atoms, rules, size, read_row)


def _bare_matrix(atoms: list[Atom], rules: list[Rule], size: float,
                 read_row: Callable[[list[Atom], list[Rule]], str]) -> list[Atom]:
    """An array with no delimiters (``\\begin{matrix}``): glyphs at the formula's size set one over
    another a line apart, with no fraction bar over that stretch, are its cells (they were one
    row in x order, "acdb"). Scripts and limits are smaller; a fraction has its bar."""
    full = [a for a in atoms if a.size >= 0.9 * size and a.kind not in ("op", "delim", "radical", "box")]
    stacked = [a for a in full if any(b is not a and min(a.x1, b.x1) - max(a.x0, b.x0) > 0
                                      and abs(a.base - b.base) >= 0.8 * size for b in full)]
    if len(stacked) < 2:
        return atoms
    x0, x1 = min(a.x0 for a in stacked), max(a.x1 for a in stacked)
    y0, y1 = min(a.y0 for a in stacked), max(a.y1 for a in stacked)
    if any(r.x1 > x0 and r.x0 < x1 and y0 - 1.0 <= r.y0 <= y1 + 1.0 for r in rules):
        return atoms
    inside = [a for a in atoms if a.x0 >= x0 - 0.5 and a.x1 <= x1 + 0.5 and a.y0 >= y0 - 0.5 * size
              and a.y1 <= y1 + 0.5 * size]
    if any(a.kind in ("op", "delim", "radical", "box") for a in inside):
        return atoms
    cells = _cells(inside, size)
    if cells is None:
        return atoms
    body = r" \\ ".join(" & ".join(read_row(cell, []) for cell in row) for row in cells)
    taken = {id(a) for a in inside}
    return [a for a in atoms if id(a) not in taken] + [
        Atom(rf"\begin{{matrix}}{body}\end{{matrix}}", x0, y0, x1, y1, (y0 + y1) / 2 + 0.25 * size, size, "box")]


def _cells(inside: list[Atom], size: float) -> list[list[list[Atom]]] | None:
    """Rows (top to bottom) of columns (left to right) of atoms, or None for fewer than two rows."""
    bases = sorted(a.base for a in inside if a.size >= 0.9 * size and a.kind not in ("op", "delim", "radical"))
    rows: list[float] = []
    for base in bases:
        if not rows or base - rows[-1] > _ROW_MERGE * size:
            rows.append(base)
    if len(rows) < 2:
        return None
    grid: list[list[Atom]] = [[] for _ in rows]
    for a in inside:
        grid[min(range(len(rows)), key=lambda k: abs(rows[k] - a.base))].append(a)
    # columns: gaps free of glyphs in every row at once
    spans = sorted((a.x0, a.x1) for a in inside)
    cuts: list[float] = []
    reach = spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - reach >= COLUMN_GAP * size:
            cuts.append((x0 + reach) / 2)
        reach = max(reach, x1)
    return [[[a for a in row if (k == 0 or a.cx >= cuts[k - 1]) and (k == len(cuts) or a.cx < cuts[k])]
             for k in range(len(cuts) + 1)] for row in grid]
