"""The second pass after worker crashes: each paper the first pass lost, rerun alone.

A PDF that kills its worker *process* (PDFium is native code: a segfault or an abort cannot be
caught in Python) takes its task's other PDFs with it. Ray Data would retry such a task forever
(its tasks default to ``max_retries=-1``), so the reading task gets ``CRASH_RETRIES`` retries and
the dataset may drop failed blocks (``max_errored_blocks=-1``, both set in ``ocr_ray.pipeline``);
the driver notices the papers missing from the ordered output and, after the first pass, reruns
each of them alone in a plain Ray task (``rerun_alone``, again with ``CRASH_RETRIES``). The innocent
PDFs of the crashed block come out normally; a PDF whose worker dies again becomes a paper whose
``error`` starts with ``renderer crashed``. The normal case pays nothing: no second pass when
nothing was lost.

The engine stage of two-stage engines is native code too (RapidOCR's onnxruntime, a GPU model):
a page that kills an engine actor or task drops that batch of pages after ``CRASH_RETRIES``
retries (Ray Data gives actor tasks unlimited retries; the actors keep their unlimited restarts, as
a pool never replaces an actor that stays dead), the driver sees the papers of those pages
incomplete, and the second pass runs each lost paper's pages through the engine alone (an actor
call or a task per paper, ``CRASH_RETRIES`` again): a paper whose pages kill the engine again gets
an ``error`` starting with ``engine crashed``.

The rerun reuses the first pass's pieces (engine stage, engine actor, paper assembly) from
``ocr_ray.conversion``; ``ocr_ray.pipeline`` imports ``rerun_alone`` from here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.fs as pafs

from ocr_ray.conversion import (
    CRASH_RETRIES,
    EngineActor,
    PaperMarkdown,
    PdfTask,
    apply_engine_in_batches,
    assemble_papers,
    builds_stage,
    convert_pdf,
    engine_resources,
    engine_stage,
    make_paper,
    max_actors,
    paper_from_row,
    read_cpus,
    single_stage,
    task_items,
)
from ocr_ray.engine_base import Engine
from ocr_ray.pdf_pages import read_pdf_pages

# PDFs rerun alone per round of the second pass: bounds the rendered pages held at once, and an
# engine that raises on every paper fails the run after one round rather than after all of them.
RERUN_CHUNK = 32


def crash_error(exc: Exception) -> str:
    """``PaperMarkdown.error`` of a PDF whose worker process died every time it was read alone."""
    return (f"renderer crashed: worker process died on this PDF ({1 + CRASH_RETRIES} attempts; "
            f"{type(exc).__name__})")


def engine_crash_error(exc: Exception) -> str:
    """``PaperMarkdown.error`` of a PDF whose pages killed the engine's process (its actor or task)
    every time they went through the engine alone."""
    return (f"engine crashed: worker process died on this PDF's pages ({1 + CRASH_RETRIES} "
            f"attempts; {type(exc).__name__})")


def _convert_alone(task: dict[str, Any], filesystem: pafs.FileSystem, engine: Engine) -> dict[str, Any]:
    engine.setup()
    return convert_pdf(task, filesystem=filesystem, engine=engine)


def _read_alone(task: dict[str, Any], filesystem: pafs.FileSystem, engine: Engine) -> tuple[int, pa.Table]:
    rows = list(read_pdf_pages(task, filesystem=filesystem, engine=engine))
    return len(rows), pa.Table.from_pylist(rows)


def _engine_alone(pages: pa.Table, engine: Engine) -> pa.Table:
    """``rerun_alone`` for stateless engines: all page rows of one paper, in a task of their own."""
    engine.setup()
    return apply_engine_in_batches(engine, pages)


def _get_unless_died(ref) -> tuple[Any, Exception | None]:
    """``(value, None)``, or ``(None, error)`` if the task's worker process died on every attempt.
    An exception raised by the task's Python code is no crash: it propagates, as it did before."""
    import ray

    try:
        return ray.get(ref), None
    except ray.exceptions.RayTaskError:
        raise
    except ray.exceptions.RayError as exc:  # WorkerCrashedError, OutOfMemoryError, NodeDiedError...
        return None, exc


