"""Ray Data OCR pipeline: OpenReview PDFs -> one markdown document per paper.

Runs without Dagster: ``run_pipeline`` from Python, ``python -m ocr_ray`` from a shell.
The names below are imported on first use, so ``ocr_ray.layout`` (pure Python) loads without
Ray or pyarrow.
"""

_EXPORTS = {
    "Engine": "ocr_ray.engine_base",
    "get_engine": "ocr_ray.engines",
    "known_engines": "ocr_ray.engines",
    "register_engine": "ocr_ray.engines",
    "PAGE_SEPARATOR": "ocr_ray.conversion",
    "PaperMarkdown": "ocr_ray.conversion",
    "PdfTask": "ocr_ray.conversion",
    "run_pipeline": "ocr_ray.pipeline",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'ocr_ray' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
