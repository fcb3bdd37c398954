"""Figure grids typeset as tables: pictures in aligned columns with their labels.

A paper often sets a grid of pictures with a ``tabular`` (muse: "Input | Iteration 25 | ..." under
a row of edits; "Cardinality" over three pictures, their prompts under them). The text of such a
grid is a table: its columns are the pictures' columns, its rows the bands of labels above,
between and below the rows of pictures (lines closer than a line's height are one band; a cell's
lines are joined), and a label centred over several pictures spans them. Numbered sub-captions
("(a) Hopper") are no grid: they belong to their figure's caption.
"""
from __future__ import annotations

import re

from ocr_ray.layout.model import Fragment, PageLayout, Rule, top_down_groups

SAME = 3.0  # points: pictures of one row share top and bottom, pictures of one column left and right
_SUBCAPTION = re.compile(r"^\(?[a-z]\)(\s|$)")


def _picture_rows(images: list[Rule]) -> list[list[Rule]]:
    rows: list[list[Rule]] = []
    for box in sorted(images, key=lambda b: (b.y0, b.x0)):
        for row in rows:
            if abs(row[0].y0 - box.y0) <= SAME and abs(row[0].y1 - box.y1) <= SAME:
                if all(box.x0 >= b.x1 - 1 or box.x1 <= b.x0 + 1 for b in row):
                    row.append(box)
                break
        else:
            rows.append([box])
    return [sorted(r, key=lambda b: b.x0) for r in rows if len(r) >= 2]


def _strip(box: Rule, fragments: list[Fragment]) -> list[Rule]:
    """One picture that is a strip of k >= 3 equal frames, told by a label under (or over) each
    frame: k short labels in one line, their starts equally spaced, k spacings as wide as the
    picture (muse Figure 12: "Input | Iteration 25 | ... | Iteration 100" under five edits).
    The frames as boxes, or [] for any other picture."""
    near = [f for f in fragments if f.kind == "text" and box.x0 - SAME <= f.x0 and f.x1 <= box.x1 + SAME
            and (0 <= f.y0 - box.y1 < 2 * (f.y1 - f.y0) or 0 <= box.y0 - f.y1 < 2 * (f.y1 - f.y0))]
    if len(near) < 3:
        return []
    line = sorted((f for f in near if abs(f.cy - near[0].cy) < 0.5 * (f.y1 - f.y0)), key=lambda f: f.x0)
    k, width = len(line), box.x1 - box.x0
    steps = [b.x0 - a.x0 for a, b in zip(line, line[1:], strict=False)]
    if k < 3 or len(line) != len(near) or max(steps) - min(steps) > 2 or abs(k * sum(steps) / len(steps) - width) > 0.05 * width \
            or any(f.x1 - f.x0 >= min(steps) for f in line):
        return []
    return [Rule(box.x0 + i * width / k, box.y0, box.x0 + (i + 1) * width / k, box.y1) for i in range(k)]


def _grids(images: list[Rule]) -> list[list[list[Rule]]]:
    """Consecutive picture rows with the same columns form one grid."""
    grids: list[list[list[Rule]]] = []
    for row in _picture_rows(images):
        last = grids[-1][-1] if grids else None
        if last and len(last) == len(row) and all(abs(a.x0 - b.x0) <= SAME and abs(a.x1 - b.x1) <= SAME
                                                  for a, b in zip(last, row, strict=False)):
            grids[-1].append(row)
        else:
            grids.append([row])
    return grids


def _bands(lines: list[Fragment], height: float) -> list[list[Fragment]]:
    """Fragments cut into bands where a vertical gap of a line's height or more separates them."""
    return top_down_groups(lines, lambda f, bottom: f.y0 - bottom < 0.8 * height)


def _join(parts: list[str]) -> str:
    out = ""
    for part in parts:
        if out.endswith("-") and part[:1].islower() and len(out) > 1 and out[-2].isalpha():
            out = out[:-1] + part
        else:
            out = f"{out} {part}" if out else part
    return out


def _across(f: Fragment, cols: list[tuple[float, float]]) -> bool:
    """A line across two or more columns that is not centred on them: prose, not a label."""
    over = [k for k, (a, b) in enumerate(cols) if f.x0 < b - SAME and f.x1 > a + SAME]
    return len(over) >= 2 and abs((cols[over[0]][0] + cols[over[-1]][1]) / 2 - f.cx) > 2 * SAME


def _span(f: Fragment, cols: list[tuple[float, float]], band: list[Fragment]) -> tuple[int, int]:
    """First and last column of a label: those it overlaps; a label centred over a run of columns
    no other label of its band reaches spans the widest such run."""
    over = [k for k, (a, b) in enumerate(cols) if f.x0 < b - SAME and f.x1 > a + SAME] or [
        min(range(len(cols)), key=lambda k: abs((cols[k][0] + cols[k][1]) / 2 - f.cx))]
    first, last = over[0], over[-1]
    others = [g for g in band if g is not f]
    best = (first, last)
    for lo in range(0, first + 1):
        for hi in range(last, len(cols)):
            centre = (cols[lo][0] + cols[hi][1]) / 2
            free = not any(g.x0 < cols[hi][1] and g.x1 > cols[lo][0] for g in others)
            if free and abs(centre - f.cx) <= SAME and hi - lo > best[1] - best[0]:
                best = (lo, hi)
    return best


