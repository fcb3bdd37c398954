"""CPU OCR engines: RapidOCR (ONNX PP-OCR models inside the wheel) and Debian's tesseract.

Both read a rendered page (RapidOCR at 1288 px, tesseract at 2000 px) and hand back what the text
layer hands back: a ``PageLayout`` (``ocr_ray.layout``) whose fragments are the OCR'd lines with their boxes, scaled to
PDF points, so their pages go through the same layout step (reading order, furniture, headings,
paragraphs) as born-digital ones. Scanned pages carry no ruling lines as PDF paths; the rules are
found on the image (``ocr_ray.layout.image_rules``), so tables are rebuilt from them too.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from ocr_ray import ocr_orientation as orientation
from ocr_ray.engine_base import Engine, EngineNotAvailableError
from ocr_ray.ocr_columns import split_at_gutter
from ocr_ray.ocr_lines import ocr_layout
from ocr_ray.tesseract_hocr import hocr_lines


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

            return f"{version('rapidocr')}+ort{version('onnxruntime')}+{self.model}+layout5"
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

            self._ocr = _recording_rapidocr()(params={
                "Global.log_level": "error", "Global.text_score": self.text_score,
                "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                "EngineConfig.onnxruntime.inter_op_num_threads": 1,
            })
            logging.getLogger("RapidOCR").setLevel(logging.ERROR)

    def ocr_lines(self, image_bytes: bytes) -> tuple[list[Any], list[str], float]:
        """Line boxes (pixels), their texts and the image width."""
        image = decode_jpeg(image_bytes)
        # every flag given: RapidOCR keeps the last call's flags (``read_line_images`` turns detection off)
        result = self._ocr(image, use_det=True, use_cls=True, use_rec=True, return_word_box=False)
        if result.txts is None or result.boxes is None:
            return [], [], float(image.shape[1])
        return list(result.boxes), list(result.txts), float(image.shape[1])

    def page_lines(self, image_bytes: bytes) -> tuple[list[Any], list[str], float]:
        """As ``ocr_lines``, with a line the detector drew across a column gutter cut in two
        (``ocr_columns``: from the word boxes the recogniser gives)."""
        return self._page_lines(decode_jpeg(image_bytes))

    def upright_lines(self, image_bytes: bytes) -> tuple[list[Any], list[str], float, bytes, int]:
        """``page_lines`` of the page turned upright (``ocr_orientation``): boxes, texts, width, the
        upright page as JPEG (for its ruling lines) and the quarter turns made (0: as scanned)."""
        image = decode_jpeg(image_bytes)
        boxes, texts, width = self._page_lines(image)
        is_sideways = orientation.sideways(boxes, texts)
        labels = []
        if is_sideways is not None:
            # the angle classifier's verdicts on the crops it saw reading the page (one run of the model
            # per page, not a second one on the voting lines cut out again)
            if self._ocr.classified_lines is not None:
                labels = orientation.voting_labels(self._ocr.classified_lines, is_sideways)
            else:  # the kept lines could not be matched to the classifier's crops: classify them again
                crops = orientation.voting_crops(image, boxes, texts, is_sideways)
                labels = [label for label, _ in (self._ocr._load_cls_model()(crops).cls_res or [])] if crops else []
        turns = orientation.quarter_turns(is_sideways, labels)
        if not turns:
            return boxes, texts, width, image_bytes, 0
        import numpy as np
        from PIL import Image

        upright = np.ascontiguousarray(np.rot90(image, k=turns))
        buffer = io.BytesIO()
        Image.fromarray(upright).save(buffer, format="JPEG", quality=90)
        return (*self._page_lines(upright), buffer.getvalue(), turns)

    def _page_lines(self, image) -> tuple[list[Any], list[str], float]:
        result = self._ocr(image, use_det=True, use_cls=True, use_rec=True, return_word_box=True)
        if result.txts is None or result.boxes is None:
            return [], [], float(image.shape[1])
        boxes, texts = split_at_gutter(list(result.boxes), list(result.txts), list(result.word_results or []),
                                       float(image.shape[1]))
        return boxes, texts, float(image.shape[1])

    def read_line_images(self, images: list[Any]) -> list[str]:
        """The text of each image of one known line (PIL), by the recogniser alone: no detection
        and no angle classifier (``text_repair`` crops lines whose place the text layer gives)."""
        import numpy as np

        self.setup()
        out = []
        for image in images:
            result = self._ocr(np.asarray(image.convert("RGB")), use_det=False, use_cls=False, use_rec=True)
            out.append(" ".join(result.txts) if result.txts else "")
        return out

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        self.setup()
        out = []
        for page in pages:
            boxes, texts, width, image, _ = self.upright_lines(page["image"]) if page["image"] else (
                [], [], 0.0, b"", 0)
            # the page's sides follow the image read (``ocr_lines.image_frame``): turned upright, its
            # lines are scaled to points as the page they are on
            out.append(ocr_layout(page.get("text") or "", boxes, texts, width, self.name, image=image))
        return out

    def __getstate__(self):  # the ONNX sessions stay in the actor
        state = dict(self.__dict__)
        state.pop("_ocr", None)
        return state


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

        settings = f";psm={self.psm};px={self.image_longest_side};hocr;layout4"
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

    def ocr_lines(self, image_bytes: bytes) -> tuple[list[Any], list[str], float]:
        """Line boxes (pixels), their texts and the image width (``text_repair`` reads strips)."""
        boxes, texts, _, width = hocr_lines(self.ocr_hocr(image_bytes))
        return boxes, texts, width

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        out = []
        for page in pages:
            boxes, texts, heights, width = hocr_lines(self.ocr_hocr(page["image"])) if page["image"] else (
                [], [], [], 0.0)
            out.append(ocr_layout(page.get("text") or "", boxes, texts, width, self.name, image=page["image"],
                                  ascender_heights=heights))
        return out


def _recording_rapidocr():
    """RapidOCR keeping, for the last page it read, each kept line's box, text and the angle
    classifier's label ("0" / "180") of its crop (``classified_lines``): the orientation vote
    (``ocr_orientation``) reads them instead of running the classifier a second time on the same lines.
    The library returns the lines it kept (text not blank, score not under ``text_score``) in the
    detector's order, without the labels; the same filter over the labels of all crops aligns them."""
    from rapidocr import RapidOCR

    class RecordingRapidOCR(RapidOCR):
        classified_lines: list | None = None

        def __call__(self, *args, **kwargs):
            self._labels, self._rec, self.classified_lines = None, None, None
            result = super().__call__(*args, **kwargs)
            labels, rec = self._labels, self._rec
            if labels is None or rec is None or getattr(result, "boxes", None) is None or result.txts is None:
                return result
            kept = [label for label, txt, score in zip(labels, *rec, strict=False)
                    if txt.strip() and score >= self.text_score]
            if len(kept) == len(result.boxes) == len(result.txts):
                self.classified_lines = list(zip(result.boxes, result.txts, kept, strict=True))
            return result

        def cls_and_rotate(self, img):
            images, res = super().cls_and_rotate(img)
            self._labels = [label for label, _ in (res.cls_res or [])] if res.cls_res is not None else None
            return images, res

        def recognize_txt(self, img):
            rec = super().recognize_txt(img)
            # copies: the library filters the result's lists in place afterwards
            self._rec = (tuple(rec.txts), tuple(rec.scores)) if rec.txts is not None else None
            return rec

    return RecordingRapidOCR
