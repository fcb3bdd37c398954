"""Check that downloaded bytes are a readable PDF before they enter the store (a stage helper, not a
domain rule: it opens the bytes with PDFium, under a process-wide lock).

The checks and their reasons are ocr_ray's (one rule for "is this a usable PDF", used where PDFs
are stored and where they are read), run here under a lock: PDFium is not thread-safe, not even
across documents (pypdfium2 docs), and downloads run in a thread pool. Parsing is milliseconds per
PDF; the downloads around it are what the pool overlaps.
"""
from __future__ import annotations

import threading

from ocr_ray.pdf_pages import PdfReadError, check_page_count, check_pdf_bytes, open_pdf

_PDFIUM_LOCK = threading.Lock()


class BadPdf(ValueError):
    """The bytes are not a usable PDF; the message is the reason recorded for the paper."""


def inspect_pdf(data: bytes) -> int:
    """Return the page count, or raise BadPdf with the reason (not a PDF, truncated, encrypted,
    zero pages, corrupt, over a cap: inflated streams, image size, pages)."""
    with _PDFIUM_LOCK:
        try:
            check_pdf_bytes(data)
            doc = open_pdf(data)
        except PdfReadError as exc:
            raise BadPdf(str(exc)) from None
        try:
            pages = len(doc)
        finally:
            doc.close()
    if pages == 0:
        raise BadPdf("PDF has zero pages")
    try:
        check_page_count(pages)
    except PdfReadError as exc:
        raise BadPdf(str(exc)) from None
    return pages
