"""Reading order: an XY-cut that keeps columns whole.

The boxes of a region are first split into horizontal bands at every empty horizontal band
(in one-column text: every line). Consecutive bands that share an empty vertical band at least
``MIN_COLUMN_GAP`` wide (the gap between two columns, 18-30 pt in conference styles; word spacing
is never that wide) are one multi-column group, which is cut at that gap: its left part is read
before its right part, each recursively the same way. A full-width title, float or footnote has
no such gap, so it ends the group: columns are read to their end before what follows them, and
never interleaved line by line.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar


class Box(Protocol):
    x0: float
    y0: float
    x1: float
    y1: float


B = TypeVar("B", bound=Box)
MIN_COLUMN_GAP = 7.0  # points
# Line heights of empty space a column group may span: the space above a section heading is ~1.5
# lines, and two headings at about the same height in both columns leave a band that wide across
# the page (at 1.2 such pages were read band by band, interleaving the columns); the space below a
# title block is wider.
NEAR_BANDS = 2.0


def _bands(region: list[B]) -> list[list[B]]:
    region = sorted(region, key=lambda b: b.y0)
    bands: list[list[B]] = [[region[0]]]
    bottom = region[0].y1
    for box in region[1:]:
        if box.y0 >= bottom:
            bands.append([box])
        else:
            bands[-1].append(box)
        bottom = max(bottom, box.y1)
    return bands


def _intersect(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out = []
    for lo1, hi1 in a:
        for lo2, hi2 in b:
            lo, hi = max(lo1, lo2), min(hi1, hi2)
            if hi - lo >= 1.0:
                out.append((lo, hi))
    return out


def lines_of(boxes: Sequence[B]) -> list[list[B]]:
    """Boxes grouped into lines (vertical overlap of at least 30 % of the lower one), each left to
    right, lines top to bottom: a superscript stays in its line, after what precedes it."""
    lines: list[list[B]] = []
    spans: list[list[float]] = []
    for box in sorted(boxes, key=lambda b: (b.y0 + b.y1) / 2):
        if lines:
            top, bottom = spans[-1]
            overlap = min(bottom, box.y1) - max(top, box.y0)
            if overlap >= 0.3 * min(bottom - top, box.y1 - box.y0):
                lines[-1].append(box)
                spans[-1] = [min(top, box.y0), max(bottom, box.y1)]
                continue
        lines.append([box])
        spans.append([box.y0, box.y1])
    return [sorted(line, key=lambda b: b.x0) for line in lines]


def _leaf(region: list[B]) -> list[B]:
    return [box for line in lines_of(region) for box in line]


def xy_cut(boxes: Sequence[B]) -> list[tuple[list[B], tuple[float, float]]]:
    """Boxes in reading order, grouped in leaves (a leaf: boxes of one line or one block), each
    with the left and right edge of the column it was cut from."""
    out: list = []
    if boxes:
        _cut(list(boxes), out, 0)
    return out


def _free(band: list[B]) -> list[tuple[float, float]]:
    """The x intervals no box of ``band`` covers (the outer ones unbounded)."""
    out, end = [], -1e9
    for box in sorted(band, key=lambda b: b.x0):
        if box.x0 > end:
            out.append((end, box.x0))
        end = max(end, box.x1)
    out.append((end, 1e9))
    return out


def _inner(free: list[tuple[float, float]], members: list[B]) -> list[tuple[float, float]]:
    """Free intervals inside the members' extent that are wide enough to separate columns."""
    left, right = min(b.x0 for b in members), max(b.x1 for b in members)
    clipped = [(max(lo, left), min(hi, right)) for lo, hi in free]
    return [(lo, hi) for lo, hi in clipped if hi - lo >= MIN_COLUMN_GAP]


def _stray(band: list[B], members: list[B], free: list[tuple[float, float]]) -> bool:
    """One line of a column that runs into (or a little across) the gap the group above it leaves
    free (a long word or URL at a column's end): the split is the group's, chosen over its lines
    as a whole, so this line joins the group and goes to the side its centre is on. A line
    centred on the gap (a caption or title across both columns), or reaching out of the group's
    extent (the prose after an equation and its number), is none."""
    gaps = _inner(free, members)
    if not gaps:
        return False
    lo, hi = max(gaps, key=lambda g: g[1] - g[0])
    at = (lo + hi) / 2
    left, right = min(b.x0 for b in members), max(b.x1 for b in members)
    heights = sorted(b.y1 - b.y0 for b in members)
    if max(b.y1 for b in band) - min(b.y0 for b in band) > 1.5 * heights[len(heights) // 2]:
        return False
    for box in band:
        cx = (box.x0 + box.x1) / 2
        if box.x0 < left - 2 or box.x1 > right + 2:
            return False
        # on one side, reaching at most a quarter into the other column (not a line across both)
        if cx < at - 0.25 * (at - left):
            if box.x1 > hi + 0.25 * (right - hi):
                return False
        elif cx <= at + 0.25 * (right - at) or box.x0 < lo - 0.25 * (lo - left):
            return False
    return True


def _cut(region: list[B], out: list, depth: int) -> None:
    edges = (min(b.x0 for b in region), max(b.x1 for b in region))
    if len(region) == 1 or depth > 60:
        out.append((_leaf(region), edges))
        return
    # consecutive bands that leave the same vertical gap free form one multi-column group
    # (a group is only joined once one of its bands has boxes on both sides of the gap: a centred
    # line such as an author list leaves wide gaps beside it that are no column gap)
    groups: list[tuple[list[B], list[tuple[float, float]], bool]] = []
    joined = 0  # bands of the last group that share its gap (a column group has several)
    for band in _bands(region):
        free = _free(band)
        two_sided = bool(_inner(free, band))
        # ... nor across a wide vertical gap (a title block above the columns)
        height = max(b.y1 - b.y0 for b in band)
        near = groups and band[0].y0 - max(b.y1 for b in groups[-1][0]) <= NEAR_BANDS * height
        if groups and groups[-1][2] and near:
            members, shared = groups[-1][0] + band, _intersect(groups[-1][1], free)
            if _inner(shared, members):
                groups[-1] = (members, shared, True)
                joined += 1
                continue
            if joined >= 2 and _stray(band, groups[-1][0], groups[-1][1]):
                groups[-1] = (members, groups[-1][1], True)
                continue
        groups.append((list(band), free, two_sided))
        joined = 0
    for members, free, _ in groups:
        gaps = _inner(free, members)
        if not gaps:
            out.append((_leaf(members), edges))
            continue
        lo, hi = max(gaps, key=lambda g: g[1] - g[0])
        at = (lo + hi) / 2
        left = [b for b in members if (b.x0 + b.x1) / 2 < at]
        right = [b for b in members if (b.x0 + b.x1) / 2 >= at]
        if not left or not right:
            out.append((_leaf(members), edges))
            continue
        _cut(left, out, depth + 1)
        _cut(right, out, depth + 1)
