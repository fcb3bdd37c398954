"""OCR engines' common part: the ``Engine`` interface, the text layer, page rendering.

The pipeline (``ocr_ray.pipeline``) calls two methods per page (in two Ray stages for engines that
need an image, an actor or a GPU; both inside one task per block of whole PDFs for ``text-layer``):

1. ``Engine.prepare_page(pdf_page)`` in the CPU worker that holds the open PDF.
   It returns the row payload: ``{"text": <the text layer's PageLayout JSON>, "image": <encoded
   bytes>, "route": "<engine>[:<reason>]"}``.
   The image is rendered only when ``needs_image`` is true (rendering + encoding is
   ~10x dearer than the text layer, see the OCR research note, docs/ocr-research.md §4).
2. ``Engine.process_batch(pages) -> list[str]`` in a ``map_batches`` stage.
   ``pages`` is a list of dicts with the keys ``forum_id``, ``page_index``,
   ``num_pages``, ``text`` and ``image``; the result holds one string per page: a
   ``PageLayout`` JSON (positioned text) that ``ocr_ray.layout.compose_pages`` turns into
   markdown once all pages of the paper are there (furniture is found across pages), or
   markdown itself (``vllm``).

Engines here:

* ``text-layer`` (CPU, default): pypdfium2's text layer, no OCR.
* ``rapidocr`` (CPU): RapidOCR's ONNX PP-OCR models (shipped inside the PyPI wheel, so it runs
  offline) on pages rendered at 1288 px; one single-threaded ONNX session per actor.
* ``auto``: per page, prose with a usable text layer takes the text layer; pages with no or a
  garbled text layer, or that look like math or tables, go to an OCR engine (``rapidocr`` by
  default, ``REVIEWBENCH_AUTO_OCR=vllm`` on GPU machines). Each page row says which engine read it.
* ``vllm`` (GPU, ``pip install 'reviewbench[gpu]'``): a vision-language OCR model through
  ``ray.data.llm.build_processor`` (``ocr_ray.vllm_engine``); it replaces the ``map_batches``
  stage instead of implementing ``process_batch``.
* ``tesseract`` (CPU): Debian's ``tesseract-ocr`` on pages rendered at 2000 px, one single-threaded
  process per page (``OMP_THREAD_LIMIT=1``).
* ``nemotron``: a known name that raises ``EngineNotAvailableError`` with the reason.

The OCR engines live in ``ocr_ray.ocr_engines``; ``text-layer`` and ``auto`` (which send pages
whose text layer is unusable to OCR) in ``ocr_ray.routing``; the registry (``get_engine``) in
``ocr_ray.engines``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ocr_ray.layout.page_objects import blank_page
from ocr_ray.layout.pdftext import page_layout
from ocr_ray.pdf_limits import RenderCapError, image_render_problem

# The reason in a page's route (``<engine>:blank``) when nothing is drawn on the page: an empty
# page of the paper, kept in its place; a paper of such pages is an empty paper, not a failure
# (``conversion.empty_reason``).
BLANK = "blank"
# A scanned blank page: rendered small (its longest side ``_SCAN_SIDE`` px), speckle removed (a 3x3
# median), the page's inner area (``_SCAN_MARGIN`` cut off each side: a scanner's shadowed edges)
# has no ink: under ``_INK_SHARE`` of its pixels are ``_INK_CONTRAST`` grey levels darker than the
# paper (its bright 90th percentile). One line of text at this size is several times the share.
_SCAN_SIDE = 400
_SCAN_MARGIN = 0.05
_INK_CONTRAST = 60
_INK_SHARE = 0.0005
# Punch holes (``_punch_holes``) are looked for on a page with some ink but little (a page of text
# holds far more than this share); their size, their least filled share (a disc fills 0.785 of its
# box) and how far from the sheet's edge they may be, in millimetres
_HOLES_SHARE = 0.01
_HOLE_MM = (4.0, 11.0)
_HOLE_FILL = 0.6
_HOLE_EDGE_MM = 20.0
# Faint print: at ``_SCAN_SIDE`` px a line of type is a grey band (its strokes a fraction of a
# pixel, averaged with the paper between them), so a photocopy in grey ink, a worn or low-contrast
# scan of text holds no pixel ``_INK_CONTRAST`` darker than the paper, and a page of it was a blank
# sheet, never OCR'd (ink 90 on paper 230 at 10 pt, or ink 60 on paper 238 at 8 pt: a full page lost).
# Such bands are ``_FAINT_CONTRAST`` darker than the paper around them (the brightest pixel
# ``_FAINT_WINDOW`` px about them: a scan's shading and a shadowed edge stay paper) on several per
# cent of the page (4 to 20 % on a page of text; 0 on a blank sheet's grain, on show-through from the
# back, 0.1 % on a punched sheet's hole rims); ``_FAINT_SHARE`` of them is writing.
_FAINT_CONTRAST = 25
_FAINT_WINDOW = 9
_FAINT_SHARE = 0.005


# The reason in a page's route (``<engine>:failed``) when PDFium could not read the page: it keeps
# its place in the paper, empty, and the paper's fallback records say so (``conversion``); only a
# PDF none of whose pages can be read is an error row.
FAILED = "failed"
# The reason in a page's route (``<engine>:plain``) when the page's positioned text could not be
# read (an error, or past its time budget): the page is PDFium's plain text, without layout.
PLAIN = "plain"

# PDFium emits CR LF line ends; LaTeX papers also carry stray control characters
# (U+0002 seen in the research sample) and U+FFFE/U+FFFF non-characters.
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def normalize_page_text(raw: str) -> str:
    """Unify line ends and drop control characters; keep layout line breaks."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL_CHARS.sub("", text).strip()


