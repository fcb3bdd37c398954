"""Data at rest, checked (issue 38.8): damage done to published files after their publication, and two
or more processes opening a root during a replay.

The root is one venue-year's whole pipeline (tests/faults/crash_pipeline.py, generation 1: raw forums,
parsed tables, PDFs and their records, markdown, dialogues, rows, the change log, the conference
split's shards and part record, the card and its plots, the check verdicts), on local disk and on S3
(moto_server). One file of every kind of published file (caches, checkpoints and locks are not
published data, nor a PDF's source record, whose loss costs a download) gets each damage of tests/faults/damage.py: cut in half, 2 KB zeroed with its size
(and, locally, its modification time) kept, deleted, emptied. Then:

- `corrupt_files_detected`: the share of trials in which `verify` (reviewbench_assets/verify.py, the
  `python -m scripts.verify` command) names the damaged file (or, for a deleted file whose name
  nothing recorded, the folder it is missing from) with what to re-run (goal 1.0);
- `corrupt_files_used_silently` (local): trials in which the next run of the pipeline (generation 2,
  as tests/faults/crash_trials.py runs it) succeeded and yet ended with other published files than an
  uninterrupted run's, the damaged file itself left aside (goal 0): damage that flowed into data;
- `replay_race_failures`: rounds in which a process opening the root while a dead run's journal was
  pending raised, or the set was not whole after (tests/faults/replay_race.py; 4 processes, goal 0),
  REPLAY_ROUNDS each on local and S3.

CORRUPTION_S3=0 leaves S3 out of the damage matrix, CORRUPTION_SILENT=0 the re-runs (the slow part).
"""
from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

from benchmarks.common import figure

REPLAY_ROUNDS = int(os.environ.get("REPLAY_ROUNDS", "16"))
SKIP = ("checkpoints/", "cache/", "pdf_sources/", ".locks/", ".publish/")  # not published data (io/integrity.py)


def kind_of(rel: str) -> str:
    """A published file's kind: its path with digests, generations, shard numbers and times left out."""
    rel = re.sub(r"[0-9a-f]{16,}", "<h>", rel)
    rel = re.sub(r"refresh=[^/]+", "refresh=<t>", rel)
    rel = re.sub(r"-g\d{6}-\d{5}-of-\d{5}", "-<g>-<i>-of-<n>", rel)
    return re.sub(r"forum\d+", "<forum>", rel)


def _kinds(store) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in store.list_files(store.root):
        rel = store.rel(path)
        if rel.startswith(SKIP) or "/." in f"/{rel}":
            continue
        out.setdefault(kind_of(rel), rel)
    return out


def _matrix(backend, work: Path, template: str, finals, volatile, stamp_ms: int, silent: bool) -> dict:
    from reviewbench_assets.verify import verify
    from tests.faults import crash_pipeline
    from tests.faults.crash_state import listing, read_files, view
    from tests.faults.crash_trials import RUN_ACCOUNTING, _unlike_an_uninterrupted_end
    from tests.faults.damage import DAMAGES, damage

    kinds = _kinds(backend.open(template, recover=False))
    got = {"trials": 0, "detected": 0, "missed": [], "silent": [], "refused": 0, "reruns": 0, "kinds": sorted(kinds)}
    for kind, rel in sorted(kinds.items()):
        for how in DAMAGES:
            root = backend.root(work, f"d{got['trials']}")
            backend.copy(template, root)
            store = backend.open(root, recover=False)
            before = store.read_bytes(store.path(rel))
            damage(store, store.path(rel), how)
            if how != "delete" and store.read_bytes(store.path(rel)) == before:  # an empty file cut or emptied
                got["unchanged"] = got.get("unchanged", 0) + 1
                backend.remove(root)
                continue
            report = verify(store)
            got["trials"] += 1
            # named: the file, or (a deleted file whose name nothing recorded) the folder it is missing from
            if any((f.path == rel or rel.startswith(f.path.rstrip("/") + "/")) and f.fix for f in report.damaged):
                got["detected"] += 1
            else:
                got["missed"].append(f"{backend.name} {how} {rel}")
            if silent:
                got["reruns"] += 1
                try:
                    crash_pipeline.run_pipeline(backend.open(root), 2, stamp_ms)
                except Exception:  # noqa: BLE001 - a reader refusing the damage is not a silent use
                    got["refused"] += 1
                else:
                    end = view(read_files(store, listing(store)), volatile.without(RUN_ACCOUNTING))
                    wrong = [p for p in _unlike_an_uninterrupted_end(end, finals) if kind_of(p) != kind]
                    if wrong:
                        got["silent"].append(f"{backend.name} {how} {rel}: {wrong[:4]}")
            backend.remove(root)
            print(f"{backend.name} {how} {rel}: {got['trials']} trials, {len(got['missed'])} missed, "
                  f"{len(got['silent'])} silent", flush=True)
    return got


