"""OCR engines: turn one page (text layer or rendered image) into text.

The pipeline (``ocr_ray.pipeline``) calls two methods per page (in two Ray stages for engines that
need an image, an actor or a GPU; both inside one task per block of whole PDFs for ``text-layer``):

1. ``Engine.prepare_page(pdf_page)`` in the CPU worker that holds the open PDF.
   It returns the row payload: ``{"text": <text layer>, "image": <encoded bytes>}``.
   The image is rendered only when ``needs_image`` is true (rendering + encoding is
   ~10x dearer than the text layer, see the OCR research note, design/ocr-research.md §4).
2. ``Engine.process_batch(pages) -> list[str]`` in a ``map_batches`` stage.
   ``pages`` is a list of dicts with the keys ``forum_id``, ``page_index``,
   ``num_pages``, ``text`` and ``image``; the result holds one string per page.

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
* ``tesseract`` (CPU): Debian's ``tesseract-ocr`` on pages rendered at 1288 px, one single-threaded
  process per page (``OMP_THREAD_LIMIT=1``).
* ``nemotron``: a known name that raises ``EngineNotAvailableError`` with the reason.

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

        ``route`` names the engine that will read the page (reported per page)."""
        image = render_page_jpeg(pdf_page, self.image_longest_side) if self.needs_image else b""
        return {"text": page_text_layer(pdf_page), "image": image, "route": self.name}

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
        raise EngineNotAvailableError(f"OCR engine {name!r} is not available: {how}")

    return factory


# ---------------------------------------------------------------- RapidOCR (CPU)


def _box_geometry(box: Any) -> tuple[float, float, float, float]:
    xs = [float(point[0]) for point in box]
    ys = [float(point[1]) for point in box]
    return min(xs), min(ys), max(xs), max(ys)


def order_lines(boxes: list[Any], texts: list[str], page_width: float) -> list[str]:
    """Reading order for OCR'd lines of a one- or two-column page.

    Lines wider than ~60 % of the page (title, full-width figures' captions) split the page into
    bands; inside a band, lines of the left column come before lines of the right column, each
    top to bottom. Single-column pages keep plain top-to-bottom order.
    """
    items = []
    for box, text in zip(boxes, texts):
        x0, y0, x1, y1 = _box_geometry(box)
        items.append((y0, x0, x1, text))
    items.sort()
    mid = page_width / 2
    out: list[str] = []
    band: list[tuple[float, float, float, str]] = []

    def flush() -> None:
        left = [i for i in band if (i[1] + i[2]) / 2 < mid]
        right = [i for i in band if (i[1] + i[2]) / 2 >= mid]
        out.extend(i[3] for i in left + right)
        band.clear()

    for item in items:
        if item[2] - item[1] > 0.6 * page_width:
            flush()
            out.append(item[3])
        else:
            band.append(item)
    flush()
    return out


def decode_jpeg(data: bytes):
    import numpy as np
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


@dataclass
class RapidOcrEngine(Engine):
    """RapidOCR (PP-OCR det + cls + rec as ONNX, models inside the wheel: no download).

    Single-threaded ONNX Runtime per actor (intra/inter-op threads 1): Ray runs one actor per
    share of CPU instead of letting two thread pools fight over two cores. Actors ask for
    ``num_cpus=0.5`` so that the PDF-reading/rendering tasks always find a free CPU share (a full
    CPU per actor deadlocks a 2-core machine: research note §2.2).
    """

    name: str = "rapidocr"
    model: str | None = "PP-OCRv6_det_small+ch_ppocr_mobile_v2.0_cls+PP-OCRv6_rec_small"
    needs_image: bool = True
    uses_actor: bool = True
    num_cpus: float = 0.5
    batch_size: int = 4
    max_actors: int | None = None  # None: as many as the cluster's CPUs allow
    text_score: float = 0.5

    @property
    def version(self) -> str:
        try:
            from importlib.metadata import version

            return f"{version('rapidocr')}+ort{version('onnxruntime')}+{self.model}"
        except Exception:  # noqa: BLE001 - not installed: check_available reports it
            return f"unknown+{self.model}"

    def check_available(self) -> None:
        try:
            import onnxruntime  # noqa: F401
            import rapidocr  # noqa: F401
        except ImportError as exc:
            raise EngineNotAvailableError(
                f"OCR engine 'rapidocr' needs the rapidocr and onnxruntime packages ({exc})") from None

    def setup(self) -> None:
        if getattr(self, "_ocr", None) is None:
            import logging

            from rapidocr import RapidOCR

            self._ocr = RapidOCR(params={
                "Global.log_level": "error", "Global.text_score": self.text_score,
                "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                "EngineConfig.onnxruntime.inter_op_num_threads": 1,
            })
            logging.getLogger("RapidOCR").setLevel(logging.ERROR)

    def ocr_image(self, image_bytes: bytes) -> str:
        image = decode_jpeg(image_bytes)
        result = self._ocr(image)
        if result.txts is None or result.boxes is None:
            return ""
        return "\n".join(order_lines(list(result.boxes), list(result.txts), image.shape[1]))

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        self.setup()
        return [normalize_page_text(self.ocr_image(page["image"])) if page["image"] else ""
                for page in pages]

    def __getstate__(self):  # the ONNX sessions stay in the actor
        state = dict(self.__dict__)
        state.pop("_ocr", None)
        return state


