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


_STAMP = "This content downloaded from 192.0.2.10 on Mon, 01 Jan 2024 12:00:00 UTC. All use subject to the terms."


def _stamped_scan(tmp, stamps: int):
    """Page 1 of the typeset paper scanned, then put on a page of its own under ``stamps`` lines of
    real text (an archive's download line), as repositories serve old scanned papers."""
    import pypdfium2 as pdfium

    (tmp / "paper").mkdir()
    (tmp / "stamped").mkdir()
    source = typeset_pdf(tmp / "paper", "\n\n".join(_paragraph(t) for t in _TOPICS[:8]),
                         r"\usepackage[a5paper,margin=2cm]{geometry}\pagestyle{empty}")
    doc = pdfium.PdfDocument(str(scan(source, tmp / "scan.pdf")))
    doc[0].render(scale=200 / 72, grayscale=True).to_pil().convert("L").save(tmp / "stamped" / "page.jpg", quality=75)
    lines = "".join(rf"\put(30,{-585 + 8 * k}){{\tiny {_STAMP}}}" for k in range(stamps))
    return typeset_pdf(tmp / "stamped", r"\begin{picture}(0,0)\put(0,-595){\includegraphics[width=\paperwidth,"
                       rf"height=\paperheight]{{page.jpg}}}}{lines}\end{{picture}}",
                       r"\usepackage[a5paper,margin=0pt]{geometry}\usepackage{graphicx}\pagestyle{empty}"
                       r"\setlength{\unitlength}{1pt}\setlength{\parindent}{0pt}")


def test_a_scanned_page_under_a_stamp_of_text_is_ocrd(tmp_path):
    # (the stamp reads as prose: the page was routed text-layer:prose and its scan never read)
    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    pdf = _stamped_scan(tmp_path, stamps=1)
    row = convert_pdf({"task_index": 0, "forum_id": "stamped", "pdf_path": str(pdf)},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
    assert json.loads(row["engine_pages"]) == ["rapidocr:image_only"], row["engine_pages"]
    text = re.sub(r"\s+", " ", row["markdown"])
    assert sum(_paragraph(t) in text for t in _TOPICS[:8]) >= 4, text[:500]


def test_a_page_with_a_figure_and_its_caption_stays_on_the_text_layer(tmp_path):
    import pypdfium2 as pdfium

    from ocr_ray.layout.pdftext import page_layout
    from ocr_ray.routing import stamped_scan

    # a figure set within the margins is no scan of the sheet, however few lines are under it
    (tmp_path / "paper").mkdir()
    (tmp_path / "figure").mkdir()
    source = typeset_pdf(tmp_path / "paper", _paragraph("figures"), r"\usepackage[a5paper]{geometry}")
    pdfium.PdfDocument(str(source))[0].render(scale=1).to_pil().save(tmp_path / "figure" / "fig.png")
    pdf = typeset_pdf(tmp_path / "figure", r"\begin{figure}[p]\centering\includegraphics[width=\textwidth,"
                      r"height=0.8\textheight]{fig.png}\caption{The page as a figure.}\end{figure}\clearpage",
                      r"\usepackage[a5paper]{geometry}\usepackage{graphicx}")
    layout = page_layout(pdfium.PdfDocument(str(pdf))[0])
    assert layout.images and layout.fragments  # the picture and its caption's line
    assert not stamped_scan(layout)
