"""The layout step's data: positioned text fragments of one page, whatever produced them.

A ``Fragment`` is a run of text on one baseline without a wide gap (a line of a column, a table
cell, a page number). The text layer (``ocr_ray.layout.pdftext``) and the OCR engines (their
line boxes) both produce fragments, so everything after that (``furniture``, ``order``,
``tables``, ``blocks``) is the same for every engine. Coordinates are PDF points, origin at the
top left, y growing downwards.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

# the font name of a glyph of prose in a fragment's ``glyphs`` (a word of the text font beside
# maths: ``pdftext`` names the prose glyphs of a fragment with maths letters so, and
# ``math_hook.line_glyphs`` the letters it lays out for a text fragment that kept none)
TEXT_FONT = "TEXT"


@dataclass
class Fragment:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float  # font size (points); OCR: the line box height
    bold: bool = False
    math: float = 0.0  # share of characters set in a math font or math symbols
    kind: str = "text"  # "table": a whole table already rendered (``tables``); never serialised
    # the font most of its characters are set in (text layer only, "" for OCR): a broken
    # ToUnicode map is a property of one font (``ocr_ray.layout.recode``)
    font: str = ""
    # per glyph [text, x0, y0, x1, y1, baseline, size, font] (text layer, fragments with math
    # characters only): what ``ocr_ray.layout.math`` builds LaTeX from
    glyphs: list | None = None
    # [x0, x1] of each word space in ``text``, in order (text layer, fragments between a table's
    # rules only): where ``tables`` may cut a header whose columns are closer than ``GAP_SPLIT``
    gaps: list | None = None
    # the fragment's place in its page's text stream (text layer; set by ``tables`` for a table's
    # fragments, -1 where unknown); never serialised: pdfTeX writes a table row by row, each cell
    # whole, so a stacked header cell's lines come one after the other
    seq: int = -1

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    def to_list(self) -> list:
        item = [round(self.x0, 1), round(self.y0, 1), round(self.x1, 1), round(self.y1, 1), self.text,
                round(self.size, 2), int(self.bold), round(self.math, 2)]
        if self.gaps:
            return item + [self.font, self.glyphs, self.gaps]
        if self.glyphs:
            return item + [self.font, self.glyphs]
        return item + [self.font] if self.font else item

    @classmethod
    def from_list(cls, item: list) -> Fragment:
        x0, y0, x1, y1, text, size, bold, math, *rest = item
        return cls(x0, y0, x1, y1, text, size, bool(bold), math, font=rest[0] if rest else "",
                   glyphs=rest[1] if len(rest) > 1 else None, gaps=rest[2] if len(rest) > 2 else None)


@dataclass
class Rule:
    """A ruling line (a thin filled rectangle or stroked path): horizontal if ``y0 == y1``-ish."""
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def horizontal(self) -> bool:
        return (self.y1 - self.y0) <= 2.0 and (self.x1 - self.x0) > 8.0

    @property
    def vertical(self) -> bool:
        return (self.x1 - self.x0) <= 2.0 and (self.y1 - self.y0) > 8.0


@dataclass
class PageLayout:
    width: float
    height: float
    fragments: list[Fragment] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    source: str = "text-layer"  # or the OCR engine's name
    images: list[Rule] = field(default_factory=list)  # boxes of pictures (text layer; a figure grid's cells)
    # runs of rotated text (text layer), apart from ``fragments``: only ``tables`` reads them, as
    # the column heads set with \rotatebox; elsewhere they are margin stamps and axis labels
    rotated: list[Fragment] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps({"layout": 1, "w": round(self.width, 1), "h": round(self.height, 1), "src": self.source,
                           "f": [f.to_list() for f in self.fragments],
                           "r": [[round(v, 1) for v in (r.x0, r.y0, r.x1, r.y1)] for r in self.rules],
                           **({"i": [[round(v, 1) for v in (b.x0, b.y0, b.x1, b.y1)] for b in self.images]}
                              if self.images else {}),
                           **({"v": [f.to_list() for f in self.rotated]} if self.rotated else {})}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> PageLayout:
        data = json.loads(text)
        return cls(data["w"], data["h"], [Fragment.from_list(f) for f in data["f"]],
                   [Rule(*r) for r in data["r"]], data.get("src", "text-layer"), [Rule(*b) for b in data.get("i", [])],
                   [Fragment.from_list(f) for f in data.get("v", [])])

    def plain_text(self) -> str:
        return "\n".join(f.text for f in self.fragments)


def is_layout_json(text: str) -> bool:
    return text.startswith('{"layout": 1')


def body_size(pages: list[PageLayout]) -> float:
    """The body text's font size: the size most characters are set in (halves of a point)."""
    sizes: Counter = Counter()
    for page in pages:
        for f in page.fragments:
            sizes[round(f.size * 2) / 2] += len(f.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def top_down_groups(fragments: list[Fragment], joins: Callable[[Fragment, float], bool]) -> list[list[Fragment]]:
    """Fragments top to bottom (by y0), grouped: a fragment joins the group above it when
    `joins(fragment, bottom)` holds, `bottom` being the lowest y1 of that group so far (a line's
    fragments, by vertical overlap; a figure's bands, by the gap between them)."""
    out: list[list[Fragment]] = []
    bottom = 0.0
    for f in sorted(fragments, key=lambda g: g.y0):
        if out and joins(f, bottom):
            out[-1].append(f)
            bottom = max(bottom, f.y1)
        else:
            out.append([f])
            bottom = f.y1
    return out