def tsv_to_text(tsv: str) -> str:
    """tesseract's TSV (one row per word, with its block/paragraph/line and box) -> lines of text in
    column-aware reading order (``order_lines``)."""
    lines: dict[tuple[int, int, int], list] = {}  # (block, par, line) -> [x0, y0, x1, y1, words]
    page_width = 0.0
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12:
            continue
        level, left, top, width, height = (int(c) for c in (cols[0], *cols[6:10]))
        if level == 1:
            page_width = float(width)
        if level != 5 or not cols[11].strip():
            continue
        key = (int(cols[2]), int(cols[3]), int(cols[4]))
        line = lines.setdefault(key, [left, top, left + width, top + height, []])
        line[0], line[1] = min(line[0], left), min(line[1], top)
        line[2], line[3] = max(line[2], left + width), max(line[3], top + height)
        line[4].append(cols[11].strip())
    boxes = [[(x0, y0), (x1, y1)] for x0, y0, x1, y1, _ in lines.values()]
    texts = [" ".join(words) for *_, words in lines.values()]
    return "\n".join(order_lines(boxes, texts, page_width or 1.0))


@dataclass
class TesseractEngine(Engine):
    """Debian's ``tesseract-ocr`` (LSTM, ``eng``) on pages rendered at 1288 px, one process per page.

    ``OMP_THREAD_LIMIT=1``: tesseract's OpenMP threads would otherwise fight Ray's one-process-per-
    core parallelism (tesseract's own advice for batch work). The JPEG goes through stdin and the
    text comes back on stdout: no temporary files. Stateless tasks, not actors: there is no model to
    keep loaded between pages (each process loads ``eng.traineddata``, ~15 ms).
    """

    name: str = "tesseract"
    model: str | None = "tesseract-ocr eng (LSTM)"
    needs_image: bool = True
    num_cpus: float = 1.0
    batch_size: int = 4
    binary: str = "tesseract"
    psm: int = 3  # fully automatic page segmentation: finds the two columns and their order
    timeout_s: float = 120.0

    @property
    def version(self) -> str:
        import subprocess

        try:
            out = subprocess.run([self.binary, "--version"], capture_output=True, text=True, timeout=30)
            return (out.stdout or out.stderr).splitlines()[0].strip() + f";psm={self.psm}"
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return f"unknown;psm={self.psm}"

    def check_available(self) -> None:
        import shutil

        if shutil.which(self.binary) is None:
            raise EngineNotAvailableError(
                f"OCR engine 'tesseract' needs the {self.binary!r} program: apt-get install tesseract-ocr")

    def ocr_image(self, image_bytes: bytes) -> str:
        import os
        import subprocess

        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        # TSV (word boxes), not plain text: lines then go through the same column-aware reading
        # order as RapidOCR's (tesseract's own order puts short columns in either order).
        out = subprocess.run([self.binary, "stdin", "stdout", "--psm", str(self.psm), "-l", "eng", "tsv"],
                             input=image_bytes, capture_output=True, env=env, timeout=self.timeout_s)
        if out.returncode != 0:
            raise RuntimeError(f"tesseract exited {out.returncode}: {out.stderr.decode(errors='replace')[:200]}")
        return tsv_to_text(out.stdout.decode("utf-8", errors="replace"))

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        return [normalize_page_text(self.ocr_image(page["image"])) if page["image"] else ""
                for page in pages]


