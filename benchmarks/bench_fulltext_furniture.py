"""Page furniture on one-page real-world inputs (issue 36, "Furniture on one-page inputs"): single pages
of PDFs made by Word, InDesign, Acrobat, Ghostscript, browsers' print ... (``fulltext_furniture/pages.yaml``,
tests written by hand), the default engine beside pymupdf4llm 2.0 in the same run, scored by
olmOCR-Bench's own code: ``absent`` for each printed head, footer, page number, date or id, ``present``
for the body lines next to them.

The set: built from the robustness corpus (``$REVIEWBENCH_ROBUSTNESS_DIR``) into
``$REVIEWBENCH_FURNITURESET_DIR`` (default ``var/furnitureset``) unless that folder already holds it.
Without either this bench says so and records nothing.

* ``fulltext_furniture_pass_rate_text-layer``: share of the FROZEN part's tests olmocr passes (the part
  never tuned on); baseline = pymupdf4llm 2.0's share in the same run. ``..._absent``, ``..._present``.
* ``fulltext_furniture_dev_pass_rate_text-layer`` (and per type): the same on the development part.

Our engine runs in this process through ``ocr_ray.conversion.convert_pdf``, one PDF after another.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from benchmarks.fulltext_furniture import build
from benchmarks.fulltext_real import beside_peer

ENGINE = "text-layer"
TYPES = ("absent", "present")
PEER_RELEASE = "2.0"
PREFIXES = {"frozen": "fulltext_furniture_pass_rate_", "dev": "fulltext_furniture_dev_pass_rate_"}
LAST_RUN = Path(os.environ.get("BENCH_FULLTEXT_FURNITURE_LAST_RUN", "var/bench-fulltext-furniture-last.json"))


def run() -> list[dict]:
    from benchmarks.bench_fulltext_real import load_set
    from benchmarks.bench_fulltext_scanned import ours
    from benchmarks.robustness.collect import corpus_dir

    root = build.set_dir()
    if not (root / "manifest.json").exists():
        if not (corpus_dir() / "manifest.jsonl").exists():
            print(f"fulltext_furniture: no furniture set at {root} (REVIEWBENCH_FURNITURESET_DIR) and no robustness "
                  f"corpus at {corpus_dir()} (REVIEWBENCH_ROBUSTNESS_DIR) to build it from: nothing measured; "
                  "see docs/fulltext-benchmark.md")
            return []
        build.build(corpus_dir(), root)
    docs = load_set(root)
    runs, verdicts, skipped = beside_peer.measure(root, docs, ENGINE, ours, PEER_RELEASE, LAST_RUN)
    return figures(root, docs, runs, verdicts, skipped)


def figures(root: Path, docs: list[tuple[str, Path]], runs: dict, verdicts: dict, skipped: str | None) -> list[dict]:
    """The figures of one run, per part (``LAST_RUN`` holds its ``runs`` and ``verdicts``). olmocr's runner
    adds a ``baseline`` test per PDF: it is left out here (these figures are about furniture)."""
    parts = json.loads((root / "manifest.json").read_text())["parts"]
    return beside_peer.part_figures(
        {part: (prefix, set(parts[part])) for part, prefix in PREFIXES.items()}, docs, runs, verdicts, skipped,
        engine=ENGINE, release=PEER_RELEASE, types=TYPES, seconds=False, fields=lambda part: {"part": part},
        describe=lambda part, pages, digest: f"one-page furniture set, {part} part: {pages} pages of non-TeX PDFs, "
                                             f"tests by hand, sha256 {digest[:16]}",
        goal=">= the peer's share on the frozen part")


if __name__ == "__main__":
    for fig in run():
        print(json.dumps({k: fig[k] for k in ("metric", "value", "baseline")}))
