"""The rule lines that bound tables: horizontal rules at one height joined into lines across a
table (``\\cmidrule`` pairs, ``\\cline`` segments, a word processor's cell borders drawn cell by
cell), lines of one extent grouped into the areas ``ocr_ray.layout.tables`` reads as tables, and an
area grown along its column rules.
"""
from __future__ import annotations

import re

from ocr_ray.layout.floats import CAPTION
from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_borders import BORDER_OVERLAP, unwalled_stretches

# IEEEtran's table caption: its label on a line of its own, upper case with a roman numeral
# ("TABLE II"), the caption in small capitals under it; floats.CAPTION knows "Table 2:" only.
_IEEE_TABLE = re.compile(r"TABLE\s+[IVXLC]+")
MIN_RULE_WIDTH = 40.0
SAME_EDGE = 3.0


# Rules side by side at one height (``\\cmidrule(lr){2-3}\\cmidrule(lr){4-5}``, each trimmed 0.5 em at
# its ends; ``\\cline`` segments) closer than this are one rule line across the table.
SEGMENT_GAP = 12.0
# Segments further apart than this (pt) leave a white gap between them (cell borders abut or overlap).
WHITE = 1.0
# Rule lines of one table differ in extent by at most this at either end: a \\cmidrule(lr) pair
# spanning every column is trimmed at both ends (0.5 em) against the \\toprule.
SAME_EXTENT = 8.0
# A rule inside a table at least this share of its width is one across it (a \midrule), not a
# \cmidrule under a group label.
WIDE_RULE = 0.8
# A line of a justified paragraph ends this close to its column's right edge (pt).
FLUSH = 3.0


def line_extent(rules: list[Rule], y: float) -> tuple[float, float] | None:
    """The extent of the horizontal rules at height ``y``, from the leftmost piece on through the
    pieces that touch it (a rule drawn cell by cell is one line); None where no rule lies there."""
    pieces = sorted((r for r in rules if r.horizontal and abs(r.y0 - y) <= 0.5), key=lambda r: r.x0)
    if not pieces:
        return None
    x0, x1 = pieces[0].x0, pieces[0].x1
    for r in pieces[1:]:
        if r.x0 > x1 + WHITE:
            break
        x1 = max(x1, r.x1)
    return x0, x1


def _rule_lines(rules: list[Rule]) -> tuple[list[Rule], dict[int, list[Rule]]]:
    """Horizontal rules at one height joined when they are segments of one line (see
    ``SEGMENT_GAP``), the lines at least ``MIN_RULE_WIDTH`` long; and each line's segments. A joined
    line stands only where another line has about its extent (a \\toprule, or the same cmidrules on
    the next rows): two tables side by side in two columns, their rules at one height, are two."""
    merged: list[tuple[Rule, list[Rule]]] = []
    level: list[Rule] = []
    walls = [r for r in rules if r.vertical]
    for rule in sorted((r for r in rules if r.horizontal), key=lambda r: r.y0) + [None]:
        if rule is not None and (not level or rule.y0 - level[0].y0 <= 1.0):
            level.append(rule)
            continue
        run: list[Rule] = []
        for r in sorted(level, key=lambda r: r.x0) + ([None] if level else []):
            end = max(q.x1 for q in run) if run else 0.0
            # segments abut or leave a gap (or overlap by about a border's width: a spreadsheet or word
            # processor draws each cell's own border); rules that overlap more are two tables' side by
            # side (sub-tables set a little into each other); one inside the other is the same rule again
            if r is not None and (not run or -BORDER_OVERLAP <= r.x0 - end <= SEGMENT_GAP or r.x1 <= end + 0.5):
                run.append(r)
                continue
            merged.append((Rule(min(q.x0 for q in run), min(q.y0 for q in run), max(q.x1 for q in run),
                                max(q.y1 for q in run)), run))
            run = [r] if r is not None else []
        level = [rule] if rule is not None else []
    lines, parts = [], {}
    for line, run in merged:
        # (the line it stands by runs across one of its white gaps at least: two tables side by side,
        # their top, header and bottom rules at one height, part at the same white in every line)
        alike = len(run) < 2 or any(other is not line and abs(other.x0 - line.x0) <= SAME_EXTENT
                                    and abs(other.x1 - line.x1) <= SAME_EXTENT and _across(other_run, run, walls)
                                    for other, other_run in merged)
        for out, segments in ([(line, run)] if alike else [(r, [r]) for r in run]):
            if out.x1 - out.x0 >= MIN_RULE_WIDTH:
                lines.append(out)
                parts[id(out)] = segments
    return lines, parts


