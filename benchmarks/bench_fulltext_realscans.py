"""Full text on REAL scanned pages (issue 36): image-only pages of public PDF libraries' and OCR
projects' test files (old books, typewritten bulletins, a fax, skewed and rotated scans, two-column
pages, photocopies, scanned tables), tests written by hand from the page images
(``benchmarks/fulltext_realscans/pages.yaml``, ``tests/``). The scanned set of
``bench_fulltext_scanned`` is clean renders of typeset LaTeX; this one is what a scanner made.

The default engine (its OCR route: every page is ``image_only``) beside pymupdf4llm 2.0 in the same
run, scored by olmOCR-Bench's own code, as the other full-text benches.

The set: built by ``python -m benchmarks.fulltext_realscans.build`` into ``$REVIEWBENCH_REALSCANS_DIR``
(default ``var/realscans``) from the robustness corpus (``$REVIEWBENCH_ROBUSTNESS_DIR``); without
either this bench says so and records nothing.

* ``fulltext_realscans_pass_rate_<engine>`` (all pages), ``fulltext_realscans_dev_pass_rate_<engine>``
  (the part rules may be tuned on) and ``fulltext_realscans_frozen_pass_rate_<engine>`` (never tuned on;
  judge on it), each also ``..._<type>``; baseline = pymupdf4llm 2.0's share of the same tests, same run.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from benchmarks.bench_fulltext_scanned import ours
from benchmarks.common import figure
from benchmarks.fulltext_real import beside_peer, olmocr_bench, peers
from benchmarks.fulltext_realscans import build

ENGINE = "text-layer"
TYPES = ("present", "absent", "order", "table", "baseline")
PEER_RELEASE = "2.0"
LAST_RUN = Path(os.environ.get("BENCH_FULLTEXT_REALSCANS_LAST_RUN", "var/bench-fulltext-realscans-last.json"))


def prefix(part: str) -> str:
    return "fulltext_realscans_pass_rate_" if part == "all" else f"fulltext_realscans_{part}_pass_rate_"


def run() -> list[dict]:
    from benchmarks.bench_fulltext_real import load_set

    root = build.realscans_dir()
    if not (root / "manifest.json").exists():
        if not (build.corpus_dir() / "pdfs").is_dir():
            print(f"fulltext_realscans: no set at {root} (REVIEWBENCH_REALSCANS_DIR) and no robustness corpus at "
                  f"{build.corpus_dir()} (REVIEWBENCH_ROBUSTNESS_DIR) to build it from: nothing measured; "
                  "see docs/fulltext-benchmark.md")
            return []
        build.build(root, build.corpus_dir())
    docs = load_set(root)
    if not docs:
        print(f"fulltext_realscans: {root} holds no page with its tests: nothing measured")
        return []
    runs, verdicts, skipped = beside_peer.measure(root, docs, ENGINE, ours, PEER_RELEASE, LAST_RUN)
    return figures(root, docs, runs, verdicts, skipped)


def figures(root: Path, docs: list[tuple[str, Path]], runs: dict, verdicts: dict, skipped: str | None) -> list[dict]:
    """The figures of one run, for all pages and for each part (``LAST_RUN`` holds ``runs`` and ``verdicts``)."""
    from benchmarks.bench_fulltext_real import set_digest

    manifest = json.loads((root / "manifest.json").read_text())
    part_of = {p["id"]: p["part"] for p in manifest["pages"]}
    peer_name = peers.name(PEER_RELEASE)
    out = []
    for part in ("all", "dev", "frozen"):
        stems = {s for s, _ in docs if part == "all" or part_of.get(s) == part}
        part_docs = [(s, p) for s, p in docs if s in stems]
        digest = set_digest(part_docs)
        scored = {name: olmocr_bench.rates([t for t in v["tests"] if Path(t["pdf"]).stem in stems], TYPES)
                  for name, v in verdicts.items()}
        peer = scored.get(peer_name)
        common = {"set": f"real scanned pages, {part}: {len(part_docs)} pages of {len({e['repo'] for e in manifest['pages'] if e['id'] in stems})} "
                         f"repositories, sha256 {digest[:16]}; tests by hand (benchmarks/fulltext_realscans)",
                  "set_sha256": digest, "scorer": olmocr_bench.OLMOCR_PIN, "baseline_engine": peer_name,
                  "skipped": skipped, "missing_pages": manifest["missing"] or None}
        for name, r in scored.items():
            extra = {"tests": r["tests"], "passed": r["passed"], "olmocr_score": r["olmocr_score"],
                     "by_type": r["by_type"], "by_paper": r["by_paper"]}
            if name == ENGINE:
                extra.update(errors={s: e for s, e in runs[ENGINE]["errors"].items() if s in stems} or None,
                             seconds=runs[ENGINE]["seconds"],
                             goal=">= the peer's share; mixed real documents (scans) >= 0.60")
            # value = share of this part's tests passed; baseline = pymupdf4llm 2.0's share, same run
            out.append(figure(f"{prefix(part)}{name}", r["pass_rate"], "share of tests",
                              peer["pass_rate"] if peer else None, **extra, **common))
            out += beside_peer.type_figures(f"{prefix(part)}{name}", r, peer, TYPES, **common)
    return out


if __name__ == "__main__":
    for fig in run():
        print(json.dumps({k: fig[k] for k in ("metric", "value", "baseline")}))