def _races(root_of, endpoint: str | None, rounds: int) -> list[str]:
    from tests.faults.replay_race import race_round

    failed = []
    for n in range(rounds):
        problems = race_round(root_of(n), endpoint, procs=4, files=16, tag=f"r{n}")
        if problems:
            failed.append(f"round {n}: {problems[0][-300:]}")
    return failed


def run() -> list[dict]:
    from tests.faults.crash_trials import Backend, enumerate_points, moto_bucket, prepare

    silent = os.environ.get("CORRUPTION_SILENT", "1") != "0"
    with_s3 = os.environ.get("CORRUPTION_S3", "1") != "0"
    started = time.time()
    results, races = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        local = Backend()
        template, stamp = prepare(local, work)
        en = enumerate_points(local, work, template, stamp)
        results.append(_matrix(local, work, template, en.finals, en.volatile, stamp, silent))
        races["local"] = _races(lambda n: str(work / f"race{n}"), None, REPLAY_ROUNDS)
        with moto_bucket() as s3:
            if with_s3:
                s3_template = s3.root(work, "template")
                s3.copy(template, s3_template, local)
                results.append(_matrix(s3, work, s3_template, en.finals, en.volatile, stamp, False))
            races["s3"] = _races(lambda n: f"s3://{s3.bucket}/race{n}", s3.endpoint, REPLAY_ROUNDS)
    trials = sum(r["trials"] for r in results)
    detected = sum(r["detected"] for r in results)
    silent_uses = [s for r in results for s in r["silent"]]
    common = {"seconds": round(time.time() - started), "operation": "one venue-year's pipeline "
              "(tests/faults/crash_pipeline.py), generation 1 damaged, then verify and generation 2"}
    return [
        figure("corrupt_files_detected", round(detected / trials, 4) if trials else None, "share of trials", 1.0,
               goal=1.0, trials=trials, detected=detected,
               unchanged_by_the_damage=sum(r.get("unchanged", 0) for r in results), missed=[m for r in results for m in r["missed"]],
               kinds=results[0]["kinds"], damages=["truncate", "zero", "delete", "empty"],
               backends=[r.get("backend", b) for r, b in zip(results, ("local", "s3"), strict=False)], **common),
        figure("corrupt_files_used_silently", len(silent_uses), "trials", sum(r["reruns"] for r in results), goal=0,
               examples=silent_uses[:10], refused_by_a_reader=sum(r["refused"] for r in results),
               reruns=sum(r["reruns"] for r in results), note="local: the damaged root's next pipeline run", **common),
        figure("replay_race_failures", sum(len(v) for v in races.values()), "rounds", 2 * REPLAY_ROUNDS, goal=0,
               rounds_per_backend=REPLAY_ROUNDS, processes=4, failures={k: v[:3] for k, v in races.items()}, **common),
    ]


if __name__ == "__main__":
    import json

    for f in run():
        print(json.dumps(f, indent=1))
