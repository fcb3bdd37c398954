"""Streaming memory of the split assembly: 1,000 vs 20,000 synthetic papers (~90 KB markdown each).

What is measured: `update_conference_split` building a split from scratch (what the `<conf>_split`
asset runs the first time, stages/split_stage.py): venue-year
rows -> `data/<split>-i-of-n.parquet` shards + the `provenance` config + the Re^2 `review` and
`rebuttal` configs (DuckDB join and train/test split). Inputs are generated in one subprocess,
the assembly runs in a fresh subprocess per size, which reports its own peak RSS
(`VmHWM`), so generation never inflates the figure.

Figures: MB/s (uncompressed Arrow bytes of the default config per second of assembly), peak RSS
per size, and `split_memory_ratio_20k_vs_1k` (goal <= 1.2). Disk: the inputs and outputs of a
size are deleted before the next one (20k papers: ~0.5 GB compressed input + as much output).

What used to grow (3.01: 339 MB at 1k, 1,022 MB at 20k): DuckDB flipped the Re^2 provenance join
(its estimate of the UDF-filtered records was ~1 row), building a hash table of every record; its
pyarrow-dataset scan kept read-ahead; and `ParquetFile.iter_batches()` over a whole file held
memory of the row groups already read until the file closed. Now: records on the probe side from
a row-group-by-row-group `RecordBatchReader`, every Parquet input read one row group at a time.

    .venv/bin/python -m benchmarks.run_all bench_split_memory
    .venv/bin/python -m benchmarks.bench_split_memory 2000   # one size, printed, not recorded
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = (1_000, 20_000)
VENUE_YEARS = ("iclr-2023", "iclr-2024", "iclr-2025", "iclr-2026")
MARKDOWN_BYTES = 90_000
ROOT = Path(__file__).resolve().parents[1]


def _generate(out: str, n: int, venue_years: tuple[str, ...] = VENUE_YEARS, seed: int = 0) -> None:
    """Rows (20 columns, ~90 KB markdown) with one row per review, provenance and statistics (the
    rows step's own writer, stages/rows_stage.py) and Re^2 records for `n` papers, split over
    `venue_years` (ICLR keys), written in batches (bounded memory)."""
    import numpy as np
    import pyarrow.parquet as pq

    from resources.store import store_from_uri
    from reviewbench_assets.domain.schema import REBUTTAL_RECORD_SCHEMA, REVIEW_RECORD_SCHEMA
    from reviewbench_assets.stages.rows_stage import RowsStage, write_rows

    store = store_from_uri(out)

    rng = np.random.default_rng(seed)
    vocab = np.array(["".join(chr(97 + c) for c in rng.integers(0, 26, rng.integers(2, 10)))
                      for _ in range(20_000)])

    def words(k: int) -> str:
        return " ".join(vocab[rng.integers(0, len(vocab), k)])

    # 64 distinct page pools; each paper = its own header + 12 pages drawn from them, so that
    # papers differ (compression is not trivially perfect) without 260M random words.
    pages = [f"## Section {i}\n\n" + words(1_100) for i in range(64)]
    per_vy = -(-n // len(venue_years))
    made = 0
    for vy in venue_years:
        count = min(per_vy, n - made)
        if count <= 0:
            break
        writers = {
            "review": pq.ParquetWriter(f"{out}/re2/{vy}.review.parquet", REVIEW_RECORD_SCHEMA, compression="zstd"),
            "rebuttal": pq.ParquetWriter(f"{out}/re2/{vy}.rebuttal.parquet", REBUTTAL_RECORD_SCHEMA,
                                         compression="zstd"),
        }
        write_rows(RowsStage.outputs_in(store, vy), _papers(vy, count, writers, words, pages, rng))
        for w in writers.values():
            w.close()
        made += count


def _papers(vy: str, count: int, writers: dict, words, pages: list[str], rng):
    """(paper, provenance) pairs of one venue-year for the rows writer; its Re^2 records written
    beside them, 200 papers at a time."""
    import pyarrow as pa

    from reviewbench_assets.domain.reviews import empty_review, typed_reviews
    from reviewbench_assets.domain.schema import PAGE_SEPARATOR, REBUTTAL_RECORD_SCHEMA, REVIEW_RECORD_SCHEMA

    year = int(vy.split("-")[1])
    for start in range(0, count, 200):
        rows, prov, review, rebuttal = [], [], [], []
        for i in range(start, min(start + 200, count)):
            fid = f"{vy}-{i:06d}"
            md = f"# Paper {fid}\n\n{words(150)}" + PAGE_SEPARATOR + PAGE_SEPARATOR.join(
                pages[j] for j in rng.integers(0, len(pages), 12))
            md = md[:MARKDOWN_BYTES]
            revs = []
            for r in range(3):
                rev = empty_review()
                rev.update(review_id=f"{fid}-r{r}", reviewer=f"Reviewer_{r}", summary=words(300),
                           weaknesses=words(200), rating=float(rng.integers(1, 11)), confidence=3.0)
                revs.append(rev)
            rows.append({"forum_id": fid, "conference": "iclr", "year": year, "track": "main",
                         "venue_id": f"ICLR.cc/{year}/Conference", "paper_number": i + 1,
                         "title": words(8), "abstract": words(200), "authors": ["A", "B"], "keywords": ["k"],
                         "tldr": words(20), "primary_area": "", "venue": f"ICLR {year} poster",
                         "decision": "Accept (poster)" if i % 3 == 0 else "Reject",
                         "decision_comment": words(150), "author_rebuttal": "", "num_reviews": 3,
                         "reviews": typed_reviews(revs), "markdown": md, "markdown_chars": len(md)})
            prov.append({"forum_id": fid, "conference": "iclr", "year": year, "track": "main",
                         "revision_rule": "initial", "pdf_sha256": "ab" * 32, "ocr_engine": "pypdfium2"})
            score = {"rating": 5.0, "confidence": 3.0, "aspect_score": "{}"}
            review.append({"paper_id": fid, "conference_year_track": f"iclr_{year}_main", "conference": "iclr",
                           "year": year, "track": "main", "venue_id": f"ICLR.cc/{year}/Conference",
                           "reviews": [{"reviewer_id": f"Reviewer_{r}", "review_id": f"{fid}-r{r}",
                                        "review_title": "", "review_content": words(500),
                                        "initial_score": score, "final_score": score,
                                        "initial_score_source": "unmodified", "tcdate": 1, "tmdate": 1}
                                       for r in range(3)],
                           "metareview": words(150), "decision": "Reject", "venue": ""})
            for r in range(3):
                msgs = [{"role": "system", "content": "You are a reviewer."},
                        {"role": "user", "content": f"```<<{fid}>>```"},
                        {"role": "assistant", "content": words(500)}, {"role": "user", "content": words(400)}]
                rebuttal.append({"paper_id": fid, "conference_year_track": f"iclr_{year}_main",
                                 "conference": "iclr", "year": year, "track": "main",
                                 "venue_id": f"ICLR.cc/{year}/Conference", "reviewer_id": f"Reviewer_{r}",
                                 "review_id": f"{fid}-r{r}", "messages": msgs,
                                 "message_note_ids": [[], [fid], [f"{fid}-r{r}"], ["x"]],
                                 "merged_by": "rule-based", "turn_merged_by": ["", "", "", ""],
                                 "reminders_by": "rule", "dropped_reminder_ids": []})
        writers["review"].write_table(pa.Table.from_pylist(review, schema=REVIEW_RECORD_SCHEMA))
        writers["rebuttal"].write_table(pa.Table.from_pylist(rebuttal, schema=REBUTTAL_RECORD_SCHEMA))
        yield from zip(rows, prov, strict=True)


def _assemble(out: str) -> dict:
    from resources.store import store_from_uri
    from reviewbench_assets.stages.split_stage import SplitStage, update_conference_split

    store = store_from_uri(out)
    vys = [v for v in VENUE_YEARS if os.path.exists(f"{out}/rows/{v}.parquet")]
    t0 = time.perf_counter()
    update = update_conference_split(SplitStage.outputs_in(store, "iclr"), vys)
    seconds = time.perf_counter() - t0
    stats, configs = update.stats, update.configs
    return {"papers": stats.num_examples, "seconds": seconds, "dataset_bytes": stats.dataset_bytes,
            "shards": len(stats.files), "shard_bytes": stats.num_bytes, "configs": configs,
            "peak_rss_mb": _peak_rss_mb()}


def _peak_rss_mb() -> float:
    """This process's own high-water mark. Not ru_maxrss: Linux copies the parent's maxrss into a
    forked child and keeps it across exec, so a child of a big parent (`make bench` runs every
    benchmark in one process) would report the parent's peak."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(args: list[str]) -> str:
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_split_memory", *args], cwd=ROOT,
                         capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"{args[0]} failed:\n{out.stderr[-3000:]}")
    return out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""


