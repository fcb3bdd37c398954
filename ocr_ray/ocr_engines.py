"""CPU OCR engines: RapidOCR (ONNX PP-OCR models inside the wheel) and Debian's tesseract.

Both read a rendered page (RapidOCR at 1288 px, tesseract at 2000 px) and hand back what the text
layer hands back: a ``PageLayout`` (``ocr_ray.layout``) whose fragments are the OCR'd lines with their boxes, scaled to
PDF points, so their pages go through the same layout step (reading order, furniture, headings,
paragraphs) as born-digital ones. Scanned pages carry no ruling lines, so tables are not rebuilt
from them.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

from ocr_ray.engine_base import Engine, EngineNotAvailableError, normalize_page_text
from ocr_ray.layout.model import Fragment, PageLayout
from ocr_ray.layout.pdftext import MATH_CHARS

_NUMBERED_HEADING = re.compile(r"^\d+(\.\d+)*\.?\s+[A-Z][^.,;:]*$")

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
               ascender_heights: list[float] | None = None) -> str:
    """OCR'd lines (pixel boxes) -> the page's ``PageLayout`` JSON in PDF points.

    ``page_json`` is the text layer's layout (for the page size). A line's font size is taken as
    0.8 of its box height (OCR boxes include ascenders and descenders), or, when the engine
    measures them (tesseract's baselines: ``ascender_heights``, pixels), as ascender height / 0.7
    (Computer Modern's and Times' ascenders and capitals are ~0.7 em)."""
    try:
        base = PageLayout.from_json(page_json)
        width, height = base.width, base.height
    except (ValueError, KeyError, TypeError):
        width = height = 0.0
    scale = (width / image_width) if width and image_width else 1.0
    if ascender_heights is None:
        sizes, snap = [0.8 * (_box_geometry(box)[3] - _box_geometry(box)[1]) for box in boxes], (0.0, 1.3)
    else:
        # ascender heights vary less than boxes: only +-12 % is noise (\large headings are +20 %,
        # footnotes -20 %)
        sizes, snap = [h / 0.7 for h in ascender_heights], (0.88, 1.12)
    lines = [(tuple(v * scale for v in _box_geometry(box)), normalize_page_text(text), size * scale)
             for box, text, size in zip(boxes, texts, sizes)]
    lines = [line for line in lines if line[1]]
    # every line within the snap range of the page's median size gets the median, so only really
    # larger type (titles, headings) or smaller type (footnotes) stands out
    ordered = sorted(size for *_, size in lines)
    median = ordered[len(ordered) // 2] if ordered else 8.0
    fragments = []
    for (x0, y0, x1, y1), text, size in lines:
        size = median if snap[0] * median <= size <= snap[1] * median else size
        math = sum(ch in MATH_CHARS for ch in text) / len(text)
        # no font weights in a scan: a short numbered line ("3.1 Page partition") is set like a heading
        heading_like = bool(_NUMBERED_HEADING.match(text)) and len(text.split()) <= 7
        fragments.append(Fragment(x0, y0, x1, y1, text, max(1.0, size), heading_like, math))
    return PageLayout(width or image_width, height or image_width, fragments, [], source).to_json()


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
            out.append(ocr_layout(page.get("text") or "", boxes, texts, width, self.name))
        return out

    def __getstate__(self):  # the ONNX sessions stay in the actor
        state = dict(self.__dict__)
        state.pop("_ocr", None)
        return state


_HOCR_LINES = ("ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat")
_BBOX = re.compile(r"bbox (-?\d+) (-?\d+) (-?\d+) (-?\d+)")
_BASELINE = re.compile(r"baseline (-?[\d.]+) (-?[\d.]+)")
_X_SIZE = re.compile(r"x_size ([\d.]+)")
_SECTION_NUMBER = re.compile(r"^(\d+(\.\d+)*|[A-Z](\.\d+)+)\.?$")
# Words further apart than this many x_size (tesseract's row height) are cut into two fragments
# (table cells). Measured at 2000 px on LaTeX pages: a loose line's gap after a full stop reaches
# ~1.3, table cells start at ~1.4; a gap between columns is ~1.1, but tesseract's page
# segmentation (--psm 3) already puts the columns in different blocks.
SPLIT_GAP = 1.5


_TALL = frozenset("bdfhijklt0123456789()[]{}/\\|!?&%$#@'\"")
_SHORT = frozenset("acegmnopqrsuvwxyz.,;:-")
# x-height -> ascender height: 1.61 in Computer Modern, ~1.5 in Times, ~1.4 in Helvetica
_X_TO_ASCENDER = 1.5


def _type_height(words: list[tuple[list[int], str]], title: str) -> float:
    """A line's ascender height in pixels: how far its words reach above the baseline.

    Per word, from its text: a word with a tall letter (capital, digit, ascender, bracket) reaches
    the ascender height; a word of x-height letters only ("core.", "use") reaches the x-height,
    which is scaled up; other words (a dash) say nothing. Then the 3rd quartile over the words
    and never the highest one, not the line's box: a footnote mark or a superscript on one word
    would otherwise make a body line look like a heading's larger type ("without corrections.¹").
    Lines without a baseline (rotated margin text) fall back to 0.7 of tesseract's ``x_size``
    (its row height: ascenders + x-height + descenders)."""
    x0, y0, x1, y1 = (int(v) for v in _BBOX.search(title).groups())
    baseline = _BASELINE.search(title)
    tops = []
    if baseline is not None:
        slope, offset = float(baseline.group(1)), float(baseline.group(2))
        for (bx0, by0, bx1, _), text in words:
            # hOCR's baseline: y = bottom + offset + slope * (x - left), in image coordinates
            top = y1 + offset + slope * ((bx0 + bx1) / 2 - x0) - by0
            if any(ch.isupper() or ch in _TALL for ch in text):
                tops.append(top)
            elif all(ch in _SHORT for ch in text):
                tops.append(_X_TO_ASCENDER * top)
    if not tops:
        x_size = _X_SIZE.search(title)
        return 0.7 * float(x_size.group(1)) if x_size else 0.7 * min(x1 - x0, y1 - y0)
    tops.sort()
    return max(1.0, tops[max(0, min(round(0.75 * (len(tops) - 1)), len(tops) - 2))])


def hocr_lines(hocr: str) -> tuple[list[Any], list[str], list[float], float]:
    """tesseract's hOCR -> line boxes, line texts, their ascender heights (``_type_height``,
    pixels) and the page width.

    A line is cut where two words are more than ``SPLIT_GAP`` x its ``x_size`` apart, except
    after a lone section number ("3.1<quad>Page partition")."""
    from xml.etree import ElementTree

    root = ElementTree.fromstring(hocr.encode("utf-8"))
    boxes: list[Any] = []
    texts: list[str] = []
    heights: list[float] = []
    page_width = 0.0
    for element in root.iter():
        classes = element.get("class", "")
        title = element.get("title", "")
        if classes == "ocr_page" and (bbox := _BBOX.search(title)):
            page_width = float(bbox.group(3))
        if classes not in _HOCR_LINES or not _BBOX.search(title):
            continue
        words = []
        for word in element.iter():
            bbox = _BBOX.search(word.get("title", "")) if word.get("class") == "ocrx_word" else None
            text = "".join(word.itertext()).strip()
            if bbox and text:
                words.append(([int(v) for v in bbox.groups()], text))
        if not words:
            continue
        height = _type_height(words, title)
        x_size = _X_SIZE.search(title)
        gap = SPLIT_GAP * (float(x_size.group(1)) if x_size else height / 0.7)
        parts: list[list] = []
        for (x0, y0, x1, y1), text in words:
            part = parts[-1] if parts else None
            if part is None or (x0 - part[2] > gap
                                and not (len(part[4]) == 1 and _SECTION_NUMBER.match(part[4][0]))):
                parts.append([x0, y0, x1, y1, [text]])
                continue
            part[0], part[1] = min(part[0], x0), min(part[1], y0)
            part[2], part[3] = max(part[2], x1), max(part[3], y1)
            part[4].append(text)
        for x0, y0, x1, y1, line_words in parts:
            boxes.append([(x0, y0), (x1, y1)])
            texts.append(" ".join(line_words))
            heights.append(height)
    return boxes, texts, heights, page_width or 1.0


def hocr_to_text(hocr: str) -> str:
    """tesseract's hOCR -> lines of text in column-aware reading order (``order_lines``)."""
    boxes, texts, _, width = hocr_lines(hocr)
    return "\n".join(order_lines(boxes, texts, width))


