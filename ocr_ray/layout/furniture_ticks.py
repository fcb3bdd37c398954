"""A chart's tick labels are no page numbers.

A plot's vertical axis prints its values in a column, one under the other at one step, each value
the last plus the same difference ("8" over "6", "4", "2", "0"). Its top label sits where a page
number would: alone on its row at the page's top edge (a chart saved as a one-page PDF has no
margin: matplotlib's sample chart, its "8" in the top band and taken for the page's number once a
row belonged to the band by its middle). A page number is one number of its page at that place;
a tick label has two neighbours in its column at the step of the axis, in place and in value.
"""
from __future__ import annotations

import re

from ocr_ray.layout.model import Fragment

_TICK = re.compile(r"^[-−–]?\d+(?:[.,]\d+)?%?$")
_STEP_SLACK = 0.1  # of a step: the tick labels' spacing and values agree that closely


def _value(f: Fragment) -> float | None:
    text = f.text.strip()
    if not _TICK.match(text):
        return None
    return float(text.replace("−", "-").replace("–", "-").replace(",", ".").rstrip("%"))


def axis_tick(fragments: list[Fragment], f: Fragment) -> bool:
    """Is number ``f`` the end of a column of tick labels: the two numbers nearest it over or under
    it, sharing its column (overlapping it across), each a step further in place and in value, the
    steps equal (within ``_STEP_SLACK``)?"""
    value = _value(f)
    if value is None:
        return False
    column = [(g.cy, v) for g in fragments if g is not f and g.x0 < f.x1 and f.x0 < g.x1
              and (v := _value(g)) is not None]
    for side in (1, -1):
        near = sorted((c for c in column if (c[0] - f.cy) * side > 0), key=lambda c: abs(c[0] - f.cy))[:2]
        if len(near) < 2:
            continue
        (y1, v1), (y2, v2) = near
        step, value_step = y1 - f.cy, v1 - value
        if value_step and abs((y2 - y1) - step) <= _STEP_SLACK * abs(step) \
                and abs((v2 - v1) - value_step) <= _STEP_SLACK * abs(value_step):
            return True
    return False
