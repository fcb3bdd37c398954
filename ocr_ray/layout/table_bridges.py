"""Two columns joined by one cell that bridges their gutter: a table's columns are the union of its
cells' extents (``table_grid.columns``), so a single cell reaching across the white between two
columns (a note under the body set from the label column into the first column of numbers, "See
notes at end of table."; a year over a group of columns, "2007", left of its middle; a bold total
wider than the numbers under it) made one column of the two, and every row read its label and its
first number as one cell ("United States 2,753,438", "(4.7) Ref.").

Row after row holding two cells side by side inside such a column is the proof that it is two: the
column is cut where the fewest cells cross, those being the bridges (they stay spanning cells, read
by ``table_cells.row_grid`` over the columns they reach), and each part is cut again (a section's
heading in the last row reaching from the label column over two gutters: eu-001)."""
from __future__ import annotations

# rows holding a cell wholly left and one wholly right of the cut: at least this many, and this
# share of the rows with a cell in the column; the cells crossing the cut at most this share of them
MIN_PAIRS = 3
PAIR_SHARE = 0.5
BRIDGE_SHARE = 0.2


def _cut(cells: list[tuple[float, float, int]]) -> tuple[float, float, float] | None:
    """(left end, cut, right start) of the best cut of one column's cells (x0, x1, row), or None."""
    rows = {r for _, _, r in cells}
    best = None
    for x in sorted({x1 for _, x1, _ in cells}):
        left = {r for a, b, r in cells if b <= x}
        right = {r for a, b, r in cells if a >= x}
        pairs = len(left & right)
        crossing = sum(1 for a, b, _ in cells if a < x < b)
        if pairs < MIN_PAIRS or pairs < PAIR_SHARE * len(rows) or crossing > BRIDGE_SHARE * pairs:
            continue
        if best is None or (pairs, -crossing) > best[0]:
            ends = [b for a, b, _ in cells if b <= x]
            starts = [a for a, b, _ in cells if a >= x]
            best = ((pairs, -crossing), (max(ends), x, min(starts)))
    return best[1] if best else None


def split_bridged(cols: list[list[float]], cells: list[tuple[float, float, int]]) -> list[list[float]]:
    """``cols`` (column extents, left to right) with each column that holds two columns bridged by a
    few cells (see the module's doc) cut in two; ``cells``: every kept cell as (x0, x1, row)."""
    out: list[list[float]] = []
    for c0, c1 in cols:
        inside = [(a, b, r) for a, b, r in cells if a >= c0 - 0.5 and b <= c1 + 0.5]
        cut = _cut(inside)
        if cut is None:
            out.append([c0, c1])
            continue
        end, _, start = cut
        out += split_bridged([[c0, end], [start, c1]], inside)  # (a cell may bridge three columns)
    return out
