"""The engine registry: ``get_engine(name)``, ``register_engine``, ``known_engines``.

Engines: ``text-layer`` (default, CPU, OCR only for pages whose text layer is unusable;
``ocr_ray.routing``), ``rapidocr`` and ``tesseract``
(CPU OCR; ``ocr_ray.ocr_engines``), ``auto`` (per page, text layer or OCR; ``ocr_ray.routing``),
``vllm`` (GPU; ``ocr_ray.vllm_engine``), ``nemotron`` (a known name, not available). The
interface every engine implements is described in ``ocr_ray.engine_base``; each engine is
imported from the module that defines it.
"""

from __future__ import annotations

from collections.abc import Callable

from ocr_ray.engine_base import Engine, not_implemented
from ocr_ray.ocr_engines import RapidOcrEngine, TesseractEngine
from ocr_ray.routing import AutoEngine, TextLayerEngine


def _vllm_engine() -> Engine:
    from ocr_ray.vllm_engine import VllmEngine

    return VllmEngine.from_env()


def _text_layer_engine() -> Engine:
    """OCR fallback inside the task: a CPU engine (``REVIEWBENCH_AUTO_OCR`` if it names one)."""
    import os

    ocr = os.environ.get("REVIEWBENCH_AUTO_OCR", "rapidocr")
    return TextLayerEngine(fallback=ocr if ocr in ("rapidocr", "tesseract") else "rapidocr")


def _auto_engine() -> Engine:
    import os

    ocr = os.environ.get("REVIEWBENCH_AUTO_OCR", "rapidocr")
    if ocr in ("auto", "text-layer"):
        raise ValueError(f"REVIEWBENCH_AUTO_OCR={ocr!r} must name an OCR engine")
    return AutoEngine(ocr=get_engine(ocr))


_ENGINES: dict[str, Callable[[], Engine]] = {
    "text-layer": _text_layer_engine,
    "rapidocr": RapidOcrEngine,
    "auto": _auto_engine,
    "vllm": _vllm_engine,
    "tesseract": TesseractEngine,
    "nemotron": not_implemented(
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
