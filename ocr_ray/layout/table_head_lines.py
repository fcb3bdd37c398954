"""A table header's lines: the lines of wrapped head cells joined into one row, a second header row
(units under their quantities, a second word row) kept a row of its own. Moved out of ``table_grid``
(rows and columns), which was over the module size; ``table_lines`` uses ``continues_cell`` and
``in_brackets`` for body cells' next lines."""
from __future__ import annotations

from collections import Counter

from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_grid import bounds, column_of

MAX_HEAD_LINES = 4  # lines of one wrapped header cell


def join_head_lines(rows: list[list[Fragment]], head: int, cols: list[tuple[float, float]],
                    rules: list[Rule]) -> tuple[list[list[Fragment]], int]:
    """The header's lines (the first ``head`` rows, above the header rule) joined into one row where
    they are the lines of wrapped cells (a ``p{..}`` head, ``\\\\shortstack``, a nested ``tabular``
    as ``\\\\makecell`` sets it): runs of lines with no rule between them (a ``\\\\cmidrule`` under
    group labels) and no cell over two columns (a ``\\\\multicolumn`` group label: a header of two
    levels, each a row). A joined cell reads its lines top to bottom. Returns (rows, new head)."""
    if head < 2:
        return rows, head
    limits = bounds(cols)

    def col(f: Fragment) -> int:
        return column_of(limits, f.x0 + 1)

    def spanning(row: list[Fragment]) -> bool:
        return any(col(f) != column_of(limits, f.x1 - 1) for f in row)

    def ruled(a: list[Fragment], b: list[Fragment]) -> bool:
        lo, hi = max(f.y1 for f in a) - 1, min(f.y0 for f in b) + 1
        return any(r.horizontal and lo <= r.y0 <= hi and r.x0 < cols[-1][1] and r.x1 > cols[0][0] for r in rules)

    out: list[list[Fragment]] = []
    run: list[list[Fragment]] = []
    for i, row in enumerate(rows[:head] + [None]):
        if row is not None and not spanning(row) and run and not ruled(run[-1], row):
            carried, row = _second_row(run, row, col, rows[i + 1] if i + 1 < head else None)
            if row is None:
                run.append(carried)
                continue
            run[-1] = run[-1] + carried  # a wrapped cell's next line beside the second row's cells
        elif row is not None and not spanning(row) and not run:
            run.append(row)
            continue
        if run:
            # header cells of a few lines each, over two columns or more; not a boxed listing or
            # paragraph taken for a table (its lines down one column, many of them)
            lines = Counter(col(f) for line in run for f in line)
            if len(lines) >= 2 and max(lines.values()) <= MAX_HEAD_LINES:
                out.append(sorted((f for line in run for f in line), key=lambda f: (col(f), f.cy)))
            else:
                out += run
            run = []
        if row is not None:
            if spanning(row):
                out.append(row)
            else:
                run = [row]
    return out + rows[head:], len(out)


def continues_cell(upper: list[Fragment], f: Fragment) -> bool:
    """Is ``f`` the next line of the cell above it: the line above breaks a word ("to-"), or ``f``
    goes on in lower case from the same left edge (a ``p{..}`` cell's lines), or closes a bracket
    the line above left open from the same left edge (a citation broken in a row label)?"""
    return any(u.text.endswith("-") or (abs(u.x0 - f.x0) < 1.0 and (f.text[:1].islower() or in_brackets(u.text, f.text)))
               for u in upper)


def in_brackets(upper: str, text: str) -> bool:
    """Does ``text`` go on inside a bracket ``upper`` opened: ``upper`` leaves a "(" or "[" open and
    the first bracket of ``text`` closes it ("SAS / SAE-TS [Bayat et al.," / "2025, Chalnev et
    al., 2024]")? A new cell opens no bracket it did not close."""
    depth = 0
    for ch in upper:
        depth += ch in "([" and 1 or ch in ")]" and -1 or 0
    first = next((ch for ch in text if ch in "()[]"), "")
    return depth > 0 and first in ")]"


