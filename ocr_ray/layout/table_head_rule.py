"""The rule under a table's head, just above where its column rules start (ICDAR 2013's us-020, a
statistics report's table: a rule under the head, no rule in the body, column rules drawn row by
row from the second row on, for the shading of alternate rows). The column rules gave the table's
top at the second row: the first row ("Australia 290 284 ...") and the head above it were prose.
A horizontal rule across the columns' text, at most a row's pitch above that top, with one line
of cells between, is the table's head rule: the table starts there, and its head above it is found
as any head over a table's top rule (``tables._rows_above``)."""
from __future__ import annotations

from ocr_ray.layout.model import Fragment, Rule
from ocr_ray.layout.table_grid import table_rows
from ocr_ray.layout.table_rule_lines import line_extent

ACROSS = 0.9  # share of the columns' text a head rule runs under
PITCHES = 1.5  # how far above the column rules' top the head rule may lie, in row pitches


def head_rule_top(rules: list[Rule], fragments: list[Fragment], top: float, x0: float, x1: float,
                  pitch: float) -> float:
    """The table's top: the head rule's, where one lies above the column rules' ``top`` (see the
    module), else ``top``. ``x0``..``x1``: the extent of the rows' text; ``pitch``: their pitch."""
    above = sorted({round(r.y0, 1) for r in rules if r.horizontal and top - PITCHES * pitch <= r.y1 <= top},
                   reverse=True)
    for y in above:
        extent = line_extent(rules, y)
        if extent is None or min(extent[1], x1) - max(extent[0], x0) < ACROSS * (x1 - x0):
            continue
        between = [f for f in fragments if f.kind == "text" and y < f.cy < top and x0 - 3 < f.cx < x1 + 3]
        lines = table_rows(between)
        if len(lines) == 1 and len(lines[0]) >= 2 and all(x0 - 3 <= f.x0 and f.x1 <= x1 + 3 for f in lines[0]):
            return y
        return top
    return top
