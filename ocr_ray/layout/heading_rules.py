"""What a heading is besides its type (``blocks._heading_level`` judges its size and weight): the
words of a line set in a heading's type and the place of its run of lines. A sentence fragment, a
proof's first line or a revision stamp in large or bold type is no heading (issue 36)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol


class Box(Protocol):
    x0: float
    y0: float
    x1: float
    y1: float


# a sentence ending inside the line and another starting ("Proof. Let x be ..."): a paragraph's
# first line; the word before the stop has three letters at least ("vs. Baselines" is a heading)
_SENTENCE_INSIDE = re.compile(r"[A-Za-z][a-z]{2,}\.\s+[A-Z][a-z]")
_LOWER_WORD = re.compile(r"^[a-z]{2,}\b(?![-'])")  # "every sentence ..." (not "k-means", "iOS", "t-SNE")


def reads_as_heading(text: str) -> bool:
    """What a heading's words look like, whatever its type (its section number taken off): it does
    not start with a lowercase word (that continues a sentence from the line before), introduces
    nothing (no closing colon: the lead-in of a display or a list, "Proof of Lemma 2:"), holds no
    sentence end followed by another, and has more letters than digits (a revision or date stamp,
    "Revision 3 -- 2024-03-03 14:22:05")."""
    text = text.strip()
    if _LOWER_WORD.match(text) or text.endswith(":") or _SENTENCE_INSIDE.search(text):
        return False
    return sum(c.isalpha() for c in text) > sum(c.isdigit() for c in text)


def ends_its_column(lines: Sequence[Box], last: int) -> bool:
    """No line below ``lines[last]`` in its column (lines overlapping it horizontally): a heading is
    kept with what it heads (TeX never breaks a column or page after one; word processors keep a
    heading with its next line), so an unnumbered run of lines in large type that ends its column
    is a paragraph that the column's end broke off (``blocks`` asks it of unnumbered runs only: a
    section number is evidence of its own)."""
    line = lines[last]
    return not any(other.y0 >= line.y1 - 1 and other.x0 < line.x1 and other.x1 > line.x0
                   for other in lines[last + 1:])
