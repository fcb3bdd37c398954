"""Rotated text of a born-digital page (``pdftext`` reads it apart from the page's fragments): runs
of characters, kept as ``PageLayout.rotated`` for ``tables``, which reads a table's rotated column
heads (``\\rotatebox{90}{...}``) from them; nothing else uses rotated text (margin stamps, axis
labels). A page most of whose text is rotated is turned and read upright (``sideways``,
``turn_page``)."""
from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ocr_ray.layout.model import Fragment


class RotatedRuns:
    """Rotated characters, in runs: each glyph box next to the one before (within half its size;
    a rotated line's glyphs follow each other up or down the page, the next column's head is a
    column gap away). Kept out of the page's fragments (``PageLayout.rotated``)."""

    def __init__(self):
        self.out: list[Fragment] = []
        self.chars: list[str] = []
        self.box = [0.0, 0.0, 0.0, 0.0]
        self.last = (0.0, 0.0, 0.0, 0.0)
        self.size = 0.0

    def end(self) -> None:
        text = "".join(self.chars).strip()
        if text:
            self.out.append(Fragment(*self.box, text, self.size))
        self.chars = []

    def add(self, ch: str, box: tuple[float, float, float, float], size: float, space: bool) -> None:
        if self.chars:
            last = self.last
            apart = max(box[0] - last[2], last[0] - box[2], box[1] - last[3], last[1] - box[3])
            if apart > 0.5 * max(size, self.size, 1.0):
                self.end()
        if not self.chars:
            self.box, self.size = list(box), size
        else:
            b = self.box
            b[0], b[1], b[2], b[3] = min(b[0], box[0]), min(b[1], box[1]), max(b[2], box[2]), max(b[3], box[3])
            if space and self.chars[-1] != " ":
                self.chars.append(" ")
        self.chars.append(ch)
        self.last = box


def sideways(upright: list[Fragment], rotated: list[Fragment]) -> bool:
    """More of the page's text is rotated than upright: a page whose text reads turned (a landscape
    table drawn sideways on a portrait page and shown upright by the page's ``/Rotate``, vertical
    text, a stamp at an angle). Read as it is, such a page came out empty and lost its paper
    (robustness corpus: 28 such PDFs, pdfbox's rot90.pdf, camelot's rotated.pdf, ...)."""
    turned = sum(len(f.text) for f in rotated)
    return turned >= 2 and turned > sum(len(f.text) for f in upright)


def page_size(pdf_page: Any) -> tuple[float, float]:
    """Width and height of the page in its text layer's coordinates: PDFium gives the page's size
    as displayed (``/Rotate`` 90 or 270 swaps them) and each character's box in the page's own,
    unrotated space. A page printed upright and shown turned (a browser's landscape print: Skia sets
    ``/Rotate 90`` over portrait content) was read in a frame of the wrong height: its top lines
    fell above the page (y < 0) and went as text off the page."""
    width, height = pdf_page.get_size()
    return (height, width) if pdf_page.get_rotation() in (90, 270) else (width, height)


def reading_angle(pdf_page: Any) -> float:
    """The angle (degrees, counter-clockwise) most of the page's characters are drawn at, from
    PDFium's own angle of each (``FPDFText_GetCharAngle``, clockwise, in radians); 0 when most are
    upright."""
    import pypdfium2.raw as pdfium_c

    textpage = pdf_page.get_textpage()
    try:
        raw = textpage.raw
        votes: Counter = Counter()
        for i in range(min(pdfium_c.FPDFText_CountChars(raw), 5000)):
            if chr(pdfium_c.FPDFText_GetUnicode(raw, i) & 0xFFFF).isspace() or pdfium_c.FPDFText_IsGenerated(raw, i):
                continue
            votes[round(math.degrees(pdfium_c.FPDFText_GetCharAngle(raw, i))) % 360] += 1
    finally:
        textpage.close()
    angle = votes.most_common(1)[0][0] if votes else 0
    return (360 - angle) % 360


def turn_page(pdf_page: Any, angle: float) -> None:
    """Turn every object of the page (in memory) by ``-angle`` degrees so that text drawn at
    ``angle`` reads upright, and fit the media and crop boxes to the turned page (``/Rotate`` 0):
    the text layer is then read as any page's."""
    import pypdfium2.raw as pdfium_c

    left, bottom, right, top = pdf_page.get_cropbox()
    theta = math.radians(-angle)
    cos, sin = math.cos(theta), math.sin(theta)
    corners = [(cos * x - sin * y, sin * x + cos * y) for x in (left, right) for y in (bottom, top)]
    dx, dy = -min(x for x, _ in corners), -min(y for _, y in corners)
    for index in range(pdfium_c.FPDFPage_CountObjects(pdf_page.raw)):
        pdfium_c.FPDFPageObj_Transform(pdfium_c.FPDFPage_GetObject(pdf_page.raw, index), cos, sin, -sin, cos, dx, dy)
    width, height = max(x for x, _ in corners) + dx, max(y for _, y in corners) + dy
    pdfium_c.FPDFPage_SetMediaBox(pdf_page.raw, 0, 0, width, height)
    pdfium_c.FPDFPage_SetCropBox(pdf_page.raw, 0, 0, width, height)
    pdfium_c.FPDFPage_SetRotation(pdf_page.raw, 0)
