"""Issue 36 (mixed documents): a paper whose PDF holds born-digital pages and a scanned one (a
signed form, a page re-scanned into the camera-ready) is routed page by page: the text layer reads
its own pages, OCR only the page with nothing but an image, and the paper's running heads and page
numbers are dropped on both kinds of page (furniture is found across the paper's pages, whichever
engine read them). Truth: the LaTeX source (its paragraphs, ``\\markboth``'s heads)."""
from __future__ import annotations

import json
import re

import pyarrow.fs as pafs

from tests.ocr.scanned import scan, typeset_pdf

_AUTHORS, _TITLE = "A. Author and B. Writer", "Reading Mixed Papers Again"
_TOPICS = ["crawling", "threads", "revisions", "conversion", "tables", "formulas", "splits", "licences",
           "checks", "speed", "errors", "plans", "venues", "reviews", "scores", "authors", "deadlines",
           "decisions", "comments", "versions", "figures", "captions", "labels", "sources", "scripts"]


def _paragraph(topic: str) -> str:
    return (f"This paragraph is about the {topic} of the corpus. It has enough words to fill several lines "
            f"of the page, and it says what was done with the {topic}, why it was done that way, and what "
            f"the measurements showed when they were repeated on every venue that we read for the release.")


def _mixed_pdf(tmp, scanned: int):
    """The typeset paper with its page ``scanned`` (0-based) replaced by that page's scan."""
    import pypdfium2 as pdfium

    source = typeset_pdf(tmp, f"\\markboth{{{_AUTHORS}}}{{{_TITLE}}}\n" + "\n\n".join(_paragraph(t) for t in _TOPICS),
                         r"\usepackage[a5paper,margin=2cm]{geometry}\pagestyle{myheadings}", options="twoside")
    scans = scan(source, tmp / "scan.pdf")
    born, imaged = pdfium.PdfDocument(str(source)), pdfium.PdfDocument(str(scans))
    out = pdfium.PdfDocument.new()
    for i in range(len(born)):
        out.import_pages(imaged if i == scanned else born, [i])
    out.save(tmp / "mixed.pdf")
    return tmp / "mixed.pdf", len(born)


def test_a_paper_with_one_scanned_page_is_read_page_by_page(tmp_path):
    from ocr_ray.conversion import PAGE_SEPARATOR, convert_pdf
    from ocr_ray.engines import get_engine

    pdf, count = _mixed_pdf(tmp_path, scanned=1)
    assert count >= 3
    row = convert_pdf({"task_index": 0, "forum_id": "mixed", "pdf_path": str(pdf)},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
    assert not row["error"], row["error"]
    routes = json.loads(row["engine_pages"])
    assert routes[1] == "rapidocr:image_only", routes
    assert all(r.startswith("text-layer") for i, r in enumerate(routes) if i != 1), routes
    pages = [re.sub(r"\s+", " ", page) for page in row["markdown"].split(PAGE_SEPARATOR)]
    for number, page in enumerate(pages, start=1):
        assert _AUTHORS not in page and _TITLE not in page, (number, page[:300])
        assert not re.search(rf"(^| ){number} *$", page.strip()) and not page.strip().startswith(f"{number} "), page
    assert len(pages[1]) > 500  # the scanned page's body is read
    text = " ".join(pages)
    whole = [_paragraph(t) in text for t in _TOPICS]
    assert sum(whole) >= len(_TOPICS) - 6, whole  # paragraphs cut by a page break aside
