"""The columns of a table drawn as a grid: cells walled by rules, as a word processor or a spreadsheet
draws a table with borders (LibreOffice Writer and Calc, Word, Excel).

There the rules say where the columns part, whatever the cells hold: a left-aligned head over
right-aligned numbers leaves no gap that tells them one column (Writer's default: heads flush
left, numbers flush right in cells of equal width), and a head that fills its cell ("HumanEval")
stands closer to the next head ("ARC") than any gutter the text alone would show. A walled
stretch holding one cell per row is one column; one holding several (``|l|cccc|``: columns
parted by white space between two walls) is cut by its text as any table is."""
from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_grid import columns

SAME_WALL = 1.5  # points: segments of one column rule drawn cell by cell
OUTER = 0.9  # of the table's height: the grid's outer walls run its whole height
INNER = 0.5  # an inner wall may stop at merged cells (a head over two columns)


def grid_walls(verticals: list[Rule], top: float, bottom: float, x0: float, x1: float) -> list[float] | None:
    """The x of each wall of the table ``top``..``bottom``, ``x0``..``x1``, left to right, when it is
    walled at both sides with one inner wall at least; None otherwise."""
    height = bottom - top
    if height <= 0:
        return None
    walls: list[list[float]] = []  # [x, the length of rule drawn there inside the table]
    for r in sorted((r for r in verticals if x0 - 3 < (r.x0 + r.x1) / 2 < x1 + 3 and r.y1 > top and r.y0 < bottom),
                    key=lambda r: r.x0 + r.x1):
        x, cover = (r.x0 + r.x1) / 2, min(r.y1, bottom) - max(r.y0, top)
        if walls and x - walls[-1][0] < SAME_WALL:
            walls[-1][1] += cover
        else:
            walls.append([x, cover])
    walls = [w for w in walls if w[1] >= INNER * height]
    if len(walls) < 3 or min(walls[0][1], walls[-1][1]) < OUTER * height:
        return None
    return [w[0] for w in walls]


def walled_columns(walls: list[float], rows: list[list[Fragment]], head: int) -> list[tuple[float, float]] | None:
    """Column extents (each its text's, inside its walls) of ``rows`` between ``walls``; None when
    text lies outside the outer walls or fewer than two columns hold text."""
    if not any(rows) or any(not walls[0] < f.cx < walls[-1] for row in rows for f in row):
        return None
    cols: list[tuple[float, float]] = []
    for a, b in pairwise(walls):
        inside = [[f for f in row if a < f.cx < b] for row in rows]
        kept = [k for k, row in enumerate(inside) if row]
        if not kept:
            continue
        if all(len(inside[k]) == 1 for k in kept):
            found = None
        else:
            found = columns([inside[k] for k in kept], sum(1 for k in kept if k < head))
            # (columns parted by white between two walls have a cell in most rows; the words of a
            # justified paragraph cell, cut at its stretched spaces, fill few: "Number" "of" "member")
            if found and any(2 * sum(1 for k in kept if any(c0 <= f.cx <= c1 for f in inside[k])) < len(kept)
                             for c0, c1 in found):
                found = None
        cells = [f for k in kept for f in inside[k]]
        for c0, c1 in found or [(min(f.x0 for f in cells), max(f.x1 for f in cells))]:
            cols.append((max(a, c0), min(b, c1)))
    return cols if len(cols) >= 2 else None


def across_undrawn_wall(walls: list[float], verticals: list[Rule]) -> Callable[[Fragment], bool]:
    """Does a fragment cross one of the grid's ``walls`` where its own row draws none? Then it is one
    cell over the columns on both sides (``\\multicolumn{3}{c|}{Train Data - Train Centroids}`` over
    the walls of the body under it), not cut at its spaces (``table_grid.split_on_columns``)."""
    def across(f: Fragment) -> bool:
        return any(f.x0 < x < f.x1 and not any(abs((r.x0 + r.x1) / 2 - x) < SAME_WALL and r.y0 < f.cy < r.y1
                                               for r in verticals) for x in walls)
    return across
