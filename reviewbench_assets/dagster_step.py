"""What an asset's Dagster step does around its one stage call, in one place so that an asset module
is its decorator, its config and that call (reviewbench_assets/assets.py):

- metadata: a stage's `StageResult` as the asset's `MaterializeResult` (`materialize`: each figure as
  the metadata value its declared type asks for), column schemas, previews, the figures table each
  asset shows (`figures_table`);
- checks: check specs partitioned like their asset, and which checks guard data (block): a failed
  blocking check is recorded under the storage root (io/verdicts.py) so a later run of a
  downstream asset refuses the partition too (`guard_upstream`);
- failures: errors that end a step for good (Dagster's retry policy must not re-run it only to meet
  them again), and the process-wide OpenReview slot with its shared pace;
- progress: where a long step's progress goes while it runs (the stage's `Progress` events);
- the partition's attempt: which run a step belongs to, and whether the run owning the attempt succeeded.

Checks are emitted with their asset's materialization: that keeps them partition-aware without
loading every partition (an unpartitioned @asset_check would; see docs/dagster-notes.md §2.6). The
check specs carry the asset's partitions (Dagster 1.13's partitioned asset checks, a preview
feature), so each result is recorded for the partition it checked; the partition is in its
description and metadata too. Thresholds are text, so the UI does not plot a constant as a series."""
from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from datetime import UTC, datetime

import dagster as dg
import pyarrow as pa

from partitions.catalogue import VenueYear
from resources import openreview_api
from resources.store import CorruptFileError, PathEscapeError, Store
from reviewbench_assets.domain.schema import COLUMN_DESCRIPTIONS
from reviewbench_assets.io.attempt import Attempt, open_attempt
from reviewbench_assets.io.verdicts import blocking_failures, write_verdict
from reviewbench_assets.stages.crawl import venue_group_request
from reviewbench_assets.stages.deadline_check import deadline_request
from reviewbench_assets.stages.figures import Markdown, Table, declared, figures_markdown
from reviewbench_assets.stages.progress import Progress, ProgressEvent

# ---- metadata: readable Dagster metadata from a stage's result -------------------------------------

_TYPE_NAMES = {pa.string(): "string", pa.int32(): "int32", pa.int64(): "int64",
               pa.bool_(): "bool", pa.float64(): "float64"}


def column_schema(schema: pa.Schema, descriptions: dict[str, str] | None = None) -> dg.TableSchema:
    """The schema with each column's description: `descriptions`, else the corpus columns' own
    (domain/schema.py COLUMN_DESCRIPTIONS, the text of the dataset card's Schema table)."""
    notes = {**COLUMN_DESCRIPTIONS, **(descriptions or {})}
    return dg.TableSchema(columns=[dg.TableColumn(f.name, _TYPE_NAMES.get(f.type, str(f.type)),
                                                  description=notes.get(f.name))
                                   for f in schema])


def preview(rows: list[dict], columns: list[str], limit: int = 10, width: int = 60,
            what: str = "rows") -> dg.MetadataValue:
    """A small markdown table of the first rows, cells cut to `width` characters, headed by how many
    of how many it shows; an empty cell is shown as "–" rather than left blank."""
    def cell(v) -> str:
        text = "–" if v is None or v == "" else str(v)
        text = text.replace("|", "\\|").replace("\n", " ")
        return text if len(text) <= width else text[: width - 1] + "…"

    shown = min(limit, len(rows))
    head = f"{shown} of {len(rows)} {what}" + (" (all)" if shown == len(rows) else "")
    lines = [head, "", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(r.get(c)) for c in columns) + " |" for r in rows[:limit]]
    return dg.MetadataValue.md("\n".join(lines))


def figures_table(stage: str, checks: tuple[str, ...] = ()) -> dict:
    """An asset's definition metadata: the figures its stage records and its checks' metadata keys,
    each with its type, unit and description (stages/figures.yaml), shown on the asset's page."""
    return {"figures": dg.MetadataValue.md(figures_markdown(stage, checks))}


def figure_value(name: str, value, where: str):
    """A recorded figure as the metadata value its declared type asks for (stages/figures.yaml)."""
    figure = declared(name, where)
    if isinstance(value, Table):
        return preview(value.rows, value.columns, limit=value.limit, what=value.what)
    if isinstance(value, Markdown):
        return dg.MetadataValue.md(value.text)
    if figure.type == "path" and value is not None:
        return dg.MetadataValue.path(value)
    return value