def measure(n: int) -> dict:
    work = tempfile.mkdtemp(prefix=f"bench_split_{n}_")
    try:
        for d in ("rows", "re2", "corpus", "duckdb_tmp"):
            os.makedirs(f"{work}/{d}")
        t0 = time.perf_counter()
        _child(["--generate", work, str(n)])
        gen_s = time.perf_counter() - t0
        input_bytes = sum(p.stat().st_size for p in Path(work).rglob("*.parquet"))
        result = json.loads(_child(["--assemble", work]))
        result.update(generate_seconds=gen_s, input_parquet_bytes=input_bytes,
                      mb_per_s=result["dataset_bytes"] / 1e6 / result["seconds"])
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(sizes: tuple[int, ...] = SIZES) -> list[dict]:
    from benchmarks.common import figure

    results = {n: measure(n) for n in sizes}
    figs = []
    for n, r in results.items():
        extra = {"papers": n, "seconds": round(r["seconds"], 2), "peak_rss_mb": round(r["peak_rss_mb"], 1),
                 "dataset_gb": round(r["dataset_bytes"] / 1e9, 3), "shards": r["shards"]}
        figs.append(figure(f"split_assembly_mb_per_s_{n // 1000}k", round(r["mb_per_s"], 1), "MB/s", None, **extra))
        figs.append(figure(f"split_peak_rss_mb_{n // 1000}k", round(r["peak_rss_mb"], 1), "MB", None, **extra))
    if len(sizes) == 2:
        small, big = (results[s] for s in sizes)
        # value = peak RSS at the big size, baseline = at the small size: ratio is the figure
        figs.append(figure(f"split_memory_ratio_{sizes[1] // 1000}k_vs_{sizes[0] // 1000}k",
                           round(big["peak_rss_mb"], 1), "MB", round(small["peak_rss_mb"], 1),
                           goal="<= 1.2", peak_rss_mb={str(s): round(results[s]["peak_rss_mb"], 1) for s in sizes}))
    return figs


if __name__ == "__main__":
    if sys.argv[1:2] == ["--generate"]:
        _generate(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1:2] == ["--assemble"]:
        print(json.dumps(_assemble(sys.argv[2])))
    else:
        print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 1000), indent=2))
