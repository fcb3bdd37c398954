"""A table's rows as its source sets them: a ``\\multirow`` label, which TeX centres on the rows it
spans, goes to the first of them (where the source, and a reader, put it) and is one cell over
them; a line holding only the next line of one cell's text (a ``p{..}`` or ``X`` cell that
wrapped, or a cell broken by ``\\newline`` in a ruled grid) joins the row it continues; the lines
of a cell stacked in a body row (a nested ``tabular``, ``\\makecell``) are one row with the cells
TeX centred beside them (``join_stacked_cells``)."""
from __future__ import annotations

import re
from dataclasses import replace

from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_grid import bounds, column_of, section_label
from ocr_ray.layout.table_gutters import stretched
from ocr_ray.layout.table_head_lines import continues_cell, in_brackets

# What microtype protrudes past a justified line's right edge: punctuation and hyphens.
_PROTRUDING = set(".,;:!?-–—)’”")


def _cy(row: list[Fragment]) -> float:
    ys = sorted(f.cy for f in row)
    return ys[len(ys) // 2]


def multi_line_rows(rows: list[list[Fragment]], cols: list[tuple[float, float]], rules: list[Rule],
                    grid: bool) -> tuple[list[list[Fragment]], dict[int, int]]:
    """Rows with ``\\multirow`` labels moved to the first row they span and continuation lines
    joined to their row (``grid``: the table has vertical rules, so a row is what lies between
    two horizontal rules). Second value: id of each moved label -> the rows it spans (of those
    returned), so that it is rendered as one cell over them (``rowspan``)."""
    if len(rows) < 2:
        return rows, {}
    limits = bounds(cols)
    rows = [list(row) for row in rows]

    def col(f: Fragment) -> int:
        return column_of(limits, f.x0 + 1)

    def occupied(row: list[Fragment]) -> set[int]:
        return {col(f) for f in row}

    def ruled(a: int, b: int, c: int) -> bool:
        """A horizontal rule across column ``c`` between rows ``a`` and ``b`` (a above b)."""
        top, bottom = spans[a][1] - 1, spans[b][0] + 1
        x0, x1 = cols[c]
        return any(r.horizontal and top <= r.y0 <= bottom and r.x0 < x1 and r.x1 > x0 for r in rules)

    cys = [_cy(row) for row in rows]
    spans = [(min(f.y0 for f in row), max(f.y1 for f in row)) for row in rows]
    heights = sorted(f.y1 - f.y0 for row in rows for f in row)
    height = heights[len(heights) // 2]
    steps = sorted(b - a for a, b in zip(cys, cys[1:], strict=False) if b - a >= 0.8 * height)
    pitch = steps[len(steps) // 2] if steps else 1.2 * height
    # the extent of each column's text: a line that runs to its right end is full, the next wraps
    extent: dict[int, tuple[float, float]] = {}
    for f in (f for row in rows for f in row):
        a, b = extent.get(col(f), (f.x0, f.x1))
        extent[col(f)] = (min(a, f.x0), max(b, f.x1))

    def last_line(upper: list[Fragment], c: int) -> list[Fragment]:
        """The last line of column ``c`` in ``upper`` (a row joined from several lines), left to right."""
        cell = [u for u in upper if col(u) == c]
        if not cell:
            return []
        bottom = max(cell, key=lambda u: u.cy)
        return sorted((u for u in cell if bottom.cy - u.cy <= 0.4 * (bottom.y1 - bottom.y0)), key=lambda u: u.x0)

    def goes_on(upper: list[Fragment], f: Fragment, last: bool = False) -> bool:
        """Is ``f`` the next line of a paragraph cell in ``upper``: that line is full (it reaches
        the last fifth of its column) and broke a word, or ``f`` goes on in lower case under it
        (``last``: the last line of a row of several lines)."""
        left, right = extent[col(f)]
        line = last_line(upper, col(f)) if last else sorted((u for u in upper if col(u) == col(f)), key=lambda u: u.x0)
        if not line:  # (a justified line cut at its stretched spaces is one line from its first to last word)
            return False
        u = replace(line[0], x1=line[-1].x1, text=" ".join(g.text for g in line))
        return u.x1 >= right - 0.2 * (right - left) and continues_cell([u], f)

    column_ends: dict[int, list[float]] = {}
    for f in (f for row in rows for f in row):
        column_ends.setdefault(col(f), []).append(f.x1)

    def flush(u: Fragment) -> bool:
        """Does ``u`` end where two other lines of its column end: a justified paragraph's line, not
        its last? A line ending in punctuation may end past them by up to 0.3 em (microtype
        protrudes a full stop or a comma into the margin)."""
        out = u.text[-1:] in _PROTRUDING
        return sum(1 for g in column_ends[col(u)] if abs(g - u.x1) < 1.0 or out and 0 < u.x1 - g < 0.3 * u.size) >= 3

    def flush_over(upper: list[Fragment], f: Fragment) -> bool:
        """Is ``f`` the next line of a paragraph cell whose last line in ``upper`` is flush
        (``flush``), from the same left edge, and words (two of them at least; not a column of
        numbers set flush right): TeX broke the paragraph there, whatever ``f`` opens with ("and" /
        "Yes/No for CoLA.", "$|r_M|\\le\\eta$ over all ...")?"""
        line = last_line(upper, col(f))
        words = [w for u in line for w in u.text.split() if w.isalpha()]
        return len(words) >= 2 and abs(line[0].x0 - f.x0) < 1.0 and flush(line[-1])

    def phrase_above(upper: list[Fragment], f: Fragment) -> bool:
        """Does the line above ``f`` in its column hold two words at least? A paragraph cell's lines
        do (TeX breaks a paragraph between words); a column of one-word cells ("r0c0" over "r1c0",
        each as wide as the column) is rows, however flush."""
        return sum(len(u.text.split()) for u in last_line(upper, col(f))) >= 2

    def wraps(k: int) -> bool:
        return k > 0 and bool(rows[k]) and all(goes_on(rows[k - 1], g) or flush_over(rows[k - 1], g) for g in rows[k])

    # labels set on the first of their rows (no \multirow: "\textbf{Deep} & SimCLR", the group's
    # other rows empty there): a label under the row above's cell, or a rule, with an empty row
    # under it. Where one stands above a label, the empty rows between are its, and the label below
    # is set the same way: it is no \multirow centred on them (before, a group label on the second
    # row of three took the first group's last row).
    top_set = {(r, col(f)) for r in range(1, len(rows) - 1) for f in rows[r]
               if len(occupied(rows[r])) >= 2 and (col(f) in occupied(rows[r - 1]) or ruled(r - 1, r, col(f)))
               and col(f) not in occupied(rows[r + 1]) and not ruled(r, r + 1, col(f))}

    # \multirow labels: centred on the rows whose column they alone fill
    moved: dict[int, list[list[Fragment]]] = {}  # id of a moved label -> the rows it spans
    for r in range(len(rows)):
        cs = occupied(rows[r])
        between = (0 < r < len(rows) - 1 and cys[r + 1] - cys[r - 1] < 1.5 * pitch
                   and not cs & (occupied(rows[r - 1]) | occupied(rows[r + 1])))
        for f in list(rows[r]):
            c = col(f)
            # (a label of stacked lines, ``\multirow{3}{*}{\begin{tabular}{@{}l@{}}Prom.+\\Prof.\end{tabular}}``,
            # joined into the row it straddles: its lines go as one label, centred where they are)
            label = _stacked([g for g in rows[r] if col(g) == c]) or ([f] if between else [])
            if not label or f is not label[0] or not between and (c != 0 or len(cs) < 2):
                continue
            centre = (label[0].cy + label[-1].cy) / 2
            up, down = r, r
            while up > 0 and c not in occupied(rows[up - 1]) and not ruled(up - 1, up, c):
                up -= 1
            while down < len(rows) - 1 and c not in occupied(rows[down + 1]) and not ruled(down, down + 1, c):
                down += 1
            group = [k for k in range(up, down + 1) if k != r or not between]
            # \multirow centres on its rows counted at \baselineskip: space a rule adds between them
            # (a \cmidrule under group labels) moves the true centre down by half of it
            if len(group) < 2 or group[0] == r or (up - 1, c) in top_set:
                continue
            slack = max(0.0, cys[group[-1]] - cys[group[0]] - (len(group) - 1) * pitch) / 2
            if abs(centre - (cys[group[0]] + cys[group[-1]]) / 2) > 0.25 * pitch + slack:
                continue
            # a row label beside a paragraph cell whose lines wrap above and below it spans nothing
            if any(wraps(k) for k in group if k != r):
                continue
            for g in label:
                rows[r].remove(g)
                rows[group[0]].append(g)
            moved[id(f)] = [rows[k] for k in group]
    kept = [k for k, row in enumerate(rows) if row]
    rows, cys, spans = [rows[k] for k in kept], [cys[k] for k in kept], [spans[k] for k in kept]
    # continuation lines: one cell's next line, under a row that fills that column and another
    def justified(upper: list[Fragment], f: Fragment) -> bool:
        return any(col(u) == col(f) and flush(u) for u in upper)

    def ends(upper: list[Fragment], f: Fragment) -> bool:
        line = [u for u in upper if col(u) == col(f)]
        return any(u.text.endswith("-") for u in line) or max(u.x1 for u in line) - f.x1 > f.size

    def first_goes_on(upper: list[Fragment], row: list[Fragment]) -> bool:
        line = [u for u in upper if col(u) == 0]
        return bool(line) and all(goes_on(upper, g) for g in row) and (
            line[-1].text.endswith("-") or justified(upper, row[0]) or in_brackets(line[-1].text, row[0].text))

    def firsts(row: list[Fragment]) -> list[Fragment]:
        """The first line of each of the row's cells."""
        return [min((g for g in row if col(g) == c), key=lambda g: g.cy) for c in occupied(row)]

    def broke_before(upper: list[Fragment], f: Fragment) -> bool:
        """Is ``f`` a paragraph cell's next line that TeX broke before its first word, whatever its
        case ("AdamW with weight decay." / "Warmup of 2k steps"): the line above in its column,
        from the same left edge, holds three words or more and has no room left for that word."""
        line = last_line(upper, col(f))
        if not line or abs(line[0].x0 - f.x0) >= 1.0 or len(" ".join(u.text for u in line).split()) < 3:
            return False
        first = f.text.split(" ")[0]  # its width: to its first space, else its share of the line's
        word = f.gaps[0][0] - f.x0 if f.gaps else (f.x1 - f.x0) * len(first) / max(len(f.text), 1)
        return line[-1].x1 + 0.25 * f.size + word > extent[col(f)][1] - 0.5

    def lines_on(prev: list[Fragment], row: list[Fragment]) -> bool:
        """A line with no row label whose cells all go on from paragraph cells of the row above:
        one at least in lower case under a full line or after a broken word, the others too or
        broken before their first word (a capital after a full stop: a new sentence of the cell)."""
        # (a break TeX made: a broken word, or a word in lower case the line above had no room for;
        # lower case alone is no proof, "pw" under "total_train", nor a full line alone, "In
        # separate file." under the same words: a table of symbols' next rows)
        return 0 not in occupied(row) and all(col(g) in occupied(prev) for g in row) \
            and any(goes_on(prev, g, True) for g in row) and all(goes_on(prev, g, True) or broke_before(prev, g) for g in row) \
            and any(g.text[:1].islower() and broke_before(prev, g) or last_line(prev, col(g))[-1].text.endswith("-")
                    for g in row)

    out: list[list[Fragment]] = [rows[0]]
    last: dict[int, Fragment] = {col(f): f for f in rows[0]}
    start = 0  # the first line of the row ``out[-1]``
    for k in range(1, len(rows)):
        row, prev = rows[k], out[-1]
        cs = occupied(row)
        c = next(iter(cs)) if len(cs) == 1 else -1
        # a line of the first column alone is a row of its own (a group label), unless it goes on
        # from a row label set as a paragraph (p{..}: flush right as two other lines, or a broken
        # word), or from a row of a grid that draws a rule over each of its rows (``|p{..}|p{..}|``,
        # ``\hline`` after every row): no rule between, the same row
        own_rows = grid and start > 0 and ruled(start - 1, start, 0) and all(continues_cell([u for u in prev if col(u) == 0], g) for g in row)
        above = last.get(c) if c > 0 or c == 0 and (own_rows or first_goes_on(prev, row)) else None
        if above is not None and len(occupied(prev)) >= 2 and not ruled(k - 1, k, c) and cys[k] - cys[k - 1] < 1.5 * pitch \
                and not section_label(row, cols):  # a group label's row, not a column's next line
            # a paragraph cell (p{..}, justified): other lines of the column end where this one does
            wrapped = flush(above)
            # (or the line above was stretched to the column's width: TeX broke the cell's paragraph
            # there, whatever the next line opens with, "+8.90 pp" under "Catastrophic  collapse;  +6.18  to")
            broken = c > 0 and len(row) == 1 and stretched(above) and abs(row[0].x0 - above.x0) < 0.3 * above.size
            if grid or wrapped or broken or (len(row) == 1 and goes_on([above], row[0])):
                prev += row
                last[c] = row[-1]
                continue
        # the next lines of several paragraph cells in a grid that rules its rows (``|p{..}|p{..}|``,
        # ``\hline`` after each row): the row began under a rule, none comes before this line, and
        # each of its cells goes on from a full line above (lower case, or a word broken there)
        # (its lines may have come as one row already: the first of them is the next line)
        ruled_row = grid and start > 0 and all(ruled(start - 1, start, c) for c in cs) \
            and min(f.cy for f in row) - max(f.cy for f in prev) < 1.5 * pitch
        # (or a line with no row label going on from paragraph cells: ``lines_on``)
        if k > 0 and len(cs) >= 2 and not any(ruled(k - 1, k, c) for c in cs) \
                and ((ruled_row or min(f.cy for f in row) - max(f.cy for f in rows[k - 1]) < 1.5 * pitch)
                     and all(goes_on(prev, g) or flush_over(prev, g) for g in (firsts(row) if ruled_row else row))
                     and (ruled_row or any(justified(prev, g) for g in row) and (
                         any(ends(prev, g) for g in row)  # (or every cell shows where TeX broke it)
                         or all(flush_over(prev, g) or g.text[:1].islower() and goes_on(prev, g) and phrase_above(prev, g)
                                for g in row)))
                     or cys[k] - max(f.cy for f in rows[k - 1]) < 1.5 * pitch and lines_on(prev, row)):
            # the next lines of several paragraph cells (p{..} columns side by side): one of them
            # under a line set flush to its column's right edge as other lines of it are, one the
            # rest of a word broken above it or the short last line of its paragraph
            prev += row
            last.update({col(f): f for f in sorted(row, key=lambda f: f.cy)})
            continue
        out.append(row)
        last = {col(f): f for f in row}
        start = k
    # a spanned row joined to the one above it (a continuation line) is no row of its own any more
    kept_rows = {id(row) for row in out}
    heights = {label: sum(1 for row in group if id(row) in kept_rows) for label, group in moved.items()}
    return out, {label: n for label, n in heights.items() if n > 1}


def _stacked(cell: list[Fragment]) -> list[Fragment]:
    """The fragments of one column of a row, top to bottom, when they are one cell's stacked lines
    (each under the last, a line's pitch apart, overlapping it); else the first alone (the others
    are cells of their own: no label)."""
    cell = sorted(cell, key=lambda g: g.cy)
    if all(0 < b.cy - a.cy < 1.6 * (a.y1 - a.y0) and a.x0 < b.x1 and b.x0 < a.x1 for a, b in zip(cell, cell[1:], strict=False)):
        return cell
    return cell[:1] if len(cell) == 1 else []


def _centred(left: list[Fragment], chain: list[Fragment]) -> bool:
    """Are ``left``, two or more one-line cells, set on one line midway between the first and last
    lines of the stacked cell ``chain`` right of them (the row's last cell): TeX centres a row's
    one-line cells on a nested ``tabular[c]`` / ``\\makecell`` beside them. The lines of two rows
    whose last column alone goes on (an empty-celled second row) share their first line with the
    row's other cells instead."""
    if len(left) < 2:
        return False
    height = min(f.y1 - f.y0 for f in left)
    middle = (chain[0].cy + chain[-1].cy) / 2
    return all(abs(f.cy - middle) <= 0.2 * height for f in left)


def join_stacked_cells(rows: list[list[Fragment]], head: int, cols: list[tuple[float, float]]) -> list[list[Fragment]]:
    """Body rows (after the first ``head``) that hold the lines of one stacked cell and the cells TeX
    centred beside it (``\\begin{tabular}{@{}l@{}}Maximum\\\\likelihood\\end{tabular} & 27.1 & 24.3``:
    "Maximum", then the numbers, then "likelihood", three rows) joined into one row. The text stream
    (``Fragment.seq``) says so: the stacked lines come one after the other, in one column on
    consecutive lines, and the cells of columns to their right (one or more: a two-column table's
    value beside its stacked label), set between the first and the last line, come after them
    (written in the same row; a ``\\multirow`` label set between two rows' lines that follow each
    other in the stream is one cell, and is written before them or between)."""
    limits = bounds(cols)

    def col(f: Fragment) -> int:
        return column_of(limits, f.x0 + 1)

    out = [list(row) for row in rows[:head]]
    body = [list(row) for row in rows[head:]]
    k = 0
    while k < len(body):
        end = k
        for p in sorted(body[k], key=lambda f: f.x0):
            if p.seq < 0:
                continue
            chain, last = [p], k
            for j in range(k + 1, min(k + 2 * 4, len(body))):  # (a stack of up to four lines)
                nxt = [q for q in body[j] if q.seq == chain[-1].seq + 1 and col(q) == col(p)
                       and 0 < q.cy - chain[-1].cy < 1.6 * (q.y1 - q.y0)]
                if nxt:
                    chain.append(nxt[0])
                    last = j
            if len(chain) < 2:
                continue
            others = [f for row in body[k:last + 1] for f in row if f not in chain]
            right = [f for f in others if col(f) > col(p)]
            # (a second stacked cell of the row, lines written one after the other, is on its lines)
            stacked = {id(f) for f in others for g in others if col(g) == col(f) and abs(g.seq - f.seq) == 1}
            left = [f for f in others if col(f) < col(p)]
            if (right and all(f.seq > chain[-1].seq for f in right) or not right and _centred(left, chain)) \
                    and all(0 <= f.seq < p.seq for f in left) \
                    and all(chain[0].cy + 1 < f.cy < chain[-1].cy - 1 for f in others if id(f) not in stacked):
                end = max(end, last)
        joined = [f for row in body[k:end + 1] for f in row]
        out.append(sorted(joined, key=lambda f: (col(f), f.cy)) if end > k else body[k])
        k = end + 1
    return out


def numbered_lines(rows: list[list[Fragment]]) -> bool:
    """Are most of the rows an algorithm's numbered lines ("1:", "2:", .. first, in order), an
    ``algorithmic`` block between its float's rules, no table?"""
    numbers = [int(row[0].text[:-1]) for row in rows if row and re.fullmatch(r"\d+:", row[0].text.strip())]
    return len(numbers) >= 3 and 2 * len(numbers) >= len(rows) and numbers == sorted(numbers)
