"""Progress while a step runs (issue 19): done / total, rate, estimated end and rate-limit waits,
reported at a steady interval (fake clock), and live in the instance's event log during a run."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import dagster as dg

from reviewbench_assets.dagster_step import on_rate_limit, progress_sink
from reviewbench_assets.stages.progress import Progress

T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


class _Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self) -> float:
        return self.t

    def now(self) -> datetime:
        return T0 + timedelta(seconds=self.t)


def test_reports_at_a_steady_interval_with_rate_and_eta():
    clock, events = _Clock(), []
    p = Progress("forums", 7404, events.append, every_s=30, clock=clock, now=clock.now)
    p.advance()  # the first item is reported at once
    for _ in range(99):
        clock.t += 1
        p.advance()
    assert [e.done for e in events] == [1, 31, 61, 91]  # every 30 s, not per item
    last = events[-1]
    assert round(last.rate_per_s, 2) == round(91 / 90, 2)
    assert last.eta == T0 + timedelta(seconds=90 + (7404 - 91) / (91 / 90))
    line = last.line()
    assert line.startswith("[") and "91/7,404 forums 1%" in line and "ETA 2026-11-" in line


def test_a_rate_limit_wait_is_reported_at_once_with_its_end():
    clock, events = _Clock(), []
    p = Progress("forums", 10, events.append, every_s=30, clock=clock, now=clock.now)
    p.advance()
    clock.t = 5
    on_event = on_rate_limit(p, lambda _m: None)
    on_event("429 on /notes/edits: waiting 1800.0s until resetTime")
    wait = events[-1]
    assert wait.waiting_until == T0 + timedelta(seconds=1805)
    assert "waiting for the OpenReview rate-limit window until 2026-11-25 12:30:05 UTC (429 on /notes/edits)" \
        in wait.line()
    on_event("retrying GET /notes after ConnectionError (attempt 2 of 8)")  # not a wait
    assert events[-1] is wait
    for _ in range(9):
        p.advance()
    assert events[-1].done == 10 and events[-1].waiting_until is None  # the end is always reported


def test_observations_are_recorded_while_the_step_runs():
    seen_during: list[int] = []

    @dg.asset(partitions_def=dg.StaticPartitionsDefinition(["iclr-2024"]))
    def long_step(context):  # (a string annotation, under __future__, is refused by Dagster)
        p = Progress("forums", 3, progress_sink(context, "long_step"), every_s=0)
        for _ in range(3):
            p.advance()
            # already in the event log, before the step ends
            seen_during.append(len(context.instance.fetch_observations(
                dg.AssetKey("long_step"), limit=10).records))

    with dg.instance_for_test() as instance:
        result = dg.materialize([long_step], partition_key="iclr-2024", instance=instance)
        assert result.success
        records = instance.fetch_observations(dg.AssetKey("long_step"), limit=10).records
    assert seen_during == [1, 2, 3]
    meta = records[0].asset_observation.metadata
    assert meta["progress_done"].value == 3 and meta["progress_total"].value == 3
    assert records[0].asset_observation.partition == "iclr-2024"
    assert meta["run_id"].value == result.run_id


def test_a_reporter_of_waits_only_shows_the_wait_without_an_empty_bar():
    from datetime import UTC, datetime

    from reviewbench_assets.stages.progress import ProgressEvent
    until = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    line = ProgressEvent("rate-limit waits", 0, 0, 0.0, None, until, "429 on /notes").line()
    assert line == ("rate-limit waits; waiting for the OpenReview rate-limit window until 2026-11-26 12:00:00 UTC"
                    " (429 on /notes)")
    assert "0/0" not in line and "[" not in line
