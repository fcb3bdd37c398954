"""An OCR detector's line across a column gutter, split back into the two columns' lines.

RapidOCR's detector (PP-OCR) joins two lines set side by side when the gutter between them is
narrow for its downscaled image (``twocolumn``'s 10 pt at 1288 px is ~18 px, a word space ~8): one
box reads "... and their discus- a representative sample of ...", half of it from each column, and
no reading order can take it apart afterwards. The boxes are first turned back by the scan's skew
(``deskew``), then the page's other lines show the gutter: many lines
end just left of one x and many begin just right of it, and no word crosses it. A line whose word
boxes leave a gap over that x, wider than the line's own word spaces, is cut there.

The same detector joins a review copy's margin line number (``lineno``: a bare integer ~10 pt left
or right of the text) to the line beside it ("6 how the parser was handled ..."). A line's first or
last word that is a bare integer, set off by a gap wider than the line's word spaces, is cut off as
a box of its own, so the furniture step's line-number rule (``layout.line_numbers``: a
column of consecutive integers no text crosses) sees the whole column, as on a born-digital page.
A section number cut off its title is joined back as a heading (``ocr_lines``); a table's cells
are cut apart as they should be.
"""
from __future__ import annotations

import math
import re
from statistics import median
from typing import Any

_BARE_INTEGER = re.compile(r"^\d{1,4}$")

# lines needed on each side of a gutter before it is believed (a two-column page has dozens)
MIN_SIDE_LINES = 4
# how far from the gutter a column's line edge may lie, as a share of the page width (ragged boxes)
EDGE_REACH = 0.03
# a gap is a gutter's only if wider than this many times the line's median word space
GAP_FACTOR = 1.5
# a found gutter is kept this wide (share of the page width: 12 pt on a Letter page): the word boxes
# the recogniser estimates end a few pixels off the ink, which narrows a 10 pt gutter under the
# reading order's column gap (``ocr_ray.layout.order.MIN_COLUMN_GAP``, 7 pt)
GUTTER_KEPT = 0.02


def skew(boxes: list[Any]) -> float:
    """The page's skew in radians: the median slope of the long lines' top edges (the detector's
    boxes follow the text's slant; a scan lies 0.3-1.5 degrees off, a born-digital render 0)."""
    slopes = []
    for box in boxes:
        (x0, y0), (x1, y1) = (float(v) for v in box[0]), (float(v) for v in box[1])
        if x1 - x0 > 5 * abs(float(box[3][1]) - y0):
            slopes.append(math.atan2(y1 - y0, x1 - x0))
    return median(slopes) if len(slopes) >= 3 else 0.0


def turn(points: Any, angle: float, width: float) -> list[list[float]]:
    """``points`` (x, y) turned back by ``angle`` (radians, the page's skew) about the image's top centre."""
    cos, sin, cx = math.cos(-angle), math.sin(-angle), width / 2
    return [[cx + (float(x) - cx) * cos - float(y) * sin, (float(x) - cx) * sin + float(y) * cos] for x, y in points]


def deskew(boxes: list[Any], words: list[Any], width: float) -> tuple[list[Any], list[Any]]:
    """Boxes and word boxes turned back by the page's skew about the image's top centre: on a scan
    0.6 degrees off, a column's edge drifts 11 px over a page's height, as wide as its gutter, and
    no vertical gap is left to find the columns by."""
    angle = skew(boxes)
    if not angle:
        return boxes, words
    return ([turn(box, angle, width) for box in boxes],
            [tuple((text, score, turn(box, angle, width)) for text, score, box in line) for line in words])


def _spans(words: Any) -> list[tuple[float, float]]:
    return [(min(float(p[0]) for p in box), max(float(p[0]) for p in box)) for _, _, box in words]


