"""Page furniture: running headers, footers, page numbers and margin stamps, found by geometry.

Furniture sits at the page's edge, apart from the body: the *edge zones* of a page are the rows of
text at its top (bottom) edge, walked inwards while the next row follows at less than
``ISOLATION`` of a row's height, when the gap after them is wider and they lie within the top
(bottom) ``BAND`` of the page. A section heading or a paragraph's short line at the top of a page
can form such a zone too; only the rules below make anything in a zone furniture. A fragment is
furniture when

* it is in an edge zone and a fragment with the same text (digits replaced by ``#``, so ``3``
  matches ``4`` and ``Page 3`` matches ``Page 4``) sits at about the same height on at least half
  of the pages (two at least) of the paper, of its even pages or of its odd pages: running heads
  that alternate by parity (LNCS and ``fancyhdr`` twoside: authors on even pages, title on odd)
  are each on fewer than half of all pages; or
* it is a bare page number (digits or roman numerals only) in an edge zone, in body size or
  smaller and not bold (a section's number at the top of a page is larger or bold; see
  ``_number_like`` for the foot and worded ones: "Page 8 of 11"), counting with the pages next to
  it where they are numbered, or a fragment on the same line as such a number, a wide space away
  (``\\hfil`` of a running head; a section number is followed by 1 em; at the foot at any
  distance), or a short row of its zone: a head is known by its number on a page of its own; or
* it lies wholly off the page (a printer's slug) or outside the horizontal extent of the paper's
  text body (margin stamps, arXiv-style side stamps when not rotated; the text layer drops rotated
  text); or
* it is in an edge zone and reads as furniture: the one rule here that reads wording, short
  patterns of how such lines are phrased, for pages that no repetition can show (page one of a
  review copy, a one-page input): venue notices (NeurIPS, CoRL and ICLR styles print "Submitted to
  ... Do not distribute.", "Preprint. Under review." or the conference's name on the first page
  only), "Downloaded from ...", journal lines ("<journal> | doi | Volume 8 | Issue 3 | e57410"),
  copyright and licence lines; an arXiv stamp anywhere; or
* it is one of the line numbers of a review copy: a column of bare integers, consecutive (mostly)
  from top to bottom, that no other text on the page crosses. Initial submissions are review copies:
  NeurIPS, ICML, CoRL and ACL styles number every line (the ``lineno`` package), and a body extent
  alone does not exclude them (every line has one, so they weigh on where "most lines" start);
  the rule lives in ``ocr_ray.layout.line_numbers``.
"""
from __future__ import annotations

import re

from ocr_ray.layout.furniture_heads import flush_head, menu, styled_head
from ocr_ray.layout.furniture_ticks import axis_tick
from ocr_ray.layout.furniture_words import (
    ARXIV_STAMP,
    DATE,
    ISSUE_DATE,
    PAGE_NUMBER,
    PART_NUMBER,
    PLAIN_NUMBER,
    STAMP_WORDS,
    WORDED_NUMBER,
    WORDED_SIZE,
    reads_as_address,
    reads_as_furniture,
)
from ocr_ray.layout.furniture_zones import (  # noqa: F401 (ISOLATION, BAND: the rules' public constants)
    BAND,
    HEAD_GAP,
    ISOLATION,
    body_extent,
    edge_zones,
    inward_gap,
    lone_number,
    row_height,
    zone_rows,
)
from ocr_ray.layout.line_numbers import line_numbers, ruled_over
from ocr_ray.layout.model import Fragment, PageLayout, Rule, body_size

SAME_Y = 6.0  # points: "the same height" on two pages
# a table wider than the text body (``adjustbox``/``resizebox`` past \textwidth, ``\makebox``): its
# rules run into the margin over and under the cells there; rows between two rules, at most this many
TABLE_ROWS_IN_MARGIN = 12
BODY_SIZE_SLACK = 1.15  # a page number or running head is set in body size or smaller
FOOTNOTE_MARKS = ("*", "†", "‡", "§")  # a footnote opens with one: body text, never furniture
_DIGITS = re.compile(r"\d+")


