"""Tables from the geometry of a page: ruling lines bound them, gaps between fragments split cells.

A table is the area between two or more horizontal rules of the same extent (booktabs' top, mid
and bottom rules, or \\hline) holding at least two rows of at least two cells. Columns come from
the rows with the most cells; a fragment that covers several columns (\\multicolumn) becomes a
spanning cell. Tables with spanning cells are written as HTML (markdown cannot span), others as
markdown pipe tables.
"""
from __future__ import annotations

from ocr_ray.layout.fallback import guarded
from ocr_ray.layout.floats import CAPTION
from ocr_ray.layout.model import Fragment, PageLayout, Rule
from ocr_ray.layout.table_borders import titles_out
from ocr_ray.layout.table_cells import clear_in_column, row_grid
from ocr_ray.layout.table_grid import (
    ROW_TOLERANCE,
    bounds,
    cells_at_walls,
    column_of,
    columns,
    split_on_columns,
    table_rows,
)
from ocr_ray.layout.table_gutters import join_justified_body, join_justified_head, split_at_gutters
from ocr_ray.layout.table_head_columns import join_head_columns
from ocr_ray.layout.table_head_lines import MAX_HEAD_LINES, join_head_lines
from ocr_ray.layout.table_lines import join_stacked_cells, multi_line_rows, numbered_lines
from ocr_ray.layout.table_ordinals import numbers_into_labels
from ocr_ray.layout.table_render import render_table, row_spans
from ocr_ray.layout.table_row_rules import rules_each_row
from ocr_ray.layout.table_rule_lines import (
    FLUSH,
    MIN_RULE_WIDTH,
    SAME_EDGE,
    WIDE_RULE,
    column_rules_extent,
    rule_groups,
)
from ocr_ray.layout.table_ruled_rows import join_ruled_rows
from ocr_ray.layout.table_unruled import (
    body_below,
    captionless_boxes,
    column_rule_boxes,
    past_table,
    text_under,
    unruled_boxes,
)
from ocr_ray.layout.table_walls import across_undrawn_wall, grid_walls, walled_columns


def _continues(line: list[Fragment], cols: list[tuple[float, float]], x0: float, x1: float) -> bool:
    """Does a line below the table's last rule still belong to it? Each of its fragments sits
    within the table's columns (not across the gap between two), and none is a line of prose
    running the table's width or a caption."""
    if past_table(line, x0, x1):
        return False
    limits = bounds(cols)
    for f in line:
        k = column_of(limits, f.cx)
        # wider than the rows above is fine (a long label), reaching into a neighbour column is not
        if (k + 1 < len(cols) and f.x1 > cols[k + 1][0]) or (k > 0 and f.x0 < cols[k - 1][1]):
            return False
    return True


