"""Failures the robustness corpus (``benchmarks/robustness``: public PDF libraries' test files, and
fuzzed variants) found in the production path, each reproduced on a PDF made here: a paper whose PDF
PDFium reads must come out with markdown, not an error row."""
from __future__ import annotations

import json

import pyarrow.fs as pafs
import pytest

from ocr_ray.conversion import convert_pdf
from ocr_ray.pdf_pages import PdfReadError, check_pdf_bytes
from ocr_ray.routing import TextLayerEngine
from tests.ocr.handmade_pdf import utf8_cmap_pdf


def convert(tmp_path, data: bytes) -> dict:
    path = tmp_path / "p.pdf"
    path.write_bytes(data)
    return convert_pdf({"task_index": 0, "forum_id": "f", "pdf_path": str(path)},
                       filesystem=pafs.LocalFileSystem(), engine=TextLayerEngine(fallback=None))


def test_a_font_whose_cmap_reads_utf8_codes_keeps_its_paper_and_its_text(tmp_path):
    # pdf.js's issue18117.pdf and issue11768_reduced.pdf: PDFium hands over codes past U+10FFFF
    # (0xE38081), chr() raised ValueError/OverflowError and the paper was an error row
    paper = convert(tmp_path, utf8_cmap_pdf("Tokyo 日本、東京"))
    assert paper["error"] == "", paper["error"]
    assert "Tokyo" in paper["markdown"] and "日本、東京" in paper["markdown"], paper["markdown"]


def sideways_pdf(path, lines: list[str], rotate: int) -> None:
    """A portrait page whose text is drawn turned 90 degrees counter-clockwise (a landscape page
    set sideways), with the page's ``/Rotate`` ``rotate`` (90 shows it upright, as Distiller and
    LibreOffice write landscape pages; 0 leaves it sideways)."""
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=(612, 792))
    c.setPageRotation(rotate)
    c.translate(612, 0)
    c.rotate(90)  # the landscape page's origin at the portrait page's bottom right
    c.setFont("Helvetica", 14)
    for n, line in enumerate(lines):
        c.drawString(72, 612 - 72 - 24 * n, line)
    c.showPage()
    c.save()


def test_a_page_whose_text_is_all_turned_is_read_upright_not_lost(tmp_path):
    # pdfbox's rot90.pdf, camelot's rotated.pdf, pdfplumber's issue-140-example.pdf and 25 more of
    # the corpus: every character rotated, so none was body text, the page was empty, the paper lost
    lines = ["Quarterly licence listing for the northern district",
             "Every row names a holder and the date of the licence",
             "The last line of this sideways page ends here"]
    for rotate in (90, 0):
        sideways_pdf(tmp_path / "p.pdf", lines, rotate)
        paper = convert(tmp_path, (tmp_path / "p.pdf").read_bytes())
        assert paper["error"] == "", (rotate, paper["error"])
        positions = [paper["markdown"].find(line) for line in lines]
        assert -1 not in positions and positions == sorted(positions), (rotate, paper["markdown"])


def test_a_page_of_consecutive_numbers_in_columns_is_kept_not_taken_for_line_numbers(tmp_path):
    # tabula-java's MultiColumn.pdf: three columns 1..30, 100..129, 200..229 and nothing else; each
    # column passed as a review copy's line numbers, every fragment was dropped, the paper lost
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(tmp_path / "p.pdf"), pagesize=(425, 452))
    c.setFont("Helvetica", 10)
    for row in range(26):
        for col, start in enumerate((1, 100, 200)):
            c.drawString(57 + 36 * col, 452 - 57 - 13.5 * row, str(start + row))
    c.showPage()
    c.save()
    paper = convert(tmp_path, (tmp_path / "p.pdf").read_bytes())
    assert paper["error"] == "", paper["error"]
    words = paper["markdown"].split()
    assert {"1", "13", "26", "100", "112", "125", "200", "225"} <= set(words), paper["markdown"]


def test_a_pdf_padded_with_nul_bytes_after_its_end_marker_is_read_not_refused_as_truncated(tmp_path):
    # pypdf's selenium-pypdf-issue-177.pdf (cairo, printed by a browser): %%EOF, then 20 KB of NUL
    # bytes; the reading step looked for %%EOF in the last 2 KB only and refused it as truncated
    paper = convert(tmp_path, utf8_cmap_pdf("Printed from a browser") + b"\x00" * 20_000)
    assert paper["error"] == "", paper["error"]
    assert "Printed from a browser" in paper["markdown"]
    cut = utf8_cmap_pdf("Printed from a browser")[:-200]  # a download cut short is still refused
    with pytest.raises(PdfReadError, match="truncated PDF"):
        check_pdf_bytes(cut + b"\x00" * 20_000)  # (the PDF stage's check: fetched again)
    # the reading step: a file PDFium cannot open is read once qpdf has rebuilt it (``pdf_repair``),
    # its record saying the file was cut and rebuilt; one cut after its trailer (no %%EOF) opens
    # in PDFium itself, and is read, its record saying the file was cut
    rebuilt = convert(tmp_path, cut + b"\x00" * 20_000)
    assert rebuilt["error"] == "" and "Printed from a browser" in rebuilt["markdown"], rebuilt
    assert [(f["rule"], f["reason"]) for f in json.loads(rebuilt["fallbacks"])] == [("pdf", "truncated"),
                                                                                   ("pdf", "repaired")]
    read = convert(tmp_path, utf8_cmap_pdf("Printed from a browser")[:-10])
    assert read["error"] == "" and "Printed from a browser" in read["markdown"]
    assert [(f["rule"], f["reason"]) for f in json.loads(read["fallbacks"])] == [("pdf", "truncated")]


def test_text_drawn_at_an_angle_inside_a_form_xobject_is_read_once_the_page_is_turned(tmp_path):
    # iText's cmp_rotatedFieldAppearanceTest02.pdf (robustness corpus): a form field's appearance,
    # its text drawn at 60 degrees inside a form XObject, the page's only text. The page is turned
    # to read it (``rotated.turn_page`` turns the form), but each glyph was still judged by its text
    # object's own matrix, which the form's turn does not reach: still rotated, dropped, paper lost
    from reportlab.pdfgen import canvas

    lines = ["Applicant signs the licence form here", "Countersigned by the district office"]
    c = canvas.Canvas(str(tmp_path / "p.pdf"), pagesize=(612, 792))
    c.beginForm("field")
    c.saveState()
    c.translate(150, 300)
    c.rotate(60)
    c.setFont("Helvetica", 12)
    for n, line in enumerate(lines):
        c.drawString(0, -18 * n, line)
    c.restoreState()
    c.endForm()
    c.doForm("field")
    c.showPage()
    c.save()
    paper = convert(tmp_path, (tmp_path / "p.pdf").read_bytes())
    assert paper["error"] == "", paper["error"]
    positions = [paper["markdown"].find(line) for line in lines]
    assert -1 not in positions and positions == sorted(positions), paper["markdown"]