def page_text_layer(pdf_page: Any) -> str:
    """Text of a pypdfium2 ``PdfPage`` from its embedded text layer.

    ``get_text_bounded()`` (whole page box) rather than ``get_text_range()``:
    pypdfium2 documents that the range variant may return text from outside the
    page box and has fragile handling of generated characters.
    """
    textpage = pdf_page.get_textpage()
    try:
        return textpage.get_text_bounded()
    finally:
        textpage.close()


def check_render(pdf_page: Any) -> None:
    """Refuse to render a page holding an image whose decoding would allocate more than the image cap
    (PDFium decodes each image whole, at its own size, to draw it at any scale). Only a page that is
    rendered (OCR'd, or an engine that reads images) is checked: the text layer decodes no image."""
    import pypdfium2.raw as pdfium_c

    for obj in pdf_page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)):
        width, height = obj.get_px_size()
        problem = image_render_problem(width, height)
        if problem:
            raise RenderCapError(problem)


def blank(pdf_page: Any, layout: Any) -> bool:
    """An empty page of the paper (route ``<engine>:blank``), for every engine: nothing drawn on it,
    or a scan of an empty sheet (``blank_scan``), which an OCR engine reads as nothing or as specks."""
    if not (layout.fragments or layout.rules or layout.images):
        return blank_page(pdf_page)
    return not layout.fragments and bool(layout.images) and blank_scan(pdf_page)


def blank_scan(pdf_page: Any) -> bool:
    """The page renders as paper without ink: a scanned blank sheet (noise, specks, shading), which
    is an empty page of the paper; OCR finds nothing on it, and a page OCR'd to nothing would count
    as unread (``conversion.empty_reason``). Any mark of text size keeps the page for OCR."""
    import numpy as np
    from PIL import ImageFilter

    try:
        check_render(pdf_page)
    except RenderCapError:
        return False
    width, height = pdf_page.get_size()
    bitmap = pdf_page.render(scale=_SCAN_SIDE / max(width, height, 1), grayscale=True)
    try:
        image = bitmap.to_pil().convert("L").filter(ImageFilter.MedianFilter(3))
    finally:
        bitmap.close()
    pixels = np.asarray(image, dtype=np.int16)
    rows, cols = pixels.shape
    dy, dx = int(rows * _SCAN_MARGIN), int(cols * _SCAN_MARGIN)
    inner = pixels[dy:rows - dy, dx:cols - dx]
    if inner.size == 0:
        return False
    paper = np.percentile(inner, 90)
    ink = pixels < paper - _INK_CONTRAST
    share = float(np.mean(ink[dy:rows - dy, dx:cols - dx]))
    if share > _HOLES_SHARE:
        return False
    if share >= _INK_SHARE:
        ink &= ~_punch_holes(ink, 25.4 / 72 * max(width, height) / max(rows, cols))
        if float(np.mean(ink[dy:rows - dy, dx:cols - dx])) >= _INK_SHARE:
            return False
    # no dark mark of text size: blank, unless the page is covered in faint print
    return _faint_print(pixels) < _FAINT_SHARE


def _faint_print(pixels: Any) -> float:
    """The share of the page's inner area (``_SCAN_MARGIN`` cut off) that is ``_FAINT_CONTRAST``
    darker than the paper about it (the brightest pixel within ``_FAINT_WINDOW``): faint print's grey
    bands of type, which the ink test's contrast misses (see ``_FAINT_SHARE``)."""
    import cv2
    import numpy as np

    rows, cols = pixels.shape
    dy, dx = int(rows * _SCAN_MARGIN), int(cols * _SCAN_MARGIN)
    paper = cv2.dilate(pixels.astype(np.uint8), np.ones((_FAINT_WINDOW, _FAINT_WINDOW), np.uint8)).astype(np.int16)
    faint = pixels < paper - _FAINT_CONTRAST
    return float(np.mean(faint[dy:rows - dy, dx:cols - dx]))