def _second_row(upper: list[list[Fragment]], lower: list[Fragment], col,
                after: list[Fragment] | None = None) -> tuple[list[Fragment], list[Fragment] | None]:
    """A header line under the lines ``upper`` (a run of one row so far): the next lines of wrapped
    cells (returns (lower, None)), or a header row of its own, printed as one (units "(%)" "(ms)"
    under their quantities, a second word row): it has a line in most columns the run has besides
    the label column (or in every column, the label column too), two at least,
    and most of them do not continue the cell above. Returns (the lines that continue a cell above,
    the second row's other cells)."""
    if _written_within(upper, lower, col):
        return lower, None
    if _written_after(upper, lower, col):
        return [], lower
    above: dict[int, list[Fragment]] = {}
    for f in (f for line in upper for f in line):
        above.setdefault(col(f), []).append(f)
    # the label column counts where the line under has a line in every column (a unit row of a
    # table with no label column, ``Time & Memory \\ (s) & (GB)``: "Time (s)" was one cell)
    every = len(above) >= 2 and set(above) <= {col(f) for f in lower}
    named = set(above) if every else {c for c in above if c > 0}
    if len({col(f) for f in lower}) >= 2 and not any(col(f) in above for f in [*lower, *(after or [])]):
        # cells of two columns or more, none under a line of the run, nor the header line after
        # them: no cell's next line, a row of its own (the column heads under \multirow labels TeX
        # centred on both rows: "Method" ... "Avg." over "Acc F1"). One cell alone, or cells whose
        # next line goes on under the run ("Filtering" "ImageNet" centred between "Training" and
        # "dataset size"), are one-line cells centred beside wrapped ones
        return [], lower
    if all(f.seq < 0 for f in (*lower, *(u for line in upper for u in line))) and all(
            min(f.y0 - u.y1 - 0.5 * (u.y1 - u.y0) for u in above[col(f)]) < 0 for f in lower if col(f) in above):
        # no text stream (an OCR'd page): nothing tells a stacked cell from a unit row set right
        # under its heads; a reader of the page sees "BMC" over "(g)" as one heading (a scanned
        # report's "Area (cm²)" header was two rows, neither the heading its column's tests name).
        # A line set further down is a row of its own, as on the text layer (the check below)
        return lower, None
    shared = [f for f in lower if col(f) in named]
    cells = {col(f) for f in shared}
    # a cell's next line is right under it, at the cell's line pitch: a line set further down is the
    # next row's (a unit "ms" under "Latency" where the rows are padded apart, reportlab's cells)
    going_on = [f for f in shared if continues_cell(above[col(f)], f)
                and min(f.y0 - u.y1 - 0.5 * (u.y1 - u.y0) for u in above[col(f)]) < 0]
    if len(cells) < 2 or 3 * len(cells) < 2 * len(named) or 2 * len(going_on) >= len(shared):
        return lower, None
    return going_on, [f for f in lower if f not in going_on]


def _written_within(upper: list[list[Fragment]], lower: list[Fragment], col) -> bool:
    """Was the header line ``lower`` written inside the row of the lines above it: one of its
    fragments comes in the text stream (``Fragment.seq``) before a fragment wholly above it in a
    column to its right? pdfTeX writes a row's cells left to right, each whole, so the lines of a
    stacked cell (``\\begin{tabular}{c}Top-1\\\\Acc.\\end{tabular}``, ``\\makecell``,
    ``\\shortstack``) come one after the other before the next column's; a second header row comes
    after every cell of the first. (Set on the page, the two are alike to a tenth of a point, a
    ``\\multirow`` label centred beside the second row as a one-line cell beside the stack.)"""
    return any(0 <= f.seq < u.seq and col(u) > col(f) and u.y1 <= f.y0 + 0.5
               for f in lower for line in upper for u in line)


def _written_after(upper: list[list[Fragment]], lower: list[Fragment], col) -> bool:
    """Was every fragment of the header line ``lower`` written after a fragment of the lines above
    that stands wholly above it in a column to its right: a second header row, which TeX writes
    after every cell of the first (``\\textbf{Training} & \\textbf{Method} & .. \\\\
    \\textbf{Data Unseen} & & ..``), not the next line of a wrapped cell (written before the next
    column's cells, ``_written_within``)? A line alone in the last column, with no column right of
    it, tells nothing."""
    above = [u for line in upper for u in line]
    return bool(lower) and all(
        f.seq >= 0 and any(0 <= u.seq < f.seq and col(u) > col(f) and u.y1 <= f.y0 + 0.5 for u in above)
        for f in lower)
