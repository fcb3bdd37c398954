"""Issue 36 (scanned pages): running heads and page numbers on a scan are dropped by the same rules
as on a born-digital page (``ocr_ray.layout.furniture``): the OCR'd lines become the page's
fragments before the paper's pages are composed, so repetition across pages and a page number on
the head's line count there too, although a scanner's feeder sets each sheet at its own angle and
a few points higher or lower. Truth: the LaTeX source below (``\\markboth``'s heads, twoside
``myheadings``: the title and the page number on odd pages, the authors on even ones)."""
from __future__ import annotations

import re

from tests.ocr.scanned import scanned_pages

_AUTHORS, _TITLE = "A. Author and B. Writer", "Reading Scanned Papers Again"
_TOPICS = ["crawling", "threads", "revisions", "conversion", "tables", "formulas", "splits", "licences",
           "checks", "speed", "errors", "plans", "venues", "reviews", "scores", "authors", "deadlines",
           "decisions", "comments", "versions", "figures", "captions"]


def _paragraph(topic: str) -> str:
    return (f"This paragraph is about the {topic} of the corpus. It has enough words to fill several lines "
            f"of the page, and it says what was done with the {topic}, why it was done that way, and what "
            f"the measurements showed when they were repeated on every venue that we read for the release.")


def test_running_heads_and_page_numbers_of_a_scan_are_dropped(tmp_path):
    body = f"\\markboth{{{_AUTHORS}}}{{{_TITLE}}}\n" + "\n\n".join(_paragraph(t) for t in _TOPICS)
    pages = scanned_pages(tmp_path, body, r"\usepackage[a5paper,margin=2cm]{geometry}\pagestyle{myheadings}",
                          options="twoside", feed=[(0.6, 0.0), (-0.8, 9.0), (0.4, -5.0)])
    assert len(pages) >= 3
    flat = [re.sub(r"\s+", " ", page) for page in pages]
    for number, page in enumerate(pages, start=1):
        assert _AUTHORS not in flat[number - 1] and _TITLE not in flat[number - 1], page[:300]
        assert not re.search(rf"(^|\n){number}(\n|$)", page), page  # the page number, a line of its own
    text = " ".join(flat)
    whole = [re.sub(r"\s+", " ", _paragraph(t)) in text for t in _TOPICS]
    assert sum(whole) >= len(_TOPICS) - 6, whole  # the body is kept (paragraphs cut by a page break aside)


def test_a_printed_web_page_loses_its_print_head_and_foot(tmp_path):
    """A web page printed by a browser and scanned, one sheet (issue 36: ocrmypdf's epson.pdf, a
    Wikipedia article): the head holds the page's title over the left margin and its address over the
    right one, the foot the page count and the date. Only a row of an address with a date or a page
    count went (``furniture_words.reads_as_address``); the title beside the address kept the row, so
    the address stayed at the top of the text. Truth: the fancyhdr fields below."""
    title, address = "Optical character recognition - Wikipedia", "https://en.wikipedia.org/wiki/Optical_character"
    body = "\n\n".join(_paragraph(t) for t in _TOPICS[:6])
    preamble = (r"\usepackage[a4paper,margin=2.5cm,headsep=1cm]{geometry}\usepackage{fancyhdr}\usepackage{url}"
                r"\pagestyle{fancy}\renewcommand{\headrulewidth}{0pt}"
                rf"\fancyhead[L]{{\small {title}}}\fancyhead[R]{{\small \url{{{address}}}}}\fancyhead[C]{{}}"
                r"\fancyfoot[L]{\small 1 of 9}\fancyfoot[C]{}\fancyfoot[R]{\small 14/09/16 20:42}")
    pages = scanned_pages(tmp_path, body, preamble)
    assert len(pages) == 1
    flat = re.sub(r"\s+", " ", pages[0])
    assert "wikipedia.org" not in flat and "Optical character recognition" not in flat, pages[0][:400]
    assert "14/09/16" not in flat and "of 9" not in flat, pages[0][-300:]
    whole = [re.sub(r"\s+", " ", _paragraph(t)) in flat for t in _TOPICS[:6]]
    assert sum(whole) >= 5, flat


def test_a_book_page_s_folio_and_running_head_set_tight_on_the_text_are_dropped(tmp_path):
    """One scanned page of an old book (issue 36: the real-scans set's history-chapter3, an 1830s
    history of New York): the folio and the running head share the top row, set as close over the
    text as its lines are, so no edge zone stood apart from the body and "16 SETTLEMENT OF NEW-YORK"
    opened the first paragraph. On a scan a row of a bare number at its end and a few words a running
    head's gap away is the zone (``furniture_zones.lone_number``). Truth: the fancyhdr fields below."""
    body = "\n\n".join(_paragraph(t) for t in _TOPICS[:5])
    preamble = (r"\usepackage[a5paper,margin=2cm,headsep=2pt,headheight=10pt]{geometry}\usepackage{fancyhdr}"
                r"\pagestyle{fancy}\renewcommand{\headrulewidth}{0pt}\fancyhf{}"
                r"\fancyhead[L]{16}\fancyhead[C]{\small SETTLEMENT OF NEW-YORK}\setcounter{page}{16}")
    pages = scanned_pages(tmp_path, body, preamble)
    flat = re.sub(r"\s+", " ", pages[0])
    assert "SETTLEMENT OF NEW-YORK" not in flat and not flat.startswith("16"), flat[:300]
    whole = [re.sub(r"\s+", " ", _paragraph(t)) in flat for t in _TOPICS[:5]]
    assert sum(whole) >= 4, flat
