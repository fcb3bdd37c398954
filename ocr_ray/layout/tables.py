"""Tables from the geometry of a page: ruling lines bound them, gaps between fragments split cells.

A table is the area between two or more horizontal rules of the same extent (booktabs' top, mid
and bottom rules, or \\hline) holding at least two rows of at least two cells. Columns come from
the rows with the most cells; a fragment that covers several columns (\\multicolumn) becomes a
spanning cell. Tables with spanning cells are written as HTML (markdown cannot span), others as
markdown pipe tables.
"""
from __future__ import annotations

import html
from collections import Counter

from ocr_ray.layout.model import Fragment, PageLayout, Rule
from ocr_ray.layout.order import lines_of

MIN_RULE_WIDTH = 40.0
SAME_EDGE = 3.0


def _rule_groups(rules: list[Rule]) -> list[list[Rule]]:
    groups: list[list[Rule]] = []
    for rule in sorted((r for r in rules if r.horizontal and r.x1 - r.x0 >= MIN_RULE_WIDTH), key=lambda r: r.y0):
        for group in groups:
            if abs(group[0].x0 - rule.x0) <= SAME_EDGE and abs(group[0].x1 - rule.x1) <= SAME_EDGE:
                if rule.y0 - group[-1].y1 > 1.0:  # a thick rule drawn as two paths is one rule
                    group.append(rule)
                break
        else:
            groups.append([rule])
    return [g for g in groups if len(g) >= 2]


