"""List and footnote labels hung at an indent (a word processor's tab), which the reading order must
not take for a column of their own."""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol


class Box(Protocol):
    x0: float
    y0: float
    x1: float
    y1: float


# A list's or a footnote's label set apart by a tab: a bullet, "1.", "a)", "(iv)", "[3]", "2.1", a
# footnote number. A word processor hangs the item's text at an indent (Writer and Word: 0.635 cm
# past the label's start), so labels and texts leave a white stripe wider than MIN_COLUMN_GAP down
# the whole list; TeX's \labelsep is 5 pt.
_LABEL = re.compile(r"^(?:[\u2022\u25e6\u25aa\u25ab\u2023\u2043\u2219\u00b7\u25cf\u25cb\u25a0\u25a1\u25ba\u25b6"
                    r"\u27a2\u2713\u2714\u2013\u2014*\-]|\(?\d{1,3}(?:\.\d{1,3})*[.)]?|\(?[A-Za-z][.)]"
                    r"|\(?[ivxlcIVXLC]{1,6}[.)]|\[\d{1,3}\])$")


# an item's text has words (a matrix's or a plot's numbers beside a column of digits are no list)
_WORD = re.compile(r"[^\W\d_]{2,}")


def labels_beside(members: Sequence[Box], lo: float, hi: float) -> bool:
    """Everything left of the gap ``lo``-``hi`` is a list's labels, each on a line whose text starts
    right of the gap with a word: a list hung at an indent, not a column (its labels were read as a column of
    their own before the items: "1. 2. 3. Approval ... Report ...")."""
    at = (lo + hi) / 2
    left = [b for b in members if (b.x0 + b.x1) / 2 < at]
    right = [b for b in members if (b.x0 + b.x1) / 2 >= at]
    if not left or not all(_LABEL.match(getattr(b, "text", "").strip()) for b in left):
        return False
    return all(any(min(a.y1, b.y1) - max(a.y0, b.y0) > 0.3 * min(a.y1 - a.y0, b.y1 - b.y0)
                   and b.x0 >= hi - 1.0 and _WORD.search(getattr(b, "text", "")) for b in right) for a in left)
