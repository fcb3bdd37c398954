"""A table that rules each of its rows without column rules (a word processor's table with only its
horizontal borders: tabula-java's AnimalSounds.pdf from LibreOffice Writer; a ``\\hline`` after each
row of a LaTeX ``tabular`` with no ``|``): a row is all that lies between two of its rules, as in a
walled grid, however its cells wrap. A cell that broke a long word over two lines
("Parastratiosphecomyiastratiosph" "ecomyioides") or a hyphenated one ("Ring-" "dingding...") was a
row of its own under its row: the table had rows of one cell."""
from __future__ import annotations

from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_grid import bounds, column_of
from ocr_ray.layout.table_rule_lines import line_extent

ACROSS = 0.9  # share of the table's width a row rule runs
# a row's first line in three columns at least: a two-column table of a label and lines of text ruled
# between its entries (a paper's table of prompts, miniacongts) sets a line a row in its source
MIN_COLUMNS = 3


def _rule_heights(rules: list[Rule], x0: float, x1: float) -> list[float]:
    """The heights of the horizontal rule lines across ``x0``..``x1`` (pieces at one height joined)."""
    out: list[float] = []
    for y in sorted({round(r.y0, 1) for r in rules if r.horizontal and r.x0 < x1 and r.x1 > x0}):
        a, b = line_extent(rules, y)
        if min(b, x1) - max(a, x0) >= ACROSS * (x1 - x0) and (not out or y - out[-1] > 1.0):
            out.append(y)
    return out


def rules_each_row(rows: list[list[Fragment]], head: int, cols: list[tuple[float, float]], rules: list[Rule],
                   x0: float, x1: float) -> bool:
    """Does the table rule each of its body rows (see the module)? Every body line lies between two
    rules across the table; in each stretch between two rules the first line has cells in three
    columns or more (``MIN_COLUMNS``), the lines under it in half as many at most (a cell's next lines; a line of a row's values
    under a label's row is a row of its own, as before); some stretch has such lines
    (else there is nothing to join); two stretches at least."""
    body = rows[head:]
    heights = _rule_heights(rules, x0, x1)
    if len(body) < 2 or len(heights) < 3:
        return False
    limits = bounds(cols)
    bands: dict[int, list[list[Fragment]]] = {}
    for row in body:
        cy = sum(f.cy for f in row) / len(row)
        k = next((k for k, (a, b) in enumerate(zip(heights, heights[1:], strict=False)) if a < cy < b), None)
        if k is None:
            return False
        bands.setdefault(k, []).append(row)
    wrapped = False
    for lines in bands.values():
        lines = sorted(lines, key=lambda row: min(f.cy for f in row))
        counts = [len({column_of(limits, f.x0 + 1) for f in row}) for row in lines]
        if counts[0] < MIN_COLUMNS or any(2 * c > counts[0] for c in counts[1:]):  # (a row's values under it: a row)
            return False
        wrapped |= len(lines) > 1
    return len(bands) >= 2 and wrapped
