"""Errors that end a step for good: Dagster's retry policy must not re-run it only to meet them again."""
from __future__ import annotations

import os
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


@contextmanager
def openreview_slot(storage, log):
    """The process-wide twin of the `openreview_api` pool: the pool limits runs the queue launches,
    not `dagster asset materialize` on the CLI; this slot (a lock under the storage root, see
    Store.slot) limits every process that crawls into this root, CLI runs included, to
    REVIEWBENCH_OPENREVIEW_SLOTS [1] steps talking to OpenReview at once."""
    with storage.store().slot("openreview-api", int(os.environ.get(OPENREVIEW_SLOTS_VAR, "1")), on_wait=log):
        yield
