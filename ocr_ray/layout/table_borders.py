"""How word processors, spreadsheets and report writers draw a table's borders, as far as finding the
table goes: each cell's border drawn by itself, and grids walled by column rules."""
from __future__ import annotations

from ocr_ray.layout.model import Rule

# Cell borders drawn cell by cell (Word, Excel, InDesign tables) overlap the next cell's by up to a
# border's width: one line across the table, not two tables side by side.
BORDER_OVERLAP = 2.5
# A ruled grid (rows walled by column rules) ends at its last walled row: a stretch between two of its
# rule lines with no column rule across it, this many times its tallest walled row (at least
# ``MIN_ROW`` pt), is not its row (the page's footer rule, as wide as the table, under the text that
# follows it).
UNWALLED_STRETCH = 4.0
MIN_ROW = 10.0


def walled(verticals: list[Rule], above: Rule, below: Rule) -> bool:
    """Does a column rule inside the table (not at its outer edges) run from ``above`` to ``below``?"""
    x0, x1 = min(above.x0, below.x0), max(above.x1, below.x1)
    return any(x0 + 3 < (r.x0 + r.x1) / 2 < x1 - 3 and r.y0 <= above.y1 + 2 and r.y1 >= below.y0 - 2 for r in verticals)


def unwalled_stretches(group: list[Rule], verticals: list[Rule]) -> set[int]:
    """Indices ``k`` of the stretches ``group[k]``..``group[k + 1]`` (rule lines top to bottom) that are
    no row of a walled grid: no column rule across them and far taller than its walled rows. A group
    with no walled row (booktabs, rules only across) has none."""
    pairs = list(zip(group, group[1:], strict=False))
    walls = [walled(verticals, above, below) for above, below in pairs]
    rows = [below.y0 - above.y1 for (above, below), wall in zip(pairs, walls, strict=True) if wall]
    if not rows:
        return set()
    limit = UNWALLED_STRETCH * max(max(rows), MIN_ROW)
    return {k for k, ((above, below), wall) in enumerate(zip(pairs, walls, strict=True))
            if not wall and below.y0 - above.y1 > limit}
