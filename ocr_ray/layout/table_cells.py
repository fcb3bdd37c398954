"""A table row's cells once its columns are known: (text, colspan) per cell. A cell spans the
columns under its own extent, or under what bounds it: the ``\\cmidrule`` just under a group label,
the column rules drawn either side of it, or, where nothing is drawn, the gap it shares with the
label beside it (``tables`` finds the table, ``table_grid`` its rows and columns)."""
from __future__ import annotations

from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_grid import bounds, column_of, join_cell_lines, section_label


def _underline(f: Fragment, rules: list[Rule], width: float, row: list[Fragment] = (),
               head: bool = False) -> tuple[float, float]:
    """The extent a header cell spans: its own, or that of the short rule just under it (booktabs'
    \cmidrule under a \multicolumn label: "D1" centred over four columns is as wide as its rule).
    Only a label centred on the rule and alone over it: a \cline{2-4} or \cmidrule{1-3} under a
    row's cells spans none of them."""
    for r in rules:
        if r.horizontal and f.y1 - 1 <= r.y0 <= f.y1 + 0.8 * f.size and r.x0 - 1 <= f.cx <= r.x1 + 1 \
                and r.x1 - r.x0 < 0.95 * width and r.x1 - r.x0 > f.x1 - f.x0 \
                and abs(f.cx - (r.x0 + r.x1) / 2) <= max(3.0, 0.1 * (r.x1 - r.x0)) \
                and not any(g is not f and g.x0 < r.x1 and g.x1 > r.x0 for g in row):
            return r.x0, r.x1
    return _walls(f, rules, row, head)


def _walls(f: Fragment, rules: list[Rule], row: list[Fragment], head: bool = False) -> tuple[float, float]:
    """The extent between the column rules drawn either side of a cell centred between them with
    nothing else of its row between them: ``\\multicolumn{6}{c|}{Zero-shot}`` in an
    ``l|cccccc|cccccc|c`` table, with no rule under it, spans the six columns its rules enclose. Or,
    set anywhere between them, a cell between whose rules a column rule of the rows under (over) it
    stops at its row: a grid's merged cell set flush left (Typst's ``table.cell(colspan: 3)``, stroked
    cell by cell: "Accuracy" over "Run 1" and half "Run 2" spans the three runs; Word's and Writer's
    merged cells of a bordered table). That in a head row only (``head``): a body row's label so
    merged ("Total" over a state's and a date's columns) keeps its own column, since readers that do
    not widen a spanned row (olmOCR-Bench's) shift the row's numbers after a spanning label."""
    crossing = [(r.x0 + r.x1) / 2 for r in rules if r.vertical and r.y0 < f.cy < r.y1]
    left = max((x for x in crossing if x <= f.x0 + 0.5), default=None)
    right = min((x for x in crossing if x >= f.x1 - 0.5), default=None)
    if left is None or right is None or any(g is not f and g.x0 < right and g.x1 > left for g in row):
        return f.x0, f.x1
    height = f.y1 - f.y0
    stopped = head and any(r.vertical and left + 1 < (r.x0 + r.x1) / 2 < right - 1 and not r.y0 < f.cy < r.y1
                  and (f.y1 - 1 <= r.y0 <= f.y1 + height or f.y0 - height <= r.y1 <= f.y0 + 1) for r in rules)
    if abs(f.cx - (left + right) / 2) > max(3.0, 0.1 * (right - left)) and not stopped:
        return f.x0, f.x1
    return left, right


def _mirrored(row: list[Fragment], limits: list[float]) -> dict[int, tuple[float, float]]:
    """Group labels centred over their columns with no rule to show how many (``\\multicolumn{6}{c}``
    twice, nothing under them): each text of the row stands over a column gap, so two neighbours
    share the gap nearest the middle between their centres, and each label reaches as far on its
    other side (centred); a label with neighbours on both sides is bounded by both."""
    if len(row) < 2 or not limits or any(not any(f.x0 < b < f.x1 for b in limits) for f in row):
        return {}
    row = sorted(row, key=lambda f: f.cx)
    shared = [min(limits, key=lambda b, a=a, c=c: abs(b - (a.cx + c.cx) / 2)) for a, c in zip(row, row[1:], strict=False)]
    out = {}
    for k, f in enumerate(row):
        left = shared[k - 1] if k else 2 * f.cx - shared[0]
        right = shared[k] if k < len(shared) else 2 * f.cx - shared[-1]
        if left <= f.x0 + 1.0 and right >= f.x1 - 1.0:  # (a label wider than its columns: no telling)
            out[id(f)] = (left, right)
    return out


