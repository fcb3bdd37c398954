"""Issue 36 (scanned pages): a two-column paper that reaches us as a scan. RapidOCR's detector drew
one box across the 10 pt gutter where two lines stood side by side ("... their discus- a
representative sample ...") and its boxes' margins (~half an em each side) closed the gutter, so the
reading order took the page as one column: paragraphs came out interleaved with the other column's
lines. Truth: the paragraphs of the LaTeX source below, as typeset (a full page, both columns)."""
from __future__ import annotations

import re
import shutil

import pytest

from tests.ocr.scanned import scanned_pages

_TOPICS = ["crawling of the submissions", "threads of the public discussion", "revisions of each paper",
           "conversion of the full text", "tables of the experiments", "formulas of the method",
           "splits of the released corpus", "licences of the venues", "checks of the final records",
           "speed of the whole pipeline", "errors found by the reviewers", "plans for the next release"]


def _paragraph(n: int, topic: str) -> str:
    return (f"The {topic} is the subject of this paragraph, which describes it in enough words to fill several "
            f"lines of its column. We explain how the {topic} was handled, which choices were made and why "
            f"they hold for every venue we read, and what the measurements showed when they were repeated.")


_BODY = "\n\n".join(_paragraph(n, topic) for n, topic in enumerate(_TOPICS))


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("’", "'")).strip()


def test_a_scanned_two_column_page_reads_each_paragraph_whole(tmp_path):
    _reads_each_paragraph_whole(_flat(scanned_pages(tmp_path, _BODY, r"\usepackage[margin=1in]{geometry}",
                                                    options="twocolumn")[0]))


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")
@pytest.mark.parametrize("angle", [1.5, -1.2])
def test_tesseract_reads_a_skewed_two_column_scan_column_by_column(tmp_path, monkeypatch, angle):
    # tesseract gives each word's box upright on the skewed page: 1.5 degrees off, a column's edge
    # drifts ~25 px down the page, more than the gutter, and the columns were read alternately
    # (before: 3 of 12 paragraphs found). Its words are turned back by the baselines' slant, the
    # same turn as RapidOCR's boxes (ocr_columns.turn).
    monkeypatch.setenv("REVIEWBENCH_AUTO_OCR", "tesseract")
    _reads_each_paragraph_whole(_flat(scanned_pages(tmp_path, _BODY, r"\usepackage[margin=1in]{geometry}",
                                                    options="twocolumn", angle=angle)[0]))


def _reads_each_paragraph_whole(page: str) -> None:
    # every sentence that begins a paragraph, whole and in the source's order: no words of the
    # other column inside it (a line across the gutter cut in two, the columns read one after the other)
    firsts = [f"The {topic} is the subject of this paragraph" for topic in _TOPICS]
    found = [page.find(first) for first in firsts]
    on_page = [i for i in found if i >= 0]
    assert len(on_page) >= 8, found  # the page holds most of the twelve paragraphs
    assert on_page == sorted(on_page), found
    whole = [_flat(_paragraph(n, t)) in page for n, t in enumerate(_TOPICS) if found[n] >= 0]
    assert sum(whole) >= len(whole) - 2, whole  # one that runs onto the next page, one OCR slip at most
