"""Full text on real papers (issue 21 item 2): the default engine beside pymupdf4llm, same run.

The set: ``$REVIEWBENCH_REALSET_DIR`` (default ``var/realset``, never committed), built by
``python -m benchmarks.fulltext_real.build --fetch`` from ``benchmarks/fulltext_real/papers.yaml``:
``pdfs/<id>.pdf`` and ``pdfs/<id>.tests.json`` (olmOCR-Bench test types). Without it this bench
says so and records nothing: a fresh machine without GitHub access cannot measure.

* ``fulltext_real_pass_rate_<engine>``: share of tests passed over the set (value), baseline =
  pymupdf4llm's share in the same run; ``fulltext_real_pass_rate_<engine>_<type>`` per test type
  (``test_type`` key). Math is scored by ``math_score.score_math`` (KaTeX renderings compared as olmOCR-Bench does; was:
  olmOCR-Bench's KaTeX rendering; the figure says so).
* ``fulltext_real_pages_per_s_<engine>``: pages per second, one core, imports and models loaded
  before the clock; baseline = pymupdf4llm's.
* ``raw-text-layer`` (pypdfium2's text, no layout) is measured beside them as the reference for the
  goal "no present/order loss against the raw text layer".

pymupdf4llm is AGPL: a benchmark peer only, never a project dependency. The bench installs it into
a virtual environment of its own (``var/peer-venv``, pinned ``PEER_PIN``) and runs it there in a
subprocess.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import figure
from benchmarks.fulltext import harness
from benchmarks.fulltext.scoring import score

ENGINES = tuple(os.environ.get("BENCH_FULLTEXT_REAL_ENGINES", "text-layer").split(","))
DEFAULT_ENGINE = "text-layer"
PEER = "pymupdf4llm"
PEER_PIN = "pymupdf4llm==1.28.2"  # the version issue 21 measured
PEER_VENV = Path(os.environ.get("REVIEWBENCH_PEER_VENV", "var/peer-venv"))
TYPES = ("present", "absent", "order", "table", "math")
MATH_NOTE = "math scored by KaTeX-rendered symbol sequences (benchmarks/fulltext/math_score.py)"

# Runs in the peer's venv: convert each PDF, time it (the first one twice: warm-up), write JSON to
# the file named first (the peer prints advice of its own on stdout).
_PEER_SCRIPT = """
import json, sys, time
import pymupdf4llm
target, paths = sys.argv[1], sys.argv[2:]
pymupdf4llm.to_markdown(paths[0], show_progress=False)
out = {}
for p in paths:
    t = time.perf_counter()
    md = pymupdf4llm.to_markdown(p, show_progress=False)
    out[p] = {"markdown": md, "seconds": time.perf_counter() - t}
with open(target, "w") as f:
    json.dump(out, f)
"""


def realset_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_REALSET_DIR", "var/realset"))


def load_set(root: Path) -> list[tuple[str, Path, list[dict]]]:
    out = []
    for tests in sorted((root / "pdfs").glob("*.tests.json")):
        pdf = tests.with_name(tests.name.removesuffix(".tests.json") + ".pdf")
        if pdf.exists():
            out.append((pdf.stem, pdf, json.loads(tests.read_text())))
    return out


def ensure_peer() -> Path:
    """The peer's interpreter, creating ``PEER_VENV`` with the pinned peer on first use."""
    python = PEER_VENV / "bin" / "python"
    probe = [str(python), "-c", "import importlib.metadata as m; print(m.version('pymupdf4llm'))"]
    if python.exists() and subprocess.run(probe, capture_output=True, text=True).stdout.strip() == PEER_PIN.split("==")[1]:
        return python
    subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", PEER_PIN], check=True)
    return python


