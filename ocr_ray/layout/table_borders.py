"""How word processors, spreadsheets and report writers draw a table's borders, as far as finding the
table goes: each cell's border drawn by itself, and grids walled by column rules."""
from __future__ import annotations

import re

from ocr_ray.layout.model import Fragment, Rule

# Cell borders drawn cell by cell (Word, Excel, InDesign tables) overlap the next cell's by up to a
# border's width: one line across the table, not two tables side by side.
BORDER_OVERLAP = 2.5
# A ruled grid (rows walled by column rules) ends at its last walled row: a stretch between two of its
# rule lines with no column rule across it, this many times its tallest walled row (at least
# ``MIN_ROW`` pt), is not its row (the page's footer rule, as wide as the table, under the text that
# follows it).
UNWALLED_STRETCH = 4.0
MIN_ROW = 10.0
# A report's title set in a table's frame is larger than the table's text, its notes smaller (a
# ``\multicolumn`` head across a LaTeX table is set at the table's size: a head, kept).
TITLE_SIZE = 1.1
NOTE_SIZE = 0.95
# a table's caption as report writers number it: "Table 2.2:", "Table A-2.", "Exhibit 19"
TABLE_CAPTION = re.compile(r"(Table|Exhibit)\s+[A-Z]?-?\d+([.-]\d+)*[.:]?(\s|$)")


def wall_across(verticals: list[Rule], above: Rule, below: Rule) -> bool:
    """Does a column rule inside the table (not at its outer edges) run from ``above`` to ``below``?"""
    x0, x1 = min(above.x0, below.x0), max(above.x1, below.x1)
    return any(x0 + 3 < (r.x0 + r.x1) / 2 < x1 - 3 and r.y0 <= above.y1 + 2 and r.y1 >= below.y0 - 2 for r in verticals)


def _open(verticals: list[Rule], above: Rule, below: Rule) -> bool:
    """Does no rule at all, not even the outer walls, run from ``above`` to ``below``?"""
    x0, x1 = min(above.x0, below.x0), max(above.x1, below.x1)
    return not any(x0 - 3 < (r.x0 + r.x1) / 2 < x1 + 3 and r.y0 <= above.y1 + 2 and r.y1 >= below.y0 - 2 for r in verticals)


def unwalled_stretches(group: list[Rule], verticals: list[Rule]) -> set[int]:
    """Indices ``k`` of the stretches ``group[k]``..``group[k + 1]`` (rule lines top to bottom) that are
    no row of a walled grid: no column rule across them and far taller than its walled rows, or no rule
    across them at all, its outer walls stopping at both ends (the white between two grids of one width
    stacked, a heading set in it: eu-003's three tables). A group with no walled row (booktabs, rules
    only across) has none."""
    pairs = list(zip(group, group[1:], strict=False))
    walls = [wall_across(verticals, above, below) for above, below in pairs]
    rows = [below.y0 - above.y1 for (above, below), wall in zip(pairs, walls, strict=True) if wall]
    if not rows:
        return set()
    limit = UNWALLED_STRETCH * max(max(rows), MIN_ROW)
    return {k for k, ((above, below), wall) in enumerate(zip(pairs, walls, strict=True))
            if not wall and (below.y0 - above.y1 > limit or below.y0 - above.y1 > 2 and _between_grids(walls, k)
                             and _open(verticals, above, below))}


def _between_grids(walls: list[bool], k: int) -> bool:
    """Is stretch ``k`` between two walled rows, the white that parts two grids stacked? A head or body
    stretch at a group's end is not (a booktabs table's, whose \\multicolumn heads drop the walls)."""
    return 0 < k < len(walls) - 1 and walls[k - 1] and walls[k + 1]


def titles_out(rows: list[list[Fragment]], grid: list[list[tuple[str, int]]], head: int, columns: int,
               inner: list[Rule]) -> tuple[list[list[Fragment]], list[list[tuple[str, int]]], int, list[tuple[float, float]]]:
    """A report's title ("Exhibit 19", the table's caption) set in the table's frame above its heads, and
    its notes ("Note: ...", footnotes) set in it under the body: leading rows of one cell across every
    column, trailing rows of one cell from the first column over two or more (the rest empty), are
    text by the table, not its rows (olmOCR reads a table's top row as its heads). A group label over
    some columns is a head, not a title. Only in a grid walled by column rules (``inner``: the table's
    rules between its columns), for a row no column rule crosses, a title set larger than the table's
    text and a note smaller (``TITLE_SIZE``, ``NOTE_SIZE``): a ``\multicolumn`` head across a LaTeX
    table is its first row, as the source sets it. A leading row that is a caption ("Table 2.2: Number of
students ...", set inside the table's rules by a word processor) is text by the table in any table. Returns the rows and grid without them, the header rows left, and the y extents of the
    rows taken out (their text stays on the page)."""
    sizes = sorted(f.size for row in rows for f in row)
    body = sizes[len(sizes) // 2] if sizes else 0.0

    def unwalled(k: int) -> bool:
        if not rows[k]:
            return False
        y0, y1 = min(f.y0 for f in rows[k]), max(f.y1 for f in rows[k])
        return bool(inner) and not any(r.y0 < y1 - 1 and r.y1 > y0 + 1 for r in inner)

    def across(k: int) -> bool:  # one cell across every column
        return columns >= 2 and len(grid[k]) == 1 and grid[k][0][1] == columns and bool(grid[k][0][0].strip())

    def title(k: int) -> bool:  # set larger than the table's text; or a caption, in any table
        return across(k) and (unwalled(k) and min(f.size for f in rows[k]) >= TITLE_SIZE * body
                               or bool(TABLE_CAPTION.match(grid[k][0][0].strip())))

    def note(k: int) -> bool:  # or one from the first column over two or more, the rest empty; set smaller
        return ((across(k) or grid[k][0][1] >= 2 and bool(grid[k][0][0].strip())
                 and not any(text.strip() for text, _ in grid[k][1:]))
                and unwalled(k) and max(f.size for f in rows[k]) <= NOTE_SIZE * body)

    first, last = 0, len(grid)
    while first < last - 2 and title(first):
        first += 1
    while last - 2 > first and note(last - 1):
        last -= 1
    kept = [(min(f.y0 for f in rows[k]), max(f.y1 for f in rows[k])) for k in [*range(first), *range(last, len(grid))]
            if rows[k]]
    return rows[first:last], grid[first:last], max(0, head - first), kept
