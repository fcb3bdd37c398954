"""A table's rows and columns from its fragments (``tables`` finds where tables are and renders them).

* **rows**: fragments whose vertical centres agree (each compared with the row's first fragment,
  never chained: a ``\\multirow`` label set between two lines would otherwise glue them into one);
  small fragments (a stacked fraction's numerator and denominator, a script) go into the row they
  sit in;
* **columns**: the union of the cells of every row, leaving out spanning cells (a cell that
  covers two or more cells of most other rows: a ``\\multicolumn`` header, or a header whose
  cells pdflatex set closer than a word space apart);
* **multi-line rows** (``\\multirow`` labels, wrapped cells): ``table_lines``; a header's lines
  (wrapped head cells or rows of their own): ``table_head_lines``.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import replace

from ocr_ray.layout.hyphenation import own_hyphen
from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_bridges import split_bridged

ROW_TOLERANCE = 0.4  # centres of one row's fragments differ by less than this share of their height
# A word space at least this wide (in font sizes), or wider than 1.2 times the fragment's narrowest,
# may be the gap between two columns: TeX's word space is 0.33 em (Computer Modern) or 0.25 em
# (Times) in a cell, which is set at its natural width; \tabcolsep = 3 pt leaves 0.6 em. (A typewriter
# space, 0.525 em, passes: a piece cut off that way joins its neighbour again if both fall in one
# column. 0.45 kept one more table test on the real-paper dev set than 0.55: distildoc's Table 13.)
GAP_COLUMN = 0.45
GAP_WIDER = 1.2
ALIGNED = 1.0  # pt: a header cell cut on the body's columns lines up with its cells this closely


def table_rows(fragments: list[Fragment]) -> list[list[Fragment]]:
    """Rows of a table, top to bottom, each left to right."""
    if not fragments:
        return []
    heights = sorted(f.y1 - f.y0 for f in fragments)
    median = heights[len(heights) // 2]
    rows: list[list[Fragment]] = []
    for f in sorted((f for f in fragments if f.y1 - f.y0 >= 0.75 * median), key=lambda g: g.cy):
        if rows:
            first = rows[-1][0]
            if abs(f.cy - first.cy) <= ROW_TOLERANCE * min(f.y1 - f.y0, first.y1 - first.y0):
                rows[-1].append(f)
                continue
        rows.append([f])
    spans = [(min(g.y0 for g in row), max(g.y1 for g in row)) for row in rows]  # kept up to date below
    for f in fragments:
        if f.y1 - f.y0 >= 0.75 * median:
            continue
        inside = [k for k, (y0, y1) in enumerate(spans) if y0 - 1 <= f.cy <= y1 + 1]
        if inside:
            k = inside[0]
            rows[k].append(f)
            spans[k] = (min(spans[k][0], f.y0), max(spans[k][1], f.y1))
        else:
            rows.append([f])
            spans.append((f.y0, f.y1))
    for row in rows:
        row.sort(key=lambda g: g.x0)
    return sorted(rows, key=lambda row: min(g.y0 for g in row))


def row_cells(row: list[Fragment]) -> list[tuple[float, float]]:
    """A row's cells as x extents: fragments closer than half an em are one cell (a fraction's
    "−", "1" over "3"; a word and its superscript)."""
    cells: list[list[float]] = []
    for f in sorted(row, key=lambda g: g.x0):
        # (a piece of a header cut on the column grid, ``split_on_columns``, starts a cell of its own)
        if cells and f.x0 - cells[-1][1] < 0.5 * max(f.size, 1.0) and f.kind != "cell":
            cells[-1][1] = max(cells[-1][1], f.x1)
        else:
            cells.append([f.x0, f.x1])
    return [(a, b) for a, b in cells]


def cells_at_walls(rows: list[list[Fragment]], verticals: list[Rule]) -> list[list[Fragment]]:
    """Each fragment with a drawn column rule between it and the fragment before it in its row
    starts a cell of its own (``kind="cell"``, as ``row_cells`` reads it): a ``|l|r|r|`` table at
    llncs' \\tabcolsep (1.4 pt) sets two heads 0.3 em apart, closer than a cell's own gaps, with the
    rule between them."""
    out = []
    for row in rows:
        line, prev = [], None
        for f in sorted(row, key=lambda g: g.x0):
            if prev is not None and f.kind == "text" and any(
                    prev.x1 - 0.5 <= (r.x0 + r.x1) / 2 <= f.x0 + 0.5 and r.y0 < f.cy < r.y1 for r in verticals):
                f = replace(f, kind="cell")
            line.append(f)
            prev = f if prev is None or f.x1 > prev.x1 else prev
        out.append(line)
    return out


# a value centred in the white between two cells of another row to this many points (either way)
CENTRED = 2.0


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] - 0.5 and a[1] > b[0] + 0.5


def _aligned(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 2 or abs(a[1] - b[1]) < 2 or abs(a[0] + a[1] - b[0] - b[1]) < 4


def _between_two(x0: float, x1: float, starts: list[float], ends: list[float], k: int) -> bool:
    """Is the cell ``x0``..``x1``, which overlaps cell ``k`` of another row, a narrow value centred
    over that cell's column and the next (or the one before), reaching into the white between them
    (``\\multicolumn{2}{c}{450}`` under "120" "340": as narrow as either, it overlaps one)?"""
    for a, b in ((k, k + 1), (k - 1, k)):
        if 0 <= a and b < len(starts) and x0 < starts[b] and x1 > ends[a] + 0.5 \
                and abs(x0 + x1 - starts[a] - ends[b]) <= 4.0:
            return True
    return False


def columns(rows: list[list[Fragment]], head: int = 0) -> list[tuple[float, float]] | None:
    """Column extents: the union of the body rows' cells that span nothing. A cell spans when it
    covers two or more cells of at least half of the other rows that reach under it (a row
    whose one cell is split, "D" "′" "in ClsTune", makes no other row's cell spanning). The
    first ``head`` rows (above the header rule) widen a column only if aligned with its cells
    (left, right or centre: a header wider than its numbers), and add columns no body cell has; a
    label centred over two columns (cheblienet's "ClimateNet") widens none."""
    cells = [row_cells(row) for row in rows]
    if not any(len(c) >= 2 for c in cells):
        return None
    if head >= len(cells):
        head = 0
    body = cells[head:]
    # a row of one text centred on a grid of three or more columns (a \\multicolumn{7}{c}{Zero-shot}
    # group label) is over every column, in none: kept, a label overlapping a bold number by a
    # point joined two columns
    lo, hi = min(c[0][0] for c in body if c), max(c[-1][1] for c in body if c)
    if 2 * sum(1 for row in body if len(row) >= 3) >= len(body):
        body = [row for row in body if len(row) != 1 or abs(row[0][0] + row[0][1] - lo - hi) > 4.0] or body
    # a row's cells are disjoint and sorted: the cells a span overlaps are counted by bisection
    starts = [[a for a, _ in row] for row in body]
    ends = [[b for _, b in row] for row in body]
    keep, kept = [], []  # (kept: each with its row, for ``split_bridged``)
    for r, row in enumerate(body):
        for x0, x1 in row:
            reached = multi = alike = white = sides = 0
            for s in range(len(body)):
                if s != r:
                    k = bisect_right(ends[s], x0 + 0.5)
                    n = bisect_left(starts[s], x1 - 0.5) - k
                    reached += n > 0
                    # in the white between two cells of row s, about as wide as itself (not the wide
                    # white beside a \multirow label's own line)
                    if n == 0 and 0 < k < len(starts[s]) and starts[s][k] - ends[s][k - 1] <= 3 * (x1 - x0):
                        sides += 1
                        white += abs(x0 + x1 - ends[s][k - 1] - starts[s][k]) <= 2.0 * CENTRED
                    multi += n > 1 or n == 1 and _between_two(x0, x1, starts[s], ends[s], k)
                    # a cell centred where this one is: another row spanning the same columns
                    alike += n == 1 and abs(starts[s][k] + ends[s][k] - x0 - x1) <= 2.0
            # (a \multicolumn{2}{c} value in more rows than the two cells it spans have rows of
            # their own: "1279" under "1055" "993", llncs' 1.4 pt \tabcolsep; two such rows at least)
            # (or centred in the white between two columns' cells, row after row: bike-fpga's
            # "1279", "---" over no cell of either column, the columns' boxes wider than their cells)
            if not (multi and 2 * multi >= reached) and not (multi >= 2 and 2 * multi >= reached - alike) \
                    and not (white >= 3 and 3 * white >= 2 * sides and reached - alike <= white):
                keep.append((x0, x1))
                kept.append((x0, x1, r))
    cols: list[list[float]] = []
    for x0, x1 in sorted(keep):
        if cols and x0 < cols[-1][1] - 0.5:
            cols[-1][1] = max(cols[-1][1], x1)
        else:
            cols.append([x0, x1])
    cols = split_bridged(cols, kept)  # (two columns joined by a cell across their gutter)
    for h, row in enumerate(cells[:head]):
        for cell in row:
            # over two cells of a header row below it: a \multicolumn label (riff's "Off-Policy"
            # over "Top-P Beam Mixed", centred on the middle column)
            if any(sum(1 for o in lower if _overlaps(cell, o)) > 1 for lower in cells[h + 1:head]):
                continue
            under = [k for k, col in enumerate(cols) if _overlaps(cell, (col[0], col[1]))]
            if not under and not _over_two(cell, cols):
                cols = sorted([*cols, [cell[0], cell[1]]])
            elif len(under) == 1 and any(_aligned(cell, o) for o in keep if _overlaps(o, cols[under[0]])):
                col = cols[under[0]]
                col[0], col[1] = min(col[0], cell[0]), max(col[1], cell[1])
    return [(a, b) for a, b in cols] if len(cols) >= 2 else None


def _over_two(cell: tuple[float, float], cols: list[list[float]]) -> bool:
    """Is a header cell that no column's cells reach under a label centred over the two columns it
    stands between (``\\multicolumn{2}{c|}{Dev}`` over "EM" and "F1": a short label in the white
    between two columns of numbers), not a column of its own?"""
    for (a0, a1), (b0, b1) in zip(cols, cols[1:], strict=False):
        if a1 - 1 <= cell[0] and cell[1] <= b0 + 1:  # (a point into a column: no overlap, ``_overlaps``)
            return abs((cell[0] + cell[1]) / 2 - (a0 + b1) / 2) <= max(3.0, 0.1 * (b1 - a0))
    return False


def bounds(cols: list[tuple[float, float]]) -> list[float]:
    """Where one column ends and the next begins: the middle of the gap between them."""
    return [(cols[k][1] + cols[k + 1][0]) / 2 for k in range(len(cols) - 1)]


def column_of(limits: list[float], x: float) -> int:
    return sum(1 for b in limits if x >= b)


def split_on_columns(rows: list[list[Fragment]], cols: list[tuple[float, float]],
                     one_cell: Callable[[Fragment], bool] | None = None) -> list[list[Fragment]]:
    """Rows whose fragments that cover two or more columns are cut at the word spaces where one
    column ends and the next begins: a header of tight columns is one fragment (its cells closer than
    ``pdftext.GAP_SPLIT``), the body rows under it give the column grid. A fragment ``one_cell``
    says is one cell stays whole (``table_walls.across_undrawn_wall``)."""
    limits = bounds(cols)
    return [[piece for f in row for piece in ([f] if one_cell and one_cell(f) else _split(f, cols, limits))]
            for row in rows]


def _split(f: Fragment, cols: list[tuple[float, float]], limits: list[float]) -> list[Fragment]:
    words = f.text.split(" ")
    if not f.gaps or len(f.gaps) != len(words) - 1 or column_of(limits, f.x0 + 1) == column_of(limits, f.x1 - 1):
        return [f]
    least = min(b - a for a, b in f.gaps)
    em = max(f.size, 1.0)
    # pieces between the spaces wide enough to be a column gap; each goes to the column it overlaps
    pieces: list[list] = []  # [x0, x1, first word, last word, column]
    start, first = f.x0, 0
    between = _between_columns(f, cols)
    for k, (a, b) in enumerate([*f.gaps, (f.x1, f.x1)]):
        # (or a space where the body's grid puts a column boundary: a header as tight as its body)
        if k < len(f.gaps) and not (b - a >= GAP_COLUMN * em or b - a > GAP_WIDER * least or k in between):
            continue
        overlaps = [min(a, c1) - max(start, c0) for c0, c1 in cols]
        best = max(range(len(cols)), key=overlaps.__getitem__)
        col = best if overlaps[best] > 0 else column_of(limits, (start + a) / 2)
        if pieces and pieces[-1][4] == col:  # a wide space inside one column's text
            pieces[-1][1], pieces[-1][3] = a, k
        else:
            pieces.append([start, a, first, k, col])
        start, first = b, k + 1
    if len(pieces) < 2:
        return [f]
    return [replace(f, x0=x0, x1=x1, text=" ".join(words[w0:w1 + 1]), glyphs=None, gaps=f.gaps[w0:w1] or None,
                    kind="cell") for x0, x1, w0, w1, _ in pieces]


def _between_columns(f: Fragment, cols: list[tuple[float, float]]) -> set[int]:
    """The spaces of a header fragment that part one column's cell from the next one's (names wider
    than their numbers, set closer than 0.45 em). Only a space in the white between two columns'
    cells can (a space inside a name stands over its column's cells), and one per such white: the
    cuts whose pieces line up best with the cells under them (left edges, right edges or centres:
    "Training steps | Batch size | Learning rate" over ``l``, ``l``, ``r`` cells "2000 | 64 | 0.01",
    not "Training | steps Batch"), a tie going to the space nearest the middle of its white."""
    gutters: dict[int, list[int]] = {}
    for k, (a, b) in enumerate(f.gaps):
        for c in range(len(cols) - 1):
            if cols[c][1] - 0.5 <= a and b <= cols[c + 1][0] + 0.5:
                gutters.setdefault(c, []).append(k)
    if not gutters:
        return set()

    def miss(x0: float, x1: float, lo: int, hi: int) -> float:
        c0, c1 = cols[lo][0], cols[hi][1]
        return min(abs(x0 - c0), abs(x1 - c1), abs(x0 + x1 - c0 - c1) / 2)

    # the columns of the first and last words' centres (a head wider than its cells starts left of
    # its column's white: llncs' 1.4 pt \tabcolsep)
    first = sum(1 for c in range(len(cols) - 1) if (f.x0 + f.gaps[0][0]) / 2 >= (cols[c][1] + cols[c + 1][0]) / 2)
    # only the whites between those columns: a space around a maths "=" of the first head may lie
    # in the white left of its column ("|I| = w/2" over "71", columns 2.8 pt apart)
    # (and only the whites the fragment reaches across, from a column's cells into the next one's: the
    # space inside a last head wider than its column, "MOTA ↑", lies in the white after it)
    reach = sum(1 for c0, _ in cols if c0 < f.x1) - 1
    gutters = {c: ks for c, ks in gutters.items() if first <= c < reach}
    if not gutters:
        return set()
    # best[k] = (cost of the pieces up to the cut at space k, the cuts): one gutter after the other
    best: dict[int | None, tuple[float, list[int]]] = {None: (0.0, [])}
    lo = first
    for c in sorted(gutters):
        middle = (cols[c][1] + cols[c + 1][0]) / 2
        step = {}
        for k in gutters[c]:
            a, b = f.gaps[k]
            options = [(cost + miss(f.x0 if j is None else f.gaps[j][1], a, min(lo, c), c)
                        + 0.05 * abs((a + b) / 2 - middle), cuts + [k]) for j, (cost, cuts) in best.items()]
            step[k] = min(options, key=lambda o: o[0])
        best, lo = step, c + 1
    last = max(lo, min(reach, sum(1 for c in range(len(cols) - 1) if (f.gaps[-1][1] + f.x1) / 2 >= (cols[c][1] + cols[c + 1][0]) / 2)))
    end = min(best.items(), key=lambda kv: kv[1][0] + miss(f.gaps[kv[0]][1], f.x1, min(lo, last), last))
    # every piece set as TeX sets a cell over its column (an edge or the centre within a point);
    # else the spaces are a \multicolumn label's own ("Zero shot accuracy" over three columns)
    cuts, lo = end[1][1], first
    edges = [f.x0, *(x for k in cuts for x in f.gaps[k]), f.x1]
    his = [c for c in sorted(gutters)] + [last]
    for n, hi in enumerate(his):
        if miss(edges[2 * n], edges[2 * n + 1], min(lo, hi), hi) > ALIGNED:
            return set()
        lo = hi + 1
    return set(cuts)


def section_label(row: list[Fragment], cols: list[tuple[float, float]]) -> bool:
    """A row of one text centred on the table: a ``\\multicolumn{n}{c}{Group}`` label naming the
    rows below it, one cell over every column (it was a cell from the column its left end fell in,
    spanning up to where it ended, or the next line of the cell above it)."""
    if len(row) != 1 or len(cols) < 2:
        return False
    f = row[0]
    return abs(f.cx - (cols[0][0] + cols[-1][1]) / 2) <= max(2.0, 0.3 * f.size)


def join_cell_lines(texts: list[str]) -> str:
    """A cell's lines as one text; a word TeX hyphenated at a line end ("to-" "kens") joined again,
    a word's own hyphen kept (``hyphenation.own_hyphen``)."""
    out = ""
    for text in texts:
        if out.endswith("-") and out[-2:-1].isalpha() and text[:1].islower():
            left = out.rsplit(" ", 1)[-1][:-1]
            out = out + text if own_hyphen(left, text.split(" ")[0]) else out[:-1] + text
        else:
            out = f"{out} {text}" if out else text
    return out