@dataclass
class TesseractEngine(Engine):
    """Debian's ``tesseract-ocr`` (LSTM, ``eng``) on pages rendered at 2000 px, one process per page.

    2000 px, not the 1288 px RapidOCR reads: that is ~117 dpi on a Letter page, where tesseract
    (made for ~300 dpi) drops short words and first letters ("sparse" read as "e"). On the
    full-text benchmark's 24 pages, 1288 -> 2000 px took the text tests from 0.79 to 1.0 and the
    reading-order tests from 0.63 to 1.0, for ~30 % fewer pages per CPU second (0.82 -> 0.58);
    1600 and 1800 px scored 0.93 and 0.96 on reading order; 2576 px dropped first letters at
    column edges again (reading order 0.78) and cost another ~30 %.

    ``OMP_THREAD_LIMIT=1``: tesseract's OpenMP threads would otherwise fight Ray's one-process-per-
    core parallelism (tesseract's own advice for batch work). The JPEG goes through stdin and the
    hOCR comes back on stdout: no temporary files. Stateless tasks, not actors: there is no model to
    keep loaded between pages (each process loads ``eng.traineddata``, ~15 ms).
    """

    name: str = "tesseract"
    model: str | None = "tesseract-ocr eng (LSTM)"
    needs_image: bool = True
    image_longest_side: int = 2000
    num_cpus: float = 1.0
    batch_size: int = 4
    binary: str = "tesseract"
    psm: int = 3  # fully automatic page segmentation: finds the two columns and their order
    timeout_s: float = 120.0

    @property
    def version(self) -> str:
        import subprocess

        settings = f";psm={self.psm};px={self.image_longest_side};hocr;layout2"
        try:
            out = subprocess.run([self.binary, "--version"], capture_output=True, text=True, timeout=30)
            return (out.stdout or out.stderr).splitlines()[0].strip() + settings
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "unknown" + settings

    def check_available(self) -> None:
        import shutil

        if shutil.which(self.binary) is None:
            raise EngineNotAvailableError(
                f"OCR engine 'tesseract' needs the {self.binary!r} program: apt-get install tesseract-ocr")

    def ocr_hocr(self, image_bytes: bytes) -> str:
        import os
        import subprocess

        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        # hOCR (word boxes, each line's baseline), not plain text: lines then go through the same
        # column-aware reading order as RapidOCR's (tesseract's own order puts short columns in
        # either order), and the baselines give font sizes for headings and footnotes.
        out = subprocess.run([self.binary, "stdin", "stdout", "--psm", str(self.psm), "-l", "eng", "hocr"],
                             input=image_bytes, capture_output=True, env=env, timeout=self.timeout_s)
        if out.returncode != 0:
            raise RuntimeError(f"tesseract exited {out.returncode}: {out.stderr.decode(errors='replace')[:200]}")
        return out.stdout.decode("utf-8", errors="replace")

    def ocr_image(self, image_bytes: bytes) -> str:
        """Plain text in column order (no layout step)."""
        return hocr_to_text(self.ocr_hocr(image_bytes))

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        out = []
        for page in pages:
            boxes, texts, heights, width = hocr_lines(self.ocr_hocr(page["image"])) if page["image"] else (
                [], [], [], 0.0)
            out.append(ocr_layout(page.get("text") or "", boxes, texts, width, self.name, heights))
        return out