def _whites(run: list[Rule], walls: list[Rule] = ()) -> list[tuple[float, float]]:
    """The white gaps between a rule line's segments (abutting or overlapping cell borders leave none,
    nor do borders that stop short of a wall drawn in the gap: a word processor's grid, eu-024's)."""
    ordered = sorted(run, key=lambda r: r.x0)
    y0, y1 = min(r.y0 for r in run) - 2, max(r.y1 for r in run) + 2
    return [(a.x1, b.x0) for a, b in zip(ordered, ordered[1:], strict=False) if b.x0 - a.x1 > WHITE
            and not any(a.x1 - 1 <= (w.x0 + w.x1) / 2 <= b.x0 + 1 and w.y0 <= y1 and w.y1 >= y0 for w in walls)]


def _across(other: list[Rule], run: list[Rule], walls: list[Rule] = ()) -> bool:
    """Does the line of segments ``other`` run across one of ``run``'s white gaps (or has ``run``
    none)? A table's ``\\cmidrule`` segments stand under its \\toprule, which crosses their gaps;
    two tables side by side part at the same white in all their lines."""
    whites = _whites(run, walls)
    return not whites or any(not any(a < w1 and b > w0 for a, b in _whites(other, walls)) and
                             any(r.x0 <= w0 + 0.5 and r.x1 >= w1 - 0.5 for r in other) for w0, w1 in whites)


def _across_area(f: Fragment, x0: float, x1: float) -> bool:
    """Does ``f`` run across the whole of ``x0``..``x1`` and on past one of its edges by a size? No
    cell of a table does (its rules span its widest row): a line of prose between two tables of
    one width, one under the other in a column (an item's text between two small tables)."""
    return f.x0 <= x0 + 2 and f.x1 >= x1 + f.size or f.x0 <= x0 - f.size and f.x1 >= x1 - 2


def _sub_rules(group: list[Rule], groups: list[list[Rule]], fragments: list[Fragment]) -> bool:
    """Is ``group`` the partial rules of a wider table (``\\cline{2-4}`` under a label set once for
    several rows, ``\\cmidrule``s), not a narrower table stacked between its rules? Its rules lie
    within the wider table's span and the rows next to them reach out of their extent."""
    x0, x1, y0, y1 = group[0].x0, group[0].x1, group[0].y0, group[-1].y1
    for wide in groups:
        if wide is group or len(wide) < 2 or not (wide[0].y0 < y0 and y1 < wide[-1].y1):
            continue
        if not (wide[0].x0 - SAME_EDGE <= x0 and x1 <= wide[0].x1 + SAME_EDGE) or wide[0].x1 - wide[0].x0 < x1 - x0 + 2:
            continue
        near = [f for f in fragments if wide[0].x0 <= f.cx <= wide[0].x1 and y0 - 2 * (f.y1 - f.y0) < f.cy < y1 + 2 * (f.y1 - f.y0)]
        if any(f.x1 < x0 or f.x0 > x1 for f in near):
            return True
    return False


def _labels_over(line: Rule, segments: list[Rule], fragments: list[Fragment]) -> float:
    """The top of the group labels set over a table's first rule line when that line is
    ``\\cmidrule`` segments (a table with no rule above them): fragments just above it, each
    centred over one segment; else the line's own top."""
    if len(segments) < 2:
        return line.y0
    above = [f for f in fragments if 0 <= line.y0 - f.y1 <= 0.8 * f.size and line.x0 <= f.cx <= line.x1]
    if above and all(any(abs(f.cx - (s.x0 + s.x1) / 2) <= max(3.0, 0.1 * (s.x1 - s.x0)) for s in segments) for f in above):
        return min(f.y0 for f in above) - 1
    return line.y0


def _adopt_end_rules(groups: list[list[Rule]], lines: list[Rule]) -> None:
    """A table whose inner rules are ``\\cmidrule``s (trimmed 0.5 em at each end) and whose
    ``\\toprule`` or ``\\bottomrule`` is a rule of its own, a little wider: that rule, the next
    line above (below) the group and of about its extent (``SAME_EXTENT``), joins it (``groups``
    changed in place)."""
    for group in [g for g in groups if len(g) >= 2]:
        for end in (0, -1):
            edge = group[end]
            near = [r for r in lines if (r.y1 < edge.y0 if end == 0 else r.y0 > edge.y1)]
            if not near:
                continue
            rule = max(near, key=lambda r: r.y0) if end == 0 else min(near, key=lambda r: r.y0)
            single = next((g for g in groups if g == [rule]), None)
            if single is not None and abs(rule.x0 - edge.x0) <= SAME_EXTENT and abs(rule.x1 - edge.x1) <= SAME_EXTENT:
                groups.remove(single)
                group.insert(0, rule) if end == 0 else group.append(rule)


