"""Reading order: an XY-cut that keeps columns whole.

The boxes of a region are first split into horizontal bands at every empty horizontal band
(in one-column text: every line). Consecutive bands that share an empty vertical band at least
``MIN_COLUMN_GAP`` wide (the gap between two columns: 12 pt in IEEEtran, 17 pt in ACL, 18 pt in
ICML, up to 30 pt elsewhere; word spacing is never that wide) are one multi-column group, which is
cut at that gap: its left part is read before its right part, each recursively the same way. A
full-width title, float or footnote has no such gap, so it ends the group: columns are read to
their end before what follows them, and never interleaved line by line. Columns whose baselines do
not line up make a single band of all their lines; its gutter is chosen from those lines as a
whole, so that one or two lines running into it do not close it (``_band_free``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from ocr_ray.layout.list_labels import labels_beside
from ocr_ray.layout.narrow_gutters import MIN_COLUMN_GAP, B, Box, Gutters, aligned_gutters
from ocr_ray.layout.order_matrix import delimiter_stacks, inside_delimiters

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
        y0, y1 = _type_height(box)
        if lines:
            top, bottom = spans[-1]
            overlap = min(bottom, y1) - max(top, y0)
            if overlap >= 0.3 * min(bottom - top, y1 - y0) and not any(_stacked(box, b) for b in lines[-1]):
                lines[-1].append(box)
                spans[-1] = [min(top, y0), max(bottom, y1)]
                continue
        lines.append([box])
        spans.append([y0, y1])
    return [sorted(line, key=lambda b: b.x0) for line in lines]


def _type_height(box: B) -> tuple[float, float]:
    """A text box's extent for telling lines apart: at most an em tall about its middle. An OpenType
    font's boxes are its ascent and descent, 1.33 em in TeX Gyre Termes (lualatex, xelatex): a
    paragraph's last line, a display's numerator and its line overlapped by a third and were one line
    ("of its own. Precision = True Positives + .."); TeX's Type 1 fonts' are an em or less."""
    size = getattr(box, "size", 0.0)
    glyphs = getattr(box, "glyphs", None)
    if size <= 0 or box.y1 - box.y0 <= 1.2 * size or glyphs and max(g[4] for g in glyphs) - min(g[2] for g in glyphs) > size:
        return box.y0, box.y1  # (a formula's ink taller than an em, a big operator's or a script's, keeps its box)
    middle = (box.y0 + box.y1) / 2
    return middle - 0.5 * size, middle + 0.5 * size


def _stacked(a: Box, b: Box) -> bool:
    """Two runs of prose (each wider than 8 times its height) one over the other, never one line: a
    line made taller by a deep subscript ("µ·") reaches into the next line's box."""
    wide = all(box.x1 - box.x0 >= 8 * (box.y1 - box.y0) for box in (a, b))
    return wide and min(a.x1, b.x1) - max(a.x0, b.x0) >= 0.5 * min(a.x1 - a.x0, b.x1 - b.x0)


def _leaf(region: list[B]) -> list[B]:
    return [box for line in lines_of(region) for box in line]


def xy_cut(boxes: Sequence[B]) -> list[tuple[list[B], tuple[float, float]]]:
    """Boxes in reading order, grouped in leaves (a leaf: boxes of one line or one block), each
    with the left and right edge of the column it was cut from."""
    out: list = []
    if boxes:
        _cut(list(boxes), out, 0, aligned_gutters(boxes))
    return out


def _free(band: list[B]) -> list[tuple[float, float]]:
    """The x intervals no box of ``band`` covers (the outer ones unbounded)."""
    return _free_spans([(b.x0, b.x1) for b in band])


