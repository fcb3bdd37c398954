"""Page furniture: running headers, footers, page numbers and margin stamps, found by geometry.

Nothing here knows any header's wording. A fragment is furniture when

* it sits in the top or bottom band of its page, apart from the body text, and a fragment with the same text (digits
  replaced by ``#``, so ``3`` matches ``4`` and ``Page 3`` matches ``Page 4``) sits at about the
  same height on at least half of the pages (and on two pages at least); or
* it is a bare page number (digits or roman numerals only) in the top or bottom band, apart from
  the body text; or
* it lies wholly outside the horizontal extent of the paper's text body (margin stamps,
  arXiv-style side stamps when not rotated); or
* it is a venue notice in the bottom band of a page, apart from the body text (NeurIPS, CoRL and
  ICLR styles print "Submitted to ... Do not distribute.", "Preprint. Under review." or the
  conference's name on the first page only, so no repetition can show it): the one rule here that
  reads wording, a short pattern of how such notices are phrased; or
* it is one of the line numbers of a review copy: a column of bare integers, consecutive (mostly)
  from top to bottom, that no other text on the page crosses. Initial submissions are review copies:
  NeurIPS, ICML, CoRL and ACL styles number every line (the ``lineno`` package), and a body extent
  alone does not exclude them (every line has one, so they weigh on where "most lines" start).
"""
from __future__ import annotations

import re
from collections import Counter

from ocr_ray.layout.model import Fragment, PageLayout

BAND = 0.11  # share of the page height that counts as top or bottom band
SAME_Y = 6.0  # points: "the same height" on two pages
ISOLATION = 0.8  # gap to the nearest text towards the page's middle, in the fragment's heights
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"^(page\s*)?[-–—(\[]?\s*(\d{1,4}|[ivxlc]{1,6})\s*[-–—)\]]?(\s*(of|/)\s*\d{1,4})?$", re.I)


def _key(text: str) -> str:
    return _DIGITS.sub("#", " ".join(text.lower().split()))


def _in_band(fragment: Fragment, page: PageLayout) -> bool:
    """In the top or bottom band *and* set apart from the text next to it (towards the page's
    middle) by at least ``ISOLATION`` of its height: running heads and page numbers stand apart
    from the body; the first line of a column does not."""
    height = max(fragment.y1 - fragment.y0, 1.0)
    if fragment.y1 < BAND * page.height:
        below = [f.y0 - fragment.y1 for f in page.fragments if f.y0 >= fragment.y1 - 0.3 * height and f is not fragment
                 and not (f.y0 < fragment.y1 and f.y1 > fragment.y0)]
        return min(below, default=page.height) >= ISOLATION * height
    if fragment.y0 > (1 - BAND) * page.height:
        above = [fragment.y0 - f.y1 for f in page.fragments if f.y1 <= fragment.y0 + 0.3 * height and f is not fragment
                 and not (f.y0 < fragment.y1 and f.y1 > fragment.y0)]
        return min(above, default=page.height) >= ISOLATION * height
    return False


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


_VENUE_NOTICE = re.compile(
    r"(do not distribute|under review|^preprint\b|^(submitted to|published as|accepted (at|to)|postprint of|to appear in)\b"
    r"|^(\d+(st|nd|rd|th)\s+)?(annual\s+)?conference on\b|^proceedings of\b|^copyright\b|^©)", re.I)
_LINE_NUMBER = re.compile(r"^\d{1,4}$")
LINE_NUMBERS_MIN = 5  # numbers in one column of a page
LINE_NUMBER_X = 3.0  # points: numbers of one column end (right-aligned) or start at about the same x


def line_numbers(page: PageLayout) -> set[int]:
    """``id()`` of the fragments that are the page's line numbers (see the module's docstring)."""
    numbers = [f for f in page.fragments if _LINE_NUMBER.match(f.text)]
    if len(numbers) < LINE_NUMBERS_MIN:
        return set()
    found: set[int] = set()
    columns: list[list[Fragment]] = []
    for f in sorted(numbers, key=lambda f: f.x1):  # right-aligned, as ``lineno`` sets them
        if columns and f.x1 - columns[-1][-1].x1 <= LINE_NUMBER_X:
            columns[-1].append(f)
        else:
            columns.append([f])
    for column in columns:
        if len(column) < LINE_NUMBERS_MIN:
            continue
        column.sort(key=lambda f: f.y0)
        values = [int(f.text) for f in column]
        steps = [b - a for a, b in zip(values, values[1:], strict=False)]
        # consecutive lines, with a skipped number now and then (a display equation, a figure)
        if sum(1 for s in steps if 1 <= s <= 3) < 0.8 * len(steps):
            continue
        x0, x1 = min(f.x0 for f in column), max(f.x1 for f in column)
        y0, y1 = column[0].y0, column[-1].y1
        members = {id(f) for f in column}
        crossed = any(f.x0 < x1 and f.x1 > x0 and f.y1 > y0 and f.y0 < y1 for f in page.fragments
                      if id(f) not in members)
        if not crossed and not _ruled_over(page, x0, x1, y0, y1, 3 * (column[0].y1 - column[0].y0)):
            found |= members
    return found


def _ruled_over(page: PageLayout, x0: float, x1: float, y0: float, y1: float, reach: float) -> bool:
    """Is the column x0..x1, y0..y1 under a table's rules: a horizontal rule across it above its first
    number and one below its last, each within a few rows (``reach``)? A table's row numbers (1, 2,
    3 ... down its first column) are; a review copy's line numbers, in the margin beside the text,
    never are (rules stay in the column, and no rule closes in a whole page's numbers)."""
    across = [r for r in page.rules if r.horizontal and r.x0 <= x0 + 1 and r.x1 >= x1 - 1]
    return any(y0 - reach <= r.y1 <= y0 + 1 for r in across) and any(y1 - 1 <= r.y0 <= y1 + reach for r in across)


def remove_furniture(pages: list[PageLayout]) -> list[list[Fragment]]:
    """The removed fragments per page (``pages`` are changed in place)."""
    candidates = [[f for f in page.fragments if _in_band(f, page)] for page in pages]
    n = len(pages)
    need = max(2, (n + 1) // 2)
    repeated: list[set[int]] = [set() for _ in pages]
    if n >= 2:
        for i, cands in enumerate(candidates):
            for f in cands:
                key, hits = _key(f.text), {i}
                for j, others in enumerate(candidates):
                    if j != i and any(_key(o.text) == key and abs(o.cy - f.cy) <= SAME_Y for o in others):
                        hits.add(j)
                if len(hits) >= need:
                    repeated[i].add(id(f))
    numbered: list[list[Fragment]] = []
    for page in pages:  # before the body extent: they would widen it
        ids = line_numbers(page)
        numbered.append([f for f in page.fragments if id(f) in ids])
        if ids:
            page.fragments = [f for f in page.fragments if id(f) not in ids]
    extent = body_extent(pages)
    removed: list[list[Fragment]] = []
    for i, page in enumerate(pages):
        keep, gone = [], []
        for f in page.fragments:
            furniture = id(f) in repeated[i] or (_in_band(f, page) and (
                _PAGE_NUMBER.match(f.text.strip()) or (f.y0 > page.height / 2 and _VENUE_NOTICE.search(f.text.strip()))))
            if not furniture and extent is not None:
                left, right = extent
                furniture = f.x1 < left - 4 or f.x0 > right + 4
            (gone if furniture else keep).append(f)
        if not keep:  # a page of nothing but "furniture" (one line per page, say) is content
            keep, gone = list(page.fragments), []
        page.fragments = keep
        removed.append(numbered[i] + gone)
    return removed
