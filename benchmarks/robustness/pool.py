"""A process pool where one job's hang or crash costs that job only.

``concurrent.futures.ProcessPoolExecutor`` cannot kill a job that hangs, and one worker killed by
a signal (a segfault in PDFium) breaks the whole executor. Here each worker process takes one job
at a time over a pipe; a job past its deadline has its worker killed (``outcome="timeout"``): the deadline counts
the worker's CPU seconds, not the wall clock's (on a loaded, shared machine a niced worker gets a
fraction of a core: a page that needs 15 CPU seconds took over 180 s of wall time), with a wall cap
of ``WALL_FACTOR`` times the timeout for a worker that hangs without using CPU; a
worker that dies mid-job (``outcome="crash"``, with the signal or exit code) is replaced, and the
other jobs go on. Workers start with ``fork`` off a parent that has imported nothing heavy, so a
fresh worker costs little; each is recycled after ``max_jobs`` jobs (leaks of a C library).
"""
from __future__ import annotations

import multiprocessing as mp
import os
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

WALL_FACTOR = 10
_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``); 0 when it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


@dataclass
class Outcome:
    key: str
    outcome: str  # "ok" (``value`` holds fn's result), "timeout", "crash", "error" (fn raised)
    value: Any = None
    detail: str = ""  # the crash's signal/exit code, the error's traceback
    seconds: float = 0.0


def _serve(fn: Callable[[Any], Any], conn, niceness: int) -> None:
    import faulthandler

    faulthandler.disable()  # a crash is the pool's to report (pytest's handler would print it)
    if niceness:
        os.nice(niceness)
    while True:
        job = conn.recv()
        if job is None:
            return
        try:
            conn.send(("ok", fn(job), ""))
        except Exception:  # noqa: BLE001 - reported as the job's outcome, the worker goes on
            conn.send(("error", None, traceback.format_exc()[-4000:]))


class _Worker:
    def __init__(self, ctx, fn, niceness: int):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(fn, child, niceness), daemon=True)
        self.proc.start()
        child.close()
        self.job: tuple[str, Any, float, float] | None = None  # key, payload, start, deadline
        self.timeout, self.cpu_start = 0.0, 0.0
        self.done = 0

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()


def run_pool(fn: Callable[[Any], Any], jobs: Iterable[tuple[str, Any, float]], *, workers: int = 2,
             niceness: int = 10, max_jobs: int = 50) -> Iterator[Outcome]:
    """``fn(payload)`` for each ``(key, payload, timeout_seconds)``, in ``workers`` processes;
    yields one ``Outcome`` per job as it finishes (not in order)."""
    ctx = mp.get_context("fork")
    pending = iter(jobs)
    pool = [_Worker(ctx, fn, niceness) for _ in range(max(1, workers))]
    exhausted = False
    try:
        while True:
            for i, w in enumerate(pool):
                if w.job is None and not exhausted:
                    if w.done >= max_jobs or not w.proc.is_alive():
                        w.conn.send(None) if w.proc.is_alive() else None
                        w.kill()
                        pool[i] = w = _Worker(ctx, fn, niceness)
                    nxt = next(pending, None)
                    if nxt is None:
                        exhausted = True
                        break
                    key, payload, timeout = nxt
                    now = time.monotonic()
                    w.conn.send(payload)
                    w.job = (key, payload, now, now + timeout)
                    w.timeout, w.cpu_start = timeout, cpu_seconds(w.proc.pid)
            busy = [w for w in pool if w.job is not None]
            if not busy:
                return
            nearest = min(w.job[3] for w in busy)
            ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy],
                         timeout=max(0.0, nearest - time.monotonic()))
            now = time.monotonic()
            for i, w in enumerate(pool):
                if w.job is None:
                    continue
                key, _, start, deadline = w.job
                result = None
                if w.conn in ready:
                    try:
                        status, value, detail = w.conn.recv()
                        result = Outcome(key, status, value, detail, now - start)
                    except (EOFError, OSError):
                        pass  # the worker died while answering: a crash, below
                if result is None and (w.proc.sentinel in ready or not w.proc.is_alive()):
                    w.proc.join(5)
                    result = Outcome(key, "crash", detail=f"worker exit code {w.proc.exitcode}",
                                     seconds=now - start)
                if result is None and now >= deadline:
                    used = cpu_seconds(w.proc.pid) - w.cpu_start
                    if used < w.timeout and now - start < WALL_FACTOR * w.timeout:
                        # starved, not stuck: wait for the CPU seconds it has not had yet
                        w.job = (key, w.job[1], start, now + w.timeout - used)
                        continue
                    result = Outcome(key, "timeout", seconds=now - start,
                                     detail=f"no answer after {used:.0f} CPU s, {now - start:.0f} s")
                if result is None:
                    continue
                w.job, w.done = None, w.done + 1
                if result.outcome in ("crash", "timeout"):
                    w.kill()
                    pool[i] = _Worker(ctx, fn, niceness)
                yield result
    finally:
        for w in pool:
            w.kill()
