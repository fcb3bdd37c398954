"""The rows of a grid that rules each of its rows: a word processor's or a spreadsheet's table with
borders (Word, Excel, InDesign, LibreOffice: a rule under every row, the cells walled by column
rules). There a row is what lies between two horizontal rules, however many lines its cells take:
a head that wrapped ("Market shares in" / "volume (1996)", "Total Costs" / "All Funds") or a label
that wrapped ("Maison du Café" / "(Douwe Egberts)") is one cell of one row, not two rows. The text
alone cannot tell a wrapped head from a second header row (both are lines of words under words),
the drawing can: the second header row has its own rule over it.

Only where the drawing says that each row is ruled: the table is walled (``table_walls.grid_walls``)
and most of the stretches between its horizontal rules hold one line, or lines a rule parts are set
further apart than lines of one stretch (a cell's padding under and over each rule: a table of text,
every row wrapped); a table ruled every few rows at one pitch, bands of five, rules none of its rows
one by one. A line that a rule crosses (a label set once
beside two rows that a partial rule parts, ``\\multirow`` beside ``\\cline``) is left to the rules
for such labels (``table_lines``). Under the header, a stretch each of whose lines fills every
column of the table is rows of data set without a rule between them, and stays so; where lines a rule
parts are set further apart (``_padded``), only lines that hold numbers are such rows (a table of
text's label and paragraph both wrapped fill both columns line after line)."""
from __future__ import annotations

from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_grid import bounds, column_of
from ocr_ray.layout.table_unruled import NUMBER
from ocr_ray.layout.table_walls import SAME_WALL

# lines of one ruled row set at most this share of the pitch of lines parted by a rule (a cell's padding)
PADDED = 0.8
# a rule's y within this many points of a line's box edge parts it from the next
EDGE = 1.0
# pieces of a wall drawn cell by cell leave up to this much between them (pt); a line's box may start
# as far above the piece beside it
CHAIN = 2.0


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
                    rules: list[Rule], walls: list[float]) -> tuple[list[list[Fragment]], int]:
    """``rows`` (lines, top to bottom) with the lines of each ruled stretch of a grid that rules its
    rows joined into one row (see the module's doc); the header rows left (``head``) counted again.
    The rows as they were where the grid does not rule its rows one by one."""
    if len(rows) < 3 or len(cols) < 2:
        return rows, head
    spans = [(min(f.y0 for f in row), max(f.y1 for f in row)) for row in rows]
    pad = max(f.y1 - f.y0 for f in rows[0])  # (the rule over the first line: a cell's padding above it)
    levels = _rule_levels(rules, cols[0][0], cols[-1][1], spans[0][0] - pad, spans[-1][1] + pad)
    if len(levels) < 2:
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
    padded = _padded(rows, stretch)
    if len(counts) < 3 or 2 * sum(1 for n in counts.values() if n == 1) < len(counts) and not padded:
        return _walled_head(rows, head, stretch, walls, rules)
    limits = bounds(cols)

    def full(row: list[Fragment]) -> bool:  # a cell in every column
        return len({column_of(limits, f.cx) for f in row}) == len(cols)

    def numbers(row: list[Fragment]) -> bool:  # a number right of the label column: a row of data
        return any(NUMBER.fullmatch(f.text.strip()) for f in row if column_of(limits, f.cx) > 0)

    out: list[list[Fragment]] = []
    new_head = 0
    k = 0
    while k < len(rows):
        end = k
        if stretch[k] is not None:
            while end + 1 < len(rows) and stretch[end + 1] == stretch[k]:
                end += 1
        group = rows[k:end + 1]
        if end > k and (k >= head and all(full(row) and (not padded or numbers(row)) for row in group)
                        or not _walled(list(range(k, end + 1)), rows, walls, rules)):
            out += [list(row) for row in group]  # rows of data with no rule between them; a title in the frame
            new_head += sum(1 for j in range(k, end + 1) if j < head)
        else:
            out.append(sorted((f for row in group for f in row), key=lambda f: f.x0))
            new_head += k < head
        k = end + 1
    return out, new_head


def _walled_head(rows: list[list[Fragment]], head: int, stretch: list[int | None], walls: list[float],
                 rules: list[Rule]) -> tuple[list[list[Fragment]], int]:
    """The header of a walled grid that does not rule its body rows one by one: its lines between two
    rules, every inner wall running through each of them, are the lines of one row of wrapped heads
    ("Total Costs" / "All Funds"). A group label over some columns has no wall through it: a header
    of two levels stays two rows."""
    first = stretch[0]
    lines = [k for k in range(head) if stretch[k] == first]
    if first is None or len(lines) < 2 or lines != list(range(len(lines))):
        return rows, head

    if not _walled(lines, rows, walls, rules):
        return rows, head
    joined = sorted((f for k in lines for f in rows[k]), key=lambda f: f.x0)
    return [joined, *rows[len(lines):]], head - len(lines) + 1


def _crossed(x: float, row: list[Fragment], rules: list[Rule]) -> bool:
    """Does the wall at ``x`` run through the line ``row`` (a wall drawn cell by cell: its pieces chained)?"""
    y0, y1 = min(f.y0 for f in row), max(f.y1 for f in row)
    reach = None
    for r in sorted((r for r in rules if r.vertical and abs((r.x0 + r.x1) / 2 - x) <= SAME_WALL), key=lambda r: r.y0):
        if reach is not None and r.y0 <= reach + CHAIN:
            reach = max(reach, r.y1)
        elif r.y0 <= y0 + CHAIN:
            reach = r.y1
    return reach is not None and reach >= y1 - CHAIN


def _walled(lines: list[int], rows: list[list[Fragment]], walls: list[float], rules: list[Rule]) -> bool:
    """Does every inner wall run through each of the lines ``lines`` of ``rows``: a row of the grid's
    cells, not a title set in its frame (no wall through it) nor a label over merged cells?"""
    return all(_crossed(x, rows[k], rules) for x in walls[1:-1] for k in lines)


def _padded(rows: list[list[Fragment]], stretch: list[int | None]) -> bool:
    """Are lines with a rule between them set further apart than lines between two rules (``PADDED``):
    each rule has a cell's padding over and under it, so the stretches are rows whose cells wrapped
    (a table of text, every row of several lines: "Books and" / "school supplies" beside a paragraph),
    not rows ruled every few lines at one pitch."""
    cys = [sorted(f.cy for f in row)[len(row) // 2] for row in rows]
    inner, across = [], []
    for k in range(1, len(rows)):
        if stretch[k] is None or stretch[k - 1] is None:
            continue
        (inner if stretch[k] == stretch[k - 1] else across).append(cys[k] - cys[k - 1])
    if not inner or not across:
        return False
    return sorted(inner)[len(inner) // 2] < PADDED * sorted(across)[len(across) // 2]
