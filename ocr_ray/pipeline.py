"""Ray Data pipeline: PDFs -> pages -> engine -> one markdown per paper.

Engines that need a rendered image, a model in an actor or a GPU (rapidocr, auto, vllm) get
two stages, so Ray pipelines cheap reading/rendering against expensive inference:

    from_items(tasks) --flat_map(read_pdf_pages)--> page rows
                      --map_batches(engine)-------> page texts
    driver: iter_rows() (order preserved) -> PaperMarkdown as soon as a paper is complete

Engines that need none of that (``text-layer``) get one stage: a PDF's text costs ~3 ms a page, so a
second stage, a row per page and a block per few pages would cost more than the work itself. Each task
converts ``PDFS_PER_TASK`` whole PDFs into finished markdown, one row per paper:

    from_items(tasks) --map_batches(convert_pdfs)--> paper rows
    driver: iter_batches() (order preserved) -> PaperMarkdown

A PDF that cannot be read produces a single row carrying ``error`` instead of
pages (``ocr_ray.pdf_pages``), so every task yields exactly one ``PaperMarkdown``; a failing PDF
never affects the other PDFs of its block.

A worker process that dies (PDFium, onnxruntime or a GPU model crashing in native code) takes the
other papers of its block or batch with it: the first pass retries its task ``CRASH_RETRIES`` times,
then drops the block, and ``_run`` hands the papers missing from the ordered output to a second
pass that reruns each alone, so only the crashing PDF fails. How, and why: ``ocr_ray.crash_rerun``.

Small inputs skip Ray: a single-stage engine's PDFs, at most ``LOCAL_MAX_PDFS`` of them, with no Ray
address given and no Ray already running in this process, are converted by the same ``convert_pdf``
in a local process pool (``ocr_ray.local_pool``), with the same output and the same per-PDF crash
isolation, without paying 10-25 s for a local cluster to start (``choose_runner``).
"""

from __future__ import annotations

import logging
import math
import os
import sys
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.fs as pafs

from ocr_ray.conversion import (
    PaperMarkdown,
    PdfTask,
    assemble_papers,
    convert_pdfs,
    engine_stage,
    paper_from_row,
    read_cpus,
    single_stage,
    task_items,
    with_crash_retries,
)
from ocr_ray.crash_rerun import rerun_alone
from ocr_ray.engines import Engine, get_engine
from ocr_ray.local_pool import default_workers, run_local
from ocr_ray.pdf_pages import read_pdf_pages

# PDFs per input block: small blocks let the read stage spread over all workers
# and keep each task's output (rendered pages) a few MB.
PDFS_PER_BLOCK = 4
# PDFs per task on the single-stage path: ~9-page papers at ~300 pages/s/core make a task of ~0.25 s,
# so Ray's per-task cost (a few ms) stays around 1 %, while 1,000 PDFs still make 125 tasks that
# stream (a block of 8 papers' markdown is ~0.5 MB) and spread over every CPU.
PDFS_PER_TASK = 8
# Up to this many PDFs, a single-stage engine runs in a local process pool, not Ray (``choose_runner``):
# a local Ray costs 10-25 s to start, about what 100 ten-page papers take on two cores with the text
# layer; above it, Ray's start is a small share of the run, and a cluster can take the work.
LOCAL_MAX_PDFS = 100
logger = logging.getLogger(__name__)


def build_dataset(tasks: list[PdfTask], filesystem: pafs.FileSystem, engine: Engine):
    """The Ray Dataset of one run: paper rows (``single_stage(engine)``) or page rows."""
    import ray.data

    items = task_items(tasks)
    per_block = PDFS_PER_TASK if single_stage(engine) else PDFS_PER_BLOCK
    dataset = ray.data.from_items(items, override_num_blocks=max(1, math.ceil(len(items) / per_block)))
    # The dataset holds its own copy of the DataContext: setting options here
    # configures this run without changing the caller's global context.
    dataset.context.execution_options.preserve_order = True
    # A reading task whose worker died 1 + CRASH_RETRIES times drops its block instead of failing
    # the run: the driver sees its papers missing and reruns them one by one (crash_rerun).
    dataset.context.max_errored_blocks = -1
    if single_stage(engine):
        # One task per input block (batch_size=None): whole PDFs, markdown out, a full CPU each
        # (PDFium is not thread-safe, so parallelism is by process).
        return with_crash_retries(dataset.map_batches, convert_pdfs, batch_size=None,
                                   fn_kwargs={"filesystem": filesystem, "engine": engine},
                                   batch_format="pyarrow", num_cpus=1)
    # Reading (and, for OCR engines, rendering) runs in Ray worker *processes*: PDFium is not
    # thread-safe. Half a CPU per read task, so engine actors can never take every CPU from it.
    pages = with_crash_retries(dataset.flat_map, read_pdf_pages, num_cpus=read_cpus(engine),
                                fn_kwargs={"filesystem": filesystem, "engine": engine})
    return engine_stage(pages, engine)