def _centred_over(f: Fragment, cols: list[tuple[float, float]], row: list[Fragment]) -> tuple[float, float]:
    """The extent of the columns a cell is centred over when it reaches out of its own column into
    the white beside it (``\\multicolumn{2}{c}{450}`` in a body row: a short value centred over two
    columns of numbers, in neither); nothing else of its row over those columns. Else its own."""
    if any(a - 1 <= f.x0 and f.x1 <= b + 1 for a, b in cols):
        return f.x0, f.x1
    for first in range(len(cols)):
        for last in range(first + 1, len(cols)):
            a, b = cols[first][0], cols[last][1]
            if a - 1 <= f.x0 and f.x1 <= b + 1 and abs(f.cx - (a + b) / 2) <= 1.0 \
                    and not any(g is not f and g.x0 < b and g.x1 > a for g in row):
                return a, b
    return f.x0, f.x1


def clear_in_column(f: Fragment, cols: list[tuple[float, float]]) -> bool:
    """A cell wider than its column ("Accuracy" over "71.2"), its middle inside the column, or set
    flush with the column's left or right edge (an ``l`` column's "Checkpoint" over "100"), and its
    ends clear of the neighbour columns' cells: that column's alone, though it crosses the middle of
    the white beside it."""
    for k, (a, b) in enumerate(cols):
        if a <= f.cx <= b or abs(f.x0 - a) <= 1.5 or abs(f.x1 - b) <= 1.5:
            return (k == 0 or f.x0 > cols[k - 1][1]) and (k + 1 == len(cols) or f.x1 < cols[k + 1][0])
    return False


def _reading_order(row: list[Fragment]) -> list[Fragment]:
    """A row of several lines (paragraph cells) line by line, each left to right: a justified
    line's words cut at its stretched spaces ("Tokenizer" "of", "cabulary" "of" "50k" "entries.")
    came after the next line's or before their own line's first word ("of Tokenizer the input
    text"). A row of one line keeps its order."""
    # lines from the text of the row's size; a script ("−1" of h0^{-1}) goes with the line it is beside
    size = max(f.size for f in row)
    lines: list[list[Fragment]] = []
    for f in sorted((f for f in row if f.size >= 0.9 * size), key=lambda f: f.cy):
        if lines and f.cy - lines[-1][0].cy <= 0.4 * min(f.y1 - f.y0, lines[-1][0].y1 - lines[-1][0].y0):
            lines[-1].append(f)
        else:
            lines.append([f])
    if len(lines) < 2:
        return row
    for f in (f for f in row if f.size < 0.9 * size):
        min(lines, key=lambda line: abs(line[0].cy - f.cy)).append(f)
    return [f for line in lines for f in sorted(line, key=lambda f: f.x0)]


def row_grid(row: list[Fragment], cols: list[tuple[float, float]], rules: list[Rule] = (),
           width: float = 0.0, head: bool = False) -> list[tuple[str, int]]:
    """(text, colspan) per cell of a row, empty cells included (``head``: a row of the table's head)."""
    limits = bounds(cols)

    slots: dict[int, list[str]] = {}
    spans: dict[int, int] = {}
    if section_label(row, cols):
        return [(row[0].text, len(cols))]
    row = _reading_order(row)
    ruled = any(r.horizontal and f.y1 - 1 <= r.y0 <= f.y1 + 0.8 * f.size and r.x0 < f.x1 and r.x1 > f.x0
                for r in rules for f in row)  # (\cmidrule under the labels: their extent is theirs)
    mirrored = {} if ruled else _mirrored(row, limits)
    for f in row:
        x0, x1 = _underline(f, rules, width, row, head) if rules else (f.x0, f.x1)
        if (x0, x1) == (f.x0, f.x1) and id(f) in mirrored:
            x0, x1 = mirrored[id(f)]
        if (x0, x1) == (f.x0, f.x1):
            x0, x1 = _centred_over(f, cols, row)
        first, last = column_of(limits, x0 + 1), column_of(limits, x1 - 1)
        if (x0, x1) == (f.x0, f.x1) and first != last and clear_in_column(f, cols):
            first = last = column_of(limits, f.cx)  # a head wider than its column's body, over no other
        if (x0, x1) != (f.x0, f.x1):  # a rule's extent, the columns' padding in it: the columns it is over
            own = column_of(limits, f.cx)
            under = [k for k, (a, b) in enumerate(cols) if x0 <= (a + b) / 2 <= x1] or [own]
            first, last = min(under[0], own), max(under[-1], own)
        slots.setdefault(first, []).append(f.text)
        spans[first] = max(spans.get(first, 1), last - first + 1)
    out, k = [], 0
    while k < len(cols):
        # a cell spans up to the next cell that has text of its own: no text is ever swallowed
        span = min([spans.get(k, 1)] + [j - k for j in slots if j > k])
        out.append((join_cell_lines(slots.get(k, [])), span))
        k += span
    return out
