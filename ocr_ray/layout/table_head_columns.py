"""A column head set flush left in its cell over numbers set flush right (issue 36, tables11rw).

Word, Writer, Excel and report writers align a column's head to the cell's left edge (text) and its
numbers to the right edge (numbers). In a table without walls the head ("Revenue") and the numbers
under it ("2,481.3", "874.5") then share no x: the columns taken from the cells' extents are two, one
holding the head alone and one holding the numbers alone, and every row reads a blank cell between its
numbers ("| North East |  | 14 |  | 2,481.3 |"). TeX centres or right-aligns a head over its column of
numbers, so papers never show it; government statistics and office reports do on every page.

The cue on the page: two neighbouring columns whose texts never stand in one row, every text of one
above every text of the other. Those are one column: its head over its body. A column whose texts share
a row with its neighbour's is a column of its own, however it is aligned; a head that spans columns is
none of this (it lies across two columns, in neither).
"""
from __future__ import annotations

from ocr_ray.layout.model import Fragment


def _rows_in(rows: list[list[Fragment]], cols: list[tuple[float, float]]) -> list[set[int]]:
    """For each column, the rows that have a fragment within it (one that lies across two columns
    is in neither: a spanning head says nothing of where a column's own head sits)."""
    out: list[set[int]] = [set() for _ in cols]
    for r, row in enumerate(rows):
        for f in row:
            under = [k for k, (a, b) in enumerate(cols) if f.x0 < b - 0.5 and f.x1 > a + 0.5]
            if len(under) == 1:
                out[under[0]].add(r)
    return out


def _head_over(upper: set[int], lower: set[int]) -> bool:
    """Are the texts of one column (``upper``'s rows) a head over the other's (``lower``'s rows):
    every one of them in a row above every row of the other, and the other has a body (two rows)?"""
    return bool(upper) and len(lower) >= 2 and max(upper) < min(lower)


def join_head_columns(rows: list[list[Fragment]], cols: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``cols`` with each column holding only a head joined to the neighbour holding only its body
    (the right one first: a head flush left over numbers flush right; then the left one). A table
    left with fewer than two columns keeps its columns (no table of one column is made here)."""
    if len(cols) < 3:
        return cols
    rows_in = _rows_in(rows, cols)
    joined: set[int] = set()  # k: columns k and k + 1 are one
    taken: set[int] = set()
    for step in (1, -1):
        for k in range(len(cols)):
            other = k + step
            if k in taken or not 0 <= other < len(cols) or other in taken:
                continue
            if _head_over(rows_in[k], rows_in[other]):
                joined.add(min(k, other))
                taken |= {k, other}
    if not joined:
        return cols
    out: list[tuple[float, float]] = []
    k = 0
    while k < len(cols):
        if k in joined:
            out.append((cols[k][0], cols[k + 1][1]))
            k += 2
        else:
            out.append(cols[k])
            k += 1
    return out if len(out) >= 2 else cols
