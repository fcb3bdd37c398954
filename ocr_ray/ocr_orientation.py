"""A scan fed sideways or upside down, turned upright before its lines are read in order.

A page scanned a quarter turn off (or upside down) still reads line by line: RapidOCR's detector finds
the lines whatever their direction, a crop taller than wide is turned a quarter (``get_rotate_crop_image``)
and its angle classifier turns an upside-down crop round. But the boxes stay where they are on the
turned page, so the reading order read the page from its last line up (upside down) or its lines
across the columns (sideways): ocrmypdf's cardinal.pdf, one product sheet at 90 and 180 degrees,
came out as a single run-on paragraph starting at the address under the last column.

The page's direction comes from the lines themselves: most of the text in boxes taller than wide
(a quarter turn), and, for the crops, what the angle classifier says of them: upright ("0") or upside
down ("180"). A tall crop is turned counter-clockwise before classification, so an upright verdict
means the text runs top to bottom (the page turned clockwise): turned back counter-clockwise.
Only a clear majority turns the page (a label or a table's vertical header on an upright page does not).
"""
from __future__ import annotations

from typing import Any

# lines with at least this many characters vote (a lone digit's box is as tall as wide)
MIN_CHARS = 3
MIN_LINES = 4  # fewer lines than this: the page is left as it is
MAJORITY = 2 / 3  # share of the voting characters (boxes) or crops (classifier) that must agree
TALL = 1.5  # a box this many times taller than wide is a line set sideways (as RapidOCR turns its crops)
SAMPLE = 40  # crops shown to the classifier (the longest lines)


def _extent(box: Any) -> tuple[float, float]:
    xs = [float(p[0]) for p in box]
    ys = [float(p[1]) for p in box]
    return max(xs) - min(xs), max(ys) - min(ys)


def sideways(boxes: list[Any], texts: list[str]) -> bool | None:
    """True: most of the page's text stands in tall boxes (a quarter turn); False: in wide boxes;
    None: too few lines to tell."""
    tall = wide = lines = 0
    for box, text in zip(boxes, texts, strict=False):
        n = len(text.strip())
        if n < MIN_CHARS:
            continue
        w, h = _extent(box)
        lines += 1
        if h >= TALL * w:
            tall += n
        else:
            wide += n
    if lines < MIN_LINES:
        return None
    return tall >= MAJORITY * (tall + wide)


def quarter_turns(is_sideways: bool | None, labels: list[str]) -> int:
    """How many quarter turns counter-clockwise (``numpy.rot90``'s ``k``) make the page upright, from
    ``sideways`` and the angle classifier's labels ("0" / "180") of the voting lines' crops."""
    if is_sideways is None or not labels:
        return 0
    flipped = sum(label == "180" for label in labels) / len(labels)
    if is_sideways:
        if flipped <= 1 - MAJORITY:
            return 1  # the crops read upright once turned counter-clockwise: text runs top to bottom
        return 3 if flipped >= MAJORITY else 0
    return 2 if flipped >= MAJORITY else 0


def voting_labels(lines: list[tuple[Any, str, str]], is_sideways: bool) -> list[str]:
    """The angle classifier's labels of the longest lines set the way most of the page's text is, from
    the (box, text, label) of each line the classifier saw while the page was read."""
    chosen = []
    for box, text, label in lines:
        w, h = _extent(box)
        if len(text.strip()) >= MIN_CHARS and (h >= TALL * w) == is_sideways:
            chosen.append((len(text), label))
    chosen.sort(key=lambda c: -c[0])
    return [label for _, label in chosen[:SAMPLE]]


def voting_crops(image, boxes: list[Any], texts: list[str], is_sideways: bool) -> list[Any]:
    """The crops of the longest lines set the way most of the page's text is (as RapidOCR cuts them)."""
    import numpy as np
    from rapidocr.utils.process_img import get_rotate_crop_image

    chosen = []
    for box, text in zip(boxes, texts, strict=False):
        w, h = _extent(box)
        if len(text.strip()) >= MIN_CHARS and (h >= TALL * w) == is_sideways:
            chosen.append((len(text), box))
    chosen.sort(key=lambda c: -c[0])
    return [get_rotate_crop_image(image, np.array(box, dtype=np.float32)) for _, box in chosen[:SAMPLE]]