def materialize(result, store=None, allow_failing: bool = False, extra: dict | None = None) -> dg.MaterializeResult:
    """A stage's `StageResult` (stages/stage.py) as the asset's `MaterializeResult`: each figure as
    the metadata value its declared type asks for, and its checks as check results, made
    non-blocking where the run's config allows it on purpose and, given the `store`, recorded
    under `checks/<partition>/<stage>` so downstream assets see a failed blocking check
    (`record_checks` below)."""
    meta = {k: figure_value(k, v, result.stage) for k, v in {**result.figures, **(extra or {})}.items()}
    checks = [dg.AssetCheckResult(check_name=c.name, passed=c.passed,
                                  metadata={k: figure_value(k, v, c.name) for k, v in c.metadata.items()},
                                  severity=dg.AssetCheckSeverity(c.severity), description=c.description)
              for c in result.checks]
    if checks:
        checks = guarded(checks, allow_failing)
        if store is not None and result.key is not None:
            record_checks(store, result.key, result.stage, checks, allow_failing)
    return dg.MaterializeResult(metadata=meta, check_results=checks or None)


# ---- checks: which of them guard data (block) ---------------------------------------------------------

# Checks whose failure means wrong data downstream: blocking (a failure with ERROR severity fails the
# step, so nothing downstream runs in that run) and recorded under the storage root, so a later run
# of a downstream asset refuses the partition too (`guard_upstream`, `blocked_partitions`).
BLOCKING_CHECKS = frozenset({"quarantined_share", "dialogue_coverage", "unique_forum_id", "empty_markdown_share"})
OVERRIDE_HINT = ("set allow_failing_checks: true in this asset's config to publish it anyway "
                 "(the check then reports as a warning)")


class GuardConfig(dg.Config):
    # On purpose only: a data-guarding check that fails is then reported as a WARN and does not block
    # downstream assets (e.g. a venue-year whose quarantine share is known and accepted).
    allow_failing_checks: bool = False


def partitioned_check_specs(asset: str, checks: dict[str, str],
                            partitions_def: dg.PartitionsDefinition) -> list[dg.AssetCheckSpec]:
    """Check specs partitioned like their asset (results are attributed to the run's partition)."""
    with warnings.catch_warnings():  # "Specifying a partitions_def on an AssetCheckSpec" is a preview
        warnings.simplefilter("ignore")
        return [dg.AssetCheckSpec(name, asset=asset, description=desc, partitions_def=partitions_def,
                                  blocking=name in BLOCKING_CHECKS)
                for name, desc in checks.items()]


def guarded(results: list[dg.AssetCheckResult], allow_failing: bool) -> list[dg.AssetCheckResult]:
    """Blocking checks fail with ERROR severity (they block) unless the run overrides them on purpose."""
    out = []
    for r in results:
        if r.check_name in BLOCKING_CHECKS and not r.passed:
            meta = {**r.metadata, "blocks_downstream": not allow_failing,
                    "how_to_override": dg.MetadataValue.text(OVERRIDE_HINT)}
            r = dg.AssetCheckResult(passed=False, asset_key=r.asset_key, check_name=r.check_name, metadata=meta,
                                    severity=dg.AssetCheckSeverity.WARN if allow_failing else dg.AssetCheckSeverity.ERROR,
                                    description=r.description)
        out.append(r)
    return out


def record_checks(store, partition_key: str, asset: str, results: list[dg.AssetCheckResult],
                  allow_failing: bool) -> None:
    """Write which data-guarding checks of this partition failed, for downstream runs to refuse it; the
    record names the data it judged (io/verdicts.py), so it is trusted for that data only."""
    failed = {r.check_name: r.description or r.check_name for r in results
              if r.check_name in BLOCKING_CHECKS and not r.passed}
    write_verdict(store, partition_key, asset, failed, allow_failing)  # names the data it judged


def guard_upstream(store, partition_key: str, assets: list[str], allow_failing: bool, log) -> None:
    """Refuse to build on a partition whose upstream data failed a blocking check (unless overridden)."""
    failed = blocking_failures(store, partition_key, assets)
    if not failed:
        return
    listing = "; ".join(f"{k}: {v}" for k, v in failed.items())
    if allow_failing:
        log(f"{partition_key}: building on data that failed blocking checks, as configured: {listing}")
        return
    raise dg.Failure(description=f"{partition_key}: upstream data failed blocking checks ({listing}); fix the "
                                 f"data and re-materialize, or {OVERRIDE_HINT}",
                     metadata={"failed_checks": dg.MetadataValue.json(failed)}, allow_retries=False)


# ---- failures that end a step for good, and the OpenReview slot ---------------------------------------

# Missing/refused credentials, an unreachable host and a rate-limit window longer than the run waits
# fail the same way on an immediate retry; a corrupt stored file needs a repair (its message says which).
NOT_RETRYABLE = (*openreview_api.NOT_RETRYABLE, CorruptFileError, PathEscapeError)


@contextmanager
def fail_without_retry():
    """Turn NOT_RETRYABLE errors into a `dg.Failure(allow_retries=False)` whose description is the
    error's own message (it names the cause, the file, and what to set)."""
    try:
        yield
    except NOT_RETRYABLE as exc:
        raise dg.Failure(description=f"{type(exc).__name__}: {exc}", allow_retries=False) from exc


OPENREVIEW_SLOTS_VAR = "REVIEWBENCH_OPENREVIEW_SLOTS"