def ensure_ray(ray_address: str | None, num_cpus: int | None) -> bool:
    """Start or join Ray unless the caller already did; True if we started it."""
    import ray

    if ray.is_initialized():
        return False
    init_args: dict[str, Any] = {"include_dashboard": False, "ignore_reinit_error": True}
    if ray_address is None and num_cpus is not None:
        init_args["num_cpus"] = num_cpus  # only valid when starting a local cluster
    ray.init(address=ray_address, **init_args)
    return True


def paper_rows_to_papers(
    batches: Iterator[pa.Table], tasks: list[PdfTask], engine: Engine, lost: list[int]
) -> Iterator[PaperMarkdown]:
    """Single-stage path: rows are finished papers, in task order (preserved order). A paper
    without a row (its block was dropped: the worker died) is appended to ``lost``."""
    done = 0
    for batch in batches:
        for row in batch.to_pylist():
            index = row["task_index"]
            if index < done:  # not seen so far, but a row twice must not make a paper twice
                continue
            lost.extend(range(done, index))
            yield paper_from_row(tasks[index], engine, row)
            done = index + 1
    lost.extend(range(done, len(tasks)))


def _run(tasks, filesystem, engine, ray_address, num_cpus) -> Iterator[PaperMarkdown]:
    import ray

    started_ray = ensure_ray(ray_address, num_cpus)
    try:
        dataset = build_dataset(tasks, filesystem, engine)
        lost: list[int] = []
        if single_stage(engine):
            batches = dataset.iter_batches(batch_size=None, batch_format="pyarrow", prefetch_batches=1)
            yield from paper_rows_to_papers(batches, tasks, engine, lost)
        else:
            yield from assemble_papers(dataset.iter_rows(), tasks, engine, lost)
        if lost:
            logger.warning("%d of %d papers lost in the first pass (their task failed: a worker process "
                           "died, or the engine raised); rerunning each PDF alone", len(lost), len(tasks))
            yield from rerun_alone([tasks[index] for index in lost], filesystem, engine)
    finally:
        if started_ray:
            ray.shutdown()


def ray_running() -> bool:
    """Ray initialised in this process (without importing it, which alone takes a second or two)."""
    ray = sys.modules.get("ray")
    return bool(ray is not None and ray.is_initialized())


def choose_runner(num_tasks: int, engine: Engine, ray_address: str | None, use_ray: bool | None) -> str:
    """``"ray"`` or ``"local"``. ``use_ray`` True or False forces it (False with an engine that needs
    Ray's actors, GPUs or second stage is an error); None chooses: local for a single-stage engine and
    at most ``LOCAL_MAX_PDFS`` PDFs, unless a Ray address is given or Ray already runs here."""
    if use_ray is False:
        if not single_stage(engine):
            raise ValueError(f"engine {engine.name!r} needs Ray (actors, a GPU or a second stage): "
                             "it cannot run without Ray")
        return "local"
    if use_ray or ray_address is not None or ray_running() or not single_stage(engine):
        return "ray"
    return "local" if num_tasks <= LOCAL_MAX_PDFS else "ray"


def run_pipeline(
    tasks: list[PdfTask],
    filesystem: pafs.FileSystem | None = None,
    engine: str | Engine = "text-layer",
    ray_address: str | None = None,
    num_cpus: int | None = None,
    use_ray: bool | None = None,
) -> Iterator[PaperMarkdown]:
    """Yield one PaperMarkdown per task as papers complete: in task order, except that papers whose
    worker process died in the first pass (and so were rerun alone, see ``ocr_ray.crash_rerun``)
    come after all the others.

    Ray or a local process pool of ``num_cpus`` workers (default: this machine's CPUs), as
    ``choose_runner(len(tasks), engine, ray_address, use_ray)`` says; the papers are the same.

    Not a generator itself: a bad engine name raises here, before Ray starts.
    Ray starts on the first ``next()``; it is shut down at the end only if this
    call started it.
    """
    resolved_engine = get_engine(engine) if isinstance(engine, str) else engine
    resolved_engine.check_available()  # e.g. vllm without a GPU install: fail before Ray starts
    filesystem = filesystem or pafs.LocalFileSystem()
    if isinstance(filesystem, pafs.LocalFileSystem):
        # Ray workers do not share the driver's working directory.
        tasks = [PdfTask(task.forum_id, os.path.abspath(task.pdf_path)) for task in tasks]
    tasks = list(tasks)
    if not tasks:
        return iter(())
    if choose_runner(len(tasks), resolved_engine, ray_address, use_ray) == "local":
        return run_local(tasks, filesystem, resolved_engine, default_workers(num_cpus))
    return _run(tasks, filesystem, resolved_engine, ray_address, num_cpus)
