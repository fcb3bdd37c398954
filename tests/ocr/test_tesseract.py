"""tesseract's hOCR -> lines, font sizes and the page's layout: hand-made hOCR (fast), then one real
page through Debian's tesseract (skipped where it is not installed)."""

from __future__ import annotations

import io
import shutil
from html import escape

import pytest

from ocr_ray.layout import compose_pages
from ocr_ray.layout.model import PageLayout
from ocr_ray.ocr_engines import TesseractEngine
from ocr_ray.ocr_lines import ocr_layout
from ocr_ray.tesseract_hocr import hocr_lines

PAGE_W, PAGE_H = 1546, 2000  # a Letter page rendered at 2000 px


def word(x0: int, top: int, x1: int, text: str) -> tuple[int, int, int, str]:
    return x0, top, x1, text


def hocr(lines: list[tuple[int, float, list[tuple[int, int, int, str]]]], x_size: float = 23.0) -> str:
    """hOCR as tesseract 5 writes it: one ``ocr_line`` per (baseline y, x_size, words); a word is
    (x0, top, x1, text) and ends 6 px below the baseline."""
    spans = []
    for n, (baseline, size, words) in enumerate(lines):
        x0, y0 = min(w[0] for w in words), min(w[1] for w in words)
        x1, y1 = max(w[2] for w in words), baseline + 6
        inner = "".join(f"<span class='ocrx_word' id='w{n}_{i}' title='bbox {a} {t} {b} {y1}; x_wconf 95'>"
                        f"{escape(text)}</span>" for i, (a, t, b, text) in enumerate(words))
        spans.append(f"<span class='ocr_line' id='line_{n}' title=\"bbox {x0} {y0} {x1} {y1}; baseline 0 -6; "
                     f"x_size {size or x_size}; x_descenders 6; x_ascenders 5\">{inner}</span>")
    return (f"<?xml version=\"1.0\" encoding=\"UTF-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body>"
            f"<div class='ocr_page' id='page_1' title='bbox 0 0 {PAGE_W} {PAGE_H}'><div class='ocr_carea'>"
            f"<p class='ocr_par'>{''.join(spans)}</p></div></div></body></html>")


def body_line(baseline: int, x0: int = 137, text: str = "The method reads the page in order") -> tuple:
    """A body line at 10 pt (ascenders 18 px above the baseline, words ~1/3 x_size apart)."""
    words, x = [], x0
    for w in text.split():
        top = baseline - (18 if any(c.isupper() or c in "bdfhiklt" for c in w) else 11)
        words.append(word(x, top, x + 12 * len(w), w))
        x += 12 * len(w) + 8
    return baseline, 23.0, words


def test_section_number_stays_with_its_title_and_table_cells_are_cut():
    # LaTeX sets "3.1<quad>Page partition": a gap as wide as a column gap, after a lone number
    heading = (500, 27.0, [word(137, 478, 170, "3.1"), word(210, 478, 300, "Page"), word(310, 478, 420, "partition")])
    row = (600, 23.0, [word(137, 582, 200, "Venue"), word(208, 582, 220, "A"), word(330, 582, 400, "7,304"),
                       word(500, 582, 560, "0.41")])
    boxes, texts, heights, width = hocr_lines(hocr([heading, row]))
    assert texts == ["3.1 Page partition", "Venue A", "7,304", "0.41"] and width == PAGE_W
    assert boxes[0] == [(137, 478), (420, 506)]


def test_a_number_cell_is_not_taken_for_a_section_number():
    # "61.3" reads like a section number; what follows it is another number, not a title
    row = (600, 23.8, [word(459, 582, 504, "Line"), word(512, 582, 565, "order"), word(705, 582, 748, "61.3"),
                       word(815, 582, 857, "58.9"), word(920, 582, 968, "44.0")])
    header = (560, 22.4, [word(680, 542, 773, "Precision"), word(805, 542, 867, "Recall")])  # 1.43 x_size apart
    _, texts, _, _ = hocr_lines(hocr([header, row]))
    assert texts == ["Precision", "Recall", "Line order", "61.3", "58.9", "44.0"]


def test_ascender_height_ignores_a_footnote_mark_and_scales_x_height_words():
    line = body_line(700, text="reader would accept it without corrections.")
    marked = (line[0], line[1], [*line[2][:-1], word(line[2][-1][0], 700 - 26, line[2][-1][2], "corrections.1")])
    *_, heights, _ = hocr_lines(hocr([line, marked, (800, 23.0, [word(137, 789, 190, "core.")])]))
    # the superscript reaches 26 px above the baseline; the body's ascenders 18; "core." 11 x 1.5
    assert heights == [18, 18, 16.5]


