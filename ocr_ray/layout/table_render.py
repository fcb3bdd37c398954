"""A table's grid written out: a markdown pipe table, or HTML where a cell spans columns
(``colspan``: a ``\\multicolumn`` label) or rows (``rowspan``: a ``\\multirow`` label), which
markdown cannot write."""
from __future__ import annotations

import html

from ocr_ray.layout.model import Fragment
from ocr_ray.layout.table_grid import bounds, column_of


def row_spans(rows: list[list[Fragment]], grid: list[list[tuple[str, int]]], cols: list[tuple[float, float]],
              tall: dict[int, int]) -> dict[tuple[int, int], int]:
    """(row, column) -> rows of each ``\\multirow`` label (``tall``: id -> rows, from
    ``multi_line_rows``) set over rows whose cells in its column are empty (never over text)."""
    limits, out = bounds(cols), {}
    for r, row in enumerate(rows):
        for f in row:
            if id(f) not in tall:
                continue
            c = column_of(limits, f.x0 + 1)  # as ``_cells`` places it
            n = 1
            while n < tall[id(f)] and r + n < len(grid) and _cell_at(grid[r + n], c) == ("", 1):
                n += 1
            if n > 1 and _cell_at(grid[r], c) is not None and _cell_at(grid[r], c)[1] == 1:
                out[(r, c)] = n
    return out


def cell_starts(row: list[tuple[str, int]]) -> dict[int, tuple[str, int]]:
    """Column -> the cell of a grid row that starts there (a column a spanning cell covers has none)."""
    out, c = {}, 0
    for cell in row:
        out[c] = cell
        c += cell[1]
    return out


def _cell_at(row: list[tuple[str, int]], column: int) -> tuple[str, int] | None:
    """The cell of a grid row that starts at ``column`` (None: a spanning cell covers it)."""
    return cell_starts(row).get(column)


def _colspan(span: int) -> str:
    return f' colspan="{span}"' if span > 1 else ""


def _rowspan(span: int) -> str:
    return f' rowspan="{span}"' if span > 1 else ""


def _escape(text: str) -> str:
    """A cell's text for HTML: escaped, but for the superscript marks ``pdftext`` put in it; a pipe
    as its character reference, so that no reader takes the row for a line of a pipe table."""
    return html.escape(text).replace("&lt;sup&gt;", "<sup>").replace("&lt;/sup&gt;", "</sup>").replace("|", "&#124;")


def render_table(grid: list[list[tuple[str, int]]], rowspans: dict[tuple[int, int], int] | None = None) -> str:
    """Markdown, or HTML when a cell spans columns (``colspan``) or rows (``rowspans``: (row, first
    column) -> rows, the cells it covers below empty), or holds a ``|`` (``$|C|$``, a norm): readers
    of pipe tables that split a row at every pipe (olmOCR-Bench's among them) take an escaped ``\|``
    for a cell's edge, which shifts every cell after it."""
    rowspans = rowspans or {}
    if rowspans or any(span > 1 or "|" in text for row in grid for text, span in row):
        lines, covered = ["<table>"], set()
        for r, row in enumerate(grid):
            tag, cells, c = "th" if r == 0 else "td", [], 0
            for text, span in row:
                if (r, c) not in covered:
                    down = rowspans.get((r, c), 1)
                    covered.update((r + k, c) for k in range(1, down))
                    cells.append(f"<{tag}{_colspan(span)}{_rowspan(down)}>{_escape(text)}</{tag}>")
                c += span
            lines.append(f"<tr>{''.join(cells)}</tr>")
        lines.append("</table>")
        return "\n".join(lines)
    texts = [[text for text, _ in row] for row in grid]
    out = ["| " + " | ".join(texts[0]) + " |", "|" + "---|" * len(texts[0])]
    out += ["| " + " | ".join(row) + " |" for row in texts[1:]]
    return "\n".join(out)
