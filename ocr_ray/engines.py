"""OCR engines: turn one page (text layer or rendered image) into text.

The pipeline (``ocr_ray.pipeline``) runs two stages per page:

1. ``Engine.prepare_page(pdf_page)`` in the CPU worker that holds the open PDF.
   It returns the row payload: ``{"text": <text layer>, "image": <encoded bytes>}``.
   The image is rendered only when ``needs_image`` is true (rendering + encoding is
   ~10x dearer than the text layer, see the OCR research note, design/ocr-research.md §4).
2. ``Engine.process_batch(pages) -> list[str]`` in a ``map_batches`` stage.
   ``pages`` is a list of dicts with the keys ``forum_id``, ``page_index``,
   ``num_pages``, ``text`` and ``image``; the result holds one string per page.

Adding an engine (extension points, none implemented yet):

* ``tesseract`` (CPU): ``needs_image=True``; ``process_batch`` calls
  ``tesseract`` once per page with ``OMP_THREAD_LIMIT=1`` (OpenMP on a small VM is
  6x slower, research note §4) and parallelises through Ray processes.
* ``vllm`` (GPU, ``pip install reviewbench[gpu]``): not an ``Engine`` subclass of
  this shape -- it replaces the ``map_batches`` stage with
  ``ray.data.llm.build_processor(vLLMEngineProcessorConfig(...))`` whose
  preprocess wraps ``image`` as an ``image_url``/``image_pil`` chat part.
  Set ``uses_actor=True`` and ``num_gpus`` when a model must stay loaded.
* ``nemotron`` (GPU, ``pip install nemotron-ocr``): ``needs_image=True``,
  ``uses_actor=True``, ``num_gpus=0.5`` (two actors per GPU), model loaded in
  ``__init__`` and reused for every batch.

Register the class in ``_ENGINES`` (or call ``register_engine`` at run time) and
``get_engine(name)`` returns it.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any, Callable

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


def render_page_jpeg(pdf_page: Any, longest_side: int, quality: int = 90) -> bytes:
    """Render a page so its longest side is ``longest_side`` pixels, as JPEG.

    JPEG, not PNG: PNG encoding dominates rendering cost (research note §4:
    16 vs 38 pages/s per core at 1288 px), and OCR models read either.
    """
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

    def prepare_page(self, pdf_page: Any) -> dict[str, Any]:
        """Payload of one page row; runs where the PDF is open (CPU worker)."""
        image = render_page_jpeg(pdf_page, self.image_longest_side) if self.needs_image else b""
        return {"text": page_text_layer(pdf_page), "image": image}

    def setup(self) -> None:
        """Load models etc.; runs in the worker, never on the driver."""

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        raise NotImplementedError


@dataclass
class TextLayerEngine(Engine):
    """The PDF's own text layer (pypdfium2), no OCR: right for born-digital papers'
    prose, wrong for math and tables (research note §5). Text comes from
    ``prepare_page`` so the PDF is parsed once; this stage only normalises it."""

    name: str = "text-layer"
    # Normalising text is microseconds per page: a quarter CPU per task keeps the
    # PDF-reading stage from being starved on small machines.
    num_cpus: float = 0.25
    batch_size: int = 64

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        return [normalize_page_text(page["text"] or "") for page in pages]


class EngineNotAvailableError(NotImplementedError):
    """A known engine name whose implementation is not available here."""


def _not_implemented(name: str, how: str) -> Callable[[], Engine]:
    def factory() -> Engine:
        raise EngineNotAvailableError(f"OCR engine {name!r} is not implemented yet: {how}")

    return factory


_ENGINES: dict[str, Callable[[], Engine]] = {
    "text-layer": TextLayerEngine,
    "tesseract": _not_implemented(
        "tesseract", "planned CPU engine (needs the tesseract-ocr system package)."
    ),
    "vllm": _not_implemented(
        "vllm", "needs a GPU and the gpu extra (pip install 'reviewbench[gpu]')."
    ),
    "nemotron": _not_implemented(
        "nemotron", "needs a GPU and the nemotron-ocr package (pip install nemotron-ocr)."
    ),
}


def known_engines() -> list[str]:
    return sorted(_ENGINES)


def register_engine(name: str, factory: Callable[[], Engine]) -> None:
    """Add or replace an engine. Only the driver resolves names: workers receive
    the pickled ``Engine`` instance."""
    _ENGINES[name] = factory


def get_engine(name: str) -> Engine:
    try:
        factory = _ENGINES[name]
    except KeyError:
        raise ValueError(
            f"unknown OCR engine {name!r}; known engines: {', '.join(known_engines())}"
        ) from None
    return factory()
