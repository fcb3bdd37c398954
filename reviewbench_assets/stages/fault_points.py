"""Named points where a kill test stops the run on purpose, to prove a resume loses nothing there.

`REVIEWBENCH_KILL_AT=<point>:<n>` SIGKILLs the run's whole process group (Ray workers and chromium
too, as `kill -9` of a job would) the n-th time the process reaches `<point>`. The kill -9 bench
(benchmarks/bench_kill_resume.py) sets it to land exactly between two writes that a kill at a random
instant almost never separates, e.g. a stored PDF and its checkpoint. Unset, which is every real
run, `reached` reads one environment variable and returns.
"""
from __future__ import annotations

import os
import signal
import threading
from collections import Counter

KILL_VAR = "REVIEWBENCH_KILL_AT"
POINTS = ("pdf_source_written", "pdf_stored")  # stages/pdf_fetch.py: store_pdf, in this order

_counts: Counter = Counter()
_lock = threading.Lock()


def reached(point: str) -> None:
    spec = os.environ.get(KILL_VAR)
    if not spec:
        return
    name, _, nth = spec.partition(":")
    if name != point:
        return
    with _lock:
        _counts[point] += 1
        due = _counts[point] >= int(nth or 1)
    if due:
        os.killpg(os.getpgid(0), signal.SIGKILL)
