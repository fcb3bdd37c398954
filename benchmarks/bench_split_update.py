"""What a split update costs when one venue-year changed: 7 venue-years present vs 1.

The `iclr_split` asset after one ICLR venue-year was re-materialized (a re-parse, a nightly
refresh): `update_conference_split` (stages/split_stage.py) with the ICLR catalogue's seven
venue-years present, every part already written, and `iclr-2024`'s files rewritten; against the same
update with `iclr-2024` the only venue-year present. Papers per venue-year: PER_VY (synthetic rows,
~90 KB markdown each, with provenance and Re^2 records: bench_split_memory's generator).

Figure: `split_update_ratio_7_vs_1` = seconds with seven venue-years / seconds with one (goal <= 1.5;
before per-venue-year parts every update rewrote the whole split, so the ratio was ~7).

    .venv/bin/python -m benchmarks.run_all bench_split_update
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time

PER_VY = 300
CHANGED = "iclr-2024"


def _touch_rewrite(path: str) -> None:
    """Rewrite the file as its stage would (a new file under the same name)."""
    tmp = path + ".rewrite"
    shutil.copyfile(path, tmp)
    os.replace(tmp, path)


def _measure(venue_years: tuple[str, ...]) -> tuple[float, list[str]]:
    from benchmarks.bench_split_memory import _generate
    from resources.store import store_from_uri
    from reviewbench_assets.io.layout import paths
    from reviewbench_assets.stages.split_stage import SplitStage, update_conference_split

    work = tempfile.mkdtemp(prefix="bench_split_update_")
    try:
        for d in ("rows", "re2", "corpus"):
            os.makedirs(f"{work}/{d}")
        _generate(work, PER_VY * len(venue_years), venue_years)
        store = store_from_uri(work)
        update_conference_split(SplitStage.outputs_in(store, "iclr"), list(venue_years))  # every part written once
        for rel in (paths.rows(CHANGED), paths.rows_reviews(CHANGED), paths.provenance(CHANGED),
                    paths.rows_stats(CHANGED), paths.re2_review(CHANGED), paths.re2_rebuttal(CHANGED)):
            _touch_rewrite(store.path(rel))
        t0 = time.perf_counter()
        update = update_conference_split(SplitStage.outputs_in(store, "iclr"), list(venue_years))
        return time.perf_counter() - t0, update.rewritten
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run() -> list[dict]:
    from benchmarks.common import figure
    from partitions.catalogue import catalogue

    seven = tuple(catalogue().keys_for_split("iclr"))
    assert CHANGED in seven and len(seven) == 7, seven
    one_s, one_rewritten = _measure((CHANGED,))
    seven_s, seven_rewritten = _measure(seven)
    assert one_rewritten == seven_rewritten == [CHANGED], (one_rewritten, seven_rewritten)
    return [figure("split_update_ratio_7_vs_1", round(seven_s, 3), "s", round(one_s, 3),
                   papers_per_venue_year=PER_VY, venue_years=len(seven), rewritten=seven_rewritten,
                   note="update of iclr_split after iclr-2024 changed: 7 venue-years present (value) vs 1 (baseline)")]


if __name__ == "__main__":
    for fig in run():
        print(fig)
