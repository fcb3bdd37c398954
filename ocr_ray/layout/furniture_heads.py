"""A page style's head, known by the page number its foot says in words.

An office program prints a page style: a head and a foot on every page, centred on the page's box.
Calc's default prints the sheet's name as the head and "Page 1" as the foot; a sheet named by its
author ("Monthly", "Budget") is printed once per page, differently on each sheet, and no repetition
nor wording tells it (a default name, "Sheet1", reads as furniture: ``furniture_words.SHEET_NAME``).
The foot does: a page number said as one ("Page 1") in the bottom edge zone is a page style's, and a
head of one short piece centred on the same axis, alone in the top edge zone, is that style's head.
A paper's folio is a bare number, so no TeX page is touched; a title is bold or larger.
"""
from __future__ import annotations

from ocr_ray.layout.furniture_words import WORDED_NUMBER
from ocr_ray.layout.model import Fragment

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
