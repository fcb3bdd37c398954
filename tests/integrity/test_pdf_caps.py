"""Bounded work per PDF: inflated streams, pages and image size are capped before PDFium parses."""
from __future__ import annotations

import pytest

from openreview_replica.faults import _inflate_bomb_pdf, _many_pages_pdf
from reviewbench_assets.stages.pdf_check import BadPdf, inspect_pdf


def test_an_inflate_bomb_is_refused_with_the_cap_and_its_variable(monkeypatch):
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_INFLATED_MB", "16")
    with pytest.raises(BadPdf, match=r"over a cap: streams inflate to more than 16 MiB \(REVIEWBENCH_PDF_MAX_INFLATED_MB\)"):
        inspect_pdf(_inflate_bomb_pdf())
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_INFLATED_MB", "128")  # under the cap: a readable PDF
    assert inspect_pdf(_inflate_bomb_pdf()) == 1


def test_page_count_cap(monkeypatch):
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_PAGES", "100")
    with pytest.raises(BadPdf, match="500 pages, more than 100"):
        inspect_pdf(_many_pages_pdf(500))
    monkeypatch.delenv("REVIEWBENCH_PDF_MAX_PAGES")
    assert inspect_pdf(_many_pages_pdf(500)) == 500


def test_image_render_size_cap(monkeypatch):
    from ocr_ray.pdf_pages import PdfReadError, _check_limits

    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_IMAGE_MB", "64")
    pdf = (b"%PDF-1.4\n1 0 obj\n<< /Type /XObject /Subtype /Image /Width 20000 /Height 20000 "
           b"/BitsPerComponent 8 /ColorSpace /DeviceRGB /Filter /DCTDecode /Length 1 >>\nstream\nx\nendstream\n"
           b"endobj\n%%EOF\n")
    with pytest.raises(PdfReadError, match="20000x20000 pixels needs 1525 MiB"):
        _check_limits(pdf)