def _engine_each_alone(
    pages: dict[int, Any], engine: Engine, engine_ref
) -> dict[int, tuple[Any, Exception | None]]:
    """The engine over each paper's pages (``{index: ref of page rows}``) alone: ``{index: (engine
    rows, None)}``, or ``(None, error)`` for a paper whose pages killed the engine's process on every
    one of its ``1 + CRASH_RETRIES`` attempts. Stateless engines: a task per paper. Actor engines:
    a few actors (setup once each, restarted after a crash), each given one paper at a time, so a
    death is the paper's own and no neighbour queued on the same actor pays a retry for it."""
    import ray

    resources = engine_resources(engine)
    if not engine.uses_actor:
        run = ray.remote(_engine_alone).options(**resources, max_retries=CRASH_RETRIES,
                                                retry_exceptions=False)
        refs = {index: run.remote(table, engine_ref) for index, table in pages.items()}
        return {index: _get_unless_died(ref) for index, ref in refs.items()}
    actor_class = ray.remote(EngineActor).options(**resources, max_restarts=-1,
                                                  max_task_retries=CRASH_RETRIES)
    actors = [actor_class.remote(engine_ref) for _ in range(min(len(pages), max_actors(engine)))]
    results: dict[int, tuple[Any, Exception | None]] = {}
    try:
        queue, idle, running = list(pages.items()), list(actors), {}
        while queue or running:
            while queue and idle:
                (index, table), actor = queue.pop(0), idle.pop()
                running[actor.apply_to_paper.remote(table)] = (index, actor)
            [ref], _ = ray.wait(list(running), num_returns=1)
            index, actor = running.pop(ref)
            idle.append(actor)
            results[index] = _get_unless_died(ref)
            died = results[index][1]
            if died is not None and getattr(died, "actor_init_failed", False):
                raise died  # the engine's setup raised: no crash, fail the run as before
    finally:
        for actor in actors:
            ray.kill(actor)
    return results


def rerun_alone(tasks: list[PdfTask], filesystem: pafs.FileSystem, engine: Engine) -> Iterator[PaperMarkdown]:
    """Second pass over the papers lost in the first: each PDF in a plain Ray task of its own (no
    batch-mates to take down), ``CRASH_RETRIES`` retries. Plain tasks, not Ray Data: their errors
    tell a dead worker (the paper gets ``crash_error``) from a Python exception (raised, as it was
    before, instead of being mistaken for a crash). Two-stage engines then run each paper's pages
    through the engine alone (``_engine_each_alone``; a paper whose pages kill it again gets
    ``engine_crash_error``), except vllm, whose Ray Data LLM stage runs over all of them. Yields one
    paper per task, in task order within each round."""
    import ray
    import ray.data

    filesystem_ref, engine_ref = ray.put(filesystem), ray.put(engine)
    retries = {"max_retries": CRASH_RETRIES, "retry_exceptions": False}
    if single_stage(engine):
        convert = ray.remote(_convert_alone).options(num_cpus=1, **retries)
    else:
        read = ray.remote(_read_alone).options(num_cpus=read_cpus(engine), num_returns=2, **retries)
    for start in range(0, len(tasks), RERUN_CHUNK):
        chunk = tasks[start:start + RERUN_CHUNK]
        items = task_items(chunk)
        if single_stage(engine):
            refs = [convert.remote(item, filesystem_ref, engine_ref) for item in items]
            for task, ref in zip(chunk, refs, strict=False):
                row, died = _get_unless_died(ref)
                if died:
                    yield make_paper(task, engine, error=crash_error(died))
                else:
                    yield paper_from_row(task, engine, row)
            continue
        reads = [read.remote(item, filesystem_ref, engine_ref) for item in items]
        crashed: dict[int, str] = {}  # index -> error of a PDF whose reader or engine died
        tables: dict[int, Any] = {}  # index -> ref of its page rows
        for index, (num_rows, table) in enumerate(reads):
            died = _get_unless_died(num_rows)[1]
            if died:
                crashed[index] = crash_error(died)
                _get_unless_died(table)  # fetched, so Ray does not log the same death as unhandled
            else:
                tables[index] = table
        missing: list[int] = []  # the crashed PDFs, whose rows never come

        # Bound as defaults: the generator runs within this iteration, but the loop variables are rebound later.
        def missing_papers(missing=missing, chunk=chunk, crashed=crashed) -> Iterator[PaperMarkdown]:
            while missing:
                index = missing.pop(0)
                yield make_paper(chunk[index], engine, error=crashed.get(index, "pipeline lost the paper"))

        if not tables:
            rows: Iterator[dict[str, Any]] = iter(())
        elif builds_stage(engine):
            pages = ray.data.from_arrow_refs(list(tables.values()))
            pages.context.execution_options.preserve_order = True
            rows = engine_stage(pages, engine).iter_rows()
        else:
            texts = _engine_each_alone(tables, engine, engine_ref)
            for index, (_, died) in texts.items():
                if died:
                    crashed[index] = engine_crash_error(died)
            rows = (row for index in sorted(texts) if texts[index][1] is None
                    for row in texts[index][0].to_pylist())
        # assemble_papers adds a paper to ``missing`` before it yields the next: task order
        for paper in assemble_papers(rows, chunk, engine, missing):
            yield from missing_papers()
            yield paper
        yield from missing_papers()
