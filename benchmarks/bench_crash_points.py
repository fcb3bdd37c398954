"""Crash points enumerated from the code (issue 29.4): a venue-year's whole pipeline (crawl, parsed,
PDF records and checkpoints, markdown and its cache, dialogues, rows, check records, change log,
split shards, card and plots; tests/faults/crash_pipeline.py) run through a filesystem that counts
every mutating call, on local storage and on S3 (a moto_server of its own); a run killed -9 before
each call while a reader process polls the root; then a re-run (tests/faults/crash_trials.py).

Figures:
- crash_points: the calls enumerated, local + S3 (goal: every one, >= 40);
- crash_sites_driven: publish sites of the stage code (tests/faults/publish_sites.py) that some crash
  point falls on, of all sites (the rest are named with their reason in NOT_DRIVEN);
- reader_violations: polls in which the reader saw a duplicate key, a mix of two generations, or a
  file without its companions (goal 0); the reader is the project's reader API, `Store.snapshot`
  (resources/store_read.py) over the whole root, as the stages, the split, the card and the SQL
  views read;
- reader_violations_plain: the same for one listing then the files, with no such care (what a
  reader that does not look at journals sees while a writer moves its files into place); each says
  whether files changed while it read (its own race) or NOTHING changed around the read (a writer's
  defect);
- reader_violations_load_dataset: polls in which a reader of the iclr split as
  `datasets.load_dataset(<root>/corpus)` reads it (README.md's data_files of the split, each resolved
  by datasets.data_files.resolve_pattern, then each shard) saw a forum id twice, a listed shard gone
  while README.md did not change, or shards no uninterrupted run shows together (goal 0);
- load_dataset_errors: polls of that reader in which a shard it listed was gone because README.md
  switched while it read (the instant between a publication's README.md move and its deletion of the
  replaced generation): a user gets FileNotFoundError, never rows; counted apart, not a violation;
- fault_trials / fault_failures: the kill trials of this suite, and those where the run was not
  killed where enumerated, the re-run did not end where an uninterrupted run ends, or staging or
  journals of the dead run were left (goal 0). bench_faults.py counts the pytest fault suites
  under the same names.

`CRASH_POINTS_S3_EVERY=n` / `CRASH_POINTS_LOCAL_EVERY=n` try every n-th point only (default 1: all).
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from benchmarks.common import figure

SUITE = "crash points (bench_crash_points)"


def run() -> list[dict]:
    from tests.faults.crash_trials import Backend, enumerate_points, moto_bucket, prepare, run_trials
    from tests.faults.publish_sites import NOT_DRIVEN, driven, publish_sites, undriven

    every = int(os.environ.get("CRASH_POINTS_S3_EVERY", "1"))
    local_every = int(os.environ.get("CRASH_POINTS_LOCAL_EVERY", "1"))
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        local = Backend()
        template, stamp = prepare(local, work)
        en = enumerate_points(local, work, template, stamp)
        results = [run_trials(local, work, en, list(range(1, len(en.points) + 1, local_every)))]
        with moto_bucket() as s3:
            s3_template = s3.root(work, "template")
            s3.copy(template, s3_template, local)
            en_s3 = enumerate_points(s3, work, s3_template, stamp, learnt=en)
            results.append(run_trials(s3, work, en_s3, list(range(1, len(en_s3.points) + 1, every))))
    sites = publish_sites()
    hit = driven(sites, [*en.frames, *en_s3.frames])
    points = len(en.points) + len(en_s3.points)
    trials = sum(r.trials for r in results)
    violations = [v for r in results for v in r.violations]
    plain = [v for r in results for v in r.plain_violations]
    dataset = [v for r in results for v in r.dataset_violations]
    failures = [f for r in results for f in r.failures]
    common = {"operation": "one venue-year's pipeline, generation 1 -> 2 (tests/faults/crash_pipeline.py)",
              "by_backend": {r.backend: {"points": r.points, "trials": r.trials, "polls": r.polls,
                                         "violations": len(r.violations), "failures": len(r.failures)}
                             for r in results},
              "seconds": round(time.time() - started)}
    return [figure("crash_points", points, "points", 40, goal=">= 40, every call of the run (local and S3)",
                   kinds=sorted({p.split(' ', 1)[0] for p in en.points}), **common),
            figure("crash_sites_driven", len(hit), "sites", len(sites), goal="every site, or named with its reason",
                   not_driven=NOT_DRIVEN, unnamed=undriven(sites, [*en.frames, *en_s3.frames])),
            figure("reader_violations", len(violations), "polls", sum(r.polls for r in results), goal=0,
                   violations=violations[:20], **common),
            figure("reader_violations_plain", len(plain), "polls", sum(r.plain_polls for r in results),
                   violations=plain[:20], **common),
            figure("reader_violations_load_dataset", sum(r.dataset_bad for r in results), "polls",
                   sum(r.dataset_polls for r in results), goal=0, violations=dataset[:20], **common),
            figure("load_dataset_errors", sum(r.dataset_errors for r in results), "polls",
                   sum(r.dataset_polls for r in results),
                   note="a listed shard gone as README.md switched while the reader read: an error, no rows",
                   **common),
            figure("fault_trials", trials, "trials", 0, goal=">= 150", suite=SUITE, **common),
            figure("fault_failures", len(failures), "trials", trials, goal=0, suite=SUITE,
                   failed=failures[:20], **common)]


if __name__ == "__main__":
    from benchmarks.common import record

    record(run())