# ---------------------------------------------------------------- auto routing

_MATH_CHARS = set("∑∏∫∮∂∇√∞≈≠≡≤≥±×÷∈∉∋⊂⊃⊆⊇∪∩∧∨¬∀∃∅→←↔⇒⇔⊗⊕⊥∥∝′″‖〈〉⟨⟩"
                  "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩϵϑϕ")
_NUMERIC_TOKEN = re.compile(r"^[-+±]?\(?\d[\d.,]*%?\)?$")


def classify_page(text: str) -> str:
    """Why a page's text layer should (not) be trusted: ``prose``, ``no_text``, ``garbled``,
    ``math`` or ``table``. Cheap heuristics on the text layer only (no rendering).

    * no_text: under 80 visible characters (scans, figure-only pages);
    * garbled: over 5 % U+FFFD / private-use / control characters (broken font encodings);
    * math: over 2 % math symbols, or many one-symbol lines (how PDFium spells display math,
      research note §5);
    * table: over 30 % of the lines are mostly numeric tokens.
    """
    visible = [c for c in text if not c.isspace()]
    if len(visible) < 80:
        return "no_text"
    bad = sum(1 for c in visible if c == "\ufffd" or "\ue000" <= c <= "\uf8ff" or ord(c) < 32)
    if bad / len(visible) > 0.05:
        return "garbled"
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
    """Text layer for prose pages, an OCR engine for the rest; ``route`` says which per page.

    Only routed pages are rendered, so an all-prose paper costs what ``text-layer`` costs.
    ``ocr_routes``: the page classes sent to OCR (math and tables gain little from a CPU OCR
    engine, which also flattens them, but much from a VLM: keep them routed and pick the engine).
    """

    name: str = "auto"
    ocr: Engine | None = None
    ocr_routes: tuple[str, ...] = ("no_text", "garbled", "math", "table")
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
        return f"routes={'+'.join(self.ocr_routes)};h1;{self.ocr.cache_id}"

    def check_available(self) -> None:
        self.ocr.check_available()

    def prepare_page(self, pdf_page: Any) -> dict[str, Any]:
        text = page_text_layer(pdf_page)
        kind = classify_page(normalize_page_text(text))
        if kind in self.ocr_routes:
            image = render_page_jpeg(pdf_page, self.ocr.image_longest_side)
            return {"text": text, "image": image, "route": self.ocr.name}
        return {"text": text, "image": b"", "route": "text-layer"}

    def setup(self) -> None:
        self.ocr.setup()

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        routed = [page for page in pages if page.get("route") != "text-layer"]
        ocr_texts = iter(self.ocr.process_batch(routed) if routed else [])
        return [normalize_page_text(page["text"] or "") if page.get("route") == "text-layer"
                else next(ocr_texts) for page in pages]


def _vllm_engine() -> Engine:
    from ocr_ray.vllm_engine import VllmEngine

    return VllmEngine.from_env()


def _auto_engine() -> Engine:
    import os

    ocr = os.environ.get("REVIEWBENCH_AUTO_OCR", "rapidocr")
    if ocr in ("auto", "text-layer"):
        raise ValueError(f"REVIEWBENCH_AUTO_OCR={ocr!r} must name an OCR engine")
    return AutoEngine(ocr=get_engine(ocr))


_ENGINES: dict[str, Callable[[], Engine]] = {
    "text-layer": TextLayerEngine,
    "rapidocr": RapidOcrEngine,
    "auto": _auto_engine,
    "vllm": _vllm_engine,
    "tesseract": TesseractEngine,
    "nemotron": _not_implemented(
        "nemotron", "not implemented yet: needs an NVIDIA GPU, CUDA and the nemotron-ocr package "
        "(pip install nemotron-ocr), which were not available to build or test it."
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
