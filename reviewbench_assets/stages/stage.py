"""The one shape of every stage of the data path, and what it reports: the `Stage` base, the
`StageResult` a run returns, the table of every figure a stage may record (`FIGURES`), and the live
`Progress` of a long step, and the partition's run attempt (`open_attempt`) with the OpenReview
answers (`AnswerCache`) the stages' clients reuse after a kill. One module because these are one contract between the stages and the
asset layer: a stage records figures and checks, the base merges them into a `StageResult`, the asset
turns that into Dagster metadata (`reviewbench_assets.dagster_step.materialize`), and the table says
what every key means.

After datatrove's `PipelineStep` (src/datatrove/pipeline/base.py): a stage is configured by its
constructor (the partition it works on, its clients and options), does its work in `run(store)`, and
records every figure it wants shown through one call, `stat(name, value)`, which the base merges
(numbers add up, counts per kind add up per kind, anything else is replaced). Checks are recorded the
same way (`check`). No stage builds a result type of its own.

Every figure and check metadata key is declared, once, in `stages/figures.yaml` (type, unit,
description), validated here when the module loads: `stat` refuses an undeclared name, so a new
figure cannot reach the UI without its description. Dagster-free, like every stage."""
from __future__ import annotations

import hashlib
import json
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from numbers import Number
from pathlib import Path
from typing import Any, ClassVar, Literal

import yaml
from pydantic import BaseModel, ConfigDict, TypeAdapter, field_validator

from resources.store import Store
from reviewbench_assets.io.layout import paths

# ---- the figures table (stages/figures.yaml) ----------------------------------------------------

CRAWL, PARSE, CHANGES = "openreview_forums", "parsed_forums", "venue_changes"
PDFS, MARKDOWN, DIALOGUES = "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues"
ROWS, SPLIT, CARD = "reviewbench_split", "conference_split", "dataset_card"
STAGES = (CRAWL, PARSE, CHANGES, PDFS, MARKDOWN, DIALOGUES, ROWS, SPLIT, CARD)
# the checks, by name (`quarantined_share` is the crawl's and the parser's, with their own examples)
QUARANTINE, DEADLINE, COVERAGE = "quarantined_share", "deadline_agrees_with_invitation", "dialogue_coverage"
UNIQUE, REVIEWS_MATCH, CHARS_MATCH = "unique_forum_id", "num_reviews_matches_reviews_json", "markdown_chars_matches_markdown"
TITLE, EMPTY_SHARE = "no_empty_title", "empty_markdown_share"
ROW_CHECKS = (UNIQUE, REVIEWS_MATCH, CHARS_MATCH, TITLE, EMPTY_SHARE)
BLOCKING = (QUARANTINE, COVERAGE, UNIQUE, EMPTY_SHARE)  # reviewbench_assets/dagster_step.py BLOCKING_CHECKS
ROW_COUNT = "dagster/row_count"
# the progress a long step reports while it runs (`Progress`, as observations of its asset)
PROGRESS, REPORTS_PROGRESS = "progress", (CRAWL, PDFS)
# the failure a downstream asset raises on a partition whose upstream failed a blocking check
GUARD = "upstream_guard"
# who may record a key (a figure's `where`): the stages, the checks, the progress and the guard
RECORDERS = frozenset({*STAGES, DEADLINE, COVERAGE, *BLOCKING, *ROW_CHECKS, PROGRESS, GUARD})
# the conditions under which a figure is recorded (a figure's `when`, empty: at every run of its stages)
CURSOR, LLM = "a refresh that read the tmdate cursor", "an LLM merged the dialogues"
FAILED = "the blocking check failed"
FIGURES_FILE = Path(__file__).with_name("figures.yaml")


