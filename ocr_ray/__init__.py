"""Ray Data OCR pipeline: OpenReview PDFs -> one markdown document per paper.

Runs without Dagster: ``run_pipeline`` from Python, ``python -m ocr_ray`` from a shell.
"""

from ocr_ray.engines import Engine, get_engine, known_engines, register_engine
from ocr_ray.pipeline import PAGE_SEPARATOR, PaperMarkdown, PdfTask, run_pipeline

__all__ = [
    "PAGE_SEPARATOR",
    "Engine",
    "PaperMarkdown",
    "PdfTask",
    "get_engine",
    "known_engines",
    "register_engine",
    "run_pipeline",
]
