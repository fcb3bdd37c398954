"""Rotated text of a born-digital page (``pdftext`` reads it apart from the page's fragments): runs
of characters, kept as ``PageLayout.rotated`` for ``tables``, which reads a table's rotated column
heads (``\\rotatebox{90}{...}``) from them; nothing else uses rotated text (margin stamps, axis
labels)."""
from __future__ import annotations

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
