"""Pages whose text layer is garbled by a broken font: recode them from a few OCR'd lines.

``recode_garbled`` takes a paper's routed pages (``ocr_ray.routing``); for the pages sent to OCR
because their text layer is ``garbled``, it crops a sample of the text layer's own lines from the
rendered pages (``ocr_ray.layout.recode.choose_sample``), has the CPU OCR engine read them
(RapidOCR's recogniser line by line, tesseract on one strip of the stacked crops), and learns a
per-font substitution table from the pairs.
If the table explains the OCR'd lines (cross-validated) and the recoded page reads as language,
the page goes back to the text layer as ``text-layer:recoded``, with its tables, equations and
headings; otherwise it is OCR'd whole as before. ~40 lines are read once per paper instead of
every garbled page whole.
"""
from __future__ import annotations

import io
import logging
from bisect import bisect_right
from typing import Any

from ocr_ray.layout.model import Fragment, PageLayout
from ocr_ray.layout.quality import classify_text
from ocr_ray.layout.recode import RECODE_MIN_AGREEMENT, choose_sample, cross_agreement, learn
from ocr_ray.ocr_lines import box_geometry

log = logging.getLogger(__name__)

SAMPLE_LINES = 40  # OCR'd lines per paper: enough for ~3 votes of every letter of a body font
_PAD = 3  # pixels around a crop: the loose box ends at the font's ascent and descent
_GAP = 24  # white pixels between crops in the strip: OCR's line detector must not join two crops


def _is_garbled(page: dict[str, Any]) -> bool:
    return (page.get("route") or "").endswith(":garbled") and bool(page.get("image")) and bool(page.get("text"))


def _crops(pages: dict[int, Any], layouts: dict[int, PageLayout], sample: list[tuple[int, Fragment]]) -> list[Any]:
    """The sampled lines cropped from their rendered pages (PIL images)."""
    crops = []
    for page, fragment in sample:
        image = pages[page]
        scale = image.width / layouts[page].width
        box = (max(0, int(fragment.x0 * scale) - _PAD), max(0, int(fragment.y0 * scale) - _PAD),
               min(image.width, int(fragment.x1 * scale) + _PAD + 1), min(image.height, int(fragment.y1 * scale) + _PAD + 1))
        crops.append(image.crop(box))
    return crops


def _strip(crops: list[Any]):
    """Crops stacked top to bottom on white: the strip's JPEG bytes and the top pixel row of each."""
    from PIL import Image

    width = max(c.width for c in crops) + 2 * _GAP
    height = sum(c.height for c in crops) + _GAP * (len(crops) + 1)
    strip = Image.new("RGB", (width, height), "white")
    tops, y = [], _GAP
    for crop in crops:
        strip.paste(crop, (_GAP, y))
        tops.append(y)
        y += crop.height + _GAP
    buffer = io.BytesIO()
    strip.save(buffer, format="JPEG", quality=92)
    return buffer.getvalue(), tops


def read_lines(ocr: Any, images: dict[int, Any], layouts: dict[int, PageLayout],
               sample: list[tuple[int, Fragment]]) -> list[str]:
    """What ``ocr`` reads on each sampled line (``""`` where it read nothing): line by line where
    the engine can recognise a known line without looking for text first (RapidOCR's recogniser
    alone), else from one strip of all the lines (tesseract: one process instead of forty)."""
    crops = _crops(images, layouts, sample)
    if hasattr(ocr, "read_line_images"):
        return ocr.read_line_images(crops)
    strip, tops = _strip(crops)
    boxes, texts, _ = ocr.ocr_lines(strip)
    found: list[list[tuple[float, str]]] = [[] for _ in sample]
    for box, text in zip(boxes, texts, strict=False):
        x0, y0, _, y1 = box_geometry(box)
        index = bisect_right(tops, (y0 + y1) / 2) - 1
        if index >= 0:
            found[index].append((x0, text))
    return [" ".join(text for _, text in sorted(parts)) for parts in found]


def recode_garbled(pages: list[dict[str, Any]], ocr: Any, budget: int = SAMPLE_LINES) -> list[dict[str, Any]]:
    """Every garbled page that a learnt recoding repairs moves back to the text layer: its row is
    updated in place (recoded ``text``, no ``image``, route ``text-layer:recoded``), so callers
    that report ``route`` after the engine ran report the final one. Pages are grouped by paper
    (``task_index``). Returns ``pages``."""
    if not hasattr(ocr, "ocr_lines"):  # a vision-language engine reads whole pages only
        return pages
    papers: dict[Any, list[int]] = {}
    for i, page in enumerate(pages):
        if _is_garbled(page):
            papers.setdefault(page.get("task_index", page.get("forum_id")), []).append(i)
    for paper, indices in papers.items():
        try:
            _recode_paper(pages, indices, ocr, budget)
        except Exception as exc:  # noqa: BLE001 - recoding is an optimisation: OCR the pages instead
            log.warning("recoding the text layer of paper %s failed, its pages are OCR'd: %s: %s",
                        paper, type(exc).__name__, exc)
    return pages


def _recode_paper(pages: list[dict[str, Any]], indices: list[int], ocr: Any, budget: int) -> None:
    from PIL import Image

    layouts = {i: PageLayout.from_json(pages[i]["text"]) for i in indices}
    sample = choose_sample([(i, f) for i in indices for f in layouts[i].fragments], budget)
    if len(sample) < 4:
        return
    images = {i: Image.open(io.BytesIO(pages[i]["image"])).convert("RGB") for i in {p for p, _ in sample}}
    seen = read_lines(ocr, images, layouts, sample)
    pairs = [(fragment, text) for (_, fragment), text in zip(sample, seen, strict=False)]
    score = cross_agreement(pairs)
    if score < RECODE_MIN_AGREEMENT:
        log.info("text layer not recoded: a learnt table explains %.2f of the OCR'd sample", score)
        return
    recoding = learn(pairs)
    for i in indices:
        layout = layouts[i]
        recoded = PageLayout(layout.width, layout.height, [recoding.fragment(f) for f in layout.fragments],
                             layout.rules, layout.source, layout.images)
        if classify_text(recoded.plain_text()) == "prose":
            pages[i].update(text=recoded.to_json(), image=b"", route="text-layer:recoded")