def find_gutter(lines: list[list[tuple[float, float]]], width: float) -> float | None:
    """The x of a column gutter in the page's middle half that at least ``MIN_SIDE_LINES`` lines
    end just left of and as many begin just right of, crossed by few words (a title, an abstract,
    a wide figure's caption cross it: fewer than a quarter as many as the lines beside it); None if none."""
    reach = EDGE_REACH * width
    ends = [spans[-1][1] for spans in lines if spans]
    starts = [spans[0][0] for spans in lines if spans]
    words = [span for spans in lines for span in spans]
    best, best_score = None, 0.0
    for step in range(int(0.25 * width), int(0.75 * width), max(1, int(width / 400))):
        x = float(step)
        left = sum(1 for e in ends if x - reach <= e <= x)
        right = sum(1 for s in starts if x <= s <= x + reach)
        crossed = sum(1 for x0, x1 in words if x0 < x < x1)
        score = min(left, right) - crossed
        if min(left, right) >= MIN_SIDE_LINES and crossed <= min(left, right) / 4 and score > best_score:
            best, best_score = x, score
    if best is None:
        return None
    # the middle between the columns' edges (the scan above finds the gutter's left end)
    left_edge = median(e for e in ends if best - reach <= e <= best)
    right_edge = median(s for s in starts if best <= s <= best + reach)
    return (left_edge + right_edge) / 2


def split_at_gutter(boxes: list[Any], texts: list[str], words: list[Any] | None,
                    width: float) -> tuple[list[Any], list[str]]:
    """``boxes`` and ``texts`` with every line that crosses the page's gutter cut in two there.
    ``words``: per line, RapidOCR's word results ``(text, score, box)``; unchanged without them
    (or when they do not match the lines one for one)."""
    if not words or len(words) != len(boxes) or not width:
        return boxes, texts
    boxes, words = deskew(boxes, words, width)
    lines = [_spans(w) for w in words]
    gutter = find_gutter(lines, width)
    out_boxes, out_texts = [], []
    for box, text, line_words, spans in zip(boxes, texts, words, lines, strict=True):
        y0, y1 = min(float(p[1]) for p in box), max(float(p[1]) for p in box)
        cuts = sorted({c for c in (_cut(spans, gutter) if gutter is not None and spans else None,
                                   *_number_cuts(spans, [w[0] for w in line_words])) if c})
        # a line's horizontal extent is its words' ink, not the detector's box: that box carries a
        # margin of ~half an em each side, which closes a 10 pt gutter between the columns' lines
        parts = [slice(a, b) for a, b in zip([0, *cuts], [*cuts, None], strict=True)] if spans else []
        if not parts:
            out_boxes.append(box)
            out_texts.append(text)
        for part in parts:
            x0, x1 = spans[part][0][0], spans[part][-1][1]
            if gutter is not None:  # a column's line stops short of the gutter
                half = GUTTER_KEPT * width / 2
                x1 = min(x1, gutter - half) if x1 <= gutter + half and x0 < gutter - half else x1
                x0 = max(x0, gutter + half) if x0 >= gutter - half and x1 > gutter + half else x0
            out_boxes.append([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
            out_texts.append(" ".join(w[0] for w in line_words[part]) if cuts else text)
    return out_boxes, out_texts


def _cut(spans: list[tuple[float, float]], gutter: float) -> int | None:
    """The index of the first word right of ``gutter`` when the line's gap over it is a gutter's."""
    for i in range(1, len(spans)):
        if spans[i - 1][1] <= gutter <= spans[i][0]:
            return i if _wide(spans, i) else None
    return None


def _wide(spans: list[tuple[float, float]], i: int) -> bool:
    """Is the gap before word ``i`` wider than ``GAP_FACTOR`` times the line's other word spaces?"""
    gaps = [b[0] - a[1] for a, b in zip(spans, spans[1:], strict=False)]
    others = [g for j, g in enumerate(gaps) if j != i - 1]
    space = max(median(others), 1.0) if others else 1.0
    return spans[i][0] - spans[i - 1][1] >= GAP_FACTOR * space


def _number_cuts(spans: list[tuple[float, float]], words: list[str]) -> list[int]:
    """Where a line's first or last word, a bare integer set off by a wide gap (a margin line
    number), is cut off the rest (see the module's docstring)."""
    if len(spans) < 2 or len(words) != len(spans):
        return []
    cuts = []
    if _BARE_INTEGER.match(words[0]) and _wide(spans, 1):
        cuts.append(1)
    if _BARE_INTEGER.match(words[-1]) and _wide(spans, len(spans) - 1):
        cuts.append(len(spans) - 1)
    return cuts
