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
