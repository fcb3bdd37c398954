"""The rows of a grid that rules each of its rows: a word processor's or a spreadsheet's table with
borders (Word, Excel, InDesign, LibreOffice: a rule under every row, the cells walled by column
rules). There a row is what lies between two horizontal rules, however many lines its cells take:
a head that wrapped ("Market shares in" / "volume (1996)", "Total Costs" / "All Funds") or a label
that wrapped ("Maison du Café" / "(Douwe Egberts)") is one cell of one row, not two rows. The text
alone cannot tell a wrapped head from a second header row (both are lines of words under words),
the drawing can: the second header row has its own rule over it.

Only where the drawing says that each row is ruled: the table is walled (``table_walls.grid_walls``)
and most of the stretches between its horizontal rules hold one line, or lines a rule parts are set
further apart than lines of one stretch (a cell's padding under and over each rule: a table of text,
every row wrapped); a table ruled every few rows at one pitch, bands of five, rules none of its rows
one by one. A line that a rule crosses (a label set once
beside two rows that a partial rule parts, ``\\multirow`` beside ``\\cline``) is left to the rules
for such labels (``table_lines``). Under the header, a stretch each of whose lines fills every
column of the table is rows of data set without a rule between them, and stays so; where lines a rule
parts are set further apart (``_pitches``), only lines that hold numbers are such rows (a table of
text's label and paragraph both wrapped fill both columns line after line), and lines set as far apart
as lines a rule parts are rows (LaTeX's ``\\arraystretch``: a ``p{..}`` cell's lines at the font's
leading, its rows further apart). In the header, lines at the rows' pitch are one row of wrapped heads
only where a line goes on with the phrase above it or every column's head runs over two lines: a
LaTeX header of two ``\\\\`` rows looks like a Word head wrapped in its cell (``wrapped_head``)."""
from __future__ import annotations

from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_grid import bounds, column_of
from ocr_ray.layout.table_unruled import NUMBER
from ocr_ray.layout.table_walls import SAME_WALL

# lines of one ruled row set at most this share of the pitch of lines parted by a rule (a cell's padding)
PADDED = 0.8
# a rule's y within this many points of a line's box edge parts it from the next
EDGE = 1.0
# pieces of a wall drawn cell by cell leave up to this much between them (pt); a line's box may start
# as far above the piece beside it
CHAIN = 2.0


def _rule_levels(rules: list[Rule], x0: float, x1: float, top: float, bottom: float) -> list[float]:
    """The y of each horizontal rule line over the table's columns (segments at one height: one line)."""
    ys = sorted((r.y0 + r.y1) / 2 for r in rules if r.horizontal and r.x0 < x1 and r.x1 > x0
                and top - 2 <= r.y0 <= bottom + 2)
    levels: list[float] = []
    for y in ys:
        if not levels or y - levels[-1] > EDGE:
            levels.append(y)
    return levels


