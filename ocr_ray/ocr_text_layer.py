"""A scanned page that carries an OCR program's invisible text layer, read as the OCR'd page it is.

Most scanned papers on the web are a page image with the text an OCR program read from it laid
over the image in text render mode 3 (invisible): tesseract's own PDF output (``tesseract img out
pdf``: one word at a time in its GlyphLessFont, each word stretched to its box), ocrmypdf, archive
and publisher scans. Read as a born-digital text layer, its words were fragments whose sizes and
gaps vary word by word: the gaps between words (a third of an em at 300 dpi, seven points and more
on a 10 pt line) were taken for column gutters and the paragraphs read in pieces out of order
("We study benchmark and find ... the official Our main"), and the lines of a formula OCR'd as
letters for displays of garbage. An OCR engine's lines go through the layout step's scan rules
(``PageLayout.source`` not "text-layer": sizes per line from the line boxes, the line-number,
table and furniture rules for scans); the invisible layer's words are made such lines here, as an
OCR engine would give them. This is the reading only where no OCR engine is configured (or its routes
leave out ``ocr_layer``): with one, ``routing.route_page`` OCRs such a page as the scan it is, which
read more of the real scans' development tests than the layer's own words (164 of 202 against 96).
"""
from __future__ import annotations

from typing import Any

from ocr_ray.engine_base import render_page_jpeg
from ocr_ray.layout.model import PageLayout
from ocr_ray.layout.order import lines_of
from ocr_ray.ocr_columns import split_at_gutter
from ocr_ray.ocr_lines import ocr_layout

SOURCE = "ocr-layer"
OCR_LAYER = "ocr_layer"  # the page route's reason (``text-layer:ocr_layer``)
# A gap wider than this many line heights ends a line's run of words: two table cells side by side
# (an OCR engine's line detector parts them the same way). tesseract's words in its layer are
# narrower than their ink: its word spaces are 0.6 to 0.9 line heights, 1.3 in a stretched line,
# a results table's cells 1.6 and more apart.
RUN_GAP = 1.5
# the share of the page's text objects drawn invisible for its text layer to be an OCR program's
INVISIBLE_SHARE = 0.9
RULES_IMAGE_PX = 2000  # the page rendered for its ruling lines (tables on scans), as tesseract's OCR reads it


def invisible_share(pdf_page: Any) -> float:
    """The share of the page's text objects drawn in render mode 3 (invisible). OCR programs draw
    a word or a line an object; a visible stamp over the scan (an archive's download line) is a
    few objects beside hundreds."""
    import pypdfium2.raw as pdfium_c

    modes = [pdfium_c.FPDFTextObj_GetTextRenderMode(obj.raw)
             for obj in pdf_page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=2)]
    return sum(m == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE for m in modes) / len(modes) if modes else 0.0


def ocr_text_layer(layout: PageLayout, share: float) -> bool:
    """The text of a scanned sheet is an OCR program's: (nearly) all of it drawn invisible."""
    return bool(layout.fragments) and share >= INVISIBLE_SHARE


def word_runs(layout: PageLayout) -> tuple[list[list[tuple[float, float]]], list[str]]:
    """The layer's words as an OCR engine's lines (corner boxes in points, texts): each line of
    words cut at gaps wider than ``RUN_GAP`` line heights (a table's cells), then at the page's
    column gutter as RapidOCR's lines are (``ocr_columns.split_at_gutter``: a gutter may be no wider
    than a stretched word space, but lines end and start at it down the page)."""
    boxes, texts, words = [], [], []
    for line in lines_of(layout.fragments):
        run = [line[0]]
        for frag in line[1:]:
            height = max(f.y1 - f.y0 for f in run + [frag])
            if frag.x0 - run[-1].x1 > RUN_GAP * height:
                _add(run, boxes, texts, words)
                run = []
            run.append(frag)
        _add(run, boxes, texts, words)
    return split_at_gutter(boxes, texts, words, layout.width)


def _corners(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _add(run: list, boxes: list, texts: list, words: list) -> None:
    run = [f for f in run if f.text.strip()]
    if not run:
        return
    boxes.append(_corners(min(f.x0 for f in run), min(f.y0 for f in run), max(f.x1 for f in run), max(f.y1 for f in run)))
    texts.append(" ".join(f.text.strip() for f in run))
    words.append([(f.text.strip(), 1.0, _corners(f.x0, f.y0, f.x1, f.y1)) for f in run])


def ocr_layer_layout(pdf_page: Any, layout: PageLayout) -> str:
    """The page's layout JSON as an OCR engine's: the invisible layer's lines, their sizes from
    the line boxes, the ruling lines seen on the rendered page."""
    boxes, texts = word_runs(layout)
    try:
        image = render_page_jpeg(pdf_page, RULES_IMAGE_PX)
    except Exception:  # noqa: BLE001 - an image over the render cap: the lines without its rules
        image = b""
    # the layer's boxes are the ink's own, as tesseract's hOCR boxes are (no detector's margin to
    # shrink off): ascender to descender, about the type's size, given as "ascender heights" of 0.7 em
    heights = [0.7 * (max(y for _, y in box) - min(y for _, y in box)) for box in boxes]
    return ocr_layout(layout.to_json(), boxes, texts, layout.width, SOURCE, image=image, ascender_heights=heights)
