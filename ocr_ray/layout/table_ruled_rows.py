"""The rows of a grid that rules each of its rows: a word processor's or a spreadsheet's table with
borders (Word, Excel, InDesign, LibreOffice: a rule under every row, the cells walled by column
rules). There a row is what lies between two horizontal rules, however many lines its cells take:
a head that wrapped ("Market shares in" / "volume (1996)", "Total Costs" / "All Funds") or a label
that wrapped ("Maison du Café" / "(Douwe Egberts)") is one cell of one row, not two rows. The text
alone cannot tell a wrapped head from a second header row (both are lines of words under words),
the drawing can: the second header row has its own rule over it.

Only where the drawing says that each row is ruled: the table is walled (``table_walls.grid_walls``)
and most of the stretches between its horizontal rules hold one line (a table ruled every few rows,
bands of five, rules none of its rows one by one). A line that a rule crosses (a label set once
beside two rows that a partial rule parts, ``\\multirow`` beside ``\\cline``) is left to the rules
for such labels (``table_lines``). Under the header, a stretch each of whose lines fills every
column of the table is rows of data set without a rule between them, and stays so."""
from __future__ import annotations

from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_grid import bounds, column_of

# a rule's y within this many points of a line's box edge parts it from the next
EDGE = 1.0


def _rule_levels(rules: list[Rule], x0: float, x1: float, top: float, bottom: float) -> list[float]:
    """The y of each horizontal rule line over the table's columns (segments at one height: one line)."""
    ys = sorted((r.y0 + r.y1) / 2 for r in rules if r.horizontal and r.x0 < x1 and r.x1 > x0
                and top - 2 <= r.y0 <= bottom + 2)
    levels: list[float] = []
    for y in ys:
        if not levels or y - levels[-1] > EDGE:
            levels.append(y)
    return levels


def join_ruled_rows(rows: list[list[Fragment]], head: int, cols: list[tuple[float, float]],
                    rules: list[Rule]) -> tuple[list[list[Fragment]], int]:
    """``rows`` (lines, top to bottom) with the lines of each ruled stretch of a grid that rules its
    rows joined into one row (see the module's doc); the header rows left (``head``) counted again.
    The rows as they were where the grid does not rule its rows one by one."""
    if len(rows) < 3 or len(cols) < 2:
        return rows, head
    spans = [(min(f.y0 for f in row), max(f.y1 for f in row)) for row in rows]
    levels = _rule_levels(rules, cols[0][0], cols[-1][1], spans[0][0], spans[-1][1])
    if len(levels) < 3:
        return rows, head
    # each line's stretch: the index of the rule over it, None for a line a rule crosses
    stretch: list[int | None] = []
    for y0, y1 in spans:
        over = sum(1 for y in levels if y <= y0 + EDGE)
        crossed = any(y0 + EDGE < y < y1 - EDGE for y in levels)
        stretch.append(None if crossed or over == 0 or over == len(levels) else over)
    counts: dict[int, int] = {}
    for s in stretch:
        if s is not None:
            counts[s] = counts.get(s, 0) + 1
    if len(counts) < 3 or 2 * sum(1 for n in counts.values() if n == 1) < len(counts):
        return rows, head
    limits = bounds(cols)

    def full(row: list[Fragment]) -> bool:  # a cell in every column
        return len({column_of(limits, f.cx) for f in row}) == len(cols)

    out: list[list[Fragment]] = []
    new_head = 0
    k = 0
    while k < len(rows):
        end = k
        if stretch[k] is not None:
            while end + 1 < len(rows) and stretch[end + 1] == stretch[k]:
                end += 1
        group = rows[k:end + 1]
        if end > k and k >= head and all(full(row) for row in group):
            out += [list(row) for row in group]  # rows of data with no rule between them
            new_head += sum(1 for j in range(k, end + 1) if j < head)
        else:
            out.append(sorted((f for row in group for f in row), key=lambda f: f.x0))
            new_head += k < head
        k = end + 1
    return out, new_head
