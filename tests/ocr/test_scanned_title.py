"""Issue 36 (scans, item 3): a title set over two lines on a scanned first page. A scan has no fonts:
type sizes come from the detector's box heights, which differ by a line's ascenders and descenders,
so the title's second line came out a size below its first (a ``##`` heading of its own) or within
the body's size (joined to the authors' line). Truth: the LaTeX source's title, one ``#`` heading."""
from __future__ import annotations

import re

import pytest

from tests.ocr.scanned import scanned_pages

_BODY = "\n\n".join(
    f"The {topic} is described in this paragraph with enough words to fill several lines of its column. "
    f"We explain how the {topic} was handled, which choices were made and why." for topic in ("crawl", "parser"))


@pytest.mark.parametrize("title", [
    "Reading Scanned Review Copies of Conference Papers Page by Page with a Layout Step",
    "Peer Review Corpora from Public Discussions: Crawling, Parsing and Splitting Every Venue",
])
def test_a_two_line_title_on_a_scan_is_one_heading(tmp_path, title):
    body = (rf"\title{{{title}}}\author{{Ada Lovelace \and Alan Turing}}\date{{}}\maketitle" "\n"
            rf"\section{{Introduction}}" "\n" + _BODY)
    page = scanned_pages(tmp_path, body, r"\usepackage[margin=1in]{geometry}")[0]
    headings = [re.sub(r"\s+", " ", line) for line in page.splitlines() if line.startswith("#")]
    assert headings[0] == f"# {title}", page
    assert not any(word in h for h in headings[1:] for word in title.split()[-3:]), page
