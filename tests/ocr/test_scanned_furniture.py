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
