"""Issue 36 (scans, item 2): a review copy's margin line numbers (the ``lineno`` package, as NeurIPS,
ICML and ACL review modes set them: a column of numbers beside every line, left or right). On a
scanned page RapidOCR's detector joined some of them to the line beside them ("6 how the parser was
handled ..."), where the furniture step's line-number rule could not see them, and they cut the
paragraph there. Truth: the paragraphs of the LaTeX source below, each read whole and without a
number; the same on the text layer of the PDF pdflatex wrote."""
from __future__ import annotations

import re

import pyarrow.fs as pafs
import pytest

from tests.ocr.scanned import scanned_pages, typeset_pdf

_TOPICS = ["crawl", "parser", "splits", "licences", "checks", "speed"]
_PARAGRAPHS = [f"The {topic} is described in this paragraph with enough words to fill several lines of its column. "
               f"We explain how the {topic} was handled, which choices were made and why, and what the numbers "
               f"showed when the measurements were repeated on every venue we read." for topic in _TOPICS]
_BODY = "\\section{Method}\n" + "\n\n".join(_PARAGRAPHS)


def _preamble(side: str) -> str:
    return rf"\usepackage[margin=1in]{{geometry}}\usepackage[{side}]{{lineno}}\linenumbers"


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("’", "'")).strip()


def _read_whole_without_numbers(page: str) -> None:
    flat = _flat(page)
    missing = [p for p in _PARAGRAPHS if _flat(p) not in flat]
    assert not missing, page
    # the section's own number is the only bare number left
    assert re.findall(r"(?<![\w.])\d{1,3}(?![\w.])", flat) == ["1"], page


@pytest.mark.parametrize("side", ["left", "right"])
def test_margin_line_numbers_of_a_scanned_review_copy_are_dropped(tmp_path, side):
    (page,) = scanned_pages(tmp_path, _BODY, _preamble(side))
    _read_whole_without_numbers(page)


@pytest.mark.parametrize("side", ["left", "right"])
def test_margin_line_numbers_of_a_born_digital_review_copy_are_dropped(tmp_path, side):
    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    pdf = typeset_pdf(tmp_path, _BODY, _preamble(side))
    row = convert_pdf({"task_index": 0, "forum_id": "lineno", "pdf_path": str(pdf)},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
    assert not row["error"], row["error"]
    _read_whole_without_numbers(row["markdown"])


def test_line_numbers_ocr_read_into_their_lines_leave_the_column_its_numbers():
    """A NeurIPS review copy scanned (the scanned set's cryoem-orientation, page 2): RapidOCR read two
    of the margin's numbers into their lines, one of them misread ("60 2 Method", "s9 an intermediate
    reconstruction ..."). Those lines crossed the column of numbers, so the column was no line numbers,
    and each number was read into its line ("First, the more 62 similar two projections"). A line
    whose OCR box opens with one of the column's numbers at the column's left edge is such a line.
    Truth by hand: the page's geometry (numbers right-aligned at x 106, text from x 120)."""
    from ocr_ray.layout.line_numbers import line_numbers
    from ocr_ray.layout.model import Fragment, PageLayout

    fragments = []
    for k in range(14):
        y = 360.0 + 13.0 * k
        number = str(35 + k)
        if k == 4:
            fragments.append(Fragment(96.2, y, 500.0, y + 8, "s9 an intermediate reconstruction of the particle", 9.0))
        elif k == 9:
            fragments.append(Fragment(96.1, y, 171.6, y + 8, f"{number} 2 Method", 9.0))
        else:
            fragments.append(Fragment(106.0 - 5.0 * len(number), y, 106.0, y + 8, number, 9.0))
            fragments.append(Fragment(120.0, y, 500.0, y + 8, f"The text of line {k} of the paragraph goes on here.", 9.0))
    page = PageLayout(612.0, 792.0, fragments, [], "rapidocr")
    found = {f.text for f in page.fragments if id(f) in line_numbers(page)}
    assert found == {str(35 + k) for k in range(14) if k not in (4, 9)}
    text_layer = PageLayout(612.0, 792.0, fragments, [], "text-layer")
    assert not line_numbers(text_layer)  # guard: a text layer's line crossing its column keeps the rule as it was
