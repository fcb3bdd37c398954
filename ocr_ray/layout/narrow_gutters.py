"""Narrow column gutters, found by alignment rather than width: a white stripe narrower than the
reading order's ``MIN_COLUMN_GAP`` (4 pt in a tight two-column layout) is no wider than a space
between two fragments of a line; ``ocr_ray.layout.order`` cuts at the gutters found here too.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol, TypeVar


class Box(Protocol):
    x0: float
    y0: float
    x1: float
    y1: float


B = TypeVar("B", bound=Box)
MIN_COLUMN_GAP = 7.0  # points


Gutters = tuple[tuple[float, float], ...]
# A gutter narrower than ``MIN_COLUMN_GAP`` (4 pt in a tight two-column layout) is no wider than a
# space between two fragments of a line, so width cannot tell it; alignment does: a white stripe
# that no line crosses, from the top to the bottom of a block of ``ALIGNED_LINES`` lines or more,
# with full-width lines of justified text on both sides (a shared left edge and a shared right edge
# left of it, the same right of it). A table's cells, a list's labels or a formula's pieces do not
# make full-width lines on both sides.
NARROW_GAP = 2.0  # points: narrower is a space inside a line
ALIGNED_LINES = 8
FULL_LINES = 6  # of them, full lines on each side (a paragraph's last line is short)
RAGGED_FILL = 0.6  # a ragged-right line of prose is this full of its column's measure or more
ALIGN = 1.0  # points: "the same edge"
MIN_TEXT_COLUMN = 60.0  # points: a column of prose is wider (a side box of 0.29 \textwidth is ~100)


def aligned_gutters(boxes: Sequence[B]) -> Gutters:
    """The narrow column gutters of a page, found by alignment (see ``ALIGNED_LINES``)."""
    found: list[tuple[float, float]] = []
    starts = Counter(round(b.x0) for b in boxes)
    for edge, count in starts.items():
        if count < ALIGNED_LINES or any(g0 < edge <= g1 + ALIGN for g0, g1 in found):
            continue
        aligned = sorted((b for b in boxes if abs(b.x0 - edge) <= ALIGN), key=lambda b: b.y0)
        x = sorted(b.x0 for b in aligned)[len(aligned) // 2]
        crossing = sorted(b.y0 for b in boxes if b.x0 < x - ALIGN and b.x1 > x)
        run: list[B] = []
        for box in aligned + [None]:  # runs of aligned lines that no line across the stripe divides
            if box is not None and (not run or not any(run[-1].y1 <= y < box.y0 for y in crossing)):
                run.append(box)
                continue
            gutter = aligned_gutter(boxes, run, x) if len(run) >= ALIGNED_LINES else None
            if gutter:
                found.append(gutter)
            run = [box] if box is not None else []
    return tuple(found)


def aligned_gutter(boxes: Sequence[B], run: list[B], x: float) -> tuple[float, float] | None:
    top, bottom = run[0].y0, run[-1].y1
    beside = [b for b in boxes if b.y1 > top and b.y0 < bottom]
    if any(b.x0 < x - ALIGN and b.x1 > x for b in beside):
        return None
    # only the column on each side of the stripe: on a page of three columns the lines of the
    # first column are no evidence for the gutter between the second and the third (their edges
    # outvoted the second column's, and its gutter with the third went unseen)
    left = [b for b in beside if x - MIN_COLUMN_GAP - ALIGN < b.x1 <= x]
    right = [b for b in beside if abs(b.x0 - x) <= ALIGN]
    if len(left) < FULL_LINES:  # the left column set ragged right too (a word processor's, reportlab's)
        left = ragged_left(beside, x)
    if len(left) < FULL_LINES or len(right) < ALIGNED_LINES:
        return None
    # the edges most lines share (an overfull line or a hyphen may stick out a point or two)
    lo, start = edge_mode(b.x1 for b in left), edge_mode(b.x0 for b in left)
    end = edge_mode(b.x1 for b in right)
    ragged = sum(abs(b.x1 - lo) <= ALIGN for b in left) < FULL_LINES
    if ragged:  # no shared right edge: the measure ends at the longest line's end
        lo = max(b.x1 for b in left)
    if not NARROW_GAP <= x - lo < MIN_COLUMN_GAP:
        return None  # a wide gutter is found by its width
    # a full line ends at the column's right edge; a paragraph's first line is indented (a side box
    # of short paragraphs beside a few lines of body text has more first lines than ALIGNED_LINES
    # leaves room for)
    indent = 0.25 * (lo - start)
    full_left = sum(start - ALIGN <= b.x0 <= start + indent and (
        b.x1 - start >= RAGGED_FILL * (lo - start) if ragged else abs(b.x1 - lo) <= ALIGN) for b in left)
    full_right = sum(abs(b.x1 - end) <= ALIGN for b in right)
    if full_right < FULL_LINES:  # set ragged right (side notes): its lines fill most of its measure
        end = max(b.x1 for b in right)
        full_right = sum(b.x1 - x >= RAGGED_FILL * (end - x) for b in right)
    if full_left < FULL_LINES or full_right < FULL_LINES:
        return None
    if min(lo - start, end - x) < max(0.25 * (end - start), MIN_TEXT_COLUMN):
        return None  # a narrow strip beside a column (equation numbers, margin notes, a table's cells)
    return (lo, x)


def ragged_left(beside: Sequence[B], x: float) -> list[B]:
    """The lines of a ragged-right column left of the stripe at ``x``: ending left of it, starting
    at the edge most of them share, filling ``RAGGED_FILL`` of the measure to the stripe or more."""
    lines = [b for b in beside if b.x1 <= x]
    if not lines:
        return []
    start = edge_mode(b.x0 for b in lines)
    return [b for b in lines if abs(b.x0 - start) <= ALIGN + 0.25 * (x - start)
            and b.x1 - start >= RAGGED_FILL * (x - start)]


def edge_mode(values) -> float:
    return Counter(round(v * 2) / 2 for v in values).most_common(1)[0][0]
