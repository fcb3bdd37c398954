"""Converting a few PDFs without Ray: the same ``convert_pdf`` the Ray workers call, in a local pool
of worker processes, with the same per-PDF isolation.

Why: starting a local Ray (GCS, raylet, dashboard agent, workers) costs 10-25 s on a small machine,
more than converting a handful of PDFs with the text layer takes (a 10-page paper is well under a
second). ``run_pipeline`` therefore converts small inputs of single-stage engines (``text-layer``)
here (``choose_runner``); engines that need actors, a GPU or a second stage keep Ray.

Isolation: each PDF is one job, and at most one job runs per worker process (the pool is fed as jobs
finish, never queued ahead), so when a worker dies (PDFium crashing in native code), the jobs in
flight at that moment are the only suspects. The broken pool is replaced and the run goes on; after
the first pass each suspect is rerun alone in a fresh process, up to ``1 + CRASH_RETRIES`` times: an
innocent neighbour comes out as in a normal run, the PDF whose worker dies every time gets
``crash_rerun.crash_error`` (``renderer crashed: ...``). A Python exception raised by a job (an engine
whose ``setup`` raises) is no crash: it fails the run, as it does on Ray.

Order, as on Ray: papers in task order, except the suspects of a crash, which come after all the
others (in task order).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pyarrow.fs as pafs

from ocr_ray.conversion import CRASH_RETRIES, PaperMarkdown, PdfTask, convert_pdf, make_paper, paper_from_row
from ocr_ray.crash_rerun import crash_error
from ocr_ray.engine_base import Engine

# Modules the fork server imports once, so each worker forked from it starts with them loaded
# (spawning a fresh interpreter per worker would import them again, ~0.5 s each).
PRELOAD = ["ocr_ray.conversion", "ocr_ray.engines", "pypdfium2"]
# Finished papers held back at most, per worker, while an earlier one is still converting.
AHEAD_PER_WORKER = 4
# Seconds between a worker's checks that its driver still lives (``_exit_with``).
DRIVER_POLL_S = 1.0

_worker: dict[str, Any] = {}


def _init(filesystem: pafs.FileSystem, engine: Engine, driver: int | None = None) -> None:
    _worker.update(filesystem=filesystem, engine=engine)
    if driver is not None:
        threading.Thread(target=_exit_with, args=(driver,), daemon=True).start()


def _exit_with(driver: int) -> None:
    """A worker outlives a driver killed without notice (SIGKILL, the OOM killer): its parent is the
    fork server, and it would wait for jobs forever. Poll the driver, and leave when it is gone."""
    while True:
        time.sleep(DRIVER_POLL_S)
        try:
            os.kill(driver, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # the pid was reused by another user's process: gone too
            os._exit(1)


def _convert(item: dict[str, Any]) -> dict[str, Any]:
    engine = _worker["engine"]
    engine.setup()  # idempotent; raising here is an engine bug, which fails the run
    return convert_pdf(item, filesystem=_worker["filesystem"], engine=engine)


def _context():
    """A fork server: forking from it is cheap and safe (this process may hold threads: pyarrow's,
    Dagster's), and its ``PRELOAD`` is imported once for every worker."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def _pool(workers: int, filesystem: pafs.FileSystem, engine: Engine) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_init,
                               initargs=(filesystem, engine, os.getpid()))


def default_workers(num_cpus: int | None) -> int:
    """As many worker processes as CPUs this process may use (``num_cpus`` if given)."""
    if num_cpus:
        return num_cpus
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_local(tasks: list[PdfTask], filesystem: pafs.FileSystem, engine: Engine,
              workers: int) -> Iterator[PaperMarkdown]:
    """One PaperMarkdown per task, in task order but for crash suspects (rerun alone, last)."""
    items = [{"task_index": index, "forum_id": task.forum_id, "pdf_path": task.pdf_path}
             for index, task in enumerate(tasks)]
    workers = max(1, min(workers, len(items)))
    suspects: list[int] = []
    rows: dict[int, dict[str, Any]] = {}  # finished, waiting for an earlier paper
    settled: set[int] = set()  # yielded or suspect
    next_out, next_in = 0, 0
    pool = _pool(workers, filesystem, engine)
    running: dict[Future, int] = {}
    try:
        while next_out < len(items):
            while (next_in < len(items) and len(running) < workers
                   and next_in < next_out + AHEAD_PER_WORKER * workers):
                running[pool.submit(_convert, items[next_in])] = next_in
                next_in += 1
            if running:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                broken = False
                for future in done:
                    index = running.pop(future)
                    try:
                        rows[index] = future.result()
                    except BrokenProcessPool:
                        broken = True
                        suspects.append(index)
                        settled.add(index)
                if broken:  # every job in flight on the dead pool is a suspect too
                    for future, index in running.items():
                        future.cancel()
                        suspects.append(index)
                        settled.add(index)
                    running.clear()
                    pool.shutdown(wait=True, cancel_futures=True)
                    pool = _pool(workers, filesystem, engine)
            while next_out < len(items) and (next_out in rows or next_out in settled):
                if next_out in rows:
                    yield paper_from_row(tasks[next_out], engine, rows.pop(next_out))
                next_out += 1
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    for index in sorted(suspects):
        yield _alone(tasks[index], items[index], filesystem, engine)


def _alone_job(conn, item: dict[str, Any], filesystem: pafs.FileSystem, engine: Engine) -> None:
    _init(filesystem, engine)
    try:
        conn.send(("row", _convert(item)))
    except Exception as exc:  # noqa: BLE001 - sent back and raised in the driver: a bug, not a crash
        conn.send(("raised", exc))
    conn.close()


def _alone(task: PdfTask, item: dict[str, Any], filesystem: pafs.FileSystem, engine: Engine) -> PaperMarkdown:
    """A crash suspect in a process of its own, ``1 + CRASH_RETRIES`` attempts. A process killed by a
    signal (SIGSEGV, SIGABRT, the OOM killer's SIGKILL) is a crash: the paper gets ``crash_error``. A
    process that exits with a status instead (it could not start: a broken install, a ``__main__``
    that cannot be imported again) is no crash of this PDF: the run fails and says so, as it does when
    the job raises."""
    context = _context()
    for _ in range(1 + CRASH_RETRIES):
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_alone_job, args=(send, item, filesystem, engine), daemon=True)
        process.start()
        send.close()
        try:
            kind, value = receive.recv()
        except EOFError:  # died before sending
            kind, value = "died", None
        finally:
            receive.close()
            process.join()
        if kind == "row":
            return paper_from_row(task, engine, value)
        if kind == "raised":
            raise value
        if process.exitcode is None or process.exitcode >= 0:
            raise RuntimeError(f"local worker process for {task.forum_id} exited with status {process.exitcode} "
                               "before converting it (not a crash of the PDF: see its stderr)")
        signal_name = _signal_name(-process.exitcode)
    return make_paper(task, engine, error=crash_error(WorkerDied(signal_name)))


class WorkerDied(Exception):
    """A local worker process killed by a signal (named in ``crash_error`` as Ray's WorkerCrashedError)."""


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