def _key(text: str) -> str:
    return _DIGITS.sub("#", " ".join(text.lower().split()))


def _part_number(f: Fragment, body: float) -> bool:
    """A part number in an edge zone, in body size or smaller and not bold (a heading such as
    "COVID-19" at the top of a page is larger or bold)."""
    return bool(PART_NUMBER.match(f.text.strip())) and not f.bold and f.size <= BODY_SIZE_SLACK * body


def _repeated(zones: list[set[int]], pages: list[PageLayout]) -> set[int]:
    """``id()`` of the edge-zone fragments repeated on at least half of the paper's pages, of its
    even pages or of its odd pages (two pages at least)."""
    found: set[int] = set()
    n = len(pages)
    groups = [range(n), range(0, n, 2), range(1, n, 2)]
    entries = [[(_key(f.text), f.cy) for f in page.fragments if id(f) in zones[i]] for i, page in enumerate(pages)]
    for i, page in enumerate(pages):
        for f in page.fragments:
            if id(f) not in zones[i]:
                continue
            key = _key(f.text)
            hits = {j for j in range(n) if j == i or any(k == key and abs(y - f.cy) <= SAME_Y for k, y in entries[j])}
            if any(i in group and len(hits & set(group)) >= max(2, (len(group) + 1) // 2) for group in groups):
                found.add(id(f))
    return found


def _number_like(f: Fragment, body: float, foot: bool = False) -> bool:
    """A page number's look: its pattern, not bold, body size or smaller; at the foot bold too (a
    folio: Nature's "218"; at the head a bold number may be a section's) and up to ``WORDED_SIZE`` (a
    report's folio over 7 pt tables); a worded one ("Page 8 of 11") in any weight, to ``WORDED_SIZE``."""
    text = f.text.strip()
    if WORDED_NUMBER.match(text):
        return f.size <= WORDED_SIZE * body
    return bool(PAGE_NUMBER.match(text)) and (foot or not f.bold) and f.size <= (WORDED_SIZE if foot else BODY_SIZE_SLACK) * body


def _page_offsets(pages: list[PageLayout], zones: list[list[list[list[Fragment]]]], bodies: list[float]) -> list[set[int]]:
    """Per page: printed number minus page index of each bare number in its edge zones, in the strict
    look only (a bold year at a title page's foot, "1854", made the next page's "94" disagree)."""
    return [{int(f.text) - i for zone in page_zones for row in zone
             if not _table_row(page, row) and not _number_column(zone, row) for f in row
             if f.text.strip().isdigit() and _number_like(f, bodies[i]) and not axis_tick(page.fragments, f)}
            for i, (page, page_zones) in enumerate(zip(pages, zones, strict=True))]


def _counts_with_pages(i: int, number: int, offsets: list[set[int]]) -> bool:
    """Page numbers count with the pages: a number in a page's edge zone is one unless the pages
    next to it are numbered and neither agrees with it (a table's first row at the top of a page,
    "# Layers  12", on page 18). Neighbours, not the whole paper: an appendix or supplement may
    start again at 1."""
    around = [offsets[j] for j in (i - 1, i + 1) if 0 <= j < len(offsets) and offsets[j]]
    return not around or any(number - i in near for near in around)


def _table_row(page: PageLayout, row: list[Fragment]) -> bool:
    """Is an edge row a table's row, not a running head: two or more bare numbers on it (a head has
    one page number; a header of shot counts "Model 0 1 2 4 8 16" at the top of a page was dropped
    whole as numbers and their head), or a horizontal rule across it just above and just below
    (a table's header between its \\toprule and \\midrule; a running head has a rule under it only)?"""
    numbers = [f for f in row if PLAIN_NUMBER.match(f.text.strip())]
    if len(numbers) >= 2 and not _spread_folios(row, numbers):
        return True
    x0, x1 = min(f.x0 for f in row), max(f.x1 for f in row)
    y0, y1 = min(f.y0 for f in row), max(f.y1 for f in row)
    return ruled_over(page, x0, x1, y0, y1, y1 - y0)


def _running_rules(pages: list[PageLayout], removed: list[list[Fragment]]) -> list[set[int]]:
    """``id()`` of each page's running head or foot rule: a horizontal rule set tight under a running
    head (over a foot) that was removed, at about the same height and extent on at least half of the
    pages (two at least), as ``fancyhdr``'s and ICML's head rule. It is furniture as its head is: left
    on the page, it was taken for a full-width table's top rule, and the headings and prose between
    it and the table's rules for the table's rows (a table's top rule under a head is a head's
    separation, ``\\headsep``, away from it)."""
    def tight(r: Rule, f: Fragment) -> bool:
        reach = 0.6 * (f.y1 - f.y0)
        return r.x0 - 2 <= f.x0 and f.x1 <= r.x1 + 2 and (0 <= r.y0 - f.y1 <= reach or 0 <= f.y0 - r.y1 <= reach)

    rules = [[r for r in page.rules if r.horizontal and any(tight(r, f) for f in gone)]
             for page, gone in zip(pages, removed, strict=True)]
    need = max(2, len(pages) / 2)
    return [{id(r) for r in page_rules if sum(1 for others in rules if any(
        abs(o.y0 - r.y0) <= SAME_Y / 3 and abs(o.x0 - r.x0) <= 2 and abs(o.x1 - r.x1) <= 2 for o in others)) >= need}
        for page_rules in rules]


def _wide_table_cell(page: PageLayout, f: Fragment) -> bool:
    """Is ``f``, outside the body's extent, a cell of a table wider than the body: a horizontal rule
    reaching across it above and one below, a few rows away (a margin stamp has no rule over it; a
    table's row labels and last columns, set into both margins, were dropped as stamps)."""
    return ruled_over(page, f.x0, f.x1, f.y0, f.y1, TABLE_ROWS_IN_MARGIN * (f.y1 - f.y0))


def _spread_folios(row: list[Fragment], numbers: list[Fragment]) -> bool:
    """Are a row's two numbers a spread's folios ("62 ... 63"): its two ends, the right one the next?"""
    if len(numbers) != 2 or not all(f.text.strip().isdigit() for f in numbers):
        return False
    left, right = sorted(numbers, key=lambda f: f.x0)
    ends = min(row, key=lambda f: f.x0) is left and max(row, key=lambda f: f.x1) is right
    return ends and int(right.text) == int(left.text) + 1


def _number_column(zone: list[list[Fragment]], row: list[Fragment]) -> bool:
    """Does a bare number of ``row`` stand over or under a bare number of another row of its zone:
    a table's column of numbers (a page has one page number per edge), at the top of a two-column
    page whose rows, set close, all fall in the edge zone (proteus: "Cores" 4, 8, 16, 10, 56 under a
    \\hline only, each row dropped as a page number and its running head)?"""
    numbers = [f for f in row if PLAIN_NUMBER.match(f.text.strip())]
    return any(f.x0 < g.x1 and g.x0 < f.x1 for other in zone if other is not row for g in other
               if PLAIN_NUMBER.match(g.text.strip()) for f in numbers)


def _between_rules(pages: list[PageLayout], zones: list[list[list[list[Fragment]]]]) -> set[int]:
    """``id()`` of the edge-zone fragments with a horizontal rule across each just above and just
    below: a table's header between its \\toprule and \\midrule (repeated at the top of each page a
    ``longtable`` runs over), a group label between the \\toprule and its \\cmidrule ("CIFAR-10",
    read as a part number), is no running head nor part number (they were dropped, and with the
    longtable's header the first page's table)."""
    out: set[int] = set()
    for page, page_zones in zip(pages, zones, strict=True):
        for f in (f for zone in page_zones for row in zone for f in row):
            if ruled_over(page, f.x0, f.x1, f.y0, f.y1, f.y1 - f.y0):
                out.add(id(f))
    return out


def _equation_number(f: Fragment, row: list[Fragment]) -> bool:
    """A number in parentheses right of a formula on its row: a display's equation number (IEEEtran's
    first display on a one-page input sits in the top edge zone; its "(1)" was dropped as a page number)."""
    return f.text.strip().startswith("(") and any(g is not f and g.x1 <= f.x0 and g.math >= 0.3 for g in row)


def _in_formula(f: Fragment, row: list[Fragment]) -> bool:
    """A bare number or numeral with another fragment of its row over or under it (a vector's arrow,
    an accent, a script): a formula's "i" (the unit vector, the imaginary unit), no page number, which
    stands clear on its row. Taken for one, it took its line's words a head's gap away with it (a Thai
    exam page's first line, "... i - j ..." under its vector arrows, lost its words around the
    formula). Maths beside it is no sign: a folio's bar ("74 | AB INCOME FUND") reads as maths."""
    # over half the narrower's width: glyphs set tight side by side (kerning) overlap by a hair
    return any(g is not f and min(f.x1, g.x1) - max(f.x0, g.x0) > 0.5 * min(f.x1 - f.x0, g.x1 - g.x0) for g in row)


def _page_numbers_and_heads(page: PageLayout, i: int, zone: list[list[Fragment]], body: float,
                            offsets: list[set[int]], foot: bool = False) -> set[int]:
    """``id()`` of the zone's page numbers on page ``i`` (``_number_like``, counting with the pages)
    and of the text on their line a wide space away (a running head beside its number); at the foot
    at any distance (a heading never ends a page: "Campus Attacks ... Page 5"). A worded number or one
    at the foot takes the short rows of its zone ("Appendix 5" over "Page 8 of 11" in a form's head)."""
    found: set[int] = set()
    for row in zone:
        if _table_row(page, row) or _number_column(zone, row):
            continue
        numbers = [f for f in row if _number_like(f, body, foot) and not _equation_number(f, row) and not _in_formula(f, row)
                   and (not f.text.strip().isdigit() or _counts_with_pages(i, int(f.text), offsets))
                   and not axis_tick(page.fragments, f)]
        found.update(id(f) for f in numbers)
        # a plain or worded number only: "(3)" beside a display at the top of a page is an equation's number
        numbers = [f for f in numbers if PLAIN_NUMBER.match(f.text.strip()) or WORDED_NUMBER.match(f.text.strip())]
        if not numbers:
            continue
        # in body size or smaller, or no larger than its number (a web page's print: "Survey Manager ...
        # Page 2 of 9", both bold, larger than the page's text)
        largest = max(BODY_SIZE_SLACK * body, max(n.size for n in numbers) + 0.5)
        for f in row:
            # at the foot half an em is enough (a footnote's mark, set small against its text, is none);
            # a footnote opening with its mark on the number's line is the page's text ("**Some payments
            # have been made ..." left of a report's folio)
            if f.size <= largest and f.math < 0.3 and not f.text.strip().startswith(FOOTNOTE_MARKS) and all(
                    max(n.x0 - f.x1, f.x0 - n.x1) >= (0.5 if foot else HEAD_GAP) * n.size for n in numbers):
                found.add(id(f))
        if (foot or any(WORDED_NUMBER.match(n.text.strip()) for n in numbers)) and len(zone) <= 3:
            for other in zone:
                if (other is not row and len(" ".join(f.text for f in other).split()) <= STAMP_WORDS
                        and not _table_row(page, other) and all(f.size <= largest and f.math < 0.3
                                                                and not f.text.strip().startswith(FOOTNOTE_MARKS) for f in other)):
                    found.update(id(f) for f in other)
    return found


SPLIT_HEAD_GAP = 0.2  # of the body's width: the white space \hfill leaves between a head's parts
SPLIT_HEAD_PART = 0.4  # of the body's width: a part's widest (a column's line is about half)


def _date_stamp(row: list[Fragment], body: float, dates=DATE) -> bool:
    """Is the outermost row of an edge zone a date stamp alone, a compile or print date ("Compiled
    on 17 May 2024"): one short line with a date, in body size or smaller, not bold, no footnote
    (a footnote starts with its mark) and no heading (larger or bold: a title block's date is set
    under its title, no edge row)."""
    text = " ".join(" ".join(f.text for f in sorted(row, key=lambda f: f.x0)).split())
    date = dates.search(text)
    return (bool(date) and len(text.split()) <= STAMP_WORDS and (not text[:1].isdigit() or date.start() == 0)
            and not text.startswith(FOOTNOTE_MARKS) and all(not f.bold and f.size <= BODY_SIZE_SLACK * body for f in row))


def _split_head(row: list[Fragment], extent: tuple[float, float] | None, body: float, flush: bool = True) -> bool:
    """Is the outermost row of an edge zone a head or foot in parts, ``fancyhdr``'s left, centre and
    right fields: two or three short parts in body size or smaller, the first flush with the body's
    left edge, the last with its right edge, wide white space between them ("Compiled on 2024-05-17
    ... Draft v2" on a one-page input, where no repetition shows it). A part may be a web page's menu
    (``furniture_heads.menu``: "Riverside Library ... Home  Catalogue  Events  Contact" as chromium
    prints a site's navigation bar). A heading, a stamp or a line of prose is one piece; the first
    lines of two columns are each half the body wide."""
    if extent is None or not 2 <= len(row):
        return False
    left, right = extent
    width = right - left
    pieces = sorted(row, key=lambda f: f.x0)
    # (the last may run past a ragged body's edge: a browser sets a bar in the page's box)
    if flush and (abs(pieces[0].x0 - left) > 4 or pieces[-1].x1 < right - 4):
        return False
    if any(f.bold or f.math >= 0.3 or f.size > BODY_SIZE_SLACK * body for f in pieces):
        return False
    parts = [[pieces[0]]]
    for a, b in zip(pieces, pieces[1:], strict=False):
        if b.x0 - a.x1 >= SPLIT_HEAD_GAP * width:
            parts.append([b])
        else:
            parts[-1].append(b)
    return 2 <= len(parts) <= 3 and all(
        (len(part) == 1 and part[0].x1 - part[0].x0 <= SPLIT_HEAD_PART * width) or menu(part) for part in parts)


def _row_beyond(page: PageLayout, zone: list[list[Fragment]], top: bool, extent: tuple[float, float] | None,
                body: float) -> list[Fragment]:
    """The row next inward of an edge zone holding a page number, in the band, apart from the body, in
    parts (flush or not), no part opening with a mark: Word's footer paragraph over the number's own."""
    if not any(PAGE_NUMBER.match(f.text.strip()) or WORDED_NUMBER.match(f.text.strip()) for row in zone for f in row):
        return []
    edge = max(f.y1 for row in zone for f in row) if top else min(f.y0 for row in zone for f in row)
    rows = [r for r in zone_rows(page.fragments) if (min(f.y0 for f in r) >= edge if top else max(f.y1 for f in r) <= edge)]
    rows = rows if top else rows[::-1]
    if not rows:
        return []
    row = rows[0]
    inside = max(f.y1 for f in row) <= BAND * page.height if top else min(f.y0 for f in row) >= (1 - BAND) * page.height
    apart = len(rows) < 2 or inward_gap(row, rows[1], top) >= ISOLATION * row_height(row)
    short = len(" ".join(f.text for f in row).split()) <= STAMP_WORDS and not any(
        f.text.strip()[:1].isdigit() or f.text.strip().startswith(FOOTNOTE_MARKS) for f in row)
    return row if inside and apart and short and _split_head(row, extent, body, flush=False) else []


def remove_furniture(pages: list[PageLayout]) -> list[list[Fragment]]:
    """The removed fragments per page (``pages`` are changed in place)."""
    numbered: list[list[Fragment]] = []
    for page in pages:  # first: they would widen the body extent and sit in the edge zones' rows
        # and text wholly off the page (a printer's slug outside the crop box: "2021/07/06 13:43:28 /
        # <job>.pdf" over an annual report's spread), printed nowhere a reader sees, unless most of the
        # page's text is (a turned page whose text the reading places off its box is still its text)
        off = [f for f in page.fragments if f.y1 <= 0 or f.y0 >= page.height or f.x1 <= 0 or f.x0 >= page.width]
        ids = line_numbers(page) | ({id(f) for f in off} if 2 * sum(len(f.text) for f in off)
                                    < sum(len(f.text) for f in page.fragments) else set())
        numbered.append([f for f in page.fragments if id(f) in ids])
        if ids:
            page.fragments = [f for f in page.fragments if id(f) not in ids]
    paper_body = body_size(pages)
    zones = [edge_zones(page) for page in pages]
    in_zone = [{id(f) for zone in page_zones for row in zone for f in row} for page_zones in zones]
    tabled = _between_rules(pages, zones)
    furniture = _repeated(in_zone, pages) - tabled if len(pages) >= 2 else set()
    # OCR'd sizes are box heights, estimated per page (``ocr_lines``): such a page is its own measure
    bodies = [paper_body if page.source == "text-layer" else body_size([page]) for page in pages]
    offsets = _page_offsets(pages, zones, bodies)
    extent = body_extent(pages)
    for i, page in enumerate(pages):
        for k, zone in enumerate(zones[i]):
            furniture |= _page_numbers_and_heads(page, i, zone, bodies[i], offsets, foot=k == 1)
            # (a head in parts one of which reads as furniture need not be flush with the body: a
            # browser's fixed head spans the page's box, the body its own margins)
            worded = zone and any(reads_as_furniture(f.text) for f in zone[0])
            if zone and not _table_row(page, zone[0]) and (_split_head(zone[0], extent, bodies[i], flush=not worded)
                                                            or _date_stamp(zone[0], bodies[i])
                                                            or (reads_as_address([f.text for f in zone[0]], head=k == 0)
                                                                and all(f.size <= WORDED_SIZE * bodies[i] for f in zone[0]))):
                furniture |= {id(f) for f in zone[0]} - tabled
        furniture |= {id(f) for f in page.fragments if id(f) in in_zone[i]
                      and (reads_as_furniture(f.text) or (_part_number(f, bodies[i]) and id(f) not in tabled))}
        furniture |= {id(f) for f in page.fragments if ARXIV_STAMP.match(" ".join(f.text.split()))}
        furniture |= {id(f) for f in styled_head(zones[i], bodies[i], BODY_SIZE_SLACK)} - tabled
        furniture |= {id(f) for f in flush_head(page, zones[i], extent, bodies[i], BODY_SIZE_SLACK)} - tabled
        for k, zone in enumerate(zones[i]):
            # a date under a head that is furniture ("NIST SP 800-223 ... HPC Security" over "February
            # 2024"; over a foot it may be the body's last line), and a head or foot in parts beyond a
            # zone that is furniture whole
            for outer, row in zip(zone if k == 0 else [], zone[1:], strict=False):
                if all(id(f) in furniture for f in outer) and _date_stamp(row, bodies[i], ISSUE_DATE) and not _table_row(page, row):
                    furniture |= {id(f) for f in row} - tabled
            if zone and all(id(f) in furniture for row in zone for f in row):
                beyond = _row_beyond(page, zone, k == 0, extent, bodies[i])
                if beyond and not _table_row(page, beyond):
                    furniture |= {id(f) for f in beyond} - tabled
    removed: list[list[Fragment]] = []
    for i, page in enumerate(pages):
        keep, gone = [], []
        for f in page.fragments:
            out = id(f) in furniture
            if not out and extent is not None:
                left, right = extent
                out = (f.x1 < left - 4 or f.x0 > right + 4) and not _wide_table_cell(page, f)
            (gone if out else keep).append(f)
        if not keep:  # a page of nothing but "furniture" (one line per page, say) is content
            keep, gone = list(page.fragments), []
        page.fragments = keep
        removed.append(numbered[i] + gone)
    if len(pages) >= 2:
        for page, ids in zip(pages, _running_rules(pages, removed), strict=True):
            page.rules = [r for r in page.rules if id(r) not in ids]
    return removed
