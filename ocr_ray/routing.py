"""``auto``: per page, the text layer where it reads as language, an OCR engine where it does not.

``classify_page`` is the older text-only classifier (prose / no_text / garbled / math / table),
kept for callers that look at plain text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ocr_ray.engine_base import Engine, render_page_jpeg
from ocr_ray.layout.pdftext import count_images, page_layout
from ocr_ray.layout.quality import classify_text
from ocr_ray.ocr_engines import RapidOcrEngine

_MATH_CHARS = set("∑∏∫∮∂∇√∞≈≠≡≤≥±×÷∈∉∋⊂⊃⊆⊇∪∩∧∨¬∀∃∅→←↔⇒⇔⊗⊕⊥∥∝′″‖〈〉⟨⟩"
                  "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩϵϑϕ")
_NUMERIC_TOKEN = re.compile(r"^[-+±]?\(?\d[\d.,]*%?\)?$")


def classify_page(text: str) -> str:
    """Why a page's text layer should (not) be trusted: ``prose``, ``no_text``, ``garbled``,
    ``math`` or ``table``. Cheap heuristics on the text layer only (no rendering).

    * no_text: under 80 visible characters (scans, figure-only pages);
    * garbled: over 5 % U+FFFD / private-use / control characters, or words that do not read as
      language (``ocr_ray.layout.quality``: broken font encodings);
    * math: over 2 % math symbols, or many one-symbol lines (how PDFium spells display math,
      research note §5);
    * table: over 30 % of the lines are mostly numeric tokens.
    """
    kind = classify_text(text)
    if kind != "prose":
        return "no_text" if kind == "image_only" else kind
    visible = [c for c in text if not c.isspace()]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    math = sum(1 for c in visible if c in _MATH_CHARS)
    tiny = sum(1 for line in lines if len(line.replace(" ", "")) <= 2)
    if math / len(visible) > 0.02 or (len(lines) >= 20 and tiny / len(lines) > 0.25):
        return "math"
    numeric = 0
    for line in lines:
        tokens = line.split()
        if len(tokens) >= 3 and sum(bool(_NUMERIC_TOKEN.match(t)) for t in tokens) / len(tokens) >= 0.5:
            numeric += 1
    if len(lines) >= 5 and numeric / len(lines) > 0.3:
        return "table"
    return "prose"


@dataclass
class AutoEngine(Engine):
    """Text layer for pages whose text layer reads as language, an OCR engine for the rest;
    ``route`` says which engine read each page and why (``rapidocr:garbled``).

    Only routed pages are rendered, so an all-prose paper costs what ``text-layer`` costs. Every
    page (text layer or OCR) goes through the same layout step. ``ocr_routes``: the page classes
    sent to OCR (``ocr_ray.layout.quality.classify_text``: ``no_text``, ``image_only``,
    ``garbled``). Math and tables stay on the text layer: the layout step keeps them, a CPU OCR
    engine flattens them.
    """

    name: str = "auto"
    ocr: Engine | None = None
    ocr_routes: tuple[str, ...] = ("no_text", "image_only", "garbled")
    needs_image: bool = True
    uses_actor: bool = True
    num_cpus: float = 0.5
    batch_size: int = 8

    def __post_init__(self) -> None:
        if self.ocr is None:
            self.ocr = RapidOcrEngine()
        self.model = self.ocr.model
        self.uses_actor = self.ocr.uses_actor
        self.num_cpus, self.num_gpus = self.ocr.num_cpus, self.ocr.num_gpus

    @property
    def version(self) -> str:
        return f"routes={'+'.join(self.ocr_routes)};h2-layout;{self.ocr.cache_id}"

    def check_available(self) -> None:
        self.ocr.check_available()

    def prepare_page(self, pdf_page: Any) -> dict[str, Any]:
        layout = page_layout(pdf_page)
        kind = classify_text(layout.plain_text(), images=count_images(pdf_page))
        text = layout.to_json()
        if kind in self.ocr_routes:
            image = render_page_jpeg(pdf_page, self.ocr.image_longest_side)
            return {"text": text, "image": image, "route": f"{self.ocr.name}:{kind}"}
        return {"text": text, "image": b"", "route": f"text-layer:{kind}"}

    def setup(self) -> None:
        self.ocr.setup()

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        routed = [page for page in pages if not page.get("route", "").startswith("text-layer")]
        ocr_texts = iter(self.ocr.process_batch(routed) if routed else [])
        return [page["text"] or "" if page.get("route", "").startswith("text-layer") else next(ocr_texts)
                for page in pages]
