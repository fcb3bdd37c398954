"""What makes a line a heading: its type (``heading_level``: size and weight against the body's),
the words of a line set in a heading's type and the place of its run of lines set alike
(``same_run``). A sentence fragment, a proof's first line or a revision stamp in large or bold type is
no heading (issue 36). ``blocks`` asks these, guarded, line by line."""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from ocr_ray.layout.display_lines import Line


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


WORDLIKE = re.compile(r"[^\W\d_]{2,}")  # two letters in a row: a word, not a formula's single letters
NUMBERED = re.compile(r"^(\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\.?\s+\S")


# How far a line's box may reach into the box of the line above it, in ems: LibreOffice's and
# Word's glyph boxes (Liberation Serif's ascent and descent) overlap by 0.16 em at single spacing,
# where TeX's never touch.
OVERLAP = 0.3


def heading_level(line: Line, body: float, title_size: float | None) -> int:
    """0 if ``line`` is no heading, else its markdown level (by its type alone: ``page_blocks``
    also asks that it be set apart, ``blocks._runs``)."""
    words = line.text.split()
    if not words or len(words) > 16 or line.kind != "text" or line.math > 0.2 or line.text.endswith((".", ",")):
        return 0
    if not WORDLIKE.search(line.text):
        # an equation number "(1)", a limit "n" beside a tall formula, a formula in large type
        # ("a 2 + b 2 = c 2": single letters and their scripts) is never a heading: a heading has a word
        return 0
    numbered = NUMBERED.match(line.text)
    if not reads_as_heading(line.text[numbered.end() - 1:] if numbered else line.text):  # (the match ends on the first letter)
        return 0
    if title_size and line.size >= title_size - 0.1 and line.size >= 1.3 * body:
        return 1
    if line.size >= 1.12 * body or (line.bold and line.size >= 0.95 * body and (numbered or len(words) <= 6)):
        if numbered:
            return min(6, 2 + numbered.group(1).count("."))
        return 2
    return 0


def same_run(prev: Line, line: Line) -> bool:
    """``line`` continues ``prev``'s block of type: the same size and weight, in the same column,
    right below it (closer than a line's height; a word processor's line boxes, from the font's
    ascent and descent, overlap by a little at single spacing), and not a numbered heading of its own."""
    return (line.kind == prev.kind == "text" and abs(line.size - prev.size) < 0.3 and line.bold == prev.bold
            and line.left == prev.left and -OVERLAP * line.size <= line.y0 - prev.y1 < 0.8 * line.size and not NUMBERED.match(line.text))
