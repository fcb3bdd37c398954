"""Tables from the geometry of a page: ruling lines bound them, gaps between fragments split cells.

A table is the area between two or more horizontal rules of the same extent (booktabs' top, mid
and bottom rules, or \\hline) holding at least two rows of at least two cells. Columns come from
the rows with the most cells; a fragment that covers several columns (\\multicolumn) becomes a
spanning cell. Tables with spanning cells are written as HTML (markdown cannot span), others as
markdown pipe tables.
"""
from __future__ import annotations

import html
import re

from ocr_ray.layout.model import Fragment, PageLayout, Rule
from ocr_ray.layout.table_grid import (bounds, column_of, columns, join_head_lines, multi_line_rows, split_on_columns,
                                      table_rows)

MIN_RULE_WIDTH = 40.0
# a caption's start: "Table 8:", "Figure 6.", "Fig. 3" (not a cell "Table-filling")
CAPTION = re.compile(r"^(Table|Figure|Fig\.)\s*[A-Z]?\d+[.:]?(\s|$)")
SAME_EDGE = 3.0


def _rule_groups(rules: list[Rule], fragments: list[Fragment]) -> list[tuple[float, float, float, float]]:
    """(top, bottom, left, right) of each table's area: two or more horizontal rules of the same
    extent, cut where a caption or another table's rule lies between two of them (two tables of
    one width stacked: datacomp's Tables 18 and 19, muse's Tables 4 and 5); or one rule crossed by
    vertical rules (a header rule and column rules only, muse's ``\\shline`` tables), whose
    extent the vertical rules give."""
    horizontal = sorted((r for r in rules if r.horizontal and r.x1 - r.x0 >= MIN_RULE_WIDTH), key=lambda r: r.y0)
    groups: list[list[Rule]] = []
    for rule in horizontal:
        for group in groups:
            if abs(group[0].x0 - rule.x0) <= SAME_EDGE and abs(group[0].x1 - rule.x1) <= SAME_EDGE:
                if rule.y0 - group[-1].y1 > 1.0:  # a thick rule drawn as two paths is one rule
                    group.append(rule)
                break
        else:
            groups.append([rule])
    captions = [f for f in fragments if f.text[:1] in "TF" and CAPTION.match(f.text)] if len(horizontal) > 1 else []
    out = []
    for group in groups:
        parts = [[group[0]]]
        for above, below in zip(group, group[1:], strict=False):
            lo, hi, x0, x1 = above.y1, below.y0, above.x0, above.x1
            between = any(other is not group and len(other) >= 2 and all(lo < r.y0 < hi for r in other)
                          and other[0].x0 < x1 and other[0].x1 > x0 for other in groups) or any(
                lo < f.cy < hi and x0 - 3 < f.x0 < x1 for f in captions)
            if between:
                parts.append([below])
            else:
                parts[-1].append(below)
        for part in parts:
            x0, x1 = min(r.x0 for r in part), max(r.x1 for r in part)
            if len(part) >= 2:
                out.append((part[0].y0, part[-1].y1, x0, x1))
                continue
            y = part[0].y0
            crossing = [r for r in rules if r.vertical and x0 < (r.x0 + r.x1) / 2 < x1 and r.y0 < y < r.y1]
            if crossing:
                out.append((min(r.y0 for r in crossing), max(r.y1 for r in crossing), x0, x1))
    return out


def _continues(line: list[Fragment], cols: list[tuple[float, float]], x0: float, x1: float) -> bool:
    """Does a line below the table's last rule still belong to it? Each of its fragments sits
    within the table's columns (not across the gap between two), and none is a line of prose
    running the table's width or a caption."""
    if line[0].text.startswith(("Table", "Figure", "Fig.")):
        return False
    limits = bounds(cols)
    for f in line:
        if f.x1 - f.x0 > 0.9 * (x1 - x0):
            return False
        k = column_of(limits, f.cx)
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
    for line in table_rows(below):
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
    limits = bounds(cols)

    slots: dict[int, list[str]] = {}
    spans: dict[int, int] = {}
    for f in row:
        x0, x1 = _underline(f, rules, width) if rules else (f.x0, f.x1)
        first, last = column_of(limits, x0 + 1), column_of(limits, x1 - 1)
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


