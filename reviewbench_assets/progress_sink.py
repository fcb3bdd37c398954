"""Where a long step's progress goes while it runs (stages/progress.py makes the events).

Two places, both live: a log line with a text bar (the run's log in the UI; `dagster asset
materialize` prints it on the CLI) and an `AssetObservation` recorded at once in the instance's
event log (`report_runless_asset_event`: observations logged through `context.log_event` would only
be written when the step ends), so the asset's page shows done / total, rate, estimated end and a
rate-limit wait while the run goes on. Each observation names its run.
"""
from __future__ import annotations

from collections.abc import Callable

import dagster as dg

from reviewbench_assets.stages.stage import Progress, ProgressEvent

EVERY_S = 30.0  # a steady interval: enough to follow a run of days, few enough events to keep


def progress_sink(context: dg.AssetExecutionContext, asset: str) -> Callable[[ProgressEvent], None]:
    partition = context.partition_key if context.has_partition_key else None

    def sink(event: ProgressEvent) -> None:
        context.log.info(f"{asset}{f' {partition}' if partition else ''}: {event.line()}")
        try:
            context.instance.report_runless_asset_event(dg.AssetObservation(
                asset_key=asset, partition=partition,
                metadata={**event.metadata(), "run_id": context.run_id}))
        except Exception as exc:  # noqa: BLE001 - progress must never fail the step it reports on
            context.log.debug(f"progress observation not recorded: {exc}")

    return sink


def step_progress(context: dg.AssetExecutionContext, asset: str, stage: str, total: int = 0) -> Progress:
    """A reporter for one stage of this step (the stage sets `total` once it knows it)."""
    return Progress(stage, total, progress_sink(context, asset), every_s=EVERY_S)


def on_rate_limit(progress: Progress, log: Callable[[str], None]) -> Callable[[str], None]:
    """An `on_event` for the OpenReview client: its events are logged as before, and a 429 wait
    ("429 on /notes: waiting 1800.0s until resetTime") is reported as a wait with its end time."""
    def on_event(message: str) -> None:
        log(message)
        if message.startswith("429 on ") and ": waiting " in message:
            try:
                seconds = float(message.split(": waiting ", 1)[1].split("s", 1)[0])
            except ValueError:
                return
            progress.waiting(seconds, message.split(":", 1)[0])
    return on_event
