"""tesseract's hOCR -> OCR'd lines: boxes, texts, type heights (from baselines) and page width.

hOCR, not TSV: it carries each line's baseline, from which the type's ascender height is measured
(``_type_height``); box heights mislead (a rotated stamp, descenders, superscript marks).
"""
from __future__ import annotations

import math
import re
from statistics import median
from typing import Any

from ocr_ray.ocr_columns import turn
from ocr_ray.ocr_lines import SECTION_NUMBER

_HOCR_LINES = ("ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat")
_BBOX = re.compile(r"bbox (-?\d+) (-?\d+) (-?\d+) (-?\d+)")
_BASELINE = re.compile(r"baseline (-?[\d.]+) (-?[\d.]+)")
_X_SIZE = re.compile(r"x_size ([\d.]+)")
# Words further apart than this many x_size (tesseract's row height) are cut into two fragments
# (table cells). Measured at 2000 px on LaTeX pages: a loose line's gap after a full stop reaches
# ~1.3, table cells start at ~1.4; a gap between columns is ~1.1, but tesseract's page
# segmentation (--psm 3) already puts the columns in different blocks.
SPLIT_GAP = 1.4


_TALL = frozenset("bdfhijklt0123456789()[]{}/\\|!?&%$#@'\"")
_SHORT = frozenset("acegmnopqrsuvwxyz.,;:-")
# x-height -> ascender height: 1.61 in Computer Modern, ~1.5 in Times, ~1.4 in Helvetica
_X_TO_ASCENDER = 1.5


def _type_height(words: list[tuple[list[int], str]], title: str) -> float:
    """A line's ascender height in pixels: how far its words reach above the baseline.

    Per word, from its text: a word with a tall letter (capital, digit, ascender, bracket) reaches
    the ascender height; a word of x-height letters only ("core.", "use") reaches the x-height,
    which is scaled up; other words (a dash) say nothing. Then the 3rd quartile over the words
    and never the highest one, not the line's box: a footnote mark or a superscript on one word
    would otherwise make a body line look like a heading's larger type ("without corrections.¹").
    Lines without a baseline (rotated margin text) fall back to 0.7 of tesseract's ``x_size``
    (its row height: ascenders + x-height + descenders)."""
    x0, y0, x1, y1 = (int(v) for v in _BBOX.search(title).groups())
    baseline = _BASELINE.search(title)
    tops = []
    if baseline is not None:
        slope, offset = float(baseline.group(1)), float(baseline.group(2))
        for (bx0, by0, bx1, _), text in words:
            # hOCR's baseline: y = bottom + offset + slope * (x - left), in image coordinates
            top = y1 + offset + slope * ((bx0 + bx1) / 2 - x0) - by0
            if any(ch.isupper() or ch in _TALL for ch in text):
                tops.append(top)
            elif all(ch in _SHORT for ch in text):
                tops.append(_X_TO_ASCENDER * top)
    if not tops:
        x_size = _X_SIZE.search(title)
        return 0.7 * float(x_size.group(1)) if x_size else 0.7 * min(x1 - x0, y1 - y0)
    tops.sort()
    return max(1.0, tops[max(0, min(round(0.75 * (len(tops) - 1)), len(tops) - 2))])


def _page_skew(root: Any) -> float:
    """The page's skew in radians: the median slope of the long lines' baselines (tesseract reads a
    skewed line but gives its box upright; its baseline keeps the slant), 0 without three of them."""
    slopes = []
    for element in root.iter():
        title = element.get("title", "")
        if element.get("class", "") in _HOCR_LINES and (bbox := _BBOX.search(title)) \
                and (baseline := _BASELINE.search(title)):
            x0, y0, x1, y1 = (int(v) for v in bbox.groups())
            if x1 - x0 > 5 * (y1 - y0):
                slopes.append(math.atan(float(baseline.group(1))))
    return median(slopes) if len(slopes) >= 3 else 0.0


def _upright(box: list[int], angle: float, width: float) -> list[int]:
    """A word's box turned back by the page's skew (``ocr_columns.turn``, as RapidOCR's boxes are)."""
    if not angle:
        return box
    x0, y0, x1, y1 = box
    points = turn([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], angle, width)
    return [round(min(p[0] for p in points)), round(min(p[1] for p in points)),
            round(max(p[0] for p in points)), round(max(p[1] for p in points))]


def hocr_lines(hocr: str) -> tuple[list[Any], list[str], list[float], float]:
    """tesseract's hOCR -> line boxes, line texts, their ascender heights (``_type_height``,
    pixels) and the page width.

    Word boxes are first turned back by the page's skew (``_page_skew``): on a scan 1.5 degrees
    off, a column's edge drifts ~25 px down a page, wider than a gutter, and the reading order read
    the two columns' lines alternately. A line is cut where two words are more than ``SPLIT_GAP`` x
    its ``x_size`` apart, except between a lone section number and a capitalised title
    ("3.1<quad>Page partition")."""
    from xml.etree import ElementTree

    root = ElementTree.fromstring(hocr.encode("utf-8"))
    boxes: list[Any] = []
    texts: list[str] = []
    heights: list[float] = []
    page_width = 0.0
    angle = _page_skew(root)
    for element in root.iter():
        classes = element.get("class", "")
        title = element.get("title", "")
        if classes == "ocr_page" and (bbox := _BBOX.search(title)):
            page_width = float(bbox.group(3))
        if classes not in _HOCR_LINES or not _BBOX.search(title):
            continue
        words = []
        for word in element.iter():
            bbox = _BBOX.search(word.get("title", "")) if word.get("class") == "ocrx_word" else None
            text = "".join(word.itertext()).strip()
            if bbox and text:
                words.append(([int(v) for v in bbox.groups()], text))
        if not words:
            continue
        height = _type_height(words, title)  # measured on the page as scanned, against its baseline
        x_size = _X_SIZE.search(title)
        gap = SPLIT_GAP * (float(x_size.group(1)) if x_size else height / 0.7)
        parts: list[list] = []
        for box, text in words:
            x0, y0, x1, y1 = _upright(box, angle, page_width)
            part = parts[-1] if parts else None
            # a lone section number stays with the title after it ("3.1<quad>Page"), not with the
            # next number of a table row ("61.3 | 58.9")
            heading_number = len(part[4]) == 1 and SECTION_NUMBER.match(part[4][0]) and text[:1].isupper() if part else False
            if part is None or (x0 - part[2] > gap and not heading_number):
                parts.append([x0, y0, x1, y1, [text]])
                continue
            part[0], part[1] = min(part[0], x0), min(part[1], y0)
            part[2], part[3] = max(part[2], x1), max(part[3], y1)
            part[4].append(text)
        for x0, y0, x1, y1, line_words in parts:
            boxes.append([(x0, y0), (x1, y1)])
            texts.append(" ".join(line_words))
            heights.append(height)
    return boxes, texts, heights, page_width or 1.0
