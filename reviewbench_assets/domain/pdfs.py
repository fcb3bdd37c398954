"""Check that downloaded bytes are a readable PDF before they enter the store."""
from __future__ import annotations

import pypdfium2 as pdfium


class BadPdf(ValueError):
    """The bytes are not a usable PDF; the message is the reason recorded for the paper."""


def inspect_pdf(data: bytes) -> int:
    """Return the page count, or raise BadPdf('not a pdf' / 'encrypted' / 'zero pages' / ...)."""
    if not data:
        raise BadPdf("empty response")
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        raise BadPdf(f"not a pdf (starts with {data[:8]!r})")
    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        msg = str(exc).lower()
        if "password" in msg or "security" in msg:
            raise BadPdf("encrypted pdf") from exc
        raise BadPdf(f"unreadable pdf ({exc})") from exc
    try:
        pages = len(doc)
    finally:
        doc.close()
    if pages == 0:
        raise BadPdf("zero pages")
    if b"%%EOF" not in data[-2048:]:
        raise BadPdf("truncated pdf (no %%EOF trailer)")
    return pages
