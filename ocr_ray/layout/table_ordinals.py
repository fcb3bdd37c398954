"""Row numbers set apart from the labels they number: a budget's "1." "Department of Agriculture",
"2." "Department of Agricultural Research" under one head ("Ministry/Demand"), with group rows
whose labels start at the numbers' edge and run on over the labels' column ("MINISTRY OF
AGRICULTURE" over "1." and "Department ..."). Read as two columns, every group label spans both
(HTML ``colspan``), and readers that do not widen a spanned row (olmOCR-Bench's among them) shift
every cell after the label by one column: the group's totals stood under the next column's head.
The numbers are the labels' own (a numbered list inside the label column): one cell with them,
and the group labels then span nothing. A column with a head of its own ("Sl. No.") is a column,
and a column of bare numbers (a serial "1" "2") is left as it is."""
from __future__ import annotations

import re

from ocr_ray.layout.table_render import cell_starts

# "1." "12." "(a)" "b)" "iv." : a list's number, its punctuation kept (a bare "1" is a serial column's)
_ORDINAL = re.compile(r"^(\(?(\d{1,3}|[ivx]{1,5}|[a-z])[.)]|\((\d{1,3}|[ivx]{1,5}|[a-z])\))$", re.IGNORECASE)
MIN_NUMBERED = 3  # numbered rows: fewer is no list


def _numbered_column(grid: list[list[tuple[str, int]]], head: int, k: int) -> bool:
    """Column ``k`` holds only list numbers, each beside a label in ``k + 1``, and group labels that
    start in it and span ``k + 1`` (at least one: else nothing is shifted and nothing is done); no
    head of its own."""
    numbered = groups = 0
    for r, row in enumerate(grid):
        starts = cell_starts(row)
        cell = starts.get(k)
        if cell is None:  # inside a cell spanning from the left
            return False
        text, span = cell
        if r < head:
            if text.strip() and span == 1:  # "Sl. No.": the column's own head
                return False
            continue
        if span >= 2:
            groups += bool(text.strip())
        elif text.strip():
            if not _ORDINAL.match(text.strip()) or not (k + 1 in starts and starts[k + 1][0].strip()):
                return False
            numbered += 1
    return numbered >= MIN_NUMBERED and groups >= 1


def numbers_into_labels(grid: list[list[tuple[str, int]]], head: int, rowspans: dict[tuple[int, int], int]
                        ) -> tuple[list[list[tuple[str, int]]], dict[tuple[int, int], int]]:
    """The grid with a column of list numbers joined to the labels beside it (see the module), the
    row spans moved with it; as it was where no column is one (or a row span stands in either)."""
    ncols = sum(span for _, span in grid[0]) if grid else 0
    for k in range(ncols - 1):
        if any(c in (k, k + 1) for _, c in rowspans) or not _numbered_column(grid, head, k):
            continue
        out = []
        for row in grid:
            starts, cells = cell_starts(row), []
            for c, (text, span) in sorted(starts.items()):
                if c == k and span >= 2:
                    cells.append((text, span - 1))
                elif c == k:
                    label, wide = starts[k + 1]
                    cells.append((f"{text} {label}".strip() if text.strip() else label, wide))
                elif c != k + 1:  # (k + 1 joined to k above)
                    cells.append((text, span))
            out.append(cells)
        moved = {(r, c - 1 if c > k else c): n for (r, c), n in rowspans.items()}
        return out, moved
    return grid, rowspans
