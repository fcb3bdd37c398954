"""olmOCR-Bench's own scorer, run from the project: its virtual environment, the candidate folders it
reads, and the verdicts it gives back.

Why a venv of its own: olmocr (Apache-2.0) is the yardstick, not a dependency of the project; its
``[bench]`` extra pulls Playwright, LLM clients and more that the platform never needs. It is
installed on first use into ``OLMOCR_VENV`` (default ``var/olmocr-venv``) and run as a subprocess
(``olmocr_run.py``), exactly as the peer pymupdf4llm is (``peers.py``).

Why this pin and these extras: ``olmocr[bench]`` 0.4.27 does not ask for torch (torch is only in its
``gpu``/``train`` extras), so no multi-GB CUDA wheel is fetched; its ``bench/tests.py`` imports numpy,
which no extra declares, so numpy is installed beside it. A newer olmocr could add torch to its
base requirements: the pin keeps the install what was checked (olmocr 0.4.27, 2026-11-27).

Candidate layout (olmOCR-Bench's): one folder per engine, ``<pdfstem>_pg<page>_repeat1.md`` per page,
page 1-based. Our markdown joins pages with ``ocr_ray.conversion.PAGE_SEPARATOR``; the peer gives a
list of pages (``page_chunks=True``). Each test is run on its own page's markdown only.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from ocr_ray.conversion import PAGE_SEPARATOR

# The release pinned once in pyproject.toml ([tool.reviewbench]), the one the unit tests judge with too.
OLMOCR_PIN = "olmocr[bench]==" + tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())[
    "tool"]["reviewbench"]["olmocr"].split("==")[1]
OLMOCR_EXTRA = ("numpy",)  # imported by olmocr/bench/tests.py, declared by no extra of 0.4.27
OLMOCR_VENV = Path(os.environ.get("REVIEWBENCH_OLMOCR_VENV", "var/olmocr-venv"))
RUNNER = Path(__file__).with_name("olmocr_run.py")


def ensure_olmocr(venv: Path = OLMOCR_VENV) -> Path:
    """olmocr's interpreter, creating ``venv`` with the pinned olmocr on first use."""
    python = venv / "bin" / "python"
    want = OLMOCR_PIN.split("==")[1]
    probe = [str(python), "-c", "import numpy, olmocr.bench.benchmark, importlib.metadata as m; print(m.version('olmocr'))"]
    if python.exists() and subprocess.run(probe, capture_output=True, text=True).stdout.strip() == want:
        return python
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", OLMOCR_PIN, *OLMOCR_EXTRA], check=True)
    return python


def split_pages(markdown: str, num_pages: int) -> list[str]:
    """Our engine's markdown as one string per page (the corpus joins pages with PAGE_SEPARATOR).
    A count that does not match the PDF's pages is an error of the engine, not something to guess:
    the missing pages are left empty, so their tests fail."""
    pages = markdown.split(PAGE_SEPARATOR) if markdown else []
    return (pages + [""] * num_pages)[:num_pages] if len(pages) != num_pages else pages


def write_candidate(folder: Path, outputs: dict[str, list[str | None]]) -> None:
    """``outputs``: PDF stem -> page markdowns, written in olmOCR-Bench's candidate layout (no file for
    a page that is None)."""
    folder.mkdir(parents=True, exist_ok=True)
    for stem, pages in outputs.items():
        for number, text in enumerate(pages, 1):
            if text is None:  # a page the engine gave no markdown for has no file: olmocr fails its tests
                continue
            # a stem may name a sub-folder (olmOCR-Bench's sample: pdfs/headers_footers/<id>.pdf)
            path = folder / f"{stem}_pg{number}_repeat1.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            # an engine's lone UTF-16 surrogate cannot be written as UTF-8: it becomes "?" (a wrong character,
            # as the reader would see it), instead of losing the page
            path.write_text(text, encoding="utf-8", errors="replace")


def score(set_dir: Path, candidates: dict[str, dict[str, list[str]]], python: Path | None = None) -> dict[str, dict]:
    """olmocr's verdicts: engine -> {"errors": [...], "tests": [{id, pdf, page, type, passed, explanation}]}."""
    python = python or ensure_olmocr()
    with tempfile.TemporaryDirectory(prefix="olmocr-candidates-") as tmp:
        for name, outputs in candidates.items():
            write_candidate(Path(tmp) / name, outputs)
        target = Path(tmp) / "verdicts.json"
        done = subprocess.run([str(python), str(RUNNER), str(Path(set_dir).resolve()), tmp, str(target)],
                              capture_output=True, text=True, timeout=7200)
        if done.returncode != 0:
            raise RuntimeError(f"olmocr scorer failed: {done.stderr[-2000:]}")
        return json.loads(target.read_text())


def rates(verdicts: list[dict], types: tuple[str, ...]) -> dict:
    """Share of tests passed overall and per type; olmocr's headline score beside it: the mean of the
    per-JSONL-file pass rates, as ``benchmark.main`` computes it (one file per paper, so each paper
    weighs the same; the baseline tests it adds form a group of their own)."""
    def share(rows) -> float | None:
        rows = list(rows)
        return round(sum(r["passed"] for r in rows) / len(rows), 4) if rows else None

    by_pdf = {}
    for v in verdicts:
        by_pdf.setdefault("baseline" if v["id"].endswith("_baseline") else v["pdf"], []).append(v)
    per_file = [share(rows) for rows in by_pdf.values()]
    return {"pass_rate": share(verdicts), "tests": len(verdicts), "passed": sum(v["passed"] for v in verdicts),
            "by_type": {k: share(v for v in verdicts if v["type"] == k) for k in types},
            "tests_by_type": {k: sum(1 for v in verdicts if v["type"] == k) for k in types},
            "by_paper": {Path(p).stem: s for p, s in zip(by_pdf, per_file, strict=True) if p != "baseline"},
            "olmocr_score": round(sum(per_file) / len(per_file), 4) if per_file else None}
