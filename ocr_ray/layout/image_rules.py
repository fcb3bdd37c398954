"""Ruling lines seen on a page image, for pages read by OCR (scans carry no path objects).

The tables step (``ocr_ray.layout.tables``) finds a table between two or more horizontal rules of
the same extent; on a born-digital page those come from PDFium's path objects, on a scan only the
pixels hold them. A rule is a run of dark pixels at least ``MIN_RULE_WIDTH`` points long on one
pixel row, repeated on at most a few adjacent rows (a rule is thin; letters never make such a
run: they leave gaps between glyphs and words).
"""
from __future__ import annotations

import io

from ocr_ray.layout.model import Rule
from ocr_ray.layout.tables import MIN_RULE_WIDTH

DARK = 160  # grey level (0-255) under which a pixel is ink; JPEG blurs a 0.4 pt rule to mid-grey
MAX_THICKNESS_PT = 2.0  # ``Rule.horizontal``'s own bound
_SAME_EDGE_PX = 2


def rules_from_gray(gray, points_per_pixel: float) -> list[Rule]:
    """Horizontal rules of a greyscale image (2-D uint8 array), in PDF points."""
    import numpy as np

    min_run = MIN_RULE_WIDTH / points_per_pixel
    ink = gray < DARK
    padded = np.zeros((ink.shape[0], ink.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = ink
    edges = np.diff(padded, axis=1)
    open_runs: list[list[int]] = []  # [x0, x1, first row, last row]
    done: list[list[int]] = []
    for y in np.flatnonzero(ink.sum(axis=1) >= min_run):
        starts, ends = np.flatnonzero(edges[y] == 1), np.flatnonzero(edges[y] == -1)
        for x0, x1 in zip(starts, ends, strict=False):
            if x1 - x0 < min_run:
                continue
            for run in open_runs:
                if run[3] == y - 1 and abs(run[0] - x0) <= _SAME_EDGE_PX and abs(run[1] - x1) <= _SAME_EDGE_PX:
                    run[3] = y
                    break
            else:
                open_runs.append([int(x0), int(x1), int(y), int(y)])
        done += [run for run in open_runs if run[3] < y - 1]
        open_runs = [run for run in open_runs if run[3] >= y - 1]
    rules = []
    for x0, x1, top, bottom in done + open_runs:
        thickness = (bottom - top + 1) * points_per_pixel
        if thickness <= MAX_THICKNESS_PT:
            rules.append(Rule(float(x0 * points_per_pixel), float(top * points_per_pixel),
                              float(x1 * points_per_pixel), float((bottom + 1) * points_per_pixel)))
    return rules


def rules_from_jpeg(data: bytes, page_width_pt: float) -> list[Rule]:
    """Rules of a rendered page (JPEG bytes) whose width is ``page_width_pt`` points."""
    import numpy as np
    from PIL import Image

    if not data or not page_width_pt:
        return []
    image = Image.open(io.BytesIO(data)).convert("L")
    return rules_from_gray(np.asarray(image), page_width_pt / image.width)