class Figure(BaseModel):
    """One declared metadata key: what the UI shows about it."""
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["int", "float", "bool", "text", "json", "path", "table", "md", "schema"]
    unit: str = ""
    where: tuple[str, ...]
    description: str
    when: str = ""  # recorded only then (empty: at every run of its stages)

    @field_validator("where", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return (value,) if isinstance(value, str) else value

    @field_validator("where")
    @classmethod
    def _known_recorders(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(value) - RECORDERS)
        if unknown or not value:
            raise ValueError(f"where names no known stage or check: {unknown or 'empty'}")
        return value

    @field_validator("when")
    @classmethod
    def _known_condition(cls, value: str) -> str:
        if value not in ("", CURSOR, LLM, FAILED):
            raise ValueError(f"when is none of the known conditions: {value!r}")
        return value


def load_figures(path: Path = FIGURES_FILE) -> dict[str, Figure]:
    """The table, validated: an unknown type, stage or field fails at import, naming the key."""
    try:
        return TypeAdapter(dict[str, Figure]).validate_python(yaml.safe_load(path.read_text(encoding="utf-8")))
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from exc


FIGURES: dict[str, Figure] = load_figures()

# Keys the Dagster layer adds (reviewbench_assets/dagster_step.py), not the stages.
ADDED_BY_ASSETS = frozenset({"dagster/column_schema", "blocks_downstream", "how_to_override", "run_id",
                             "failed_checks"})


class UndeclaredFigure(KeyError):
    """A stage recorded a figure (or a check a metadata key) that stages/figures.yaml does not declare for it."""


def declared(name: str, where: str) -> Figure:
    """The declaration of `name` for the stage or check `where`; an undeclared one is an error."""
    figure = FIGURES.get(name)
    if figure is None or where not in figure.where:
        raise UndeclaredFigure(f"{where} records {name!r}, which stages/figures.yaml does not declare for it: "
                               "add it there with its type, unit and description")
    return figure


def figures_of(where: str) -> dict[str, Figure]:
    return {k: f for k, f in FIGURES.items() if where in f.where}


def figures_markdown(where: str, checks: tuple[str, ...] = ()) -> str:
    """The stage's figures (its checks' metadata, its progress observations) as a markdown table,
    for the asset's page in the UI."""
    def row(key: str, f: Figure) -> str:
        return f"| `{key}` | {f.type} | {f.unit} | {f.description}{f' (only when {f.when})' if f.when else ''} |"

    lines = ["| key | type | unit | what it is |", "|---|---|---|---|"]
    lines += [row(k, f) for k, f in figures_of(where).items()]
    for check in checks:
        lines += [row(f"{check}: {k}", f) for k, f in figures_of(check).items()]
    if where in REPORTS_PROGRESS:
        lines += [row(f"observation: {k}", f) for k, f in figures_of(PROGRESS).items()]
    return "\n".join(lines)


# ---- what a run returns, and the values a figure can hold besides numbers, text and JSON -------------

def iso_utc(epoch_ms: int | None) -> str | None:
    """An epoch-milliseconds time (OpenReview's dates, our cursors) as an ISO date in UTC, for metadata."""
    return None if epoch_ms is None else datetime.fromtimestamp(epoch_ms / 1000, tz=UTC).isoformat(timespec="seconds")


@dataclass
class Table:
    """Rows shown as a small preview table in the UI (metadata or a check's metadata)."""
    rows: list[dict]
    columns: list[str]
    limit: int = 10  # rows shown; the header says how many of how many
    what: str = "rows"  # what a row is, for that header ("20 of 7,404 forums")


@dataclass
class Markdown:
    """Text shown rendered as markdown in the UI (a plain string is shown as text)."""
    text: str


@dataclass
class CheckOutcome:
    name: str
    passed: bool
    metadata: dict[str, Any] = field(default_factory=dict)
    severity: str = "ERROR"  # "WARN": a failure is reported, not an error (a data-guarding check blocks)
    description: str | None = None  # what this result checked (the partition, the rule), shown in the UI


@dataclass
class StageResult:
    """What a stage run recorded: its figures (name -> value, every name declared in
    stages/figures.yaml) and the outcomes of its data checks."""
    stage: str
    key: str | None = None  # the partition (venue-year), the split; None for the card
    figures: dict[str, Any] = field(default_factory=dict)
    checks: list[CheckOutcome] = field(default_factory=list)

    @property
    def row_count(self) -> int | None:
        return self.figures.get(ROW_COUNT)

    def check(self, name: str) -> CheckOutcome:
        return next(c for c in self.checks if c.name == name)


# ---- the stage base ---------------------------------------------------------------------------

def _merged(old: Any, new: Any) -> Any:
    """A figure recorded twice: numbers add up, counts per kind add up per kind, anything else
    (text, lists, tables, a bool, None) is replaced by the newer value."""
    if isinstance(old, Number) and isinstance(new, Number) and not isinstance(old, bool) \
            and not isinstance(new, bool):
        return old + new
    if isinstance(old, dict) and isinstance(new, dict):
        return {**old, **{k: _merged(old[k], v) if k in old else v for k, v in new.items()}}
    return new


class Stage(ABC):
    """One step of the data path. Subclasses set `name` (the stage's name in stages/figures.yaml, the
    asset's name for the assets that are one stage) and implement `run`."""

    name: ClassVar[str]

    def __init__(self, key: str | None = None):
        self.key = key  # what the run is about: a venue-year, a conference split; None for the card
        self._figures: dict[str, Any] = {}
        self._checks: list[CheckOutcome] = []

    @abstractmethod
    def run(self, store: Store) -> None:
        """Read the stage's inputs from `store`, write its outputs there, and record its figures
        (`stat`) and checks (`check`)."""

    def __call__(self, store: Store) -> StageResult:
        self._figures, self._checks = {}, []
        self.run(store)
        return StageResult(self.name, self.key, dict(self._figures), list(self._checks))

    def stat(self, name: str, value: Any = 1) -> None:
        """Record a figure: `stat("forums")` counts one, `stat("pages", 12)` adds 12,
        `stat("rules", {"initial": 1})` counts per kind, `stat("mode", "full")` sets a value."""
        declared(name, self.name)
        self._figures[name] = _merged(self._figures[name], value) if name in self._figures else value

    def check(self, name: str, passed: bool, metadata: dict[str, Any], *, severity: str = "ERROR",
              description: str | None = None) -> None:
        """Record a data check's outcome; its metadata keys are declared like figures (under the check's name)."""
        for key in metadata:
            declared(key, name)
        self._checks.append(CheckOutcome(name, passed, metadata, severity, description))


# ---- progress of a long step while it runs ------------------------------------------------------
# Forums done / total, rate, estimated end, and what it waits for (an OpenReview rate-limit window).
# A stage calls `advance()` per item and `waiting()` when it sleeps; every `every_s` seconds (and at
# the first item, at a wait and at the end) the reporter hands a `ProgressEvent` to its sink. The
# asset layer's sink (`reviewbench_assets/dagster_step.py`) turns it into an `AssetObservation` the
# UI shows live and a log line with a text bar the CLI prints. A step of days says where it is.

BAR_WIDTH = 30


@dataclass(frozen=True)
class ProgressEvent:
    stage: str  # what is counted, e.g. "forums (revision pages)"
    done: int
    total: int
    elapsed_s: float
    rate_per_s: float
    eta: datetime | None  # estimated end (UTC), None until something is done
    waiting_until: datetime | None = None  # a rate-limit window being waited out
    waiting_for: str = ""

    @property
    def share(self) -> float:
        return self.done / self.total if self.total else 1.0

    def line(self) -> str:
        """`[#######-------] 2,345/7,404 forums 32% 3.1/s, ETA 2026-11-27 14:05 UTC`."""
        filled = int(round(BAR_WIDTH * min(self.share, 1.0)))
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        eta = f", ETA {self.eta:%Y-%m-%d %H:%M} UTC" if self.eta and self.done < self.total else ""
        text = (f"[{bar}] {self.done:,}/{self.total:,} {self.stage} {self.share:.0%} "
                f"{self.rate_per_s:.2f}/s{eta}")
        if self.waiting_until and not (self.total or self.done):  # a reporter of waits only: no bar
            text = self.stage
        if self.waiting_until:
            text += (f"; waiting for the OpenReview rate-limit window until {self.waiting_until:%Y-%m-%d %H:%M:%S}"
                     f" UTC{f' ({self.waiting_for})' if self.waiting_for else ''}")
        return text

    def metadata(self) -> dict:
        return {"progress_stage": self.stage, "progress_done": self.done, "progress_total": self.total,
                "progress_share": round(self.share, 4), "progress_rate_per_s": round(self.rate_per_s, 3),
                "progress_eta": self.eta.isoformat(timespec="seconds") if self.eta else "",
                "progress_waiting_until": (self.waiting_until.isoformat(timespec="seconds")
                                           if self.waiting_until else ""),
                "progress": self.line()}


class Progress:
    """Thread-safe counter of one stage; reports through `sink` at most every `every_s` seconds."""

    def __init__(self, stage: str, total: int, sink: Callable[[ProgressEvent], None] | None,
                 every_s: float = 30.0, clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.stage, self.total, self.sink, self.every_s = stage, total, sink, every_s
        self.clock, self.now = clock, now
        self.done = 0
        self.started = clock()
        self._last_report: float | None = None
        self._lock = threading.Lock()

    def _event(self, waiting_until: datetime | None = None, waiting_for: str = "") -> ProgressEvent:
        elapsed = max(self.clock() - self.started, 1e-9)
        rate = self.done / elapsed
        eta = None
        if self.done and rate > 0:
            eta = datetime.fromtimestamp(self.now().timestamp() + (self.total - self.done) / rate, UTC)
        return ProgressEvent(self.stage, self.done, self.total, elapsed, rate, eta, waiting_until, waiting_for)

    def _maybe_report(self, force: bool = False, **wait) -> None:
        if self.sink is None:
            return
        t = self.clock()
        if force or self._last_report is None or t - self._last_report >= self.every_s:
            self._last_report = t
            self.sink(self._event(**wait))

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self.done += n
            self._maybe_report(force=self.done >= self.total)

    def waiting(self, seconds: float, why: str = "") -> None:
        """The stage is about to sleep `seconds` (a 429 window): say so now, with the time it ends."""
        with self._lock:
            until = datetime.fromtimestamp(self.now().timestamp() + seconds, UTC)
            self._maybe_report(force=True, waiting_until=until, waiting_for=why)

    def finish(self) -> None:
        with self._lock:
            self._maybe_report(force=True)


# ---- the partition's run attempt, whose OpenReview answers the crawl and the PDF stage reuse ------------
# One attempt at a partition: the run that started it and every run that resumes it after a kill,
# and the OpenReview answers they received (issue 29.3: nothing asked twice after a kill).
#
# A run of a partition's chain asks OpenReview venue-level questions at every stage (the crawl's
# listing pages, the venue group, the submission invitation's deadline...). The CLI's re-run of a
# killed run materializes every step again, stages that had finished included, so without this it
# asked them all again. Those answers are kept per partition under `checkpoints/attempt/<pk>/` as they
# arrive (`AnswerCache`), with the attempt's record `attempt.json` (the run that owns it,
# its lineage root and when the attempt started).
#
# The rule, decided by the first step of a run that opens it:
# - the same run (another of its steps, a step retry) or a re-execution of it (same lineage root):
#   the attempt goes on;
# - another run, when the owner run is known NOT to have succeeded (failed, canceled, or still marked
#   started: it died) and the attempt started less than RESUME_WINDOW_S ago: this run resumes it (it
#   becomes the owner; the answers are reused);
# - otherwise (the owner succeeded, is unknown to this instance, or the attempt is older than the
#   window): the answers are dropped and a new attempt starts. So a NEW run after a finished one
#   asks OpenReview again (the nightly refresh sees new reviews), and so does the next night's run
#   after a failed one: the window (12 h) is shorter than the schedule's period (24 h).
#
# Answers are dropped lazily (the next run finds its owner succeeded): a finished run leaves at most
# one venue's listing and a few small answers behind until then. Per-forum answers keep their own
# checkpoints (crawl pages of an unpublished crawl, review edit histories, revision histories, PDFs),
# keyed by the notes' versions, which do not depend on the attempt. No Dagster here: the run's state
# comes in as a function.

RESUME_WINDOW_S = 12 * 3600


class AnswerCache:
    """OpenReview's answers to GET requests of one unfinished attempt, kept in storage as they arrive.
    An entry is one request (API version, path, parameters in any order) and the body OpenReview
    sent, with the requests it cost (retries included), so per-forum accounting of a resumed answer
    equals an uninterrupted run's. The file is written whole (`Store.write_bytes` publishes
    atomically); an entry that is missing, truncated or for another request is a miss, asked again.
    Which attempt the answers belong to, and when they are dropped: `open_attempt` below."""

    def __init__(self, store: Store, folder: str):
        self.store, self.folder = store, folder  # relative to the store's root
        self.hits = 0  # answers given back without a request

    @staticmethod
    def _request(api: str, path: str, params: dict | None) -> dict:
        return {"api": api, "path": path, "params": sorted((str(k), str(v)) for k, v in (params or {}).items())}

    def _file(self, request: dict) -> str:
        digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()[:32]
        return self.store.path(self.folder, digest[:2], f"{digest}.answer")

    def get(self, api: str, path: str, params: dict | None) -> tuple[bytes, int] | None:
        """(body, requests it cost) of an earlier answer to this request, or None."""
        request = self._request(api, path, params)
        file = self._file(request)
        try:
            if not self.store.exists(file):
                return None
            head, _, body = self.store.read_bytes(file).partition(b"\n")
            meta = json.loads(head)
        except (OSError, ValueError):
            return None
        if not isinstance(meta, dict) or meta.get("request") != json.loads(json.dumps(request)) \
                or meta.get("length") != len(body):
            return None  # another request's entry (a digest collision) or a truncated one
        self.hits += 1
        return body, int(meta.get("cost") or 1)

    def put(self, api: str, path: str, params: dict | None, body: bytes, cost: int) -> None:
        request = self._request(api, path, params)
        meta = {"request": request, "length": len(body), "cost": cost}
        self.store.write_bytes(self._file(request), json.dumps(meta).encode() + b"\n" + body)


@dataclass
class Attempt:
    run_id: str
    continues: bool  # answers of earlier steps or runs of this attempt may be reused
    started_at: float
    answers: AnswerCache
    resumed_from: str | None = None  # the killed (unfinished) run this run took the attempt over from


def open_attempt(store: Store, pk: str, run_id: str, root_run_id: str | None,
                 run_succeeded: Callable[[str], bool | None], now: float | None = None) -> Attempt:
    """The attempt this run belongs to (see the module's rule). `run_succeeded(run_id)`: True when
    that run ended in success, False when it did not (failed, canceled, died), None when unknown."""
    now = time.time() if now is None else now
    folder = store.path(paths.attempt(pk))
    record_path = store.path(paths.attempt(pk), "attempt.json")
    answers = AnswerCache(store, f"{paths.attempt(pk)}/answers")  # relative to the root
    rec = store.read_json_or_none(record_path)
    root = root_run_id or run_id
    if isinstance(rec, dict) and isinstance(rec.get("run_id"), str) and isinstance(rec.get("started_at"), (int, float)):
        if rec["run_id"] == run_id or rec.get("root_run_id") == root:
            return Attempt(run_id, True, rec["started_at"], answers)
        if run_succeeded(rec["run_id"]) is False and now - rec["started_at"] < RESUME_WINDOW_S:
            store.write_json(record_path, {"run_id": run_id, "root_run_id": root, "started_at": rec["started_at"],
                                           "resumed_from": rec["run_id"]})
            return Attempt(run_id, True, rec["started_at"], answers, resumed_from=rec["run_id"])
    store.delete_dir(folder)  # a finished (or too old) attempt's answers: asked again
    store.write_json(record_path, {"run_id": run_id, "root_run_id": root, "started_at": now})
    return Attempt(run_id, False, now, answers)