def _rows_below(page: PageLayout, rows: list[list[Fragment]], cols, x0: float, x1: float, bottom: float,
                grid_x0: float | None = None):
    """The rows under the last rule that continue the table (a table whose bottom rule is missing
    or drawn otherwise, or whose body follows a header between two rules): lines in the table's
    columns, at about the table's row pitch, up to the first line that is not one. ``grid_x0``: where
    the ruled grid starts when a label column outside it was taken in (``_row_labels``): a line wholly
    left of it (a note's "(1)", "Notes:") is no row of the grid's."""
    pitches = [b[0].y0 - a[0].y0 for a, b in zip(rows, rows[1:], strict=False) if b[0].y0 > a[0].y0]
    pitch = sorted(pitches)[len(pitches) // 2] if pitches else 1.6 * max(f.y1 - f.y0 for f in rows[-1])
    out, last = [], max(f.y1 for f in rows[-1])
    for line in table_rows(text_under(page, x0, x1, bottom)):
        if min(f.y0 for f in line) - last > 1.6 * pitch or not _continues(line, cols, x0, x1) \
                or grid_x0 is not None and all(f.x1 <= grid_x0 + 1 for f in line) \
                or _other_rule_over(page, line, max(last, bottom), x0, x1):
            break
        out.append(line)
        last = max(f.y1 for f in line)
    return out


def _other_rule_over(page: PageLayout, line: list[Fragment], last: float, x0: float, x1: float) -> bool:
    """Is there a horizontal rule between ``last`` and ``line`` that reaches past the table's extent
    (``x0``..``x1``) on either side: the top rule of another, wider table stacked under this one (two
    booktabs tables in ``center`` environments, no caption between), whose lines are not this
    table's rows even where they fall within its columns."""
    top = min(f.y0 for f in line)
    return any(r.horizontal and last - 1 < r.y0 < top and r.x0 < x1 and r.x1 > x0
               and (r.x0 < x0 - SAME_EDGE or r.x1 > x1 + SAME_EDGE) for r in page.rules)


def _in_columns(f: Fragment, cols: list[tuple[float, float]]) -> int:
    """How many columns a header cell is over: 1 within one column's extent, n centred over n
    neighbouring columns (a ``\\multicolumn`` label, to a point), 0 neither (a line of text)."""
    for first in range(len(cols)):
        for last in range(first, len(cols)):
            a, b = cols[first][0], cols[last][1]
            if a - 1.5 <= f.x0 and f.x1 <= b + 1.5 and (first == last or abs(f.cx - (a + b) / 2) <= 1.5):
                return last - first + 1
    return 1 if clear_in_column(f, cols) else 0  # a head wider than its column's body


def _rows_above(page: PageLayout, rows: list[list[Fragment]], cols: list[tuple[float, float]], top: float,
                x0: float, x1: float) -> list[list[Fragment]]:
    """Header rows set above the table's first rule (``& \\multicolumn{2}{c}{Scores} \\\\ \\toprule``:
    TeX sets the rule right under the row's depth): lines close over it, no rule between, each
    fragment within one column or centred over several, none a caption's nor maths. A line that is
    one text is a label over some of the columns: a caption's last line, centred over the table, is
    set as close. Up to ``MAX_HEAD_LINES`` lines, as a wrapped head cell has (a report's heads wrap
    over four lines, "Schools / in original / sample that / participated": two cut them to their last
    two)."""
    out: list[list[Fragment]] = []
    edge = top
    if not any(r.horizontal and abs(r.y0 - top) <= 2 and r.x0 < x1 and r.x1 > x0 for r in page.rules):
        return out  # (a table set without rules starts at its first line)
    near = [f for f in page.fragments if f.kind == "text" and f.y1 < top + 1 and x0 - 3 <= f.x0 and f.x1 <= x1 + 3]
    for line in sorted(table_rows(near), key=lambda line: -max(f.y1 for f in line))[:MAX_HEAD_LINES]:
        height = max(f.y1 - f.y0 for f in line)
        between = [r for r in page.rules if r.horizontal and max(f.y1 for f in line) < r.y0 < edge - 0.5
                   and r.x0 < x1 and r.x1 > x0]
        # (a \cmidrule under this line's group label, in a table with no rule above it: the line
        # is the first header row, set apart from the next by the rule's space)
        grouped = bool(between) and all(_under_label(r, line, x1 - x0) for r in between)
        if edge - max(f.y1 for f in line) > (1.0 if grouped else 0.5) * height \
                or any(CAPTION.match(f.text) for f in line) or between and not grouped:
            break
        over = [_in_columns(f, cols) for f in line]
        # (a fraction's numerator over its bar, a bar read as a rule, is a display's, not a header)
        # (one text in one column: a paragraph's short last line over a table set in the text)
        # (two texts over one column: a line of words, "Listing 1:" and its caption beside it)
        limits = bounds(cols)
        if not all(over) or len(line) == 1 and not 1 < over[0] < len(cols) or any(f.math >= 0.5 for f in line) \
                or len({column_of(limits, f.cx) for f in line}) < len(line):
            break
        out.insert(0, line)
        edge = min(f.y0 for f in line)
    return out


def _under_label(r: Rule, line: list[Fragment], width: float) -> bool:
    """Is ``r`` a ``\\cmidrule`` under a group label of ``line``: narrower than the table (``width``),
    a fragment of the line centred over it and within its extent?"""
    mid = (r.x0 + r.x1) / 2
    return r.x1 - r.x0 < WIDE_RULE * width and any(
        abs(f.cx - mid) <= max(3.0, 0.1 * (r.x1 - r.x0)) and r.x0 - 3 <= f.x0 and f.x1 <= r.x1 + 3 for f in line)


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


def _row_labels(page: PageLayout, inside: list[Fragment], top: float, bottom: float, x0: float,
                x1: float) -> tuple[float, float]:
    """The area widened left to the table's label column when its rules leave it out
    (``\\cmidrule(lr){2-3}\\cmidrule(lr){4-5}`` only): fragments on the area's rows, left of it,
    at most three of their sizes from a cell there, no line of prose (narrower than 60 % of the
    area), under no rule (a table beside this one has its own), and a column: two or more, their
    left or right edges aligned (a figure's caption beside a table is none)."""
    rules = [r for r in page.rules if r.horizontal and r.x1 - r.x0 >= MIN_RULE_WIDTH and top - 20 <= r.y0 <= bottom + 20]
    own = _label_rules(page.rules, rules, x0, x1)
    rules = [r for r in rules if r not in own]
    labels = []
    for f in page.fragments:
        if f.kind != "text" or not top < f.cy < bottom or f.x1 > x0 + 1 or f.x1 - f.x0 > 0.6 * (x1 - x0) \
                or CAPTION.match(f.text) or any(r.x0 <= f.cx <= r.x1 for r in rules):
            continue
        row = [g for g in inside if abs(g.cy - f.cy) <= ROW_TOLERANCE * min(f.y1 - f.y0, g.y1 - g.y0)]
        # (a label under its column's own rule may stand as far from the numbers as that column is wide)
        ruled = _under_own_rule(f, own)
        if any(0 <= g.x0 - f.x1 <= 3 * f.size or ruled and 0 <= g.x0 - f.x1 for g in row):
            labels.append(f)
    column = [f for f in labels if sum(1 for g in labels if abs(g.x0 - f.x0) <= 2 or abs(g.x1 - f.x1) <= 2) >= 2]
    if column:  # (and the column's head, centred over its own rule: the rule says it is the table's)
        column += [f for f in labels if f not in column and _under_own_rule(f, own)]
    if not column:
        return x0, x1
    inside += column
    return min(x0, *(f.x0 for f in column)), x1


def _label_rules(page_rules: list[Rule], rules: list[Rule], x0: float, x1: float) -> list[Rule]:
    """Rules left of the area that continue one of the grid's rules: a rule ending at the area's left
    edge where another, at its height, starts within the area. Word and Excel draw a label column outside
    a walled grid with a rule of its own under its head ("Cost Category" over "Salaries (a)", ICDAR's
    us-009): that rule is the table's, not another table's beside it."""
    return [r for r in rules if abs(r.x1 - x0) <= 2 and any(
        q is not r and q.horizontal and abs(q.y0 - r.y0) <= 1 and abs(q.x0 - r.x1) <= 2 and q.x1 <= x1 + 2
        for q in page_rules)]


def _under_own_rule(f: Fragment, own: list[Rule]) -> bool:
    """Does ``f`` stand within one of the label column's own rules (``_label_rules``)?"""
    return any(r.x0 - 2 <= f.x0 and f.x1 <= r.x1 + 2 for r in own)


def _prose_column(rows: list[list[Fragment]], cols: list[tuple[float, float]], rules: list[Rule]) -> bool:
    """Does a column hold running prose, one line of it per row: cells of several words, each
    continued by the next row's cell in lower case, at least twice and for most of its long cells,
    and no rule between any two of them? That is a block of text set beside another between two rules
    (cas-dc's keywords beside its abstract), its lines justified, not a table: a table's wrapped cell is one row
    between its rules (``multi_line_rows``: riff's ruled paraphrases), and a few wrapped lines
    in a long table of prompts (miniacongts) are not most of it."""
    if len(rows) < 3:
        return False
    grid = [row_grid(row, cols) for row in rows]
    ruled = [any(r.horizontal and max(f.y1 for f in a) - 1 <= r.y0 <= min(f.y0 for f in b) + 1 for r in rules)
             for a, b in zip(rows, rows[1:], strict=False)]
    limits = bounds(cols)
    for k in range(max(len(row) for row in grid)):
        cells = [row[k][0] if k < len(row) else "" for row in grid]
        ends = [max((f.x1 for f in row if column_of(limits, f.cx) == k), default=0.0) for row in rows]
        long = [(b, cut, end) for a, b, cut, end in zip(cells, cells[1:], ruled, ends, strict=False)
                if len(a.split()) >= 6 and len(b.split()) >= 6]
        runs = sum(b[:1].islower() for b, _, _ in long)
        # a paragraph's lines run to its right edge (justified) but its last: a column of word lists
        # (an LDA topic's top words, each row's own) ends ragged. A justified line may end a point or
        # two short of the edge (a hyphen, a protruding stop: MDPI's abstract and body lines end at
        # 559-561 pt), a ragged one by a word's width
        flush = sum(1 for _, _, end in long if end >= max(ends) - FLUSH)
        if runs >= 2 and runs >= 0.5 * len(long) and not any(cut for _, cut, _ in long) and flush >= 0.5 * len(long) \
                and _cell_breaks(cells, ends, [bool(row[0][0]) for row in grid] if k else []) < 2:
            return True
    return False


def _cell_breaks(cells: list[str], ends: list[float], labels: list[bool]) -> int:
    """How often a column of paragraph lines breaks into a new cell beside a new row label: its line
    ends short of the column's right edge (a paragraph's last line), and its next line opens with a
    capital or a digit on a line where the first column holds a label. A table of text (``p{..}``
    columns: Component / Status / Role) does so at each of its rows; a block of prose beside another
    (an abstract beside its keywords) is one paragraph, its lines flush but its last."""
    breaks, last = 0, None
    right = max(ends, default=0.0)
    for j, text in enumerate(cells):
        if not text:
            continue
        if last is not None and labels and labels[j] and (text[:1].isupper() or text[:1].isdigit()) \
                and ends[last] < right - FLUSH:
            breaks += 1
        last = j
    return breaks


def extract_tables(page: PageLayout) -> None:
    """Replace the fragments of each table on ``page`` by one fragment of ``kind="table"``. Each
    table is read guarded (``fallback``): one whose rules fail stays its lines of plain text."""
    verticals = [r for r in page.rules if r.vertical]
    boxes = guarded("tables", lambda: rule_groups(page.rules, page.fragments), list)
    boxes += guarded("tables", lambda: column_rule_boxes(page, boxes), list)
    boxes += guarded("tables", lambda: unruled_boxes(page, boxes), list)
    boxes += guarded("tables", lambda: captionless_boxes(page, boxes), list)
    for box in boxes:
        fragments, rotated = list(page.fragments), list(page.rotated)

        def as_text(fragments=fragments, rotated=rotated) -> None:
            page.fragments, page.rotated = fragments, rotated

        guarded("tables", lambda box=box: _extract_table(page, verticals, *box), as_text)
    # superscript marks (``table_marks.mark_table_superscripts``, put between rules) serve a table's
    # cells only: a line read as prose keeps its footnote mark as a letter after the word, as before
    for f in page.fragments:
        if f.kind != "table" and "<sup>" in f.text:
            f.text = f.text.replace("<sup>", "").replace("</sup>", "")


def _extract_table(page: PageLayout, verticals: list[Rule], top: float, bottom: float, x0: float, x1: float) -> None:
    """The table in ``top``..``bottom``, ``x0``..``x1`` (a group of rules), if it reads as one."""
    top, bottom = column_rules_extent(verticals, top, bottom, x0, x1)
    inside = [f for f in page.fragments if f.kind == "text" and top < f.cy < bottom and x0 - 3 < f.cx < x1 + 3]
    if page.source == "text-layer":  # (an OCR engine's lines come in its own order)
        for k, f in enumerate(inside):
            f.seq = k
    grid_x0 = x0
    x0, x1 = _row_labels(page, inside, top, bottom, x0, x1)
    rows = cells_at_walls(table_rows(inside), verticals)
    heads = _rotated_heads(page, rows, top, bottom, x0, x1)
    inside += heads
    inner = [r for r in page.rules if r.horizontal and top + 2 < r.y0 < bottom - 2 and r.x0 < x1 and r.x1 > x0]
    # the header ends at the first rule across the table (\midrule), not at the \cmidrule under
    # its group labels: the column heads under those are header too (each vouches for the gutters
    # of a tight body under it: llncs sets \tabcolsep 1.4 pt)
    across = [r.y0 for r in inner if r.x1 - r.x0 >= WIDE_RULE * (x1 - x0)] or [r.y0 for r in inner]
    head = sum(1 for row in rows if across and max(f.y1 for f in row) < min(across))
    between = len(rows)  # rows between the rules: only those can be prose set beside a block (below)
    if len(rows) == 1 and head == 0:  # only a header between the rules: the body follows the last
        rows += body_below(page, rows[0], x0, x1, bottom)
        inside += [f for line in rows[1:] for f in line]
        bottom = max(f.y1 for f in inside)
    walls = grid_walls(verticals, top, bottom, x0, x1)  # a grid's rules say where columns part
    if not walls:  # (no word is joined across a wall)
        rows = join_justified_body(join_justified_head(rows, head), head)  # words wider than pdftext's cut
    rows = split_at_gutters(rows, head)  # cells closer than pdftext's cut

    def cols_of(rows: list[list[Fragment]]) -> list[tuple[float, float]] | None:
        if walls and (cols := walled_columns(walls, rows, head)):
            return cols
        cols = columns(rows, head) if rows else None
        return join_head_columns(rows, cols) if cols else None  # (a head flush left over numbers flush right)
    cols = cols_of(rows)
    if cols is None:
        return
    inner_walls = any(r.vertical and cols[0][1] - 1 < (r.x0 + r.x1) / 2 < cols[-1][0] + 1 and r.y0 < bottom and r.y1 > top
                      for r in page.rules)  # rules drawn between columns (``c|l|p{..}``): a table's, not prose
    if (not inner_walls and _prose_column(rows[head:between], cols, page.rules)) or numbered_lines(rows):  # (a header underlined by its rule aside)
        return
    above = _rows_above(page, rows, cols, top, x0, x1)
    if above:
        rows, head = above + rows, head + len(above)
        inside += [f for line in above for f in line]
        top = min(f.y0 for f in above[0]) - 1
    more = _rows_below(page, rows, cols, x0, x1, bottom, grid_x0 if x0 < grid_x0 else None)
    if len(rows) + len(more) < 2:
        return
    if more:  # the columns again, from every row now
        rows += more
        inside += [f for line in more for f in line]
        bottom = max(bottom, *(f.y1 for f in inside))
        cols = cols_of(rows) or cols
    split = split_on_columns(rows, cols, across_undrawn_wall(walls, verticals) if walls else None)
    if sum(map(len, split)) > sum(map(len, rows)):  # a tight header cut: its cells may widen columns
        rows, cols = split, cols_of(split) or cols
    if walls:  # a grid that rules each of its rows: a row is all that lies between two rules
        rows, head = join_ruled_rows(rows, head, cols, page.rules, walls)
    rows, head = join_head_lines(rows, head, cols, page.rules)
    grid_lines = any(r.vertical and x0 < (r.x0 + r.x1) / 2 < x1 and r.y0 < bottom and r.y1 > top for r in page.rules) \
        or rules_each_row(rows, head, cols, page.rules, x0, x1)  # (a row is what lies between two rules)
    rows = join_stacked_cells(rows, head, cols)
    rows, tall = multi_line_rows(rows, cols, page.rules, grid_lines)
    grid = [row_grid(row, cols, page.rules, x1 - x0, k < head) for k, row in enumerate(rows)]
    inner = [r for r in page.rules if r.vertical and cols[0][1] - 1 < (r.x0 + r.x1) / 2 < cols[-1][0] + 1]
    rows, grid, head, kept = titles_out(rows, grid, head, len(cols), inner)  # a title, a note in its frame
    inside = [f for f in inside if not any(k0 <= f.cy <= k1 for k0, k1 in kept)]
    if len(grid) < 2:
        return
    if kept:
        top, bottom = min(f.y0 for f in rows[0]) - 1, max(f.y1 for f in rows[-1]) + 1
    grid, spans = numbers_into_labels(grid, head, row_spans(rows, grid, cols, tall))  # ("1." beside its label)
    size = min(f.size for f in inside)
    chosen = set(map(id, inside))
    page.fragments = [f for f in page.fragments if id(f) not in chosen]
    page.fragments.append(Fragment(x0, top, x1, bottom, render_table(grid, spans), size, kind="table"))