def _free_spans(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out, end = [], -1e9
    for x0, x1 in sorted(spans):
        if x0 > end:
            out.append((end, x0))
        end = max(end, x1)
    out.append((end, 1e9))
    return out


def _band_free(band: list[B], narrow: Gutters = ()) -> list[tuple[float, float]]:
    """The x intervals free in ``band``, the column gutter included even where a line or two run
    into it. Two columns whose baselines do not line up (a display or heading in one of them) make
    one band of all their lines; one overfull line or URL in it then left a gap too narrow for a
    column gap, and the band was read line by line across both columns. The gutter is chosen from
    the band's lines as a whole: the widest x interval that at most a few of them cross, with lines
    wholly on either side; a crossing line is cut back to the side its centre is on (it is read with
    that column). A line that reaches into both columns and is centred on the gutter (a caption or
    title across both) is no such line: then there is no gutter."""
    free = _free(band)
    if len(band) < 6 or _inner(free, band, narrow):
        return free
    heights = sorted(b.y1 - b.y0 for b in band)
    if max(b.y1 for b in band) - min(b.y0 for b in band) < 3 * heights[len(heights) // 2]:
        return free  # a line, or a formula of stacked parts: no columns
    gutter = _tolerant_gutter(band)
    if gutter is None:
        return free
    lo, hi = gutter
    at = (lo + hi) / 2
    left, right = min(b.x0 for b in band), max(b.x1 for b in band)
    spans = []
    for box in band:
        cx = (box.x0 + box.x1) / 2
        if box.x1 <= lo or box.x0 >= hi:
            spans.append((box.x0, box.x1))
        elif box.x0 < lo - MIN_COLUMN_GAP and box.x1 > hi + MIN_COLUMN_GAP \
                and at - 0.25 * (lo - left) < cx < at + 0.25 * (right - hi):
            return free  # across both columns, centred on the gutter
        elif cx < at:  # (the side ``_cut`` puts it on)
            spans.append((box.x0, lo))
        else:
            spans.append((hi, box.x1))
    return _free_spans(spans)


# How many lines of a band may cross its column gutter: one or a few overfull lines, never a
# share of the band that makes it a page of full-width lines.
MAX_CROSSING = 2
MIN_SIDE = 3  # boxes wholly on each side of a gutter


def _columns_beside(boxes: list[B], lo: float, hi: float, need: int = MIN_SIDE) -> bool:
    """Lines of a column on each side of the gap (``need`` at least half as wide as their side),
    not the pieces of a formula with its equation numbers beside it."""
    left, right = min(b.x0 for b in boxes), max(b.x1 for b in boxes)
    if min(lo - left, right - hi) < 0.25 * (right - left):
        return False  # a column is no narrow strip beside the other (equation numbers, a margin)
    wide_left = sum(b.x1 <= lo and b.x1 - b.x0 >= 0.5 * (lo - left) for b in boxes)
    wide_right = sum(b.x0 >= hi and b.x1 - b.x0 >= 0.5 * (right - hi) for b in boxes)
    return wide_left >= need and wide_right >= need


def _tolerant_gutter(band: list[B]) -> tuple[float, float] | None:
    """The widest x interval, at least ``MIN_COLUMN_GAP`` wide, that the fewest (at most
    ``MAX_CROSSING``) boxes of ``band`` cross, with ``MIN_SIDE`` lines of a column wholly left and
    right of it."""
    from bisect import bisect_left, bisect_right

    starts, ends = sorted(b.x0 for b in band), sorted(b.x1 for b in band)
    edges = sorted(set(starts) | set(ends))
    cells = []  # elementary intervals between consecutive edges: (lo, hi, boxes crossing it)
    for lo, hi in zip(edges, edges[1:], strict=False):
        mid = (lo + hi) / 2
        cells.append((lo, hi, bisect_left(starts, mid) - bisect_right(ends, mid)))
    for allowed in range(1, MAX_CROSSING + 1):
        best, run = None, None
        for lo, hi, crossing in cells + [(0.0, 0.0, allowed + 1)]:
            if crossing <= allowed:
                run = (run[0], hi) if run else (lo, hi)
                continue
            if run and run[1] - run[0] >= MIN_COLUMN_GAP and (best is None or run[1] - run[0] > best[1] - best[0]) \
                    and bisect_right(ends, run[0]) >= MIN_SIDE and len(starts) - bisect_left(starts, run[1]) >= MIN_SIDE \
                    and _columns_beside(band, *run) and sum(b.x0 < run[1] and b.x1 > run[0] for b in band) <= allowed:
                best = run
            run = None
        if best:
            return best
    return None


def _inner(free: list[tuple[float, float]], members: list[B], narrow: Gutters = ()) -> list[tuple[float, float]]:
    """Free intervals inside the members' extent that are wide enough to separate columns, or that
    hold one of the page's ``narrow`` gutters (``aligned_gutters``)."""
    left, right = min(b.x0 for b in members), max(b.x1 for b in members)
    clipped = [(max(lo, left), min(hi, right)) for lo, hi in free]
    gaps = [(lo, hi) for lo, hi in clipped if hi - lo >= MIN_COLUMN_GAP
            or any(lo <= g1 - 1.0 and hi >= g1 - 0.5 for _, g1 in narrow)]
    if gaps and len(members) >= 4:
        stacks = delimiter_stacks(members)
        if len(stacks) >= 2:
            gaps = [g for g in gaps if not inside_delimiters(g, stacks, members)]
    return gaps


def _stray(band: list[B], members: list[B], free: list[tuple[float, float]], narrow: Gutters = ()) -> bool:
    """One line of a column that runs into (or a little across) the gap the group above it leaves
    free (a long word or URL at a column's end): the split is the group's, chosen over its lines
    as a whole, so this line joins the group and goes to the side its centre is on. A line
    centred on the gap (a caption or title across both columns), or reaching out of the group's
    extent (the prose after an equation and its number), is none."""
    gaps = _inner(free, members, narrow)
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
        elif cx > at + 0.25 * (right - at):
            if box.x0 < lo - 0.25 * (lo - left):
                return False
        elif not ((box.x0 < lo and box.x1 <= hi + 1.0) or (box.x0 >= lo - 1.0 and box.x1 > hi)) \
                or not _columns_beside(members, lo, hi, need=2):
            return False
        # (else the piece of a column's line that runs into the gap, split off by a space: the last
        # word of an overfull line; never beside a formula and its equation numbers)
    return True


def _line_units(bands: list[list[B]], at: float) -> list[list[B]] | None:
    """When only one band has boxes on both sides of ``at`` and it is a line (a display of stacked
    parts included), not two columns whose baselines do not line up: that line with the bands set
    close to it (its limits, a fraction's parts), and each other band on its own; None otherwise,
    or when no band stands apart (a display and its limits alone: the group's own cut reads it)."""
    # (an equation number right of the gap does not put its formula's line across it: "Y = .. (2)")
    across = [i for i, band in enumerate(bands) if any((b.x0 + b.x1) / 2 < at for b in band)
              and any((b.x0 + b.x1) / 2 >= at and not _EQUATION_NUMBER.match(getattr(b, "text", "").strip()) for b in band)]
    if len(across) != 1:
        return None
    k = across[0]
    heights = sorted(b.y1 - b.y0 for b in bands[k])
    height = heights[len(heights) // 2]
    if max(b.y1 for b in bands[k]) - min(b.y0 for b in bands[k]) >= 3 * height:
        return None
    lo = hi = k  # the bands close above and below the line belong to it, but a line of words or a number
    size = max(getattr(b, "size", 0.0) for b in bands[k])
    while lo > 0 and min(b.y0 for b in bands[lo]) - max(b.y1 for b in bands[lo - 1]) < 0.4 * height \
            and not _words_apart(bands[lo - 1], size):
        lo -= 1
    while hi + 1 < len(bands) and min(b.y0 for b in bands[hi + 1]) - max(b.y1 for b in bands[hi]) < 0.4 * height \
            and not _words_apart(bands[hi + 1], size):
        hi += 1
    if lo == 0 and hi == len(bands) - 1:
        return None
    return bands[:lo] + [[b for band in bands[lo:hi + 1] for b in band]] + bands[hi + 1:]


def _words_apart(band: list[B], size: float) -> bool:
    """A band set close to a display's line that is no part of it: text at the line's own type size
    with no maths in it (the "and" between two displays set tight, an equation number set on the
    line below its formula), not a limit or a script, which are smaller. Such bands made the display
    and its limits alone in the group, which was then cut as columns at the display's ``\\qquad``
    (dev4's bayes-tools p5: "S_C=(B,U_C), | and", "S_N=(B,U_N), | Y=..", "U_N=..").
    """
    return all(getattr(b, "kind", "") == "text" and getattr(b, "math", 1.0) == 0.0
               and getattr(b, "size", 0.0) >= 0.9 * size for b in band)


def _lines_of_text(bands: list[list[B]], at: float) -> list[list[B]] | None:
    """Each band on its own when only one band has boxes on both sides of ``at`` and every band is
    a line of one type size (lines of a paragraph): a justified line cut at a wide sentence space
    above a short last line is no pair of columns (its end was read after the next line). A
    display's limits and scripts are smaller than its line, so a display is still cut whole."""
    across = [band for band in bands if any((b.x0 + b.x1) / 2 < at for b in band)
              and any((b.x0 + b.x1) / 2 >= at for b in band)]
    if len(across) != 1:
        return None
    heights = [max(b.y1 for b in band) - min(b.y0 for b in band) for band in bands]
    if max(heights) <= 1.15 * min(heights) or _prose_of_one_size(bands, across[0]):
        return [list(band) for band in bands]
    return None


LINE_HEIGHT = 1.6  # of its type size: a line's box, a script in it included (a table's is rows high)
BASELINE = 0.1  # of the type size: the bottoms of one line's pieces in one font (a script's is its line's)


def _prose_of_one_size(bands: list[list[B]], across: list[B]) -> bool:
    """Bands of prose fragments (no maths glyph in any) set in one type size, the band ``across``
    the gap one line (its pieces on one baseline): a footnote mark or a superscript in a line makes
    its box a fifth taller than its neighbours' (pdflatex's Times, "... the final score¹.  Our main"
    stretched over a 8 pt sentence space), which the heights above take for a display's limits; a
    display has maths fragments, and its limits and scripts are smaller than its line. Two columns'
    lines side by side whose baselines do not line up (two captions under a pair of figures) are
    no one line."""
    if max(b.y1 for b in across) - min(b.y1 for b in across) > BASELINE * min(getattr(b, "size", 0.0) or 1.0 for b in across):
        return False
    sizes = []
    for band in bands:
        if not all(getattr(b, "size", 0.0) > 0 and getattr(b, "math", 1.0) == 0.0 and getattr(b, "kind", "") == "text"
                   and b.y1 - b.y0 <= LINE_HEIGHT * b.size for b in band):
            return False  # a picture, a table, a fragment holding maths or taller than a line
        sizes.append(max(b.size for b in band))
    return max(sizes) <= 1.15 * min(sizes)


_EQUATION_NUMBER = re.compile(r"^\(\s*[A-Z]?\d+(\.\d+)*[a-z]?\s*\)$")


def _numbered_rows(bands: list[list[B]], at: float) -> list[list[B]] | None:
    """Each band on its own when everything right of ``at`` is an equation number ("(3)"): the rows
    of an ``align`` with their numbers are no two columns (the numbers were read after the text
    that follows the display). Bands set close (a big operator's limits) stay one unit."""
    right = [b for band in bands for b in band if (b.x0 + b.x1) / 2 >= at]
    if not right or not all(_EQUATION_NUMBER.match(getattr(b, "text", "").strip()) for b in right):
        return None
    heights = sorted(b.y1 - b.y0 for band in bands for b in band)
    height = heights[len(heights) // 2]
    units = [list(bands[0])]
    for prev, band in zip(bands, bands[1:], strict=False):
        if min(b.y0 for b in band) - max(b.y1 for b in prev) < 0.4 * height:
            units[-1] += band  # a row's limits and scripts stay with it
        else:
            units.append(list(band))
    return units if len(units) > 1 else None


def _cut(region: list[B], out: list, depth: int, narrow: Gutters = ()) -> None:
    edges = (min(b.x0 for b in region), max(b.x1 for b in region))
    if len(region) == 1 or depth > 60:
        out.append((_leaf(region), edges))
        return
    # consecutive bands that leave the same vertical gap free form one multi-column group
    # (a group is only joined once one of its bands has boxes on both sides of the gap: a centred
    # line such as an author list leaves wide gaps beside it that are no column gap)
    groups: list[tuple[list[B], list[tuple[float, float]], bool]] = []
    bands_of: list[list[list[B]]] = []  # each group's bands
    joined = 0  # bands of the last group that share its gap (a column group has several)
    for band in _bands(region):
        free = _band_free(band, narrow)
        two_sided = bool(_inner(free, band, narrow))
        # ... nor across a wide vertical gap (a title block above the columns)
        height = max(b.y1 - b.y0 for b in band)
        near = groups and band[0].y0 - max(b.y1 for b in groups[-1][0]) <= NEAR_BANDS * height
        if groups and groups[-1][2] and near:
            members, shared = groups[-1][0] + band, _intersect(groups[-1][1], free)
            if _inner(shared, members, narrow):
                groups[-1] = (members, shared, True)
                bands_of[-1].append(band)
                joined += 1
                continue
            if joined >= 2 and _stray(band, groups[-1][0], groups[-1][1], narrow):
                groups[-1] = (members, groups[-1][1], True)
                bands_of[-1].append(band)
                continue
        groups.append((list(band), free, two_sided))
        bands_of.append([band])
        joined = 0
    for (members, free, _), bands in zip(groups, bands_of, strict=True):
        gaps = [g for g in _inner(free, members, narrow) if not labels_beside(members, *g)]
        if not gaps:
            out.append((_leaf(members), edges))
            continue
        lo, hi = max(gaps, key=lambda g: g[1] - g[0])
        at = (lo + hi) / 2
        units = (_line_units(bands, at) or _lines_of_text(bands, at) or _numbered_rows(bands, at)
                 if len(bands) > 1 else None)
        if units:
            # one line with a wide space in it (a display: "p(y|x) = ..., \quad where s = Wx + b",
            # with its limits) and lines apart from it that stop short of that space: no columns;
            # each is read in turn
            for unit in units:
                _cut(unit, out, depth + 1, narrow)
            continue
        left = [b for b in members if (b.x0 + b.x1) / 2 < at]
        right = [b for b in members if (b.x0 + b.x1) / 2 >= at]
        if not left or not right:
            out.append((_leaf(members), edges))
            continue
        _cut(left, out, depth + 1, narrow)
        _cut(right, out, depth + 1, narrow)