def test_rotated_margin_text_without_baseline_does_not_count_as_large_type():
    text = (f"<html><body><div class='ocr_page' title='bbox 0 0 {PAGE_W} {PAGE_H}'>"
            "<span class='ocr_line' title='bbox 42 510 73 1182; textangle 90; x_size 31; x_descenders 6'>"
            "<span class='ocrx_word' title='bbox 42 808 67 1182'>arXiv:2611.04417v2</span></span></div></body></html>")
    _, texts, heights, _ = hocr_lines(text)
    assert texts == ["arXiv:2611.04417v2"] and heights == [pytest.approx(21.7)]  # not its 672 px box


def _page_markdown(hocr_text: str) -> str:
    boxes, texts, heights, width = hocr_lines(hocr_text)
    base = PageLayout(612.0, 792.0).to_json()
    return compose_pages([ocr_layout(base, boxes, texts, width, "tesseract", ascender_heights=heights)])[0]


def test_heading_footnote_and_body_sizes_come_from_baselines():
    # a 17 pt title's ascenders reach 30 px, a 14.4 pt heading's 25, the body's 18, a 8 pt footnote's 14
    heading = (250, 31.0, [word(137, 225, 160, "1"), word(191, 225, 390, "Introduction")])
    body = [body_line(300 + 30 * i, text=f"We read the page number {i} in order and") for i in range(6)]
    last = (480, 24.5, [word(137, 469, 190, "core.")])  # x-height letters only: still body type
    note = (1800, 27.25, [word(137, 1786, 150, "1"), word(156, 1786, 220, "Global"), word(228, 1786, 300, "tokens"),
                          word(308, 1791, 340, "are"), word(348, 1791, 420, "memory.")])
    title = (150, 41.0, [word(300, 120, 500, "Reading"), word(520, 120, 700, "Order")])
    markdown = _page_markdown(hocr([title, heading, *body, last, note]))
    blocks = markdown.split("\n\n")
    assert blocks[:2] == ["# Reading Order", "## 1 Introduction"], markdown
    assert blocks[2].startswith("We read the page number 0") and blocks[2].endswith("in order and core."), markdown
    assert blocks[-1] == "[^1]: Global tokens are memory.", markdown


def test_render_size_is_part_of_the_cache_id():
    default, small = TesseractEngine(), TesseractEngine(image_longest_side=1288)
    assert default.image_longest_side == 2000 and "px=2000" in default.cache_id
    assert default.cache_id != small.cache_id


SENTENCES = ["Classical document analysis systems segment the page image into blocks and then",
             "assign a reading order with hand-written rules. Later work learned the order from",
             "annotated pages, which improves accuracy on unusual layouts but requires a trained",
             "model at inference time. Vision-language models read the rendered page directly",
             "and produce markup, and they currently give the best results on difficult pages.",
             "Their cost, however, remains several orders of magnitude above that of a geometric",
             "method, which makes them a poor default for collections with millions of pages.",
             "Evaluation has moved from edit distance over whole pages toward targeted checks",
             "that each ask for one property of the output of a document of several pages."]


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")
def test_real_tesseract_finds_a_heading_by_its_size():
    """A generated page (18 pt title, 14 pt numbered heading, 10 pt body, 8 pt footnote) through the
    real binary, rendered at the engine's size."""
    import pypdfium2 as pdfium
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=letter)
    pdf.setFont("Times-Bold", 18)
    pdf.drawString(72, 730, "Reading Order Recovery")
    pdf.setFont("Times-Bold", 14)
    pdf.drawString(72, 690, "2")  # LaTeX's \section: number, a 1 em quad, title
    pdf.drawString(93, 690, "Related Work")
    body = pdf.beginText(72, 665)
    body.setFont("Times-Roman", 10)
    body.setLeading(12)
    for sentence in SENTENCES:
        body.textLine(sentence)
    pdf.drawText(body)
    pdf.setFont("Times-Roman", 8)
    pdf.drawString(72, 90, "1 An earlier version of this procedure was used internally.")
    pdf.showPage()
    pdf.save()
    engine = TesseractEngine()
    doc = pdfium.PdfDocument(buffer.getvalue())
    try:
        page = engine.prepare_page(doc[0])
    finally:
        doc.close()
    (layout,) = engine.process_batch([page])
    markdown = compose_pages([layout])[0]
    blocks = markdown.split("\n\n")
    assert blocks[:2] == ["# Reading Order Recovery", "## 2 Related Work"], markdown
    assert blocks[2].startswith("Classical document analysis systems") and blocks[2].endswith("several pages."), markdown
    assert blocks[-1].startswith("[^1]: An earlier version"), markdown
