"""A page style's head: known by the page number its foot says in words, or set flush right.

An office program prints a page style: a head and a foot on every page, centred on the page's box.
Calc's default prints the sheet's name as the head and "Page 1" as the foot; a sheet named by its
author ("Monthly", "Budget") is printed once per page, differently on each sheet, and no repetition
nor wording tells it (a default name, "Sheet1", reads as furniture: ``furniture_words.SHEET_NAME``).
The foot does: a page number said as one ("Page 1") in the bottom edge zone is a page style's, and a
head of one short piece centred on the same axis, alone in the top edge zone, is that style's head.
A paper's folio is a bare number, so no TeX page is touched; a title is bold or larger.

A head set flush right, alone in the top edge zone, is a running head too, with no foot to vouch for
it: Writer's and Word's header paragraph aligned right ("Harbour Rowing Club · Board minutes" over
a memo), a report's title over each spread ("2023 Environmental Report", 12 pt over 10 pt text and
38 pt headings). A title or a heading starts at the left or is centred; a date there is a date stamp
(``furniture._date_stamp``). A page written right to left sets every line flush right: none is a head.
"""
from __future__ import annotations

import unicodedata

from ocr_ray.layout.furniture_words import STAMP_WORDS, WORDED_NUMBER, WORDED_SIZE
from ocr_ray.layout.model import Fragment, PageLayout

HEAD_WORDS = 4  # a sheet's or document's name: a few words
SAME_AXIS = 2.0  # points: the head's and the foot's centres, both centred on the page's box


def styled_head(zones: list[list[list[Fragment]]], body: float, slack: float) -> list[Fragment]:
    """The top zone's one piece when it is the head of the page style whose foot says its page
    number in words (``slack``: a head's size at most, in body sizes)."""
    if len(zones) < 2 or len(zones[0]) != 1 or len(zones[0][0]) != 1:
        return []
    head = zones[0][0][0]
    words = head.text.split()
    if not 0 < len(words) <= HEAD_WORDS or head.bold or head.size > slack * body or head.math >= 0.3:
        return []
    numbers = [f for row in zones[1] for f in row if WORDED_NUMBER.match(f.text.strip())
               and f.text.strip().lower().startswith("page")]
    return [head] if any(abs(f.cx - head.cx) <= SAME_AXIS for f in numbers) else []


def flush_head(page: PageLayout, zones: list[list[list[Fragment]]], extent: tuple[float, float] | None,
               body: float, slack: float) -> list[Fragment]:
    """The top zone's one row when it is a head set flush right: a few words, not bold, starting
    right of the body's middle and ending at its right edge or beyond (a report's head stands over
    its folio, past the text's edge), in body size (``slack``) or, under a larger heading on the page,
    up to ``WORDED_SIZE`` (a title is the page's largest text)."""
    if extent is None or not zones or len(zones[0]) != 1:
        return []
    row = sorted(zones[0][0], key=lambda f: f.x0)
    left, right = extent
    # one line of words, its pieces (a change of font) a word space apart: a chart's legend at the top
    # of a page ("1st  2nd  3rd  Unit Tests  Edit Distance") is pieces set ems apart
    if any(b.x0 - a.x1 > max(a.size, b.size) for a, b in zip(row, row[1:], strict=False)):
        return []
    text = " ".join(f.text for f in row)
    if not 0 < len(text.split()) <= STAMP_WORDS or any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
        return []
    size = max(f.size for f in row)
    larger = any(f.size > size for f in page.fragments)
    if any(f.bold or f.math >= 0.3 for f in row) or size > (WORDED_SIZE if larger else slack) * body:
        return []
    flush = min(f.x0 for f in row) > (left + right) / 2 and max(f.x1 for f in row) >= right - 4
    return row if flush else []


MENU_ITEMS = 3  # a navigation bar's links at least
MENU_WORDS = 3  # words of one link at most ("Opening hours", "About us")


def menu(pieces: list[Fragment]) -> bool:
    """Are ``pieces`` (left to right, one row) a web page's menu as a browser prints it: three short
    links or more, each a piece of its own, set apart by more than a word space (a line of prose is
    one piece; a table's header row is under a rule or over rows of its columns, no edge row)."""
    return len(pieces) >= MENU_ITEMS and all(len(f.text.split()) <= MENU_WORDS for f in pieces) and all(
        b.x0 - a.x1 >= 0.5 * max(a.size, b.size) for a, b in zip(pieces, pieces[1:], strict=False))
