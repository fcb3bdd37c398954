"""Tables set without any rule (no \\toprule, no \\hline: columns parted by white space only),
found from their caption: the lines right under a "Table N" caption (or right over it, where the
style sets captions below) that each hold two or more fragments, line after line at a table's row
pitch, are the table's rows when they make columns (``table_grid.columns``). A table with rules is
found by its rules (``tables``); a caption next to one is left to it."""
from __future__ import annotations

import re

from ocr_ray.layout.floats import CAPTION
from ocr_ray.layout.model import Fragment, PageLayout, Rule
from ocr_ray.layout.table_grid import columns, table_rows
from ocr_ray.layout.table_gutters import cut_at, word_boxes
from ocr_ray.layout.table_head_rule import head_rule_top

MIN_ROWS = 3  # a header and two rows
PROSE_SHARE = 0.4  # a fragment wider than this share of the page is a line of prose, no cell
ROW_GAP = 0.9  # white between two rows of a table, in line heights (its rows are set at \arraystretch 1)
NEAR = 0.15  # how far from a caption (a share of the page's height) a line of prose tells a one-column page
FIRST_GAP = 2.0  # white between the caption and the table's first (last) row: \abovecaptionskip 10 pt


def _lines(fragments: list[Fragment], scan: bool = False) -> list[list[Fragment]]:
    """Fragments on one baseline, top down. ``scan``: an OCR'd page, where a lone digit's box ("1") sits
    a few pixels off its row's: a fragment no taller than the line's first, its centre inside it, joins."""
    lines: list[list[Fragment]] = []
    for f in sorted(fragments, key=lambda f: f.cy):
        first = lines[-1][0] if lines else None
        if first is not None and (abs(f.cy - first.cy) <= 0.4 * min(f.y1 - f.y0, first.y1 - first.y0) or (
                scan and f.y1 - f.y0 <= first.y1 - first.y0 and first.y0 < f.cy < first.y1)):
            lines[-1].append(f)
        else:
            lines.append([f])
    return lines


def _run(lines: list[list[Fragment]], start: float, down: bool, width: float, rules: list[Rule] = ()) -> list[list[Fragment]]:
    """The lines of two or more cells next to ``start`` (a caption's bottom or top), each at most
    ``ROW_GAP`` line heights from the one before; twice that over a rule under the line's cells (one
    rule, an empty row under it: ``\\ \hline \\`` under the ICLR template's header)."""
    ordered = [line for line in lines if (min(f.y0 for f in line) >= start - 1 if down else max(f.y1 for f in line) <= start + 1)]
    ordered.sort(key=lambda line: min(f.y0 for f in line), reverse=not down)
    run, edge = [], start

    def group_label(i: int, y0: float, y1: float) -> bool:
        """A row group's label (``\multicolumn{2}{l}{Encoder-only}``): one text flush with the run's
        first column, a row of cells close beyond it."""
        beyond = ordered[i + 1] if i + 1 < len(ordered) else []
        if len(ordered[i]) != 1 or not run or len(beyond) < 2 \
                or abs(ordered[i][0].x0 - min(f.x0 for line in run for f in line)) > 1.5:
            return False
        b0, b1 = min(f.y0 for f in beyond), max(f.y1 for f in beyond)
        return (b0 - y1 if down else y0 - b1) <= ROW_GAP * (b1 - b0) + 2

    for i, line in enumerate(ordered):
        y0, y1 = min(f.y0 for f in line), max(f.y1 for f in line)
        gap = y0 - edge if down else edge - y1
        label = group_label(i, y0, y1)
        head = len(line) < 2 and not label and (not run if down else bool(run))  # the table's top line, one fragment
        lo, hi = (edge, y0) if down else (y1, edge)
        ruled = bool(run) and any(lo < r.y0 < hi and r.x0 <= min(f.x0 for f in line) and r.x1 >= max(f.x1 for f in line)
                                  for r in rules)
        banded = down and len(run) == 1 and _heads_over(run[0], line)
        if gap > (FIRST_GAP if not run else 2 * ROW_GAP if ruled or banded else ROW_GAP) * (y1 - y0) + 2 \
                or (len(line) < 2 and not head and not label) \
                or any(f.x1 - f.x0 > PROSE_SHARE * width for f in line) or any(CAPTION.match(f.text) for f in line):
            break
        run.append(line)
        edge = y1 if down else y0
        if head and not down:
            break
    run = run if down else run[::-1]
    return run[1:] if run and not _tight_head(run) else run