def join_ruled_rows(rows: list[list[Fragment]], head: int, cols: list[tuple[float, float]],
                    rules: list[Rule], walls: list[float]) -> tuple[list[list[Fragment]], int]:
    """``rows`` (lines, top to bottom) with the lines of each ruled stretch of a grid that rules its
    rows joined into one row (see the module's doc); the header rows left (``head``) counted again.
    The rows as they were where the grid does not rule its rows one by one."""
    if len(rows) < 3 or len(cols) < 2:
        return rows, head
    spans = [(min(f.y0 for f in row), max(f.y1 for f in row)) for row in rows]
    pad = max(f.y1 - f.y0 for f in rows[0])  # (the rule over the first line: a cell's padding above it)
    levels = _rule_levels(rules, cols[0][0], cols[-1][1], spans[0][0] - pad, spans[-1][1] + pad)
    if len(levels) < 2:
        return rows, head
    # each line's stretch: the index of the rule over it, None for a line a rule crosses
    stretch: list[int | None] = []
    for y0, y1 in spans:
        over = sum(1 for y in levels if y <= y0 + EDGE)
        crossed = any(y0 + EDGE < y < y1 - EDGE for y in levels)
        stretch.append(None if crossed or over == 0 or over == len(levels) else over)
    counts: dict[int, int] = {}
    for s in stretch:
        if s is not None:
            counts[s] = counts.get(s, 0) + 1
    limits = bounds(cols)

    def full(row: list[Fragment]) -> bool:  # a cell in every column
        return len({column_of(limits, f.cx) for f in row}) == len(cols)

    cys = [_cy(row) for row in rows]  # each line's middle
    inner, across = _pitches(cys, stretch)
    padded = bool(inner and across) and _median(inner) < PADDED * _median(across)

    def wrapped_head(lines: list[int]) -> bool:
        """Are the header lines ``lines`` (one stretch) the lines of one row of wrapped heads? Where
        they are set closer than lines a rule parts (a cell's padding), yes; where they are set at the
        pitch of the rows, only if a line goes on with the phrase of the line above it ("Market shares
        in" / "volume (1996)", "Average of" / "other estimates") or every column's head runs over two
        lines at least (a report's heads, each too wide for its column: "Total Costs" / "All Funds"). A
        LaTeX header of two ``\\\\`` rows at the body's pitch leaves a cell blank where its column needs
        no second line ("Dataset & Train \\\\ & size", "& & Optimal \\\\ Modeling & Runtime & Window
        Size"), or holds a row of units ("(nm)", "(kJ/mol)"): rows of their own, left to ``join_head_lines``."""
        pitch = [cys[k] - cys[k - 1] for k in lines[1:]]
        height = _median([f.y1 - f.y0 for k in lines for f in rows[k]])
        if pitch and _median(pitch) < PADDED * (_median(across) if across else height):
            return True  # (no rule parts two lines: closer than a line's height, a cell centred beside a wrapped one)
        if any(_goes_on(rows[j - 1], f, limits) for j in lines[1:] for f in rows[j]):
            return True
        held = [sum(1 for k in lines if any(column_of(limits, f.cx) == c for f in rows[k])) for c in range(len(cols))]
        return min(held) >= 2 and not any(_units(rows[k]) for k in lines[1:])

    # a stretch of one row: one line, or lines each the next line of cells wrapped at their column's
    # edge (a LaTeX ``p{..}`` cell's justified lines, every row of a table of text wrapped)
    reach = [max((f.x1 for row in rows for f in row if a < f.cx < b), default=a) for a, b in zip(walls, walls[1:], strict=False)]
    ones = sum(1 for n, lines in _stretch_lines(stretch).items()
               if all(_wrap_line(rows[j - 1], rows[j], walls, reach) for j in lines[1:]))
    if len(counts) < 3 or 2 * ones < len(counts) and not padded:
        return _walled_head(rows, head, stretch, walls, rules, wrapped_head)

    def numbers(row: list[Fragment]) -> bool:  # a number right of the label column: a row of data
        return any(NUMBER.fullmatch(f.text.strip()) for f in row if column_of(limits, f.cx) > 0)

    out: list[list[Fragment]] = []
    new_head = 0
    k = 0
    while k < len(rows):
        end = k
        if stretch[k] is not None:
            while end + 1 < len(rows) and stretch[end + 1] == stretch[k]:
                end += 1
        if padded:  # lines set as far apart as lines a rule parts are rows, no rule between them
            end = next((j - 1 for j in range(k + 1, end + 1) if cys[j] - cys[j - 1] >= PADDED * _median(across)), end)
        group = rows[k:end + 1]
        if end > k and (k >= head and all(full(row) and (not padded or numbers(row)) for row in group)
                        or k < head and not wrapped_head(list(range(k, end + 1)))
                        or not _walled(list(range(k, end + 1)), rows, walls, rules)):
            out += [list(row) for row in group]  # rows of data with no rule between them; a title in the frame
            new_head += sum(1 for j in range(k, end + 1) if j < head)
        else:
            out.append(sorted((f for row in group for f in row), key=lambda f: f.x0))
            new_head += k < head
        k = end + 1
    return out, new_head


def _walled_head(rows: list[list[Fragment]], head: int, stretch: list[int | None], walls: list[float],
                 rules: list[Rule], wrapped) -> tuple[list[list[Fragment]], int]:
    """The header of a walled grid that does not rule its body rows one by one: its lines between two
    rules, every inner wall running through each of them, are the lines of one row of wrapped heads
    ("Total Costs" / "All Funds"). A group label over some columns has no wall through it: a header
    of two levels stays two rows."""
    first = stretch[0]
    lines = [k for k in range(head) if stretch[k] == first]
    if first is None or len(lines) < 2 or lines != list(range(len(lines))):
        return rows, head

    if not _walled(lines, rows, walls, rules) or not wrapped(lines):
        return rows, head
    joined = sorted((f for k in lines for f in rows[k]), key=lambda f: f.x0)
    return [joined, *rows[len(lines):]], head - len(lines) + 1


