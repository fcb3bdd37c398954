"""A small valid PDF made here with reportlab (a dependency already), for tests that store PDFs."""
from __future__ import annotations

import io


def one_page_pdf(text: str) -> bytes:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=1)
    c.drawString(72, 720, text)
    c.showPage()
    c.save()
    return buf.getvalue()