def _heads_over(top: list[Fragment], line: list[Fragment]) -> bool:
    """Is ``top`` (the line under the caption) a row of heads over ``line``: two or more texts, each
    over a text of ``line``? A word processor pads a head row set on a band of colour (white bold heads
    on a dark fill: Writer's table styles, a web page's padded <th>) further from the body
    than the body's rows are from one another: that white is the band's, the line is still the table's."""
    return len(top) >= 2 and len(line) >= 2 and all(any(f.x0 < g.x1 and g.x0 < f.x1 for g in line) for f in top)


def _tight_head(run: list[list[Fragment]]) -> bool:
    """The run's top line is its header: two or more fragments, or one whose cells are closer than
    pdftext's cut (a browser pads a cell by a pixel or two: "Method MMLU GSM8K HumanEval ARC" one
    fragment) with word spaces to cut it at, reaching from the body's left edge to its right edge
    (a caption's second line starts where the caption does and ends where its words do)."""
    top = run[0]
    if len(top) >= 2:
        return True
    head, body = top[0], [f for line in run[1:] for f in line]
    return bool(head.gaps) and bool(body) and abs(head.x0 - min(f.x0 for f in body)) <= 2 * head.size \
        and abs(head.x1 - max(f.x1 for f in body)) <= 2 * head.size


def _one_column(page: PageLayout, cap: Fragment) -> bool:
    """Two lines of prose across the page's middle near the caption: a one-column page, where a caption
    set flush left (reportlab's, a word processor's) may stand wholly left of the middle over a
    table centred on the page; in a two-column page no line of prose crosses the middle."""
    middle = page.width / 2
    return sum(f.kind == "text" and f.x0 < middle < f.x1 and f.x1 - f.x0 > PROSE_SHARE * page.width
               and abs(f.cy - cap.cy) < NEAR * page.height for f in page.fragments) >= 2


