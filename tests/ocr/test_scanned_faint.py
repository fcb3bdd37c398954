"""Issue 36 (scanned pages, low contrast): a page of text photocopied in grey ink was a blank sheet.

The blank-sheet test (``engine_base.blank_scan``) renders the page at 400 px, where a line of 10 pt
type is a grey band whose strokes are a fraction of a pixel: in grey ink on grey paper (ink 90 on
paper 230, a worn photocopy, a fax, a faded typescript) no pixel of the page was 60 grey levels
darker than its paper, the page was routed ``blank`` and never OCR'd, and the whole page's text was
lost (an empty page in the markdown). Faint print is the bands of type a few per cent of the page
covers, darker than the paper about them; a blank sheet's grain, shading and punch holes stay blank
(``test_blank_scan``).

Truth: the LaTeX source below (every sentence of it), judged by olmOCR-Bench's ``TextPresenceTest``.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pyarrow.fs as pafs
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageFilter

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.conversion import convert_pdf
from ocr_ray.engine_base import blank_scan
from ocr_ray.engines import get_engine
from tests.ocr.scanned import typeset_pdf

_SENTENCES = [
    "The committee read every report of the year before it met again in the spring.",
    "A copy of the regulations is also submitted with the letter of the minister.",
    "Near the source of the river the water is clear and cold throughout the summer months.",
    "Each of the forms was signed by the officer and sent back to the office of the secretary.",
]
_BODY = "\n\n".join(" ".join(_SENTENCES[(i + k) % len(_SENTENCES)] for k in range(8)) for i in range(8))


def _faint_scan(pdf: Path, out: Path, ink: int, paper: int, dpi: int = 200) -> Path:
    """``pdf``'s first page as a grey photocopy: its black printed as ``ink`` on paper of ``paper``
    (grey levels), blurred a little, with the paper's grain, turned 0.6 degrees, a JPEG at ``dpi``."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        image = doc[0].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
    finally:
        doc.close()
    image = image.rotate(0.6, resample=Image.BICUBIC, fillcolor=255).filter(ImageFilter.GaussianBlur(0.5))
    shade = np.asarray(image, dtype=float) / 255
    grain = np.random.default_rng(7).normal(0, 8, shade.shape)
    image = Image.fromarray(np.clip(ink + shade * (paper - ink) + grain, 0, 255).astype(np.uint8))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=75)
    Image.open(io.BytesIO(buffer.getvalue())).save(out, "PDF", resolution=float(dpi))
    return out


@pytest.mark.parametrize(("size", "options", "ink", "paper"), [
    (r"\normalsize", "", 90, 230),  # 10 pt in grey ink on grey paper
    (r"\footnotesize", "twocolumn", 60, 238),  # 8 pt in two columns, a light photocopy
], ids=["grey-10pt", "light-8pt-twocolumn"])
def test_a_page_of_text_in_faint_grey_ink_is_ocrd_not_a_blank_sheet(tmp_path, size, options, ink, paper):
    source = typeset_pdf(tmp_path, f"{size}\n{_BODY}", r"\usepackage[margin=1in]{geometry}", options=options)
    scan = _faint_scan(source, tmp_path / "faint.pdf", ink, paper)
    doc = pdfium.PdfDocument(str(scan))
    try:
        assert not blank_scan(doc[0])  # before: True, the page was never OCR'd
    finally:
        doc.close()
    row = convert_pdf({"task_index": 0, "forum_id": "faint", "pdf_path": str(scan)},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
    assert row["error"] == "", row["error"]
    assert json.loads(row["engine_pages"]) == ["rapidocr:image_only"], row["engine_pages"]
    markdown = re.sub(r"\s+", " ", row["markdown"])
    tests = [{"id": f"present-{i}", "type": "present", "text": s} for i, s in enumerate(_SENTENCES)]
    verdicts = judge(markdown, tests)
    assert all(verdicts.values()), (verdicts, markdown[:600])
