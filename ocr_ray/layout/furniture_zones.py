"""The edge zones of a page and the paper's text body: where page furniture may stand.

An edge zone is the rows of text at the page's top (bottom) edge, walked inwards while the next row
follows at less than ``ISOLATION`` of a row's height, when the gap after them is wider and they lie
within the top (bottom) ``BAND`` of the page; the body extent is where most characters start and
end. ``ocr_ray.layout.furniture`` decides what in them is furniture.
"""
from __future__ import annotations

from collections import Counter

from ocr_ray.layout.furniture_words import PLAIN_NUMBER, STAMP_WORDS
from ocr_ray.layout.model import Fragment, PageLayout, top_down_groups

# share of the page height that counts as top or bottom band: the article class (and llncs, built
# on it) sets the running head's baseline at ~11.5 % of an A4 page from the top and the footer's
# page number at ~17 % from the bottom. A body's edge rows fall in it too (NeurIPS' text starts 9 %
# from the top); the edge zone's isolation and the rules below keep them.
BAND = 0.18
ISOLATION = 0.8  # gap to the nearest text towards the page's middle, in the fragment's heights
HEAD_GAP = 1.5  # a running head's text and its page number: at least this many font sizes apart


def zone_rows(fragments: list[Fragment]) -> list[list[Fragment]]:
    """Fragments grouped into lines (rows that overlap vertically), top to bottom."""
    return top_down_groups(fragments, lambda f, bottom: f.cy < bottom)


def edge_zones(page: PageLayout) -> list[list[list[Fragment]]]:
    """The rows of the page's top and of its bottom edge zone (see the module's docstring), each
    listed from the page's edge inwards; a zone is empty where the edge's rows run on into the
    body or past the band."""
    rows = zone_rows(page.fragments)
    zones = []
    # a row is in the band by its middle, not its box: a font's box is its bounding box's height
    # (Latin Modern's OpenType fonts, fontspec's default under lualatex and xelatex: 15.4 pt for a
    # 10.9 pt page number, whose box then reached 3.6 pt out of the band and kept it in the text)
    for ordered, outside in ((rows, lambda r: max(f.cy for f in r) > BAND * page.height),
                             (rows[::-1], lambda r: min(f.cy for f in r) < (1 - BAND) * page.height)):
        zone: list[list[Fragment]] = []
        for k, row in enumerate(ordered):
            if zone and inward_gap(zone[-1], row, ordered is rows) >= ISOLATION * row_height(zone[-1]):
                # a bare number standing alone between the zone and the body (a page number over a
                # download stamp set in tiny type, whose own height isolates it from the number)
                after = ordered[k + 1] if k + 1 < len(ordered) else None
                if (lone_number([row]) and not outside(row)
                        and (after is None or inward_gap(row, after, ordered is rows) >= ISOLATION * row_height(row))):
                    zone.append(row)
                break
            if outside(row):
                zone = lone_number(zone, page.source != "text-layer")
                break
            zone.append(row)
        else:  # every row of the page: nothing to stand apart from
            zone = lone_number(zone, page.source != "text-layer")
        zones.append(zone)
    return zones


def row_height(row: list[Fragment]) -> float:
    return max(max(f.y1 - f.y0 for f in row), 1.0)


def inward_gap(outer: list[Fragment], inner: list[Fragment], top: bool) -> float:
    """The white space between a row and the next row towards the page's middle."""
    if top:
        return min(f.y0 for f in inner) - max(f.y1 for f in outer)
    return min(f.y0 for f in outer) - max(f.y1 for f in inner)


def lone_number(zone: list[list[Fragment]], scan: bool = False) -> list[list[Fragment]]:
    """The edge row alone when it is a bare number and nothing else (a page number set closer under
    or over the text than a zone's gap: muse's, a few points under a long caption): only the rules
    for page numbers can make it furniture, which ask it to count with the pages. On a scan also a
    book's folio beside its running head, set as tight on the text as the lines are ("16" and
    "SETTLEMENT OF NEW-YORK" over an 1830s page): a bare number at the row's end, a few words a
    running head's gap away."""
    if zone and len(zone[0]) == 1 and PLAIN_NUMBER.match(zone[0][0].text.strip()):
        return zone[:1]
    row = sorted(zone[0], key=lambda f: f.x0) if scan and zone else []
    for number, rest in ((row[0], row[1:]), (row[-1], row[:-1])) if len(row) >= 2 else ():
        if PLAIN_NUMBER.match(number.text.strip()) and len(" ".join(f.text for f in rest).split()) <= STAMP_WORDS \
                and min(abs(f.x0 - number.x1) if f.x0 > number.x0 else abs(number.x0 - f.x1) for f in rest) \
                >= HEAD_GAP * number.size:
            return zone[:1]
    return []


def body_extent(pages: list[PageLayout]) -> tuple[float, float] | None:
    """Left and right edge of the text body: where most characters start and end."""
    lefts: Counter = Counter()
    rights: Counter = Counter()
    total = 0
    for page in pages:
        for f in page.fragments:
            weight = len(f.text)
            lefts[round(f.x0)] += weight
            rights[round(f.x1)] += weight
            total += weight
    if total < 200:
        return None

    def quantile(counter: Counter, q: float) -> float:
        seen = 0
        for x in sorted(counter):
            seen += counter[x]
            if seen >= q * total:
                return float(x)
        return float(max(counter))

    return quantile(lefts, 0.02), quantile(rights, 0.98)