def _table_rows(fragments: list[Fragment]) -> list[list[Fragment]]:
    """Rows of a table: lines of its full-height fragments, with the small ones (a fraction's
    numerator and denominator, a superscript) put into the row they sit in, not into rows of
    their own that would split the row."""
    if not fragments:
        return []
    heights = sorted(f.y1 - f.y0 for f in fragments)
    median = heights[len(heights) // 2]
    main = [f for f in fragments if f.y1 - f.y0 >= 0.75 * median]
    rows = lines_of(main)
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


def _row_cells(row: list[Fragment]) -> list[tuple[float, float]]:
    """A row's cells as x extents: fragments closer than half an em are one cell (a fraction's
    "−", "1" over "3"; a word and its superscript)."""
    cells: list[list[float]] = []
    for f in sorted(row, key=lambda g: g.x0):
        if cells and f.x0 - cells[-1][1] < 0.5 * max(f.size, 1.0):
            cells[-1][1] = max(cells[-1][1], f.x1)
        else:
            cells.append([f.x0, f.x1])
    return [(a, b) for a, b in cells]


def _columns(rows: list[list[Fragment]]) -> list[tuple[float, float]] | None:
    """Column extents from the rows of the table's usual width: the most common number of cells
    (a row with a split cell, "D" "′" "in ClsTune" "128", does not set the columns)."""
    cells = [_row_cells(row) for row in rows]
    counts = Counter(len(c) for c in cells if len(c) >= 2)
    if not counts:
        return None
    width = max(counts, key=lambda n: (counts[n], n))
    full = [c for c in cells if len(c) == width]
    cols = [(min(c[k][0] for c in full), max(c[k][1] for c in full)) for k in range(width)]
    if any(cols[k][1] >= cols[k + 1][0] for k in range(width - 1)):
        return None
    # a column only some rows fill (a \multirow label "medium" beside the rows of its group): a
    # cell that meets no column is a column of its own
    for row in cells:
        for x0, x1 in row:
            if any(x0 < b and x1 > a for a, b in cols):
                continue
            cols = sorted([*cols, (x0, x1)])
    return cols


def _bounds(cols: list[tuple[float, float]]) -> list[float]:
    """Where one column ends and the next begins: the middle of the gap between them."""
    return [(cols[k][1] + cols[k + 1][0]) / 2 for k in range(len(cols) - 1)]


def _column_of(bounds: list[float], x: float) -> int:
    return sum(1 for b in bounds if x >= b)


def _continues(line: list[Fragment], cols: list[tuple[float, float]], x0: float, x1: float) -> bool:
    """Does a line below the table's last rule still belong to it? Each of its fragments sits
    within the table's columns (not across the gap between two), and none is a line of prose
    running the table's width or a caption."""
    if line[0].text.startswith(("Table", "Figure", "Fig.")):
        return False
    bounds = _bounds(cols)
    for f in line:
        if f.x1 - f.x0 > 0.9 * (x1 - x0):
            return False
        k = _column_of(bounds, f.cx)
        # wider than the rows above is fine (a long label), reaching into a neighbour column is not
        if (k + 1 < len(cols) and f.x1 > cols[k + 1][0]) or (k > 0 and f.x0 < cols[k - 1][1]):
            return False
    return True


def _rows_below(page: PageLayout, rows: list[list[Fragment]], cols, x0: float, x1: float, bottom: float):
    """The rows under the last rule that continue the table (a table whose bottom rule is missing
    or drawn otherwise, or whose body follows a header between two rules): lines in the table's
    columns, at about the table's row pitch, up to the first line that is not one."""
    pitches = [b[0].y0 - a[0].y0 for a, b in zip(rows, rows[1:], strict=False) if b[0].y0 > a[0].y0]
    pitch = sorted(pitches)[len(pitches) // 2] if pitches else 1.6 * max(f.y1 - f.y0 for f in rows[-1])
    below = [f for f in page.fragments if f.kind == "text" and f.cy > bottom and x0 - 3 < f.cx < x1 + 3
             and f.x0 > x0 - 6 and f.x1 < x1 + 6]
    out, last = [], max(f.y1 for f in rows[-1])
    for line in _table_rows(below):
        if min(f.y0 for f in line) - last > 1.6 * pitch or not _continues(line, cols, x0, x1):
            break
        out.append(line)
        last = max(f.y1 for f in line)
    return out


def _underline(f: Fragment, rules: list[Rule], width: float) -> tuple[float, float]:
    """The extent a header cell spans: its own, or that of the short rule just under it (booktabs'
    \cmidrule under a \multicolumn label: "D1" centred over four columns is as wide as its rule)."""
    for r in rules:
        if r.horizontal and f.y1 - 1 <= r.y0 <= f.y1 + 0.8 * f.size and r.x0 - 1 <= f.cx <= r.x1 + 1 \
                and r.x1 - r.x0 < 0.95 * width and r.x1 - r.x0 > f.x1 - f.x0:
            return r.x0, r.x1
    return f.x0, f.x1


def _cells(row: list[Fragment], cols: list[tuple[float, float]], rules: list[Rule] = (),
           width: float = 0.0) -> list[tuple[str, int]]:
    """(text, colspan) per cell of a row, empty cells included."""
    bounds = _bounds(cols)

    slots: dict[int, list[str]] = {}
    spans: dict[int, int] = {}
    for f in row:
        x0, x1 = _underline(f, rules, width) if rules else (f.x0, f.x1)
        first, last = _column_of(bounds, x0 + 1), _column_of(bounds, x1 - 1)
        slots.setdefault(first, []).append(f.text)
        spans[first] = max(spans.get(first, 1), last - first + 1)
    out, k = [], 0
    while k < len(cols):
        # a cell spans up to the next cell that has text of its own: no text is ever swallowed
        span = min([spans.get(k, 1)] + [j - k for j in slots if j > k])
        out.append((" ".join(slots.get(k, [])), span))
        k += span
    return out


def _colspan(span: int) -> str:
    return f' colspan="{span}"' if span > 1 else ""


def render_table(grid: list[list[tuple[str, int]]]) -> str:
    if any(span > 1 for row in grid for _, span in row):
        lines = ["<table>"]
        for r, row in enumerate(grid):
            tag = "th" if r == 0 else "td"
            cells = "".join(f"<{tag}{_colspan(span)}>{html.escape(text)}</{tag}>" for text, span in row)
            lines.append(f"<tr>{cells}</tr>")
        lines.append("</table>")
        return "\n".join(lines)
    texts = [[text.replace("|", "\\|") for text, _ in row] for row in grid]
    out = ["| " + " | ".join(texts[0]) + " |", "|" + "---|" * len(texts[0])]
    out += ["| " + " | ".join(row) + " |" for row in texts[1:]]
    return "\n".join(out)


def extract_tables(page: PageLayout) -> None:
    """Replace the fragments of each table on ``page`` by one fragment of ``kind="table"``."""
    for group in _rule_groups(page.rules):
        top, bottom = group[0].y0, group[-1].y1
        x0, x1 = min(r.x0 for r in group), max(r.x1 for r in group)
        inside = [f for f in page.fragments if f.kind == "text" and top < f.cy < bottom and x0 - 3 < f.cx < x1 + 3]
        rows = _table_rows(inside)
        cols = _columns(rows) if rows else None
        if cols is None:
            continue
        more = _rows_below(page, rows, cols, x0, x1, bottom)
        if len(rows) + len(more) < 2:
            continue
        if more:  # the columns again, from every row now
            rows += more
            inside += [f for line in more for f in line]
            bottom = max(bottom, *(f.y1 for f in inside))
            cols = _columns(rows) or cols
        grid = [_cells(row, cols, page.rules, x1 - x0) for row in rows]
        size = min(f.size for f in inside)
        chosen = set(map(id, inside))
        page.fragments = [f for f in page.fragments if id(f) not in chosen]
        page.fragments.append(Fragment(x0, top, x1, bottom, render_table(grid), size, kind="table"))
