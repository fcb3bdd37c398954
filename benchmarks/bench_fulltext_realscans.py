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
from benchmarks.fulltext_real import beside_peer
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
    manifest = json.loads((root / "manifest.json").read_text())
    part_of = {p["id"]: p["part"] for p in manifest["pages"]}
    parts = {part: (prefix(part), {s for s, _ in docs if part == "all" or part_of.get(s) == part})
             for part in ("all", "dev", "frozen")}

    def describe(part: str, pages: int, digest: str) -> str:
        repos = len({e["repo"] for e in manifest["pages"] if e["id"] in parts[part][1]})
        return (f"real scanned pages, {part}: {pages} pages of {repos} repositories, sha256 {digest[:16]}; "
                "tests by hand (benchmarks/fulltext_realscans)")

    return beside_peer.part_figures(
        parts, docs, runs, verdicts, skipped, engine=ENGINE, release=PEER_RELEASE, types=TYPES, only_types=False,
        with_score=True, describe=describe, fields=lambda part: {"missing_pages": manifest["missing"] or None},
        goal=">= the peer's share; mixed real documents (scans) >= 0.60")


if __name__ == "__main__":
    for fig in run():
        print(json.dumps({k: fig[k] for k in ("metric", "value", "baseline")}))
