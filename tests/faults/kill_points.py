"""Placed kill points for the kill -9 tests and bench, kept in the test tree (issue 28.5: nothing for
tests in the wheel). They are installed by wrapping the storage layer's own calls, so the shipped
code carries no hook: `install()` reads `REVIEWBENCH_KILL_AT=<point>:<n>` and SIGKILLs the process
group (Ray workers and chromium too, as `kill -9` of a job would) right after the n-th call of the
point's storage call, i.e. between two writes that a kill at a random instant almost never separates:

- `pdf_source_written`: a PDF's source record (`pdf_sources/...`) is written, the PDF not yet stored
  (stages/pdf_fetch.py: store_pdf writes them in this order);
- `pdf_stored`: a PDF is stored, its checkpoint not yet written;
- `pdf_current_source_written`: like `pdf_source_written`, counting only the source records of a
  note's current PDF (`/pdf?id=`): on API v2 those of a batch's zip, the others of that zip received
  and not yet stored.

A run gets them through the test-only code location `tests.faults.definitions` (what
benchmarks/bench_kill_resume.py materializes with when it places a kill).
"""
from __future__ import annotations

import os
import signal
import threading
from collections import Counter
from collections.abc import Callable

KILL_VAR = "REVIEWBENCH_KILL_AT"

_counts: Counter = Counter()
_lock = threading.Lock()


def _source_record(store, path: str, *_args) -> bool:
    return store.rel(path).startswith("pdf_sources/")


def _current_source_record(store, path: str, obj=None, *_args) -> bool:
    return _source_record(store, path) and isinstance(obj, dict) and str(obj.get("pdf_url", "")).startswith("/pdf?id=")


# point -> (Store method wrapped, which of its calls count)
POINTS: dict[str, tuple[str, Callable[..., bool]]] = {
    "pdf_source_written": ("write_json", _source_record),
    "pdf_current_source_written": ("write_json", _current_source_record),
    "pdf_stored": ("put_pdf", lambda store, *_args: True),
}


def reached(point: str, nth: int) -> None:
    """Count one arrival at `point`; the `nth` kills the whole process group."""
    with _lock:
        _counts[point] += 1
        due = _counts[point] >= nth
    if due:
        os.killpg(os.getpgid(0), signal.SIGKILL)


def install(spec: str | None = None) -> str | None:
    """Wrap the point named by `spec` (default: the environment's `REVIEWBENCH_KILL_AT`); returns the
    point installed, None when unset (every real run)."""
    spec = spec if spec is not None else os.environ.get(KILL_VAR)
    if not spec:
        return None
    name, _, nth = spec.partition(":")
    if name not in POINTS:
        raise ValueError(f"{KILL_VAR}={spec!r}: unknown point (known: {', '.join(POINTS)})")
    from resources.store import Store

    method, counts = POINTS[name]
    real = getattr(Store, method)

    def wrapped(self, *args, **kwargs):
        out = real(self, *args, **kwargs)
        if counts(self, *args):
            reached(name, int(nth or 1))
        return out

    setattr(Store, method, wrapped)
    return name


def die_after_first_move() -> None:
    """Make this process die (`os._exit(137)`, no cleanup, as kill -9) at the second move of a
    publication: the first file is in place, the rest wait for the journal. For a forked or spawned
    child that is about to publish."""
    from resources import store_publish

    real_move, moved = store_publish._move, []

    def move_then_die(fs, tmp, final):
        if moved:
            os._exit(137)
        moved.append(final)
        return real_move(fs, tmp, final)

    store_publish._move = move_then_die