def _column_rules_extent(verticals: list[Rule], top: float, bottom: float, x0: float, x1: float) -> tuple[float, float]:
    """The area grown along the table's column rules, drawn row by row (muse's Table 3: its header
    sits above the only horizontal rules, between the segments of the rules between columns)."""
    inside = [r for r in verticals if x0 - 1 < (r.x0 + r.x1) / 2 < x1 + 1]
    grown = True
    while grown:
        grown = False
        for r in inside:
            if r.y0 < top - 1 and r.y1 >= top - 1.5:
                top, grown = r.y0, True
            if r.y1 > bottom + 1 and r.y0 <= bottom + 1.5:
                bottom, grown = r.y1, True
    return top, bottom


def _rotated_heads(page: PageLayout, rows: list[list[Fragment]], top: float, bottom: float, x0: float,
                   x1: float) -> list[Fragment]:
    """The table's rotated column heads (``\\rotatebox{90}``), put in the row they stand on as
    fragments of that row's height (``rows`` changed in place), taken off ``page.rotated``. TeX
    sets a rotated box on the row's baseline: the row is the lowest one the head reaches down into;
    a head in a row of its own gets a line's box at its foot."""
    heads = [r for r in page.rotated if top < r.cy < bottom and x0 - 3 < r.cx < x1 + 3]
    out = []
    for r in heads:
        reached = [row for row in rows if min(f.y0 for f in row) < r.y1 and max(f.y1 for f in row) > r.y0]
        if reached:
            row = max(reached, key=lambda row: min(f.y0 for f in row))
            y0, y1 = row[0].y0, row[0].y1
        else:
            row, y0, y1 = None, r.y1 - 0.7 * r.size, r.y1 + 0.2 * r.size
        head = Fragment(r.x0, y0, r.x1, y1, r.text, r.size, r.bold)
        if row is None:
            rows.append([head])
        else:
            row.append(head)
            row.sort(key=lambda f: f.x0)
        out.append(head)
    if heads:
        rows.sort(key=lambda row: min(f.y0 for f in row))
        used = set(map(id, heads))
        page.rotated = [r for r in page.rotated if id(r) not in used]
    return out


def extract_tables(page: PageLayout) -> None:
    """Replace the fragments of each table on ``page`` by one fragment of ``kind="table"``."""
    verticals = [r for r in page.rules if r.vertical]
    for top, bottom, x0, x1 in _rule_groups(page.rules, page.fragments):
        top, bottom = _column_rules_extent(verticals, top, bottom, x0, x1)
        inside = [f for f in page.fragments if f.kind == "text" and top < f.cy < bottom and x0 - 3 < f.cx < x1 + 3]
        rows = table_rows(inside)
        heads = _rotated_heads(page, rows, top, bottom, x0, x1)
        inside += heads
        inner = [r.y0 for r in page.rules if r.horizontal and top + 2 < r.y0 < bottom - 2 and r.x0 < x1 and r.x1 > x0]
        head = sum(1 for row in rows if inner and max(f.y1 for f in row) < min(inner))
        cols = columns(rows, head) if rows else None
        if cols is None:
            continue
        more = _rows_below(page, rows, cols, x0, x1, bottom)
        if len(rows) + len(more) < 2:
            continue
        if more:  # the columns again, from every row now
            rows += more
            inside += [f for line in more for f in line]
            bottom = max(bottom, *(f.y1 for f in inside))
            cols = columns(rows, head) or cols
        split = split_on_columns(rows, cols)
        if sum(map(len, split)) > sum(map(len, rows)):  # a tight header cut: its cells may widen columns
            rows, cols = split, columns(split, head) or cols
        rows, head = join_head_lines(rows, head, cols, page.rules)
        grid_lines = any(r.vertical and x0 < (r.x0 + r.x1) / 2 < x1 and r.y0 < bottom and r.y1 > top for r in page.rules)
        rows = multi_line_rows(rows, cols, page.rules, grid_lines)
        grid = [_cells(row, cols, page.rules, x1 - x0) for row in rows]
        size = min(f.size for f in inside)
        chosen = set(map(id, inside))
        page.fragments = [f for f in page.fragments if id(f) not in chosen]
        page.fragments.append(Fragment(x0, top, x1, bottom, render_table(grid), size, kind="table"))