def unruled_boxes(page: PageLayout, ruled: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
    """(top, bottom, left, right) of each table on ``page`` set without rules (see the module's doc)."""
    out = []
    width = page.width
    for cap in (f for f in page.fragments if f.kind == "text" and f.text.startswith("Table") and CAPTION.match(f.text)):
        # a ruled table's caption: a rule area right above or below it
        if any(x0 - 3 < cap.cx < x1 + 3 and (-3 * cap.size < top - cap.y1 < 3 * cap.size or -3 * cap.size < cap.y0 - bottom < 3 * cap.size)
               for top, bottom, x0, x1 in ruled):
            continue
        half = (0.0, width) if _one_column(page, cap) else \
            (0.0, width / 2) if cap.x1 < width / 2 else (width / 2, width) if cap.x0 > width / 2 else (0.0, width)
        near = [f for f in page.fragments if f is not cap and f.kind == "text" and half[0] <= f.cx <= half[1]]
        lines = _lines(near)
        for down, start in ((True, cap.y1), (False, cap.y0)):
            run = _run(lines, start, down, width, [r for r in page.rules if r.horizontal])
            if len(run) < MIN_ROWS or columns(table_rows([f for line in run for f in line])) is None:
                continue
            cells = [f for line in run for f in line]
            out.append((min(f.y0 for f in cells) - 1, max(f.y1 for f in cells) + 1,
                        min(f.x0 for f in cells), max(f.x1 for f in cells)))
            break
    return out


# A table set without rules and without a caption (a tabular inline in the text, in a ``center``):
# no caption says where it is, so only a block that cannot be prose, a list, code or a figure is
# one: three or more lines in a row at a table's row pitch, each of two or more short cells (no
# cell wider than this share of the page: a line of two-column prose is 0.39 of a letter page),
# making three or more columns, two of them (right of the first) numbers in most rows, with no rule
# or picture across the block (a plot's tick labels stand among its axes).
SHORT_SHARE = 0.25
SHORT_WORDS = 5
NUMERIC_SHARE = 2 / 3
# On a scan (a typewritten parts list, a listing: "1  804042-1  Placard") the cells are codes and words,
# not numbers, but a typewriter or a line printer sets each column's cells flush at one place: three
# or more columns whose cells start (or end) within this many line heights of one another in most
# rows make the table there. OCR cuts a line at a column's white only (``ocr_columns``), so two
# words of prose are never two cells; a cell may hold a longer description ("6.00X6 Type III - 4 Ply").
ALIGNED = 0.6
SCAN_SHORT_WORDS = 8


# a number as a table prints one: "71.2", "1,024", "-0.3", "85.6%", "12.1 ± 0.4", "3.2x", "(0.4)", "~5k"
NUMBER = re.compile(r"[~≈<>±+\-−–(]*\d[\d.,]*(\s*(±|\+/-)\s*\d[\d.,]*)?\s*[%x×kKMB]?[*†‡]?\)?")


def _numeric(text: str) -> bool:
    return bool(NUMBER.fullmatch(text.strip()))


def _short(line: list[Fragment], width: float, words: int = SHORT_WORDS) -> bool:
    return len(line) >= 2 and all(f.x1 - f.x0 <= SHORT_SHARE * width and len(f.text.split()) <= words
                                  and not CAPTION.match(f.text) for f in line)


def _aligned_columns(rows: list[list[Fragment]], cols: list[tuple[float, float]]) -> bool:
    """Three or more columns each holding, in most rows below the first, a cell that starts (or ends)
    where the column's other cells do (see ``ALIGNED``)."""
    body = rows[1:]
    flush = 0
    for a, b in cols:
        cells = [f for row in body for f in row if a - 1 <= f.cx <= b + 1]
        if len(cells) < NUMERIC_SHARE * len(body):
            continue
        tol = ALIGNED * max(f.y1 - f.y0 for f in cells)
        lefts, rights = sorted(f.x0 for f in cells), sorted(f.x1 for f in cells)
        mid = len(cells) // 2
        flush += max(sum(abs(x - lefts[mid]) <= tol for x in lefts),
                     sum(abs(x - rights[mid]) <= tol for x in rights)) >= NUMERIC_SHARE * len(body)
    return flush >= 3


EQUATION_NUMBER = re.compile(r"\(\d+(\.\d+)?[a-z]?\)")


def _numbers_in_columns(rows: list[list[Fragment]], cols: list[tuple[float, float]]) -> bool:
    """Two or more columns right of the first hold numbers in most of the rows below the first, and
    the first row is a header (a text in it) or the first column row labels (texts in most rows):
    a matrix of numbers set without delimiters has neither, and an equation number at its right."""
    body = rows[1:]
    numeric = 0
    for a, b in cols[1:]:
        cells = [[f for f in row if a - 1 <= f.cx <= b + 1] for row in body]
        numeric += sum(1 for cell in cells if cell and all(_numeric(f.text) for f in cell)) >= NUMERIC_SHARE * len(body)
    head = any(not _numeric(f.text) for f in rows[0] if f.cx > cols[0][1])
    labels = sum(1 for row in body if row[0].cx <= cols[0][1] + 1 and not _numeric(row[0].text)) >= NUMERIC_SHARE * len(body)
    numbered = any(EQUATION_NUMBER.fullmatch(row[-1].text.strip()) for row in rows)
    # (a display's pieces, its maths set apart: most of their text in maths fonts)
    maths = sum(1 for row in rows for f in row if f.math >= 0.5 and not _numeric(f.text))
    return numeric >= 2 and (head or labels) and not numbered and 3 * maths < sum(map(len, rows))


def captionless_boxes(page: PageLayout, taken: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
    """(top, bottom, left, right) of each table on ``page`` set with neither rules nor a caption
    (see ``SHORT_SHARE``), outside the tables found already (``taken``); in each half of the page,
    then across it."""
    width, out = page.width, []

    def free(f: Fragment) -> bool:
        return f.kind == "text" and not any(t - 1 <= f.cy <= b + 1 and x0 - 3 <= f.cx <= x1 + 3 for t, b, x0, x1 in taken + out)

    words = SHORT_WORDS if page.source == "text-layer" else SCAN_SHORT_WORDS
    for lo, hi in ((0.0, width), (0.0, width / 2), (width / 2, width)):
        lines = _lines([p for f in page.fragments if lo - 1 <= f.x0 and f.x1 <= hi + 1 and free(f) for p in _cells_of(f)],
                       scan=page.source != "text-layer")
        run: list[list[Fragment]] = []
        for line in lines + [[]]:
            pitch = LOOSE_GAP if run and _under_its_cells(line, run[-1]) else ROW_GAP
            if line and _short(line, width, words) and (not run or min(f.y0 for f in line) - max(f.y1 for f in run[-1])
                                                        <= pitch * max(f.y1 - f.y0 for f in line) + 2):
                run.append(line)
                continue
            box = _table_box(page, _with_head(page, run, free, width, words))
            if box is not None:
                out.append(box)
            run = [line] if line and _short(line, width, words) else []
    return out


# A slide's table (Impress, PowerPoint), a form's or a sheet's printed with tall rows: its rows stand two
# or three line heights apart, far more than ROW_GAP, but each cell starts (or ends) where the cell above
# it does, three or more of them: a row that lines up so with the one above is the table's next row up
# to this many line heights of white (prose, a list, a caption line up with nothing of the kind).
LOOSE_GAP = 3.0


def _under_its_cells(line: list[Fragment], above: list[Fragment]) -> bool:
    """Do the three or more cells of ``line`` each start or end where a cell of ``above`` does, one for one?"""
    if len(line) < 3 or len(line) != len(above):
        return False
    pairs = zip(sorted(line, key=lambda f: f.x0), sorted(above, key=lambda f: f.x0), strict=True)
    return all(abs(f.x0 - g.x0) <= 1.0 or abs(f.x1 - g.x1) <= 1.0 for f, g in pairs)


def _with_head(page: PageLayout, run: list[list[Fragment]], free, width: float, words: int) -> list[list[Fragment]]:
    """``run`` with the line right over it when that line's cells stand over the run's first row one for
    one (``_under_its_cells``) within the run's extent: a loose table's head row on a slide shares its
    height with a text box beside the table, which made that line no row of short cells."""
    if len(run) < MIN_ROWS - 1 or len(run[0]) < 3:
        return run
    x0, x1 = min(f.x0 for line in run for f in line), max(f.x1 for line in run for f in line)
    top = min(f.y0 for f in run[0])
    over = [f for f in page.fragments if free(f) and x0 - 1 <= f.x0 and f.x1 <= x1 + 1 and f.y1 <= top]
    lines = _lines(over)
    if not lines:
        return run
    head = lines[-1]
    gap = top - max(f.y1 for f in head)
    if _short(head, width, words) and _under_its_cells(head, run[0]) and gap <= LOOSE_GAP * max(f.y1 - f.y0 for f in head) + 2:
        return [head, *run]
    return run


def _cells_of(f: Fragment) -> list[Fragment]:
    """A run of numbers that kept its word spaces (``table_marks.keep_table_gaps``: a row of tight
    columns that pdftext did not cut) as one cell per number, to be judged as a table's row; the
    fragment itself otherwise. (``tables`` cuts the found table's rows at their gutters.)"""
    if not f.gaps:
        return [f]
    boxes = word_boxes(f)
    return cut_at(f, boxes, list(range(len(boxes) - 1))) if len(boxes) > 1 else [f]


def _table_box(page: PageLayout, run: list[list[Fragment]]) -> tuple[float, float, float, float] | None:
    if len(run) < MIN_ROWS:
        return None
    cells = [f for line in run for f in line]
    rows = table_rows(cells)
    cols = columns(rows)
    if cols is None or len(cols) < 3 or not (_numbers_in_columns(rows, cols) or (
            page.source != "text-layer" and _aligned_columns(rows, cols))):
        return None
    top, bottom = min(f.y0 for f in cells) - 1, max(f.y1 for f in cells) + 1
    x0, x1 = min(f.x0 for f in cells), max(f.x1 for f in cells)
    # (on a scan a pen's underline or strike-through is seen as a rule: only an upright one, a plot's
    # axis, or a picture tells a figure there; on the text layer a head's own underline, no wider than
    # a cell, "2009" underlined over its column, tells none: a plot has its axes)
    blocking = [r for r in page.rules if not (r.horizontal and r.x1 - r.x0 <= SHORT_SHARE * page.width)] \
        if page.source == "text-layer" else [r for r in page.rules if r.vertical]
    if any(r.x0 < x1 + 2 and r.x1 > x0 - 2 and r.y0 < bottom + 2 and r.y1 > top - 2 for r in blocking + page.images):
        return None
    return top, bottom, x0, x1


def _rule_chains(page: PageLayout) -> list[list[float]]:
    """[x, top, bottom] of each column rule: TeX draws a ``|`` of a tabular row by row, each piece
    touching the next, so pieces at one x that meet are one rule."""
    chains: list[list[float]] = []
    for r in sorted((r for r in page.rules if r.vertical), key=lambda r: r.y0):
        x = (r.x0 + r.x1) / 2
        for chain in chains:
            if abs(chain[0] - x) <= 0.5 and r.y0 <= chain[2] + 1.0:
                chain[2] = max(chain[2], r.y1)
                break
        else:
            chains.append([x, r.y0, r.y1])
    return chains


def column_rule_boxes(page: PageLayout, ruled: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
    """(top, bottom, left, right) of each table drawn with column rules only (``c|l|p{..}``, no
    ``\\hline``): two rules or more side by side from the same top to the same bottom, with cells
    on both sides of them in three lines at least, where no ruled table lies. Its width is that of
    the lines they cross, within the page's column holding the rules unless a line crosses the
    page's middle (a ``table*``)."""
    chains = _rule_chains(page)
    out: list[tuple[float, float, float, float]] = []
    for first in sorted(chains):
        same = [c for c in chains if abs(c[1] - first[1]) <= 1.5 and abs(c[2] - first[2]) <= 1.5]
        top, bottom, xs = first[1], first[2], sorted(c[0] for c in same)
        if len(same) < 2 or first[0] != xs[0] or any(t - 2 < (top + bottom) / 2 < b + 2 and x0 - 3 < xs[0] < x1 + 3
                                                      for t, b, x0, x1 in [*ruled, *out]):
            continue
        band = [f for f in page.fragments if f.kind == "text" and top < f.cy < bottom]
        middle = page.width / 2
        if not any(f.x0 < middle - 5 and f.x1 > middle + 5 for f in band):
            band = [f for f in band if (f.cx < middle) == (xs[0] < middle)]
        crossed = [line for line in _lines(band)
                   if any(f.x1 <= xs[0] + 1 for f in line) and any(f.x0 >= xs[0] - 1 for f in line)]
        if len(crossed) < MIN_ROWS:
            continue
        x0, x1 = min(f.x0 for f in band), max(f.x1 for f in band)
        starts = sorted(min(f.y0 for f in line) for line in crossed)
        pitch = sorted(b - a for a, b in zip(starts, starts[1:], strict=False))[(len(starts) - 1) // 2]
        out.append((head_rule_top(page.rules, page.fragments, top, x0, x1, pitch), bottom, x0, x1))
    return out


def text_under(page: PageLayout, x0: float, x1: float, bottom: float) -> list[Fragment]:
    """The text under a table's last rule (``bottom``) within its width: a fragment's middle inside it,
    its ends at most 6 pt past it (the rows a table's bottom rule does not close)."""
    return [f for f in page.fragments if f.kind == "text" and f.cy > bottom and x0 - 3 < f.cx < x1 + 3
            and f.x0 > x0 - 6 and f.x1 < x1 + 6]


def past_table(line: list[Fragment], x0: float, x1: float) -> bool:
    """A line under a table that is none of its rows: a float's caption ("Table", "Figure", "Fig.") or
    a line of prose running the table's width."""
    return line[0].text.startswith(("Table", "Figure", "Fig.")) or any(f.x1 - f.x0 > 0.9 * (x1 - x0) for f in line)


def body_below(page: PageLayout, header: list[Fragment], x0: float, x1: float, bottom: float) -> list[list[Fragment]]:
    """The body rows under a table's last rule when its rules hold only the header (``\\hline
    \\hline`` over it, ``\\hline`` under it, no rule under the body: org-mode's export): lines of
    two cells or more within the table's width, each close under the one before (white less than a
    line's height: a table's rows, not the paragraph after the float), up to the first that is not
    one. The columns are not known yet (one header cell over an empty one tells none)."""
    out, last = [], max(f.y1 for f in header)
    for line in table_rows(text_under(page, x0, x1, bottom)):
        height = max(f.y1 - f.y0 for f in line)
        if len(line) < 2 or min(f.y0 for f in line) - last > height or past_table(line, x0, x1):
            break
        out.append(line)
        last = max(f.y1 for f in line)
    return out
