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

from benchmarks.common import figure
from benchmarks.fulltext_furniture import build
from benchmarks.fulltext_real import beside_peer, olmocr_bench, peers

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
    from benchmarks.bench_fulltext_real import set_digest

    parts = json.loads((root / "manifest.json").read_text())["parts"]
    out = []
    for part, prefix in PREFIXES.items():
        members = set(parts[part])
        part_docs = [(s, p) for s, p in docs if s in members]
        scored = {name: olmocr_bench.rates([t for t in v["tests"] if t["type"] in TYPES and Path(t["pdf"]).stem in members],
                                           TYPES) for name, v in verdicts.items()}
        peer = scored.get(peers.name(PEER_RELEASE))
        digest = set_digest(part_docs)
        common = {"set": f"one-page furniture set, {part} part: {len(part_docs)} pages of non-TeX PDFs, tests by hand, "
                         f"sha256 {digest[:16]}", "part": part, "set_sha256": digest, "scorer": olmocr_bench.OLMOCR_PIN,
                  "baseline_engine": peers.name(PEER_RELEASE), "skipped": skipped}
        for name, r in scored.items():
            extra = {"tests": r["tests"], "passed": r["passed"], "by_type": r["by_type"], "by_paper": r["by_paper"]}
            if name == ENGINE:
                extra.update(errors={s: e for s, e in runs[ENGINE]["errors"].items() if s in members} or None,
                             goal=">= the peer's share on the frozen part")
            # value = share of the part's absent/present tests passed; baseline = pymupdf4llm 2.0's share, same run
            out.append(figure(f"{prefix}{name}", r["pass_rate"], "share of tests", peer["pass_rate"] if peer else None,
                              **extra, **common))
            out += beside_peer.type_figures(f"{prefix}{name}", r, peer, TYPES, **common)
    return out


if __name__ == "__main__":
    for fig in run():
        print(json.dumps({k: fig[k] for k in ("metric", "value", "baseline")}))