def _labels_in_rows(page: PageLayout, bands: list[list[Fragment]]) -> None:
    """Numbered sub-captions under a grid's pictures ("(a) Input" "(b) Ours" "(c) Truth", a row of
    pictures and another row of them with "(d)".."(f)") are text of the figure, read row by row as
    a reader reads them: a band of one-line labels becomes one line, left to right (read column
    by column between the pictures' columns, "(a) Input (d) Noisy" came before "(b) Ours"). A band
    of labels on two or more lines stays as it is: each label's lines are read whole, one label
    after the other (bike-fpga's "(a) Primitive operation pipelining for / continuous square")."""
    for band in bands:
        lines = top_down_groups(band, lambda f, bottom: f.y0 < bottom - 0.5 * (f.y1 - f.y0))
        if len(lines) != 1:
            continue
        line = sorted(lines[0], key=lambda f: f.x0)
        used = {id(f) for f in line}
        page.fragments = [f for f in page.fragments if id(f) not in used]
        page.fragments.append(Fragment(line[0].x0, min(f.y0 for f in line), max(f.x1 for f in line),
                                       max(f.y1 for f in line), " ".join(f.text for f in line),
                                       min(f.size for f in line), all(f.bold for f in line)))


def _row_labels(page: PageLayout, grid: list[list[Rule]]) -> list[Fragment]:
    """Row labels left of a grid's pictures ("Scene 1" beside its row, set on the pictures' baseline
    by ``tabular``): short texts left of the first picture, within a picture row's height, in two
    or more rows; else none."""
    left = grid[0][0].x0
    labels = [f for f in page.fragments if f.kind == "text" and f.x1 <= left and f.x0 >= left - 0.3 * page.width
              and len(f.text.split()) <= 5 and any(row[0].y0 <= f.cy <= row[0].y1 for row in grid)]
    rows = {k for k, row in enumerate(grid) for f in labels if row[0].y0 <= f.cy <= row[0].y1}
    return labels if len(rows) >= 2 else []


def extract_figure_grids(page: PageLayout) -> list[Fragment]:
    """Replace the labels of each figure grid on ``page`` by one ``kind="table"`` fragment (returned)."""
    from ocr_ray.layout.floats import CAPTION
    from ocr_ray.layout.table_render import render_table

    made = []
    pictures = []
    for box in page.images:
        pictures += (_strip(box, page.fragments) if box.x1 - box.x0 >= 150 else []) or [box]
    for grid in _grids(pictures):
        first, last = grid[0], grid[-1]
        cols = [(b.x0, b.x1) for b in first]
        labels = _row_labels(page, grid)
        if labels:  # (a column of its own, left of the pictures)
            cols.insert(0, (min(f.x0 for f in labels), max(f.x1 for f in labels)))
        left, right = cols[0][0] - SAME, cols[-1][1] + SAME
        # (text inside a picture is the picture's own: a plot's tick labels)
        texts = [f for f in page.fragments if f.kind == "text" and f.x0 >= left and f.x1 <= right
                 and not any(b.x0 <= f.cx <= b.x1 and b.y0 <= f.cy <= b.y1 for b in page.images)]
        if not texts:
            continue
        heights = sorted(f.y1 - f.y0 for f in texts)
        height = heights[len(heights) // 2]
        inside = [f for f in texts if first[0].y0 - 3 * height < f.cy < last[0].y1 + 6 * height]
        # labels: between the picture rows, and the bands touching the grid above and below
        bands = _bands(inside, height)
        chosen: list[list[Fragment]] = []
        for band in bands:
            top, bottom = min(f.y0 for f in band), max(f.y1 for f in band)
            within = first[0].y0 <= top and bottom <= last[0].y1 + 0.4 * height  # (a label's descenders)
            above = bottom <= first[0].y0 and first[0].y0 - bottom < height
            below = top >= last[0].y1 and top - last[0].y1 < 2 * height
            if (within or above or below) and not any(CAPTION.match(f.text) or _across(f, cols) for f in band):
                chosen.append(band)
        if not chosen:
            continue
        if any(_SUBCAPTION.match(f.text) for band in chosen for f in band):
            _labels_in_rows(page, chosen)
            continue
        rows = []
        for band in chosen:
            cells: dict[int, list[Fragment]] = {}
            spans: dict[int, int] = {}
            for f in band:
                lo, hi = _span(f, cols, band)
                cells.setdefault(lo, []).append(f)
                spans[lo] = max(spans.get(lo, 1), hi - lo + 1)
            row, k = [], 0
            while k < len(cols):
                span = min([spans.get(k, 1)] + [j - k for j in cells if j > k])
                row.append((_join([g.text for g in sorted(cells.get(k, []), key=lambda g: (round(g.y0), g.x0))]), span))
                k += span
            rows.append(row)
        if not any(sum(1 for text, _ in row if text) >= 2 for row in rows):
            continue
        used = {id(f) for band in chosen for f in band}
        page.fragments = [f for f in page.fragments if id(f) not in used]
        top = min(min(f.y0 for band in chosen for f in band), first[0].y0)
        bottom = max(max(f.y1 for band in chosen for f in band), last[0].y1)
        size = min(f.size for band in chosen for f in band)
        table = Fragment(cols[0][0], top, cols[-1][1], bottom, render_table(rows), size, kind="table")
        page.fragments.append(table)
        made.append(table)
    return made
