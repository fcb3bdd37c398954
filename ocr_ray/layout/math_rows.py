"""The rows of one display block: an ``align`` (``eqnarray``, ``gather``...) cut into its lines.

``math_hook.bands`` cuts a block where no glyph bridges the vertical gap between two formulas. The
lines of an aligned derivation with fractions leave no such gap: one row's denominators come
within a few points of the next row's numerators (hr-odes' (75): 3.7 pt at 10 pt), closer than a
fraction's numerator is to its own bar (up to 0.4 em). Read as one formula, the rows' glyphs
interleave by x and the LaTeX is noise. So rows are found the way TeX sets them instead:

* every row has its own baseline, on which full-size glyphs sit (relations, operators, letters,
  parentheses) that hang from no fraction bar: those glyphs' baselines, clustered, are the rows;
* a fraction's numerator and denominator hang from its bar (directly above or below it, within
  its span), and the bar sits on its row's maths axis, a quarter em above the baseline;
* a big operator or delimiter (CMEX) is centred on its row's axis;
* everything else (scripts, limits, pieces of tall delimiters) joins the row of its nearest
  glyph, nearest first, so a subscript follows its nucleus and a limit its operator.

A block with one such baseline is left whole (a formula of one row, however tall).
"""
from __future__ import annotations

from ocr_ray.layout.math_matrix import tall_delimiters
from ocr_ray.layout.math_symbols import EXTENSION_FONTS
from ocr_ray.layout.model import Rule

# a glyph hangs from a bar when its box is this close to it (em): a display numerator without
# descenders sits 0.41 em above its bar, a denominator of x-height letters 0.49 em below
HANG = 0.6
# glyphs stacked on a hanging one hang too (a nested fraction, a tall numerator) when this close
# (em): less than two rows' facing glyphs are apart
CHAIN = 0.25
# row baselines closer than this (em) are one row (a numerator that hangs from nothing)
ROW_GAP = 1.1
# TeX's maths axis above the baseline (em; cmsy10's axis_height is 2.5 pt)
AXIS = 0.25
_EXTENSION_FONTS = (*EXTENSION_FONTS, "TEX-MATHX")
_RADICAL_CODES = {"p", "q", "r", "s", "t", "\u221a"}


def _bars(glyphs: list[list], rules: list[Rule]) -> list[Rule]:
    x0 = min(g[1] for g in glyphs)
    x1 = max(g[3] for g in glyphs)
    y0 = min(g[2] for g in glyphs)
    y1 = max(g[4] for g in glyphs)
    return [r for r in rules if r.y1 - r.y0 <= 2.0 and r.x1 - r.x0 > 1.5 and x0 - 2 <= r.x0 and r.x1 <= x1 + 2
            and y0 - 2 <= r.y0 <= y1 + 2]


def _extension(g: list) -> bool:
    return g[7].upper().startswith(_EXTENSION_FONTS)


def _radical(g: list) -> bool:
    return g[0] == "\u221a" or _extension(g) and g[0] in _RADICAL_CODES


def _hanging(glyphs: list[list], bars: list[Rule], size: float) -> dict[int, int]:
    """id(glyph) -> index of the bar it hangs from (the widest one first: an outer fraction takes
    the inner one's glyphs)."""
    out: dict[int, int] = {}
    for k in sorted(range(len(bars)), key=lambda k: bars[k].x0 - bars[k].x1):
        for above in (True, False):
            free = {id(g): gap for g in glyphs if id(g) not in out
                    and (gap := _gap_to_bar(g, bars[k], above)) is not None}
            members = [g for g in glyphs if free.get(id(g), HANG * size + 1) <= HANG * size]
            while members:
                for g in members:
                    out[id(g)] = k
                members = [g for g in glyphs if id(g) in free and id(g) not in out and free[id(g)] <= 3 * size
                           and any(_vgap(g, m) <= CHAIN * size and _hgap(g, m) <= size
                                   for m in glyphs if out.get(id(m)) == k)]
    return out


def _gap_to_bar(g: list, bar: Rule, above: bool) -> float | None:
    """How far a glyph within the bar's span is above (below) it; None if it is not on that side."""
    if not bar.x0 - 1 <= (g[1] + g[3]) / 2 <= bar.x1 + 1:
        return None
    if above:
        return bar.y0 - g[4] if g[4] <= bar.y0 + 1 else None
    return g[2] - bar.y1 if g[2] >= bar.y1 - 1 else None


def _vgap(a, b) -> float:
    return max(a[2], b[2]) - min(a[4], b[4])


