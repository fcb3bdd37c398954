"""The benchmark convention: one JSON object per figure appended to benchmarks/results.jsonl."""
from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

RESULTS = Path(__file__).with_name("results.jsonl")


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=RESULTS.parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def device() -> str:
    """`cpu`, or the GPU's name when one is visible (absolute times are only reported there)."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=10)
        name = out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else ""
        return name or "cpu"
    except (OSError, subprocess.TimeoutExpired):
        return "cpu"


def figure(metric: str, value: float, unit: str, baseline: float, **extra) -> dict:
    return {"metric": metric, "value": value, "unit": unit, "baseline": baseline,
            "ratio": (value / baseline) if baseline else None, "device": device(), "commit": commit(), **extra}


def record(figures: list[dict]) -> None:
    with RESULTS.open("a") as f:
        for fig in figures:
            f.write(json.dumps(fig, sort_keys=True) + "\n")
            print(json.dumps(fig, sort_keys=True))


def page_count(pdf: Path | str) -> int:
    """The number of pages of a PDF (pypdfium2, as the engine reads it)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return len(doc)
    finally:
        doc.close()


def has_recorded_bytes(path: Path, sha256: str) -> bool:
    """Is ``path`` there with the sha256 a page set's manifest records (its source, before a page is cut)?"""
    return path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256


def cut_page(source: Path, page: int, target: Path) -> None:
    """Page ``page`` (0-based) of the PDF ``source`` saved alone as ``target`` (the page sets' one-page PDFs)."""
    import pypdfium2 as pdfium

    one = pdfium.PdfDocument.new()
    one.import_pages(pdfium.PdfDocument(str(source)), [page])
    one.save(str(target))
