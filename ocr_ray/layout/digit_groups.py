"""Numbers set in maths with commas between their digit groups: ``$1,203,384$``.

TeX sets a maths comma as punctuation, a thin space (3 mu, 0.17 em) after it, and PDFium puts a
space there: "1, 203, 384" matched no table cell "1,203,384" (the number as its source spells it).
``pdftext`` notes each space after a comma set in a maths font, between two digits and narrower
than a word space; the space is dropped where it parts a number's thousands (1 to 3 digits before
the first comma, not after a decimal point, exactly 3 digits after each comma). A list of numbers
(``$[0, 1]$``, ``$(0.5, 2)$``) keeps its spaces: TeX prints the same thin space whatever the source
wrote between the items, and a reader writes a list with spaces.
"""
from __future__ import annotations

import re

# A maths comma's thin space (3 mu plus the glyphs' side bearings) is narrower than this (font sizes).
THIN_SPACE = 0.4

_BEFORE = re.compile(r"(?:^|[^\d.,])\d{1,3}(?:,\d{3})*,$")
_AFTER = re.compile(r"\d{3}(?![\d.])")


def join_thousands(chars: list[str], gaps: list, thin: list[int]) -> None:
    """Drop, in place, the spaces at ``thin`` (indexes into ``chars``; ``gaps`` holds one entry per
    space of ``chars``, in order) that part a number's digit groups; ``thin`` is emptied."""
    for at in sorted(thin, reverse=True):
        text = "".join(chars)
        if chars[at] != " ":
            continue
        head = text[:at].replace(", ", ",")  # an earlier group's space, maybe dropped too
        if _BEFORE.search(head) and _AFTER.match(text, at + 1):
            del gaps[chars[:at].count(" ")]
            del chars[at]
    thin.clear()
