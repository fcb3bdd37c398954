"""A float (a table with its caption) set inside a paragraph: TeX puts a ``[h]`` table after the
line where it is written, and a ``[t]`` table at the top of the next column, while the paragraph
runs on under it. Read in order, the paragraph's sentence is cut by the table; ``blocks`` uses
these rules to read the paragraph whole and put the float after it.

Lines here are ``display_lines.Line``s (x0, y0, x1, y1, text, size, kind, left, right), used by duck typing:
``blocks`` imports this module.
"""
from __future__ import annotations

import re

# a caption's start: "Table 8:", "Figure 6.", "Fig. 3" (not a cell "Table-filling")
CAPTION = re.compile(r"^(Table|Figure|Fig\.)\s*[A-Z]?\d+[.:]?(\s|$)")


def float_end(lines: list, i: int) -> int | None:
    """Where the float that starts at ``lines[i]`` ends (the index after it): its tables and the
    captions above or below them (a caption: a line starting "Table N", and the lines set close
    under it in its column). None if no table starts there."""
    j, tables = i, 0
    while j < len(lines):
        line = lines[j]
        if line.kind == "table":
            tables += 1
            j += 1
        elif line.kind == "text" and CAPTION.match(line.text):
            j += 1
            while (j < len(lines) and lines[j].kind == "text" and not CAPTION.match(lines[j].text)
                   and lines[j].left == lines[j - 1].left and 0 <= lines[j].y0 - lines[j - 1].y1 < 0.75 * lines[j].size):
                j += 1
        else:
            break
    return j if tables else None


def runs_on(last, after) -> bool:
    """Does the paragraph whose last line is ``last`` go on at ``after`` (the first line past a
    float)? ``last`` fills its column (a paragraph's last line is short) and that column is about
    as wide as ``after``'s; ``after`` is text of the same size starting at its column's edge (not a
    new paragraph's indent) and, if ``last`` ends a sentence, starts in lower case."""
    if after.kind != "text" or last.kind != "text" or abs(after.size - last.size) > 0.15 * last.size:
        return False
    if last.x1 < last.right - 1.5 * last.size or after.x0 - after.left > 0.7 * after.size:
        return False
    # a column as wide as the one the paragraph goes on in (a line alone in its reading-order leaf,
    # a running head, "fills" a column of its own width)
    if last.right - last.left < 0.8 * (after.right - after.left):
        return False
    ended = last.text.rstrip().endswith((".", "?", "!", ":"))
    return not ended or after.text[:1].islower()
