"""Full text on scanned pages (issue 36): the real-paper set's development part made image-only as a
scanner makes it (``benchmarks/fulltext_scanned/build.py``: 150-300 dpi, grey, rotated 0.3-1.5
degrees, blur, noise, JPEG), the default engine (its OCR route: every page is ``image_only``) beside
pymupdf4llm 2.0 in the same run, scored by olmOCR-Bench's own code on the same tests as the
born-digital pages (math tests dropped: no CPU OCR engine writes LaTeX).

The set: built from ``$REVIEWBENCH_REALSET_DIR`` (the real-paper set, its dev part only) into
``$REVIEWBENCH_SCANSET_DIR`` (default ``var/scanset``) unless that folder already holds it. Without
the real-paper set this bench says so and records nothing.

* ``fulltext_scanned_dev_pass_rate_<engine>``: share of the scanned set's tests olmocr passes;
  baseline = pymupdf4llm 2.0's share in the same run. ``..._<type>`` per test type.

Our engine runs in this process through ``ocr_ray.conversion.convert_pdf`` (the worker's function:
reading, routing, OCR, layout), one PDF after another, as the peer does.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from benchmarks.common import figure, page_count
from benchmarks.fulltext_real import beside_peer, olmocr_bench, peers
from benchmarks.fulltext_scanned import build

ENGINE = "text-layer"
TYPES = ("present", "absent", "order", "table", "baseline")
PEER_RELEASE = "2.0"
PREFIX = "fulltext_scanned_dev_pass_rate_"
LAST_RUN = Path(os.environ.get("BENCH_FULLTEXT_SCANNED_LAST_RUN", "var/bench-fulltext-scanned-last.json"))


def ours(docs: list[tuple[str, Path]], engine_name: str = ENGINE) -> dict:
    import pyarrow.fs as pafs

    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    engine = get_engine(engine_name)
    engine.check_available()
    fs = pafs.LocalFileSystem()
    pages, routes, errors, started = {}, {}, {}, time.perf_counter()
    for index, (stem, pdf) in enumerate(docs):
        row = convert_pdf({"task_index": index, "forum_id": stem, "pdf_path": str(pdf.resolve())},
                          filesystem=fs, engine=engine)
        if row["error"]:
            errors[stem] = row["error"]
        pages[stem] = olmocr_bench.split_pages(row["markdown"] or "", row["num_pages"] or page_count(pdf))
        routes[stem] = json.loads(row["engine_pages"])
    return {"pages": pages, "routes": routes, "errors": errors, "seconds": round(time.perf_counter() - started, 1)}


def run() -> list[dict]:
    from benchmarks.bench_fulltext_real import load_set, realset_dir

    root = build.scanset_dir()
    if not (root / "manifest.json").exists():
        if not (realset_dir() / "tests").is_dir():
            print(f"fulltext_scanned: no real-paper set at {realset_dir()} (REVIEWBENCH_REALSET_DIR) to scan: "
                  "nothing measured; see docs/fulltext-benchmark.md")
            return []
        build.build(realset_dir(), root)
    docs = load_set(root)
    runs, verdicts, skipped = beside_peer.measure(root, docs, ENGINE, ours, PEER_RELEASE, LAST_RUN)
    return figures(root, docs, runs, verdicts, skipped)


def figures(root: Path, docs: list[tuple[str, Path]], runs: dict, verdicts: dict, skipped: str | None) -> list[dict]:
    """The figures of one run (``LAST_RUN`` holds its ``runs`` and ``verdicts``)."""
    from benchmarks.bench_fulltext_real import set_digest

    scored = {name: olmocr_bench.rates(v["tests"], TYPES) for name, v in verdicts.items()}
    peer = scored.get(peers.name(PEER_RELEASE))
    digest = set_digest(docs)
    manifest = json.loads((root / "manifest.json").read_text())
    pages = sum(len(p) for p in runs[ENGINE]["pages"].values())
    common = {"set": f"scanned dev part: {len(docs)} documents ({pages} pages, first {manifest['source_pages']} "
                     f"of each), sha256 {digest[:16]}; {manifest['dropped_math_tests']} math tests dropped",
              "set_sha256": digest, "scorer": olmocr_bench.OLMOCR_PIN, "baseline_engine": peers.name(PEER_RELEASE),
              "skipped": skipped}
    out = []
    for name, r in scored.items():
        extra = {"tests": r["tests"], "passed": r["passed"], "olmocr_score": r["olmocr_score"],
                 "by_type": r["by_type"], "by_paper": r["by_paper"]}
        if name == ENGINE:
            extra.update(errors=runs[ENGINE]["errors"] or None, seconds=runs[ENGINE]["seconds"],
                         goal=">= the peer's share; mixed real documents (scans) >= 0.60")
        # value = share of the scanned set's tests passed; baseline = pymupdf4llm 2.0's share, same run
        out.append(figure(f"{PREFIX}{name}", r["pass_rate"], "share of tests", peer["pass_rate"] if peer else None,
                          **extra, **common))
        out += beside_peer.type_figures(f"{PREFIX}{name}", r, peer, TYPES, **common)
    return out


if __name__ == "__main__":
    for fig in run():
        print(json.dumps({k: fig[k] for k in ("metric", "value", "baseline")}))
