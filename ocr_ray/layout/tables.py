"""Tables from the geometry of a page: ruling lines bound them, gaps between fragments split cells.

A table is the area between two or more horizontal rules of the same extent (booktabs' top, mid
and bottom rules, or \\hline) holding at least two rows of at least two cells. Columns come from
the rows with the most cells; a fragment that covers several columns (\\multicolumn) becomes a
spanning cell. Tables with spanning cells are written as HTML (markdown cannot span), others as
markdown pipe tables.
"""
from __future__ import annotations

import html

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


def _columns(rows: list[list[Fragment]]) -> list[tuple[float, float]] | None:
    width = max(len(row) for row in rows)
    full = [row for row in rows if len(row) == width]
    if width < 2:
        return None
    cols = [(min(row[k].x0 for row in full), max(row[k].x1 for row in full)) for k in range(width)]
    if any(cols[k][1] >= cols[k + 1][0] for k in range(width - 1)):
        return None
    return cols


def _cells(row: list[Fragment], cols: list[tuple[float, float]]) -> list[tuple[str, int]]:
    """(text, colspan) per cell of a row, empty cells included."""
    bounds = [(cols[k][1] + cols[k + 1][0]) / 2 for k in range(len(cols) - 1)]

    def column_of(x: float) -> int:
        return sum(1 for b in bounds if x >= b)

    slots: dict[int, list[str]] = {}
    spans: dict[int, int] = {}
    for f in row:
        first, last = column_of(f.x0 + 1), column_of(f.x1 - 1)
        slots.setdefault(first, []).append(f.text)
        spans[first] = max(spans.get(first, 1), last - first + 1)
    out, k = [], 0
    while k < len(cols):
        span = spans.get(k, 1)
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
        rows = lines_of(inside)
        if len(rows) < 2:
            continue
        cols = _columns(rows)
        if cols is None:
            continue
        grid = [_cells(row, cols) for row in rows]
        size = min(f.size for f in inside)
        chosen = set(map(id, inside))
        page.fragments = [f for f in page.fragments if id(f) not in chosen]
        page.fragments.append(Fragment(x0, top, x1, bottom, render_table(grid), size, kind="table"))
