"""A review copy's line numbers (the ``lineno`` package: NeurIPS, ICML, CoRL and ACL review modes
number every line): a column of bare integers, consecutive (mostly) from top to bottom, beside lines
of text, that no other text on the page crosses and no table's rules close in (a table's row
numbers). Part of the furniture step (``ocr_ray.layout.furniture``), apart for its size.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from ocr_ray.layout.model import Fragment, PageLayout

_LINE_NUMBER = re.compile(r"^\d{1,4}$")
LINE_NUMBERS_MIN = 5  # numbers in one column of a page
LINE_NUMBER_X = 3.0  # points: numbers of one column end (right-aligned) or start at about the same x


def line_numbers(page: PageLayout) -> set[int]:
    """``id()`` of the fragments that are the page's line numbers (see the module's docstring)."""
    numbers = [f for f in page.fragments if _LINE_NUMBER.match(f.text)]
    if len(numbers) < LINE_NUMBERS_MIN:
        return set()
    found: set[int] = set()
    # line numbers number lines of text: the rows beside a column must hold something else than
    # bare numbers (a table of consecutive numbers, all columns of it, was dropped whole: tabula's
    # MultiColumn.pdf came out as an empty paper)
    text_rows = sorted(f.cy for f in page.fragments if not _LINE_NUMBER.match(f.text))
    columns: list[list[Fragment]] = []
    for f in sorted(numbers, key=lambda f: f.x1):  # right-aligned, as ``lineno`` sets them
        if columns and f.x1 - columns[-1][-1].x1 <= LINE_NUMBER_X:
            columns[-1].append(f)
        else:
            columns.append([f])
    for column in columns:
        if len(column) < LINE_NUMBERS_MIN:
            continue
        column.sort(key=lambda f: f.y0)
        values = [int(f.text) for f in column]
        steps = [b - a for a, b in zip(values, values[1:], strict=False)]
        # consecutive lines, with a skipped number now and then (a display equation, a figure)
        if sum(1 for s in steps if 1 <= s <= 3) < 0.8 * len(steps):
            continue
        if sum(bisect_right(text_rows, f.y1) > bisect_left(text_rows, f.y0) for f in column) < 0.5 * len(column):
            continue
        if page.source == "text-layer" and _table_column(page, column):
            continue
        x0, x1 = min(f.x0 for f in column), max(f.x1 for f in column)
        y0, y1 = column[0].y0, column[-1].y1
        members = {id(f) for f in column}
        # a number OCR misread ("s9" for 59, "6O") stands in the column as one of them: one word of
        # a number's length, ending where they end (not crossing the column, dropped with it)
        members |= {id(f) for f in page.fragments if id(f) not in members and _misread_number(f, column, x0, x1)}
        crossed = any(f.x0 < x1 and f.x1 > x0 and f.y1 > y0 and f.y0 < y1 for f in page.fragments
                      if id(f) not in members and not (page.source != "text-layer" and _joined_number(f, values, x0)))
        if not crossed and not ruled_over(page, x0, x1, y0, y1, 3 * (column[0].y1 - column[0].y0)):
            found |= members
    return found


# a table cell's size and its row's: within this share of each other (lineno sets its numbers \tiny)
SAME_SIZE = 0.15


def _table_column(page: PageLayout, column: list[Fragment]) -> bool:
    """Is ``column`` a table's column of numbers: on half of its rows or more, text in the numbers'
    own size on both sides of the number? A sheet's "Units" column (10, 13, 16 ... between the regions
    and the revenues, Calc's print) or a column of years steps like line numbers and was dropped as
    them, the table's column lost. Line numbers stand in a margin or a gutter, set smaller than the
    text (``lineno``'s \tiny): the text beside a gutter's numbers on both sides is larger than they
    are. Text-layer pages only: OCR gives a line number the body's size (``ocr_lines`` snaps sizes)."""
    def beside(f: Fragment, left: bool) -> bool:
        return any(g is not f and g.y0 < f.cy < g.y1 and abs(g.size - f.size) <= SAME_SIZE * f.size
                   and (g.x1 <= f.x0 if left else g.x0 >= f.x1) for g in page.fragments)
    return sum(beside(f, True) and beside(f, False) for f in column) >= 0.5 * len(column)


def _joined_number(f: Fragment, values: list[int], x0: float) -> bool:
    """On an OCR'd page, a line whose box opens with one of the column's numbers, at the column's left
    edge: OCR read the line's number into its line (a NeurIPS review copy scanned: "60 2 Method", the
    section's number a word space after it; "s9 an intermediate ...", misread). It crossed the column, and the whole column stayed, each
    number read into its line ("First, the more 62 similar two projections")."""
    first = f.text.split()[0] if len(f.text.split()) >= 2 else ""
    # or one OCR misread, as ``_misread_number`` knows them ("s9 an intermediate reconstruction ...")
    number = (_LINE_NUMBER.match(first) and min(values) <= int(first) <= max(values) + 3) or (
        not first.isdigit() and len(first) <= 3 and any(ch.isdigit() for ch in first))
    return bool(number) and abs(f.x0 - x0) <= LINE_NUMBER_X


def _misread_number(f: Fragment, column: list[Fragment], x0: float, x1: float) -> bool:
    """``f`` is one of the line numbers of ``column`` (x0..x1) that OCR misread: a word of at most
    four characters, a digit among them, ending with the column (within ``LINE_NUMBER_X``), inside its
    extent and its run of lines."""
    text = f.text.strip()
    return (len(text) <= 4 and " " not in text and any(ch.isdigit() for ch in text)
            and abs(f.x1 - x1) <= LINE_NUMBER_X and f.x0 >= x0 - LINE_NUMBER_X
            and column[0].y0 <= f.cy <= column[-1].y1)


def ruled_over(page: PageLayout, x0: float, x1: float, y0: float, y1: float, reach: float) -> bool:
    """Is the column x0..x1, y0..y1 under a table's rules: a horizontal rule across it above its first
    number and one below its last, each within a few rows (``reach``)? A table's row numbers (1, 2,
    3 ... down its first column) are; a review copy's line numbers, in the margin beside the text,
    never are (rules stay in the column, and no rule closes in a whole page's numbers)."""
    across = [r for r in page.rules if r.horizontal and r.x0 <= x0 + 1 and r.x1 >= x1 - 1]
    return any(y0 - reach <= r.y1 <= y0 + 1 for r in across) and any(y1 - 1 <= r.y0 <= y1 + reach for r in across)
