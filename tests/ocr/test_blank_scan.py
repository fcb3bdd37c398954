"""Issue 36, item 3: a scanned blank page (a page image of paper grain, specks and a shadowed edge,
nothing written) is an empty page of the paper, not an error row: olmOCR-Bench's runner rejects a
whole candidate for one page without output. A scan with one line of writing on it is still OCR'd."""
from __future__ import annotations

import json

import numpy as np
import pyarrow.fs as pafs
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw, ImageFont

from ocr_ray.conversion import convert_pdf
from ocr_ray.engine_base import blank_scan
from ocr_ray.engines import get_engine

_DPI = 150
_SIZE = (int(8.27 * _DPI), int(11.69 * _DPI))  # A4


def _paper(seed: int) -> Image.Image:
    """A scanned empty sheet: off-white paper with grain, a shading gradient, a dark shadow along
    the left edge (the scanner lid) and a dozen dust specks of a pixel or two."""
    rng = np.random.default_rng(seed)
    width, height = _SIZE
    page = 228 + rng.normal(0, 7, (height, width)) + np.linspace(0, 12, width)[None, :]
    page[:, :25] -= np.linspace(120, 0, 25)[None, :]
    for y, x in zip(rng.integers(60, height - 60, 12), rng.integers(60, width - 60, 12), strict=True):
        page[y:y + 2, x:x + 2] = 40
    return Image.fromarray(np.clip(page, 0, 255).astype(np.uint8))


def _scan_pdf(path, images) -> str:
    images[0].save(path, save_all=True, append_images=images[1:], resolution=_DPI)
    return str(path)


def _written(seed: int, text: str) -> Image.Image:
    image = _paper(seed)
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 23)  # 11 pt at 150 dpi
    except OSError:
        font = ImageFont.load_default(size=23)
    ImageDraw.Draw(image).text((180, 400), text, fill=30, font=font)
    return image


@pytest.mark.parametrize("name", ["text-layer", "auto"])
def test_a_scanned_blank_page_is_an_empty_page_not_an_error(tmp_path, name):
    path = _scan_pdf(tmp_path / "blank_scan.pdf", [_paper(1)])
    row = convert_pdf({"task_index": 0, "forum_id": "x", "pdf_path": path},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine(name))
    assert row["error"] == "" and row["num_pages"] == 1 and row["markdown"] == "", row
    assert json.loads(row["engine_pages"]) == ["text-layer:blank"]


@pytest.mark.parametrize("name", ["rapidocr", "tesseract"])
def test_a_scanned_blank_page_is_an_empty_page_through_a_plain_ocr_engine_too(tmp_path, name):
    """The plain OCR engines read every page themselves (no text-layer routing): a blank scan was
    OCR'd to nothing and the paper was an error row (no readable text); it is an empty page in its
    place, and a written scan beside it is still OCR'd."""
    engine = get_engine(name)
    engine.setup()
    blank = _scan_pdf(tmp_path / "blank_scan.pdf", [_paper(1)])
    row = convert_pdf({"task_index": 0, "forum_id": "x", "pdf_path": blank},
                      filesystem=pafs.LocalFileSystem(), engine=engine)
    assert row["error"] == "" and row["num_pages"] == 1 and row["markdown"] == "", row
    assert json.loads(row["engine_pages"]) == [f"{name}:blank"]
    two = _scan_pdf(tmp_path / "two.pdf", [_paper(3), _written(2, "The second page of the scan has a line.")])
    row = convert_pdf({"task_index": 0, "forum_id": "x", "pdf_path": two},
                      filesystem=pafs.LocalFileSystem(), engine=engine)
    assert row["error"] == "" and row["num_pages"] == 2, row
    assert json.loads(row["engine_pages"]) == [f"{name}:blank", name]
    first, second = row["markdown"].split("\n\n---\n\n")
    assert first == "" and "second page of the scan" in second, row["markdown"]


def test_a_blank_scan_between_written_scans_keeps_its_place(tmp_path):
    """Three scanned pages, the middle one blank: only the middle one is blank, the others are OCR'd."""
    sentence = "The first page of the scan says what it says."
    path = _scan_pdf(tmp_path / "scans.pdf", [_written(2, sentence), _paper(3), _written(4, "A line on the third page.")])
    pdf = pdfium.PdfDocument(path)
    try:
        assert [blank_scan(pdf[i]) for i in range(3)] == [False, True, False]
    finally:
        pdf.close()


def _punched(image: Image.Image, centres_mm: list[tuple[float, float]]) -> Image.Image:
    """A scanned sheet with filing holes: 6 mm discs (ISO 838), dark where the scanner's lid shows
    through them."""
    draw, px = ImageDraw.Draw(image), _DPI / 25.4
    for x, y in centres_mm:
        draw.ellipse(((x - 3) * px, (y - 3) * px, (x + 3) * px, (y + 3) * px), fill=45)
    return image


@pytest.mark.parametrize("holes", [[(12, 108.5), (12, 188.5)], [(11, 40), (11, 148), (11, 256)]], ids=["iso838", "us3"])
def test_a_scanned_blank_sheet_with_punch_holes_is_an_empty_page(tmp_path, holes):
    """Two (ISO 838) or three (US) filing holes 12 mm in from the left edge, their inner half past
    the 5 % edge cut: the page had ink, OCR found no text, and the one-page paper was an error row
    ("no readable text"). A solid round blob of a hole's size near the sheet's edge is no mark of
    text; a line of writing on the same punched sheet is still OCR'd."""
    path = _scan_pdf(tmp_path / "punched.pdf", [_punched(_paper(5), holes)])
    row = convert_pdf({"task_index": 0, "forum_id": "x", "pdf_path": path},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine("auto"))
    assert row["error"] == "" and row["num_pages"] == 1 and row["markdown"] == "", row
    written = _punched(_written(6, "A single line of writing on the page."), holes)
    pdf = pdfium.PdfDocument(_scan_pdf(tmp_path / "written.pdf", [written]))
    try:
        assert not blank_scan(pdf[0])
    finally:
        pdf.close()
