"""`make bench-scale` (not part of `make bench`: at 5,000 forums it runs for most of an hour on
two cores): one replica venue-year (iclr-2024, API v2) at 500 and at 5,000 forums through every
asset, each stage in its own process so its time and peak memory are its own.

Per stage and size: wall seconds per forum, and the peak RSS of the process that ran it (`VmHWM`;
for `paper_markdown` the driver's, its Ray workers are processes of their own). Figures
(`benchmarks/results.jsonl`): `scale_time_per_forum_ratio_5000_vs_500` and
`scale_peak_rss_ratio_5000_vs_500` (value at 5,000, baseline at 500), one row per stage and one
for the whole chain, last. Goal: ratio <= 1.2 for both. The replica runs as its own process
without a rate limit (`OPENREVIEW_MIN_INTERVAL_S=0`): this measures the platform's own cost per
forum, not OpenReview's pace.

    .venv/bin/python -m benchmarks.scale_chain            # both sizes, recorded
    .venv/bin/python -m benchmarks.scale_chain 200        # one size, printed, not recorded
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

ROOT = Path(__file__).resolve().parents[1]
PK = "iclr-2024"
SIZES = (500, 5000)
STAGES = ("openreview_forums", "parsed_forums", "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues",
          "reviewbench_split", "iclr_split", "dataset_card")


def _peak_rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _run_stage(stage: str) -> None:
    """In a child process: materialize one asset with the resources the environment describes."""
    import dagster as dg

    from reviewbench_assets.definitions import ASSETS, build_resources

    [asset] = [a for a in ASSETS if a.key.to_user_string() == stage]
    t0 = time.perf_counter()
    result = dg.materialize([asset], partition_key=PK if asset.partitions_def is not None else None,
                            resources=build_resources(), raise_on_error=False)
    seconds = time.perf_counter() - t0
    print(json.dumps({"stage": stage, "ok": result.success, "seconds": seconds, "peak_rss_mb": _peak_rss_mb()}))


def measure(n: int) -> dict[str, dict]:
    from scripts.replica_env import running_replica

    work = Path(tempfile.mkdtemp(prefix=f"bench_scale_{n}_"))
    out: dict[str, dict] = {}
    try:
        with running_replica(PK, ("--n-forums", str(n))) as env:
            env = {**os.environ, **env, "REVIEWBENCH_STORAGE_ROOT": str(work / "storage"),
                   "DAGSTER_HOME": str(work / "home"), "REVIEWBENCH_RAY_NUM_CPUS": "2"}
            (work / "home").mkdir()
            for stage in STAGES:
                done = subprocess.run([sys.executable, "-m", "benchmarks.scale_chain", "--stage", stage], env=env,
                                      cwd=ROOT, capture_output=True, text=True, timeout=4 * 3600)
                line = [x for x in done.stdout.splitlines() if x.startswith("{")]
                if done.returncode or not line or not json.loads(line[-1])["ok"]:
                    raise RuntimeError(f"{n} forums, {stage} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
                out[stage] = json.loads(line[-1])
                print(f"{n} forums: {stage} {out[stage]['seconds']:.1f} s, {out[stage]['peak_rss_mb']:.0f} MB",
                      flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def run(sizes: tuple[int, int] = SIZES) -> list[dict]:
    from benchmarks.common import figure

    small, big = sizes
    res = {n: measure(n) for n in sizes}
    figs = []
    for stage in (*STAGES, "whole_chain"):
        if stage == "whole_chain":
            t = {n: sum(s["seconds"] for s in res[n].values()) / n for n in sizes}
            m = {n: max(s["peak_rss_mb"] for s in res[n].values()) for n in sizes}
        else:
            t = {n: res[n][stage]["seconds"] / n for n in sizes}
            m = {n: res[n][stage]["peak_rss_mb"] for n in sizes}
        common = {"stage": stage, "partition": PK, "sizes": list(sizes)}
        figs.append(figure(f"scale_time_per_forum_ratio_{big}_vs_{small}", round(t[big], 5), "s/forum",
                           round(t[small], 5), goal=1.2, **common))
        figs.append(figure(f"scale_peak_rss_ratio_{big}_vs_{small}", round(m[big], 1), "MB", round(m[small], 1),
                           goal=1.2, **common))
    return figs


if __name__ == "__main__":
    if sys.argv[1:2] == ["--stage"]:
        _run_stage(sys.argv[2])
    elif sys.argv[1:]:
        print(json.dumps(measure(int(sys.argv[1])), indent=1))
    else:
        from benchmarks.common import record

        record(run())
