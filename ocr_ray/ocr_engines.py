"""CPU OCR engines: RapidOCR (ONNX PP-OCR models inside the wheel) and Debian's tesseract.

Both read a page rendered at 1288 px and hand back what the text layer hands back: a
``PageLayout`` (``ocr_ray.layout``) whose fragments are the OCR'd lines with their boxes, scaled to
PDF points, so their pages go through the same layout step (reading order, furniture, headings,
paragraphs) as born-digital ones. Scanned pages carry no ruling lines as PDF paths; the rules are
found on the image (``ocr_ray.layout.image_rules``), so tables are rebuilt from them too.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

from ocr_ray.engine_base import Engine, EngineNotAvailableError, normalize_page_text
from ocr_ray.layout.image_rules import rules_from_jpeg
from ocr_ray.layout.model import Fragment, PageLayout
from ocr_ray.layout.pdftext import MATH_CHARS

_NUMBERED_HEADING = re.compile(r"^\d+(\.\d+)*\.?\s+[A-Z][^.,;:]*$")
_SECTION_NUMBER = re.compile(r"^\d+(\.\d+)*\.?$")
_EQUATION_NUMBER = re.compile(r"^\(\d+[a-z]?\)$")

# Short English words that are prose, not variables, in ``ocr_math_share``.
_SHORT_WORDS = frozenset("a an as at be by do if in is it no of on or so to up we".split())
_TOKEN_EDGES = ".,;:!?\"'"


def ocr_math_share(text: str) -> float:
    """How much of an OCR'd line looks like a formula: the share of its tokens that hold a maths
    symbol or a bracket, or are one- or two-letter variables ("xi", "n"). A scan has no maths fonts
    (the text layer's signal), and a formula's letters are mostly variables, so the symbol share
    alone (``=`` and ``+`` among many letters) leaves "L(w) = -Σ log p(yi | xi, w)" looking like prose."""
    tokens = text.split()
    if not tokens:
        return 0.0
    mathy = 0
    for token in tokens:
        bare = token.strip(_TOKEN_EDGES)
        if _EQUATION_NUMBER.match(bare):
            continue  # "(1)": belongs to a formula (``blocks`` joins it to one) but is none itself
        if any(ch in MATH_CHARS or ch in "()[]{}" for ch in bare):
            mathy += 1
        elif bare and len(bare) <= 2 and bare.lower() not in _SHORT_WORDS and not bare.isdigit():
            mathy += 1
    return mathy / len(tokens)


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


def ocr_layout(page_json: str, boxes: list[Any], texts: list[str], image_width: float, source: str,
               image: bytes = b"") -> str:
    """OCR'd lines (pixel boxes) -> the page's ``PageLayout`` JSON in PDF points.

    ``page_json`` is the text layer's layout (for the page size); a line's font size is taken as
    0.8 of its box height (OCR boxes include ascenders and descenders). ``image``: the page as
    OCR'd, whose ruling lines (``image_rules``) let the tables step rebuild tables on scans."""
    try:
        base = PageLayout.from_json(page_json)
        width, height = base.width, base.height
    except (ValueError, KeyError, TypeError):
        width = height = 0.0
    scale = (width / image_width) if width and image_width else 1.0
    lines = [(tuple(v * scale for v in _box_geometry(box)), normalize_page_text(text))
             for box, text in zip(boxes, texts)]
    lines = [(geometry, text) for geometry, text in lines if text]
    # OCR boxes grow with ascenders and descenders: every line within 30 % of the page's median
    # height gets the median as its size, so only really larger type (titles) stands out
    heights = sorted(y1 - y0 for (x0, y0, x1, y1), _ in lines)
    median = heights[len(heights) // 2] if heights else 10.0
    fragments = []
    for (x0, y0, x1, y1), text in lines:
        line_height = y1 - y0 if y1 - y0 > 1.3 * median else median
        math = ocr_math_share(text)
        # no font weights in a scan: a short numbered line ("3.1 Page partition") is set like a heading
        heading_like = bool(_NUMBERED_HEADING.match(text)) and len(text.split()) <= 7
        # the box shrunk to the type's own height around its centre: OCR boxes carry a margin, and
        # the rows of a tight table (or lines of small print) would otherwise overlap and merge
        core = 0.4 * (y1 - y0)
        middle = (y0 + y1) / 2
        fragments.append(Fragment(x0, middle - core, x1, middle + core, text, max(1.0, 0.8 * line_height),
                                  heading_like, math))
    _mark_split_headings(fragments)
    rules = rules_from_jpeg(image, width) if width else []
    return PageLayout(width or image_width, height or image_width, fragments, rules, source).to_json()


def _mark_split_headings(fragments: list[Fragment]) -> None:
    """A section number and its title are set a quad apart, so OCR often reads them as two boxes
    ("6" | "Conclusion"): a box holding only a section number and the next box to its right on the
    same line that together read as a numbered heading are both marked heading-like."""
    for number in fragments:
        if not _SECTION_NUMBER.match(number.text):
            continue
        height = number.y1 - number.y0
        # OCR boxes carry margins that may overlap: the title starts right of the number's middle
        right = [f for f in fragments if f is not number and number.cx < f.x0 <= number.x1 + 3 * height
                 and abs(f.cy - number.cy) <= 0.5 * height]
        if not right:
            continue
        title = min(right, key=lambda f: f.x0)
        if _NUMBERED_HEADING.match(f"{number.text} {title.text}") and len(title.text.split()) <= 6:
            number.bold = title.bold = True


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

            return f"{version('rapidocr')}+ort{version('onnxruntime')}+{self.model}+layout2"
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

    def ocr_lines(self, image_bytes: bytes) -> tuple[list[Any], list[str], float]:
        """Line boxes (pixels), their texts and the image width."""
        image = decode_jpeg(image_bytes)
        result = self._ocr(image)
        if result.txts is None or result.boxes is None:
            return [], [], float(image.shape[1])
        return list(result.boxes), list(result.txts), float(image.shape[1])

    def ocr_image(self, image_bytes: bytes) -> str:
        """Plain text in column order (no layout step)."""
        boxes, texts, width = self.ocr_lines(image_bytes)
        return "\n".join(order_lines(boxes, texts, width))

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        self.setup()
        out = []
        for page in pages:
            boxes, texts, width = self.ocr_lines(page["image"]) if page["image"] else ([], [], 0.0)
            out.append(ocr_layout(page.get("text") or "", boxes, texts, width, self.name, image=page["image"]))
        return out

    def __getstate__(self):  # the ONNX sessions stay in the actor
        state = dict(self.__dict__)
        state.pop("_ocr", None)
        return state


def tsv_lines(tsv: str) -> tuple[list[Any], list[str], float]:
    """tesseract's TSV (one row per word, with its block/paragraph/line and box) -> line boxes,
    line texts and the page width; a line is split where two words are further apart than its
    height (table cells, two columns read as one line)."""
    lines: dict[tuple[int, int, int, int], list] = {}
    page_width = 0.0
    last: dict[tuple[int, int, int], tuple[int, int]] = {}  # line -> (part, right edge of last word)
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12:
            continue
        level, left, top, width, height = (int(c) for c in (cols[0], *cols[6:10]))
        if level == 1:
            page_width = float(width)
        if level != 5 or not cols[11].strip():
            continue
        key3 = (int(cols[2]), int(cols[3]), int(cols[4]))
        part, right = last.get(key3, (0, None))
        if right is not None and left - right > 1.0 * height:
            part += 1
        last[key3] = (part, left + width)
        line = lines.setdefault((*key3, part), [left, top, left + width, top + height, []])
        line[0], line[1] = min(line[0], left), min(line[1], top)
        line[2], line[3] = max(line[2], left + width), max(line[3], top + height)
        line[4].append(cols[11].strip())
    boxes = [[(x0, y0), (x1, y1)] for x0, y0, x1, y1, _ in lines.values()]
    texts = [" ".join(words) for *_, words in lines.values()]
    return boxes, texts, page_width or 1.0


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
            return (out.stdout or out.stderr).splitlines()[0].strip() + f";psm={self.psm};layout2"
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return f"unknown;psm={self.psm}"

    def check_available(self) -> None:
        import shutil

        if shutil.which(self.binary) is None:
            raise EngineNotAvailableError(
                f"OCR engine 'tesseract' needs the {self.binary!r} program: apt-get install tesseract-ocr")

    def ocr_tsv(self, image_bytes: bytes) -> str:
        import os
        import subprocess

        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        # TSV (word boxes), not plain text: lines then go through the same column-aware reading
        # order as RapidOCR's (tesseract's own order puts short columns in either order).
        out = subprocess.run([self.binary, "stdin", "stdout", "--psm", str(self.psm), "-l", "eng", "tsv"],
                             input=image_bytes, capture_output=True, env=env, timeout=self.timeout_s)
        if out.returncode != 0:
            raise RuntimeError(f"tesseract exited {out.returncode}: {out.stderr.decode(errors='replace')[:200]}")
        return out.stdout.decode("utf-8", errors="replace")

    def ocr_lines(self, image_bytes: bytes) -> tuple[list[Any], list[str], float]:
        """Line boxes (pixels), their texts and the image width."""
        return tsv_lines(self.ocr_tsv(image_bytes))

    def ocr_image(self, image_bytes: bytes) -> str:
        """Plain text in column order (no layout step)."""
        return tsv_to_text(self.ocr_tsv(image_bytes))

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        out = []
        for page in pages:
            boxes, texts, width = tsv_lines(self.ocr_tsv(page["image"])) if page["image"] else ([], [], 0.0)
            out.append(ocr_layout(page.get("text") or "", boxes, texts, width, self.name, image=page["image"]))
        return out


