"""One page set measured the way the page-set benches measure it (the scanned set, the real scans, the
one-page furniture set): our engine on every PDF, pymupdf4llm beside it in the same run, both scored by
olmOCR-Bench's own code, every page and verdict kept for reading the failures; and the per-type figures
of one engine's rates against the peer's."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import figure
from benchmarks.fulltext_real import olmocr_bench, peers

Docs = list[tuple[str, Path]]


def measure(root: Path, docs: Docs, engine: str, ours: Callable[[Docs], dict], release: str,
            last_run: Path) -> tuple[dict, dict, str | None]:
    """(runs, verdicts, skipped): ``ours(docs)`` under ``engine``'s name and the peer ``release`` on the same
    PDFs; a peer that cannot run (no PyPI access) is named in ``skipped`` and the figures go on without it."""
    runs, skipped = {engine: ours(docs)}, None
    try:
        results = peers.run(peers.ensure(release), [pdf for _, pdf in docs])
        runs[peers.name(release)] = {"pages": {stem: r["pages"] for (stem, _), r in zip(docs, results, strict=True)}}
    except Exception as exc:  # noqa: BLE001 - e.g. no PyPI access: the figures say the peer is missing
        skipped = f"{type(exc).__name__}: {exc}"
    verdicts = olmocr_bench.score(root, {name: r["pages"] for name, r in runs.items()})
    last_run.parent.mkdir(parents=True, exist_ok=True)  # every page and verdict, to read the failures
    last_run.write_text(json.dumps({"runs": runs, "verdicts": verdicts, "skipped": skipped}))
    return runs, verdicts, skipped


def type_figures(metric: str, rates: dict, peer: dict | None, types: tuple[str, ...], **common) -> list[dict]:
    """``metric_<type>`` for each test type the set has: value = the share of that type's tests passed;
    baseline = the peer's share of the same tests in the same run."""
    return [figure(f"{metric}_{kind}", rates["by_type"][kind], "share of tests",
                   peer["by_type"][kind] if peer else None, tests=rates["tests_by_type"][kind], **common)
            for kind in types if rates["by_type"][kind] is not None]