def rule_groups(rules: list[Rule], fragments: list[Fragment]) -> list[tuple[float, float, float, float]]:
    """(top, bottom, left, right) of each table's area: two or more horizontal rule lines of about
    the same extent (``SAME_EXTENT``; partial rules inside a wider table's span belong to it),
    cut where a caption or another table's rule lies between two of them (two tables of one width
    stacked: datacomp's Tables 18 and 19, muse's Tables 4 and 5); or one rule crossed by vertical
    rules (a header rule and column rules only, muse's ``\\shline`` tables), whose extent the
    vertical rules give."""
    horizontal, segments = _rule_lines(rules)
    groups: list[list[Rule]] = []
    for rule in horizontal:
        for group in groups:
            if abs(group[0].x0 - rule.x0) <= SAME_EDGE and abs(group[0].x1 - rule.x1) <= SAME_EDGE:
                if rule.y0 - group[-1].y1 > 1.0:  # a thick rule drawn as two paths is one rule
                    group.append(rule)
                break
        else:
            groups.append([rule])
    groups = [g for g in groups if len(g) < 2 or not _sub_rules(g, groups, fragments)]
    _adopt_end_rules(groups, horizontal)
    captions = [f for f in fragments if f.text[:1] in "TF" and (CAPTION.match(f.text) or _IEEE_TABLE.fullmatch(f.text.strip()))
                ] if len(horizontal) > 1 else []
    verticals = [r for r in rules if r.vertical]
    out, lone = [], []
    for group in groups:
        parts, unwalled = [[group[0]]], unwalled_stretches(group, verticals)  # (a grid's end: the footer rule)
        for k, (above, below) in enumerate(zip(group, group[1:], strict=False)):
            lo, hi, x0, x1 = above.y1, below.y0, min(above.x0, below.x0), max(above.x1, below.x1)
            between = any(other is not group and len(other) >= 2 and all(lo < r.y0 < hi for r in other)
                          and other[0].x0 < x1 and other[0].x1 > x0 for other in groups) or any(
                lo < f.cy < hi and (x0 - 3 < f.x0 < x1 or x0 < f.cx < x1) for f in captions) or any(
                lo < f.cy < hi and _across_area(f, x0, x1) for f in fragments)  # (a line of prose)
            if between or k in unwalled:
                parts.append([below])
            else:
                parts[-1].append(below)
        for part in parts:
            x0, x1 = min(r.x0 for r in part), max(r.x1 for r in part)
            if len(part) >= 2:
                out.append((_labels_over(part[0], segments.get(id(part[0]), []), fragments), part[-1].y1, x0, x1))
                continue
            y = part[0].y0
            crossing = [r for r in rules if r.vertical and x0 < (r.x0 + r.x1) / 2 < x1 and r.y0 < y < r.y1]
            if crossing:
                lone.append((min(r.y0 for r in crossing), max(r.y1 for r in crossing), x0, x1))
    # a \cline under a header's group label, crossed by the column rules, inside a table that
    # \hline's bound (``c|c|c``: tuning-lda's Table 5) is that table's, not one of its own
    grown = [column_rules_extent(verticals, *b) for b in lone]
    return out + [b for b, (t, u) in zip(lone, grown, strict=True)
                  if not any(x0 - SAME_EDGE <= b[2] and b[3] <= x1 + SAME_EDGE and u >= top - 2 and t <= bottom + 2
                             for top, bottom, x0, x1 in out)]


def column_rules_extent(verticals: list[Rule], top: float, bottom: float, x0: float, x1: float) -> tuple[float, float]:
    """The area grown along the table's column rules, drawn row by row (muse's Table 3: its header
    sits above the only horizontal rules, between the segments of the rules between columns)."""
    inside = [r for r in verticals if x0 - 1 < (r.x0 + r.x1) / 2 < x1 + 1]
    grown = True
    while grown:
        grown = False
        for r in inside:
            if r.y0 < top - 1 and r.y1 >= top - 1.5:
                top, grown = r.y0, True
            if r.y1 > bottom + 1 and r.y0 <= bottom + 1.5:
                bottom, grown = r.y1, True
    return top, bottom