def _crossed(x: float, row: list[Fragment], rules: list[Rule]) -> bool:
    """Does the wall at ``x`` run through the line ``row`` (a wall drawn cell by cell: its pieces chained)?"""
    y0, y1 = min(f.y0 for f in row), max(f.y1 for f in row)
    reach = None
    for r in sorted((r for r in rules if r.vertical and abs((r.x0 + r.x1) / 2 - x) <= SAME_WALL), key=lambda r: r.y0):
        if reach is not None and r.y0 <= reach + CHAIN:
            reach = max(reach, r.y1)
        elif r.y0 <= y0 + CHAIN:
            reach = r.y1
    return reach is not None and reach >= y1 - CHAIN


def _walled(lines: list[int], rows: list[list[Fragment]], walls: list[float], rules: list[Rule]) -> bool:
    """Does every inner wall run through each of the lines ``lines`` of ``rows``: a row of the grid's
    cells, not a title set in its frame (no wall through it) nor a label over merged cells?"""
    return all(_crossed(x, rows[k], rules) for x in walls[1:-1] for k in lines)


def _cy(row: list[Fragment]) -> float:
    return sorted(f.cy for f in row)[len(row) // 2]


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def _pitches(cys: list[float], stretch: list[int | None]) -> tuple[list[float], list[float]]:
    """The pitches of consecutive lines (``cys``: their middles) between the same two rules, and of
    lines a rule parts. Where the first are set closer (``PADDED``), each rule has a cell's padding
    over and under it: the stretches are rows whose cells wrapped (a table of text, every row of several lines: "Books and" /
    "school supplies" beside a paragraph), not rows ruled every few lines at one pitch."""
    inner, across = [], []
    for k in range(1, len(cys)):
        if stretch[k] is None or stretch[k - 1] is None:
            continue
        (inner if stretch[k] == stretch[k - 1] else across).append(cys[k] - cys[k - 1])
    return inner, across


# words a heading does not end with: a line ending so goes on in the next
OPEN_ENDS = {"of", "in", "and", "or", "for", "to", "the", "per", "with", "on", "by", "at", "from", "&", "a", "an"}


def _goes_on(upper: list[Fragment], f: Fragment, limits) -> bool:
    """Does ``f`` go on with the text of the line above it in its column: that text ends mid-phrase
    ("shares in", "Exclusions &", "Trans-", "(Head Start") or ``f`` goes on in lower case from its left edge?"""
    col = column_of(limits, f.cx)
    above = [u for u in upper if column_of(limits, u.cx) == col]
    if not above:
        return False
    u = above[-1]
    words = u.text.split()
    # (a lower-case line flush with the line above it and right under it: a left-aligned cell's next
    # line; centred words in lower case under a head, or set a row's pitch down, may be a row of
    # their own, "Train" over "size")
    return bool(words) and (words[-1].endswith("-") or words[-1].lower() in OPEN_ENDS
                            or u.text.count("(") > u.text.count(")")) or (
        f.text[:1].islower() and abs(f.x0 - u.x0) < EDGE and f.y0 - u.y1 < 0.5 * (u.y1 - u.y0))


def _stretch_lines(stretch: list[int | None]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for k, s in enumerate(stretch):
        if s is not None:
            out.setdefault(s, []).append(k)
    return out


def _wrap_line(upper: list[Fragment], lower: list[Fragment], walls: list[float], reach: list[float]) -> bool:
    """Is ``lower`` the next line of cells wrapped in ``upper``: each of its texts (no number) between
    two walls where the line above reaches so near the column's widest line (``reach``, the right end of
    each column's text) that the text's first word would not have fit after it?"""
    for f in lower:
        col = next((c for c in range(len(walls) - 1) if walls[c] < f.cx < walls[c + 1]), None)
        words = f.text.split()
        if col is None or not words or NUMBER.fullmatch(f.text.strip()):
            return False
        above = [u.x1 for u in upper if walls[col] < u.cx < walls[col + 1]]
        first = (f.x1 - f.x0) * len(words[0]) / len(f.text)  # (the first word's width, near enough)
        if not above or max(above) + 0.25 * f.size + first < reach[col]:
            return False
    return True


def _units(row: list[Fragment]) -> bool:
    """A row of units, each cell in parentheses or brackets ("(nm)", "(kJ/mol)", "[%]")."""
    return all(f.text.strip()[:1] in "([" and f.text.strip()[-1:] in ")]" for f in row)
