"""The benchmark convention: one JSON object per figure appended to benchmarks/results.jsonl."""
from __future__ import annotations

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