PACE_FILE = ".locks/openreview-pace.json"
ATTACHMENT_PACE_FILE = ".locks/openreview-pace-attachments.json"  # file downloads: their own budget
PACE_TTL_S = 24 * 3600  # OpenReview's windows are an hour at most; a day-old pace is stale


@contextmanager
def openreview_slot(storage, log, limiter=None, attachment_limiter=None):
    """The process-wide twin of the `openreview_api` pool: the pool limits runs the queue launches,
    not `dagster asset materialize` on the CLI; this slot (a lock under the storage root, see
    Store.slot) limits every process that crawls into this root, CLI runs included, to
    REVIEWBENCH_OPENREVIEW_SLOTS [1] steps talking to OpenReview at once.

    `limiter` / `attachment_limiter` (API requests / file downloads, each its own OpenReview budget):
    each starts from the pace the last step on this root learned from a 429 (`.locks/openreview-
    pace*.json`: interval and the end of the refused window) and shares what it learns, so the next
    step, in this process or another, does not burst into the wall again."""
    store = storage.store()
    paced = [(lim, path, what) for lim, path, what in ((limiter, PACE_FILE, "request"),
                                                       (attachment_limiter, ATTACHMENT_PACE_FILE, "file download"))
             if lim is not None]
    with store.slot("openreview-api", int(os.environ.get(OPENREVIEW_SLOTS_VAR, "1")), on_wait=log):
        for lim, rel, what in paced:
            _share_pace(store, lim, store.path(rel), what, log)
            # the earlier steps' requests of the window still open: a 429 in it is measured from its
            # first request, not from this step's (resources/rate_limiter.py)
            recent = store.read_json_or_none(store.path(rel.replace(".json", "-recent.json")))
            if isinstance(recent, list):
                lim.seed_times([float(t) for t in recent if isinstance(t, int | float)])
        try:
            yield
        finally:
            for lim, rel, _what in paced:
                lim.on_learn = None
                if lim.sent_epochs():
                    store.write_json(store.path(rel.replace(".json", "-recent.json")), lim.sent_epochs())


def _share_pace(store, limiter, path: str, what: str, log) -> None:
    pace = store.read_json_or_none(path)
    if isinstance(pace, dict) and time.time() - float(pace.get("learned_at", 0)) < PACE_TTL_S:
        limiter.seed(float(pace["interval_s"]), float(pace["not_before"]))
        log(f"OpenReview pace from an earlier step on this root: one {what} every "
            f"{float(pace['interval_s']):.2f} s")

    def share(interval_s: float, not_before: float) -> None:
        store.write_json(path, {"interval_s": interval_s, "not_before": not_before, "learned_at": time.time()})

    limiter.on_learn = share


# ---- progress while a long step runs ------------------------------------------------------------------
# Where a long step's progress goes while it runs (`stages.progress.Progress` makes the events).
#
# Two places, both live: a log line with a text bar (the run's log in the UI; `dagster asset
# materialize` prints it on the CLI) and an `AssetObservation` recorded at once in the instance's
# event log (`report_runless_asset_event`: observations logged through `context.log_event` would only
# be written when the step ends), so the asset's page shows done / total, rate, estimated end and a
# rate-limit wait while the run goes on. Each observation names its run.

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


# ---- the partition's attempt (the Dagster side of `io.attempt.open_attempt`) ------------------------------

def final_venue_requests(venue: VenueYear, at: datetime) -> list[tuple[str, str, dict]]:
    """The venue-level requests every run of the venue-year asks, whatever it holds already (the
    crawl's domain test, the PDF stage's deadline invitations), when their answers are final outcomes:
    the venue-year is closed at `at` (VenueYear.closed_at), so its API version and the deadline
    OpenReview enforced can no longer change; kept across runs (io/attempt.py, open_attempt). An open
    venue-year gets none: each new run asks again, which is its refresh."""
    if not venue.closed_at(at):
        return []
    return ([("v2", *venue_group_request(v)) for v in venue.venue_ids]
            + [(venue.api, *deadline_request(i)) for i in venue.deadline_invitations()])


def partition_attempt(context: dg.AssetExecutionContext, store: Store, venue: VenueYear) -> Attempt:
    """The run's attempt at the partition; a closed venue-year's venue-level answers outlive it
    (`final_venue_requests`)."""
    run = context.dagster_run

    def succeeded(run_id: str) -> bool | None:
        owner = context.instance.get_run_by_id(run_id)
        return None if owner is None else owner.status == dg.DagsterRunStatus.SUCCESS

    attempt = open_attempt(store, context.partition_key, run.run_id, run.root_run_id, succeeded,
                           final=final_venue_requests(venue, datetime.now(UTC)))
    if attempt.resumed_from:
        context.log.info(f"{context.partition_key}: resuming the answers of unfinished run {attempt.resumed_from} "
                         "(killed or failed): what it received is not asked again")
    return attempt