def _punch_holes(ink: Any, mm: float) -> Any:
    """The pixels of ``ink`` (a page's dark pixels, ``mm`` millimetres each) that are punch holes: a
    solid round blob ``_HOLE_MM`` across (ISO 838's 6 mm, a US 1/4 to 5/16 inch hole) whose edge is
    within ``_HOLE_EDGE_MM`` of the sheet's edge (ISO 838 centres them 12 mm in), as a filing punch
    leaves them and a scanner shows them dark (its lid). A mark of text size is no such blob: a letter
    is smaller, a word or a line wider than high."""
    import cv2
    import numpy as np

    rows, cols = ink.shape
    edge, (low, high) = _HOLE_EDGE_MM / mm, (_HOLE_MM[0] / mm, _HOLE_MM[1] / mm)
    # the blobs, 4-connected: label, and each one's box and pixel count (OpenCV, a requirement of rapidocr)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=4)
    holes = [k for k in range(1, count) for left, top, wide, tall, area in [stats[k]]
             if low <= tall <= high and low <= wide <= high and area >= _HOLE_FILL * tall * wide
             and min(top, left, rows - top - tall, cols - left - wide) <= edge]
    return np.isin(labels, holes)


def render_page_jpeg(pdf_page: Any, longest_side: int, quality: int = 90) -> bytes:
    """Render a page so its longest side is ``longest_side`` pixels, as JPEG.

    JPEG, not PNG: PNG encoding dominates rendering cost (research note §4:
    16 vs 38 pages/s per core at 1288 px), and OCR models read either.
    """
    check_render(pdf_page)
    width, height = pdf_page.get_size()
    scale = longest_side / max(width, height)
    bitmap = pdf_page.render(scale=scale)
    try:
        image = bitmap.to_pil()
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, format="JPEG", quality=quality)
        return buffer.getvalue()
    finally:
        bitmap.close()


@dataclass
class Engine:
    """Base engine. Subclasses override ``process_batch`` and, when they hold a
    model, ``setup`` (called once per worker/actor before the first batch).

    The instance itself is shipped (pickled) to Ray workers, so it must stay small
    until ``setup`` runs there.

    name: registry key, written into every ``PaperMarkdown.engine``.
    model: model identifier written into ``PaperMarkdown.model`` (None: no model).
    needs_image: render each page (``image`` column) for the engine.
    image_longest_side: render size in pixels when ``needs_image``.
    uses_actor: run ``process_batch`` in a pool of long-lived actors (a loaded
        model) instead of stateless tasks.
    num_cpus / num_gpus: resources of one engine task or actor.
    batch_size: pages per ``process_batch`` call.
    """

    name: str = "base"
    model: str | None = None
    needs_image: bool = False
    image_longest_side: int = 1288
    uses_actor: bool = False
    num_cpus: float = 1.0
    num_gpus: float = 0.0
    batch_size: int = 16

    @property
    def version(self) -> str:
        """Changes whenever this engine's output for the same PDF may change (cache key part)."""
        return "1"

    @property
    def cache_id(self) -> str:
        """Engine + version: results are cached per (PDF sha256, cache_id)."""
        return f"{self.name}@{self.version}"

    def check_available(self) -> None:
        """Raise EngineNotAvailableError on the driver, before Ray starts, if it cannot run here."""

    def prepare_page(self, pdf_page: Any) -> dict[str, Any]:
        """Payload of one page row; runs where the PDF is open (CPU worker).

        ``text``: the text layer as ``PageLayout`` JSON (positions, fonts, ruling lines);
        ``route`` names the engine that will read the page (reported per page)."""
        layout = page_layout(pdf_page)
        if blank(pdf_page, layout):  # an empty page of the paper: nothing to render, nothing to read
            return {"text": layout.to_json(), "image": b"", "route": f"{self.name}:{BLANK}"}
        image = render_page_jpeg(pdf_page, self.image_longest_side) if self.needs_image else b""
        return {"text": layout.to_json(), "image": image, "route": self.name}

    def setup(self) -> None:
        """Load models etc.; runs in the worker, never on the driver."""

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        raise NotImplementedError


class EngineNotAvailableError(NotImplementedError):
    """A known engine name whose implementation is not available here."""


def not_implemented(name: str, how: str) -> Callable[[], Engine]:
    def factory() -> Engine:
        raise EngineNotAvailableError(f"OCR engine {name!r} is not available: {how}")

    return factory


