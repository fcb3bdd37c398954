"""Full text on REAL-WORLD tables (issue 36, items 3 and 6): one page of each ICDAR 2013 Table Competition
document (public EU and US government reports: ruled and unruled tables, spanning heads, shaded rows,
tables of text), with olmOCR-Bench table tests derived from the organisers' hand-made cell structure
(``benchmarks/fulltext_tables_world``). The LaTeX sets of ``bench_fulltext_real`` hold the tables of
papers; these are the tables of everything else.

The default engine (text layer) beside pymupdf4llm 2.0 in the same run, scored by olmOCR-Bench's own code,
as the other page-set benches (``beside_peer``).

The set: built by ``python -m benchmarks.fulltext_tables_world.build`` from the source PDFs in
``$REVIEWBENCH_TABLESWORLD_DIR/sources`` (default ``var/tablesworld``) into ``.../set``; without them
this bench says so and records nothing.

* ``fulltext_tablesworld_pass_rate_<engine>`` (all pages), ``fulltext_tablesworld_dev_pass_rate_<engine>``
  (the part rules may be tuned on) and ``fulltext_tablesworld_frozen_pass_rate_<engine>`` (never tuned on;
  judge on it), each also ``..._<type>``; baseline = pymupdf4llm 2.0's share of the same tests, same run.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from benchmarks.bench_fulltext_scanned import ours
from benchmarks.fulltext_real import beside_peer
from benchmarks.fulltext_tables_world import build

ENGINE = "text-layer"
TYPES = ("present", "table")
PEER_RELEASE = "2.0"
LAST_RUN = Path(os.environ.get("BENCH_FULLTEXT_TABLESWORLD_LAST_RUN", "var/bench-fulltext-tablesworld-last.json"))


def prefix(part: str) -> str:
    return "fulltext_tablesworld_pass_rate_" if part == "all" else f"fulltext_tablesworld_{part}_pass_rate_"


def run() -> list[dict]:
    from benchmarks.bench_fulltext_real import load_set

    folder = build.tablesworld_dir()
    if not (folder / "sources").is_dir():
        print(f"fulltext_tablesworld: no source PDFs at {folder / 'sources'} (REVIEWBENCH_TABLESWORLD_DIR): "
              "nothing measured; see docs/fulltext-benchmark.md")
        return []
    build.build(folder)
    root = folder / "set"
    docs = load_set(root)
    if not docs:
        print(f"fulltext_tablesworld: {root} holds no page with its tests: nothing measured")
        return []
    runs, verdicts, skipped = beside_peer.measure(root, docs, ENGINE, ours, PEER_RELEASE, LAST_RUN)
    return figures(root, docs, runs, verdicts, skipped)


def figures(root: Path, docs: list[tuple[str, Path]], runs: dict, verdicts: dict, skipped: str | None) -> list[dict]:
    """The figures of one run, for all pages and for each part (``LAST_RUN`` holds ``runs`` and ``verdicts``).
    olmocr's runner adds a ``baseline`` test per PDF: left out here (these figures are about tables)."""
    manifest = json.loads((root / "manifest.json").read_text())
    part_of = {p["id"]: p["part"] for p in manifest["pages"]}
    parts = {part: (prefix(part), {s for s, _ in docs if part == "all" or part_of.get(s) == part})
             for part in ("all", "dev", "frozen")}
    return beside_peer.part_figures(
        parts, docs, runs, verdicts, skipped, engine=ENGINE, release=PEER_RELEASE, types=TYPES,
        describe=lambda part, pages, digest: f"real-world tables, {part}: {pages} pages of the ICDAR 2013 table "
                                             f"competition, sha256 {digest[:16]}; tests from the organisers' cell "
                                             "structure (benchmarks/fulltext_tables_world)",
        fields=lambda part: {"missing_pages": manifest["missing"] or None},
        goal="table >= the peer's share on the frozen part")


if __name__ == "__main__":
    for fig in run():
        print(json.dumps({k: fig[k] for k in ("metric", "value", "baseline")}))
