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


def part_figures(parts: dict[str, tuple[str, set[str]]], docs: Docs, runs: dict, verdicts: dict, skipped: str | None,
                 *, engine: str, release: str, types: tuple[str, ...], describe: Callable[[str, int, str], str],
                 goal: str, fields: Callable[[str], dict] = lambda part: {}, only_types: bool = True,
                 seconds: bool = True, with_score: bool = False) -> list[dict]:
    """The figures of one run for each part of a page set: ``parts`` maps a part to (metric prefix, its
    page stems). Per engine, ``<prefix><engine>`` (value = the share of the part's tests passed; baseline =
    the peer's share of the same tests, same run) and its ``type_figures``; ``describe(part, pages,
    digest)`` names the set in each figure, ``fields(part)`` adds fields to each. ``only_types``: tests of
    other types (olmocr's per-PDF ``baseline``) are left out; ``seconds``: our engine's run time in its
    figure; ``with_score``: olmocr's own score too."""
    from benchmarks.bench_fulltext_real import set_digest

    peer_name = peers.name(release)
    out = []
    for part, (prefix, stems) in parts.items():
        part_docs = [(s, p) for s, p in docs if s in stems]
        digest = set_digest(part_docs)
        scored = {name: olmocr_bench.rates([t for t in v["tests"] if (t["type"] in types or not only_types)
                                            and Path(t["pdf"]).stem in stems], types) for name, v in verdicts.items()}
        peer = scored.get(peer_name)
        shared = {"set": describe(part, len(part_docs), digest), "set_sha256": digest,
                  "scorer": olmocr_bench.OLMOCR_PIN, "baseline_engine": peer_name, "skipped": skipped, **fields(part)}
        for name, r in scored.items():
            extra = {"tests": r["tests"], "passed": r["passed"],
                     **({"olmocr_score": r["olmocr_score"]} if with_score else {}),
                     "by_type": r["by_type"], "by_paper": r["by_paper"]}
            if name == engine:
                extra["errors"] = {s: e for s, e in runs[engine]["errors"].items() if s in stems} or None
                if seconds:
                    extra["seconds"] = runs[engine]["seconds"]
                extra["goal"] = goal
            out.append(figure(f"{prefix}{name}", r["pass_rate"], "share of tests",
                              peer["pass_rate"] if peer else None, **extra, **shared))
            out += type_figures(f"{prefix}{name}", r, peer, types, **shared)
    return out
