"""Errors that end a step for good: Dagster's retry policy must not re-run it only to meet them again."""
from __future__ import annotations

import os
import time
from contextlib import contextmanager

import dagster as dg

from resources import openreview_api
from resources.store import CorruptFileError, PathEscapeError

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
        try:
            yield
        finally:
            for lim, _rel, _what in paced:
                lim.on_learn = None


def _share_pace(store, limiter, path: str, what: str, log) -> None:
    pace = store.read_json_or_none(path)
    if isinstance(pace, dict) and time.time() - float(pace.get("learned_at", 0)) < PACE_TTL_S:
        limiter.seed(float(pace["interval_s"]), float(pace["not_before"]))
        log(f"OpenReview pace from an earlier step on this root: one {what} every "
            f"{float(pace['interval_s']):.2f} s")

    def share(interval_s: float, not_before: float) -> None:
        store.write_json(path, {"interval_s": interval_s, "not_before": not_before, "learned_at": time.time()})

    limiter.on_learn = share
