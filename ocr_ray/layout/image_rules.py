"""Ruling lines seen on a page image, for pages read by OCR (scans carry no path objects).

The tables step (``ocr_ray.layout.tables``) finds a table between two or more horizontal rules of
the same extent; on a born-digital page those come from PDFium's path objects, on a scan only the
pixels hold them. A rule is a run of dark pixels at least ``MIN_RULE_WIDTH`` points long on one
pixel row, repeated on at most a few adjacent rows (a rule is thin; letters never make such a
run: they leave gaps between glyphs and words).
"""
from __future__ import annotations

import io
import math
from statistics import median

from ocr_ray.layout.model import Rule
from ocr_ray.layout.table_rule_lines import MIN_RULE_WIDTH
from ocr_ray.ocr_columns import turn

DARK = 160  # grey level (0-255) under which a pixel is ink; JPEG blurs a 0.4 pt rule to mid-grey
MAX_THICKNESS_PT = 2.0  # ``Rule.horizontal``'s own bound
_SAME_EDGE_PX = 2
# the shortest piece of a skewed rule looked for on a row (a 0.4 pt rule at 1.5 degrees: ~15 pt)
PIECE_MIN_PT = 10.0
# a chained piece starts at most this many pixels right of its predecessor's end and one to three
# rows below (or above) it
_CHAIN_GAP_PX = 3
_CHAIN_STEP_PX = 3


def _pieces(gray, min_run: float) -> list[list[int]]:
    """Runs of ink at least ``min_run`` pixels long, each repeated on adjacent rows with the same
    ends merged: [x0, x1, first row, last row]."""
    import numpy as np

    ink = gray < DARK
    padded = np.zeros((ink.shape[0], ink.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = ink
    edges = np.diff(padded, axis=1)
    open_runs: list[list[int]] = []
    done: list[list[int]] = []
    for y in np.flatnonzero(ink.sum(axis=1) >= min_run):
        starts, ends = np.flatnonzero(edges[y] == 1), np.flatnonzero(edges[y] == -1)
        long = (ends - starts) >= min_run
        for x0, x1 in zip(starts[long], ends[long], strict=True):
            for run in open_runs:
                if run[3] == y - 1 and abs(run[0] - x0) <= _SAME_EDGE_PX and abs(run[1] - x1) <= _SAME_EDGE_PX:
                    run[3] = y
                    break
            else:
                open_runs.append([int(x0), int(x1), int(y), int(y)])
        done += [run for run in open_runs if run[3] < y - 1]
        open_runs = [run for run in open_runs if run[3] >= y - 1]
    return done + open_runs


def _chains(pieces: list[list[int]]) -> list[list[list[int]]]:
    """Pieces joined left to right where each next one starts within or just after the previous one,
    ends right of it, and lies one to ``_CHAIN_STEP_PX`` rows below it (or above it: the whole chain
    steps one way)."""
    ordered = sorted(pieces, key=lambda p: (p[0], p[2]))
    used: set[int] = set()
    chains = []
    for i, first in enumerate(ordered):
        if i in used:
            continue
        chain, step = [first], 0
        used.add(i)
        while True:
            last = chain[-1]
            options = []
            for j, piece in enumerate(ordered):
                if j in used or not (last[0] < piece[0] <= last[1] + _CHAIN_GAP_PX and piece[1] > last[1]):
                    continue
                dy = piece[2] - last[2]
                if 1 <= abs(dy) <= _CHAIN_STEP_PX and dy * step >= 0:
                    options.append((abs(dy), piece[0], j, dy))
            if not options:
                break
            _, _, j, dy = min(options)
            step = step or dy
            chain.append(ordered[j])
            used.add(j)
        chains.append(chain)
    return chains


def rules_from_gray(gray, points_per_pixel: float) -> list[Rule]:
    """Horizontal rules of a greyscale image (2-D uint8 array), in PDF points, turned back by the
    page's skew (see the module's docstring)."""
    min_run = MIN_RULE_WIDTH / points_per_pixel
    thin = [p for p in _pieces(gray, PIECE_MIN_PT / points_per_pixel)
            if (p[3] - p[2] + 1) * points_per_pixel <= MAX_THICKNESS_PT]
    lines = []  # (left x, left middle row, right x, right middle row, thickness in rows)
    for chain in _chains(thin):
        left, right = chain[0], chain[-1]
        if right[1] - left[0] < min_run or (len(chain) == 1 and left[1] - left[0] < min_run):
            continue
        lines.append((left[0], (left[2] + left[3] + 1) / 2, right[1], (right[2] + right[3] + 1) / 2,
                      max(p[3] - p[2] + 1 for p in chain)))
    slopes = [math.atan2(y1 - y0, x1 - x0) for x0, y0, x1, y1, _ in lines if y1 != y0]
    angle = median(slopes) if slopes else 0.0
    rules = []
    for x0, y0, x1, y1, rows in lines:
        # the rule's middle turned back about the image's top centre, as the OCR boxes are
        [[tx, ty]] = turn([((x0 + x1) / 2, (y0 + y1) / 2)], angle, gray.shape[1])
        half = math.hypot(x1 - x0, y1 - y0) / 2
        rules.append(Rule(float((tx - half) * points_per_pixel), float((ty - rows / 2) * points_per_pixel),
                          float((tx + half) * points_per_pixel), float((ty + rows / 2) * points_per_pixel)))
    return rules


def rules_from_jpeg(data: bytes, page_width_pt: float) -> list[Rule]:
    """Rules of a rendered page (JPEG bytes) whose width is ``page_width_pt`` points."""
    import numpy as np
    from PIL import Image

    if not data or not page_width_pt:
        return []
    image = Image.open(io.BytesIO(data)).convert("L")
    return rules_from_gray(np.asarray(image), page_width_pt / image.width)