def _hgap(a, b) -> float:
    return max(a[1], b[1]) - min(a[3], b[3])


def row_size(glyphs: list[list]) -> float:
    """The formula's type size: its largest letter or digit's (a big operator may come from a text
    font at a larger size: mathptmx's \\sum is the Symbol font's at 14.3 pt beside 10 pt letters, and
    at its size no letter was full size, no row had a baseline, an align's rows were one row)."""
    letters = [g[6] for g in glyphs if not _extension(g) and g[0][:1].isalnum()]
    others = [g[6] for g in glyphs if not _extension(g)]
    return max(letters or others or [10.0])


_NUMBER_CHARS = frozenset("()0123456789.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _number_column(glyphs: list[list], size: float) -> set[int]:
    """ids of the glyphs of equation numbers set apart at the block's right ("(3)": white of 1.5 em
    or more before them, their glyphs those of numbers). They make no row: an ``aligned`` inside an
    ``equation`` has its number centred between its rows, whose baselines it chained into one row."""
    spans = sorted((g[1], g[3], id(g)) for g in glyphs)
    edge = spans[0][1]
    cut = None
    for x0, x1, _ in spans[1:]:
        if x0 - edge > 1.5 * size:
            cut = x0
        edge = max(edge, x1)
    if cut is None:
        return set()
    right = [g for g in glyphs if g[1] >= cut]
    if len(right) >= 3 and all(g[0] in _NUMBER_CHARS for g in right) and any(g[0] == "(" for g in right):
        return {id(g) for g in right}
    return set()


def _baselines(anchors: list[list], size: float) -> list[float]:
    """Row baselines: clusters of the anchors' baselines with at least two glyphs, merged when
    closer than ``ROW_GAP``."""
    groups: list[list[float]] = []
    for b in sorted(g[5] for g in anchors):
        if groups and b - groups[-1][-1] <= 0.25 * size:
            groups[-1].append(b)
        else:
            groups.append([b])
    rows: list[list[float]] = []
    for group in (g for g in groups if len(g) >= 2):
        if rows and group[0] - rows[-1][-1] < ROW_GAP * size:
            rows[-1] += group
        else:
            rows.append(group)
    return [max(set(r), key=r.count) for r in rows]


def split_rows(glyphs: list[list], rules: list[Rule]) -> list[tuple[list[list], list[Rule]]]:
    """The rows of a display block, top to bottom, each with its own fraction bars and vincula;
    ``[(glyphs, rules)]`` when it has one row."""
    whole = [(glyphs, rules)]
    if len(glyphs) < 6:
        return whole
    size = row_size(glyphs)
    bars = _bars(glyphs, rules)
    radicals = [g for g in glyphs if _radical(g)]
    vincula = {k for k, r in enumerate(bars) if any(abs(g[3] - r.x0) < 2.0 and abs(g[2] - r.y0) < 2.0 for g in radicals)}
    fraction_bars = [r for k, r in enumerate(bars) if k not in vincula]
    hung = _hanging(glyphs, fraction_bars, size)
    numbers = _number_column(glyphs, size)
    anchors = [g for g in glyphs if id(g) not in hung and id(g) not in numbers and not _extension(g) and not _radical(g)
               and g[6] >= 0.9 * size]
    baselines = _baselines(anchors, size)
    # the rows of a matrix or cases are one formula: baselines inside one tall delimiter are one row
    for _, y0, _, y1 in tall_delimiters(glyphs, size):
        inner = [b for b in baselines if y0 <= b <= y1]
        if len(inner) > 1:
            keep = min(inner, key=lambda b: abs(b - ((y0 + y1) / 2 + AXIS * size)))
            baselines = [b for b in baselines if b not in inner or b == keep]
    baselines = _without_matrix_rows(anchors, baselines, size)
    if len(baselines) < 2:
        return whole

    def nearest(y: float) -> int:
        return min(range(len(baselines)), key=lambda i: abs(baselines[i] - y))

    # (an equation number goes to the row nearest its baseline, not to the nearest glyph's: a row
    # reaching further right than the next one took that one's number, "((21))")
    row: dict[int, int] = {id(g): nearest(g[5]) for g in glyphs if id(g) in numbers} | {id(g): nearest(g[5]) for g in anchors}
    # a bar hanging from no other bar sits on its row's axis; a glyph hanging from a bar (a bar
    # itself, as the box of a nested fraction) is in that bar's row
    bar_boxes = [["", r.x0, r.y0, r.x1, r.y1, 0, 0, ""] for r in fraction_bars]
    nested = _hanging(bar_boxes, fraction_bars, size)
    bar_row: dict[int, int] = {}
    for k in sorted(range(len(fraction_bars)), key=lambda k: fraction_bars[k].x0 - fraction_bars[k].x1):
        outer = nested.get(id(bar_boxes[k]))
        bar_row[k] = bar_row[outer] if outer is not None and outer in bar_row else \
            nearest((fraction_bars[k].y0 + fraction_bars[k].y1) / 2 + AXIS * size)
    for g in glyphs:
        if id(g) in hung:
            row[id(g)] = bar_row[hung[id(g)]]
        elif _extension(g) and id(g) not in row:
            centre = (g[2] + g[4]) / 2 + AXIS * size
            if g[4] - g[2] >= 1.2 * size:  # a big operator or delimiter, not a piece of one
                row[id(g)] = nearest(centre)
    _attach_rest(glyphs, row)
    out: list[tuple[list[list], list[Rule]]] = []
    for i in range(len(baselines)):
        members = [g for g in glyphs if row.get(id(g)) == i]
        if not members:
            continue
        own = [r for k, r in enumerate(fraction_bars) if bar_row[k] == i]
        own += [bars[k] for k in vincula if any(row.get(id(g)) == i and abs(g[3] - bars[k].x0) < 2.0
                                                 and abs(g[2] - bars[k].y0) < 2.0 for g in radicals)]
        out.append((members, own))
    return out


# a matrix cell's glyphs: letters, digits and what a number holds; a row of cells holds nothing else
_CELL_CHARS = set("0123456789.,") | {chr(c) for c in range(ord("a"), ord("z") + 1)} \
    | {chr(c) for c in range(ord("A"), ord("Z") + 1)}


def matrix_cells(row: list[list], size: float) -> bool:
    """Glyphs of one baseline that are a matrix's row: two cells or more of letters and digits only,
    0.6 em or more apart (a cell's own glyphs closer than 0.3 em)."""
    if len(row) < 2 or any(g[0] not in _CELL_CHARS for g in row):
        return False
    row = sorted(row, key=lambda g: g[1])
    gaps = [b[1] - a[3] for a, b in zip(row, row[1:], strict=False)]
    return any(gap >= 0.6 * size for gap in gaps) and all(gap >= 0.6 * size or gap < 0.3 * size for gap in gaps)


def _without_matrix_rows(anchors: list[list], baselines: list[float], size: float) -> list[float]:
    """The baselines less those of a matrix with no delimiters (``\begin{matrix}``): a row of two
    cells or more (letters and digits only, a gap of 0.6 em or more between cells), set within the
    horizontal extent of a neighbouring row (less than 1.6 em away) that is no such row (the
    formula's: "M = 4 5 6" between "1 2 3" and "7 8 9"). An aligned derivation's rows state
    relations or start with an operator; they were kept apart, and the matrix read as three rows."""
    rows = {b: [g for g in anchors if min(baselines, key=lambda x: abs(x - g[5])) == b] for b in baselines}

    def cells(row: list[list]) -> bool:
        return matrix_cells(row, size)

    out = []
    for b in baselines:
        row = rows[b]
        beside = [c for c in baselines if c != b and abs(c - b) < 1.6 * size and not cells(rows[c]) and rows[c]]
        if cells(row) and any(min(g[1] for g in rows[c]) <= min(g[1] for g in row) - 0.5
                              and max(g[3] for g in row) <= max(g[3] for g in rows[c]) + 0.5 for c in beside):
            continue
        out.append(b)
    return out


def _attach_rest(glyphs: list[list], row: dict[int, int]) -> None:
    """Glyphs without a row join the row of their nearest placed glyph, nearest first (Prim's
    order: a limit joins its operator, then a limit's subscript joins the limit)."""
    placed = [g for g in glyphs if id(g) in row]
    rest = [g for g in glyphs if id(g) not in row]
    best = {id(g): min(((_distance(g, p), row[id(p)]) for p in placed), default=(float("inf"), 0)) for g in rest}
    while rest:
        g = min(rest, key=lambda g: best[id(g)][0])
        rest.remove(g)
        row[id(g)] = best[id(g)][1]
        for other in rest:
            d = _distance(other, g)
            if d < best[id(other)][0]:
                best[id(other)] = (d, row[id(g)])


def _distance(a, b) -> float:
    return max(0.0, _vgap(a, b)) + 0.5 * max(0.0, _hgap(a, b))
