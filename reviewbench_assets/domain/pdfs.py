"""Check that downloaded bytes are a readable PDF before they enter the store."""
from __future__ import annotations

import threading

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

# PDFium is not thread-safe, not even across documents (pypdfium2 docs); downloads run in a thread
# pool, so every PDFium call of this module happens under one lock. Parsing is milliseconds per
# PDF, the downloads around it are what the pool overlaps.
_PDFIUM_LOCK = threading.Lock()


class BadPdf(ValueError):
    """The bytes are not a usable PDF; the message is the reason recorded for the paper."""


def inspect_pdf(data: bytes) -> int:
    """Return the page count, or raise BadPdf('not a pdf' / 'encrypted' / 'zero pages' / ...)."""
    if not data:
        raise BadPdf("empty response")
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        raise BadPdf(f"not a pdf (starts with {data[:8]!r})")
    # PDFium rebuilds a broken xref table, so a truncated download often opens and silently loses
    # its last pages: the missing trailer is checked first.
    if b"%%EOF" not in data[-2048:]:
        raise BadPdf("truncated pdf (no %%EOF trailer)")
    with _PDFIUM_LOCK:
        # An empty page tree fails without setting PDFium's (process-global) last error; opening a
        # missing path first leaves FPDF_ERR_FILE, which loading from memory never sets itself.
        pdfium_c.FPDF_LoadDocument(b"/nonexistent/reviewbench-error-sentinel.pdf", None)
        try:
            doc = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            code = getattr(exc, "err_code", None)
            if code == pdfium_c.FPDF_ERR_PASSWORD:
                raise BadPdf("encrypted pdf (password required)") from None
            if code == pdfium_c.FPDF_ERR_FILE:
                raise BadPdf("zero pages (empty page tree)") from None
            raise BadPdf(f"unreadable pdf ({exc})") from None
        try:
            pages = len(doc)
        finally:
            doc.close()
    if pages == 0:
        raise BadPdf("zero pages")
    return pages