def run_peer(python: Path, pdfs: list[Path]) -> dict[str, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "peer.json"
        subprocess.run([str(python), "-c", _PEER_SCRIPT, str(target), *map(str, pdfs)], capture_output=True,
                       text=True, check=True, timeout=3600)
        return json.loads(target.read_text())


def _raw_text(pdf: Path) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return "\n\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def _ours(name: str):
    from ocr_ray.engines import get_engine

    engine = get_engine(name)
    engine.check_available()
    return lambda pdf: harness.convert(engine, pdf)[0]


def evaluate(docs, outputs: dict[str, tuple[str, float]]) -> dict:
    """Pass rates overall, per test type and per paper; pages/s. ``outputs``: paper -> (markdown, s)."""
    rows, pages, seconds = [], 0, 0.0
    for paper, pdf, tests in docs:
        markdown, took = outputs[paper]
        pages += harness.page_count(pdf)
        seconds += took
        kinds = {t["id"]: t["type"] for t in tests}
        rows += [(paper, kinds[i], ok) for i, ok in score(markdown, tests).items()]

    def rate(selected) -> float | None:
        selected = list(selected)
        return round(sum(r[2] for r in selected) / len(selected), 4) if selected else None

    return {"pass_rate": rate(rows), "tests": len(rows), "passed": sum(r[2] for r in rows),
            "by_type": {k: rate(r for r in rows if r[1] == k) for k in TYPES},
            "tests_by_type": {k: sum(1 for r in rows if r[1] == k) for k in TYPES},
            "by_paper": {p: rate(r for r in rows if r[0] == p) for p, _, _ in docs},
            "pages": pages, "seconds": round(seconds, 3), "pages_per_s": round(pages / seconds, 2) if seconds else None}


def _timed(run, docs) -> dict[str, tuple[str, float]]:
    run(docs[0][1])  # warm-up: imports and models loaded before the clock
    out = {}
    for paper, pdf, _ in docs:
        started = time.perf_counter()
        markdown = run(pdf)
        out[paper] = (markdown, time.perf_counter() - started)
    return out


def run() -> list[dict]:
    root = realset_dir()
    docs = load_set(root)
    if not docs:
        print(f"fulltext_real: no real-paper set at {root} (REVIEWBENCH_REALSET_DIR): nothing measured. Build it "
              "with `python -m benchmarks.fulltext_real.build --fetch` (needs github.com); see docs/fulltext.md.")
        return []
    try:
        cpus = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(cpus)})  # one core for every reader, the peer's subprocess included
    except (AttributeError, OSError):
        cpus = None
    try:
        return _run(docs, pinned=cpus is not None)
    finally:
        if cpus:
            os.sched_setaffinity(0, cpus)


def _run(docs, pinned: bool) -> list[dict]:
    results: dict[str, dict] = {}
    skipped: dict[str, str] = {}
    for name in ENGINES:
        try:
            results[name] = evaluate(docs, _timed(_ours(name), docs))
        except Exception as exc:  # noqa: BLE001 - an engine that cannot run is reported, not fatal
            skipped[name] = f"{type(exc).__name__}: {exc}"
    results["raw-text-layer"] = evaluate(docs, _timed(_raw_text, docs))
    try:
        peer_out = run_peer(ensure_peer(), [pdf for _, pdf, _ in docs])
        results[PEER] = evaluate(docs, {p: (peer_out[str(pdf)]["markdown"], peer_out[str(pdf)]["seconds"])
                                        for p, pdf, _ in docs})
    except Exception as exc:  # noqa: BLE001 - e.g. no PyPI access: the figures say there is no baseline
        skipped[PEER] = f"{type(exc).__name__}: {exc}"
    peer = results.get(PEER)
    set_note = (f"{len(docs)} real papers typeset from public LaTeX sources "
                f"(benchmarks/fulltext_real/papers.yaml), {results[next(iter(results))]['pages']} pages")
    figures = []
    for name, r in results.items():
        common = {"set": set_note, "tests": r["tests"], "skipped": skipped or None, "math_scoring": MATH_NOTE}
        extra = {**common, "passed": r["passed"], "by_type": r["by_type"], "tests_by_type": r["tests_by_type"],
                 "by_paper": r["by_paper"]}
        if name == DEFAULT_ENGINE and peer:
            extra["goal"] = ">= baseline + 0.08 and >= 0.95; tables >= 0.90; pages/s >= 10x"
            extra["goal_pass_rate_met"] = r["pass_rate"] >= max(peer["pass_rate"] + 0.08, 0.95)
        # value = share of tests passed; baseline = pymupdf4llm's share in the same run (None: peer not run)
        figures.append(figure(f"fulltext_real_pass_rate_{name}", r["pass_rate"], "share of tests",
                              peer["pass_rate"] if peer else None, **extra))
        for kind in TYPES:
            if r["by_type"][kind] is None:
                continue
            # value = share of this type's tests passed; baseline = pymupdf4llm's share of the same tests
            figures.append(figure(f"fulltext_real_pass_rate_{name}_{kind}", r["by_type"][kind], "share of tests",
                                  peer["by_type"][kind] if peer else None, test_type=kind,
                                  tests=r["tests_by_type"][kind], **({"math_scoring": MATH_NOTE} if kind == "math" else {})))
        # value = pages per second over the set, one core; baseline = pymupdf4llm's pages/s
        figures.append(figure(f"fulltext_real_pages_per_s_{name}", r["pages_per_s"], "pages/s",
                              peer["pages_per_s"] if peer else None, pages=r["pages"], seconds=r["seconds"],
                              load_average_1min=round(os.getloadavg()[0], 2),
                              note=("one process pinned to one core, the peer's subprocess too; " if pinned
                                    else "not pinned to a core; ") + "imports and models loaded before the clock"))
    return figures


if __name__ == "__main__":
    for fig in run():
        print(json.dumps(fig))
