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
"""

from __future__ import annotations

import json
import logging
import math
import os
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator

import pyarrow as pa
import pyarrow.fs as pafs

from ocr_ray.engines import Engine, get_engine
from ocr_ray.pdf_pages import read_pdf_pages

PAGE_SEPARATOR = "\n\n---\n\n"
# PDFs per input block: small blocks let the read stage spread over all workers
# and keep each task's output (rendered pages) a few MB.
PDFS_PER_BLOCK = 4
# PDFs per task on the single-stage path: ~9-page papers at ~300 pages/s/core make a task of ~0.25 s,
# so Ray's per-task cost (a few ms) stays around 1 %, while 1,000 PDFs still make 125 tasks that
# stream (a block of 8 papers' markdown is ~0.5 MB) and spread over every CPU.
PDFS_PER_TASK = 8
# Retries of a reading or engine task whose worker process (or engine actor) died (Ray Data's
# default, -1, retries forever, so a PDF that crashes PDFium or the OCR runtime every time would
# hang the run); the same for each PDF rerun alone.
CRASH_RETRIES = 1

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PdfTask:
    forum_id: str
    pdf_path: str  # path inside the filesystem passed to run_pipeline


@dataclass
class PaperMarkdown:
    forum_id: str
    markdown: str  # pages joined with PAGE_SEPARATOR, "" on failure
    num_pages: int
    engine: str
    model: str | None
    error: str | None  # why the PDF could not be read, else None
    # pages read by each engine (``auto`` routes pages: text-layer vs the OCR engine)
    pages_by_engine: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------- worker side


def convert_pdf(task: dict[str, Any], *, filesystem: pafs.FileSystem, engine: Engine) -> dict[str, Any]:
    """One PDF to one paper row, in the worker: read, text per page, engine, markdown."""
    paper = {"task_index": task["task_index"], "num_pages": 0, "markdown": "", "error": "",
             "engine_pages": "{}"}
    try:
        rows = list(read_pdf_pages(task, filesystem=filesystem, engine=engine))
        if rows and rows[0]["error"]:
            return {**paper, "error": rows[0]["error"]}
        texts = engine.process_batch(rows)
    except Exception as exc:  # noqa: BLE001 - one paper's failure must not fail its block's papers
        return {**paper, "error": f"{type(exc).__name__}: {exc}"[:300]}
    routes = Counter(row.get("route") or engine.name for row in rows)
    return {**paper, "num_pages": len(rows), "markdown": PAGE_SEPARATOR.join(texts),
            "engine_pages": json.dumps(routes)}


def convert_pdfs(batch: pa.Table, *, filesystem: pafs.FileSystem, engine: Engine) -> pa.Table:
    """Single-stage map_batches UDF: whole PDFs in, one finished paper row per PDF out."""
    engine.setup()
    papers = [convert_pdf(task, filesystem=filesystem, engine=engine) for task in batch.to_pylist()]
    return pa.table({
        "task_index": pa.array([p["task_index"] for p in papers], type=pa.int64()),
        "num_pages": pa.array([p["num_pages"] for p in papers], type=pa.int64()),
        "markdown": pa.array([p["markdown"] for p in papers], type=pa.large_string()),
        "error": pa.array([p["error"] for p in papers], type=pa.string()),
        "engine_pages": pa.array([p["engine_pages"] for p in papers], type=pa.string()),
    })


def single_stage(engine: Engine) -> bool:
    """True for engines that need no image, actor, GPU or Ray Data LLM stage (``text-layer``)."""
    return not (engine.needs_image or engine.uses_actor or engine.num_gpus or _builds_stage(engine))


def _apply_engine(engine: Engine, batch: pa.Table) -> pa.Table:
    """Replace page payloads by engine text; images never travel back to the driver."""
    rows = batch.to_pylist()
    pages = [row for row in rows if not row["error"]]
    texts = iter(engine.process_batch(pages) if pages else [])
    page_texts = ["" if row["error"] else next(texts) for row in rows]
    return pa.table(
        {
            "task_index": batch["task_index"],
            "forum_id": batch["forum_id"],
            "page_index": batch["page_index"],
            "num_pages": batch["num_pages"],
            "error": batch["error"],
            "page_text": pa.array(page_texts, type=pa.string()),
            "page_engine": batch["route"],
        }
    )


def run_engine_task(batch: pa.Table, *, engine: Engine) -> pa.Table:
    """Stateless map_batches UDF; setup runs per batch, so only for cheap engines."""
    engine.setup()
    return _apply_engine(engine, batch)


class EngineActor:
    """map_batches UDF for engines holding a model: setup once per actor."""

    def __init__(self, engine: Engine):
        engine.setup()
        self.engine = engine

    def __call__(self, batch: pa.Table) -> pa.Table:
        return _apply_engine(self.engine, batch)

    def apply_to_paper(self, pages: pa.Table) -> pa.Table:
        """``crash_rerun.rerun_alone``: all page rows of one paper, in batches of ``batch_size``."""
        return _apply_engine_in_batches(self.engine, pages)


def _apply_engine_in_batches(engine: Engine, pages: pa.Table) -> pa.Table:
    size = max(1, int(engine.batch_size))
    return pa.concat_tables([_apply_engine(engine, pages.slice(start, size))
                             for start in range(0, pages.num_rows, size)])


# ---------------------------------------------------------------- driver side


def task_items(tasks: list[PdfTask]) -> list[dict[str, Any]]:
    """The rows the reading step takes: a PDF and its index in ``tasks`` (papers are put back in
    order by it)."""
    return [{"task_index": index, "forum_id": task.forum_id, "pdf_path": task.pdf_path}
            for index, task in enumerate(tasks)]


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
        return _with_crash_retries(dataset.map_batches, convert_pdfs, batch_size=None,
                                   fn_kwargs={"filesystem": filesystem, "engine": engine},
                                   batch_format="pyarrow", num_cpus=1)
    # Reading (and, for OCR engines, rendering) runs in Ray worker *processes*: PDFium is not
    # thread-safe. Half a CPU per read task, so engine actors can never take every CPU from it.
    pages = _with_crash_retries(dataset.flat_map, read_pdf_pages, num_cpus=_read_cpus(engine),
                                fn_kwargs={"filesystem": filesystem, "engine": engine})
    return engine_stage(pages, engine)


def _with_crash_retries(transform, fn, *, retries_arg: str = "max_retries", **kwargs):
    """``transform(fn, ..., max_retries=CRASH_RETRIES)`` (``retries_arg="max_task_retries"`` for an
    actor pool): Ray 2.60 has no named parameter for retries, only ``**ray_remote_args``, which
    warns that Ray 2.64 removes it. Silence that one warning (every run would print it); a Ray
    without the keyword will raise here instead."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "`ray_remote_args` is deprecated", DeprecationWarning)
        return transform(fn, **{retries_arg: CRASH_RETRIES}, **kwargs)


def _read_cpus(engine: Engine) -> float:
    return 0.5 if engine.needs_image else 1


def _builds_stage(engine: Engine) -> bool:
    """vllm: Ray Data LLM builds the (GPU) engine stage itself."""
    return hasattr(getattr(engine, "ocr", None) or engine, "build_stage")


def engine_stage(pages, engine: Engine):
    """The engine stage over a dataset of page rows (two-stage engines).

    A batch whose engine task or actor process dies is retried ``CRASH_RETRIES`` times, then
    dropped (the dataset's ``max_errored_blocks=-1``): its papers come out incomplete and go to
    ``crash_rerun.rerun_alone``. Ray Data's actors keep their unlimited restarts: a pool does not
    replace an actor that stays dead, so bounded restarts would stall the run once every actor had
    died."""
    import ray.data

    if _builds_stage(engine):
        stage_engine = getattr(engine, "ocr", None) or engine
        return stage_engine.build_stage(pages)
    engine_args = {"batch_size": engine.batch_size, "batch_format": "pyarrow", **engine_resources(engine)}
    if engine.uses_actor:
        return _with_crash_retries(
            pages.map_batches,
            EngineActor,
            retries_arg="max_task_retries",
            fn_constructor_kwargs={"engine": engine},
            compute=ray.data.ActorPoolStrategy(min_size=1, max_size=_max_actors(engine)),
            **engine_args,
        )
    return _with_crash_retries(pages.map_batches, run_engine_task, fn_kwargs={"engine": engine},
                               **engine_args)


def engine_resources(engine: Engine) -> dict[str, Any]:
    """Ray resources of one engine task or actor (GPUs only when the engine uses some)."""
    return {"num_cpus": engine.num_cpus, **({"num_gpus": engine.num_gpus} if engine.num_gpus else {})}


def _max_actors(engine: Engine) -> int:
    """Actors that leave one CPU to the read/render tasks (at least one actor)."""
    import ray

    limit = getattr(engine, "max_actors", None)
    if limit:
        return limit
    if engine.num_gpus:
        return max(1, int(ray.cluster_resources().get("GPU", 1) // engine.num_gpus))
    cpus = ray.cluster_resources().get("CPU", 2)
    return max(1, int((cpus - 1) // max(engine.num_cpus, 0.1)))


def _paper(task: PdfTask, engine: Engine, *, markdown="", num_pages=0, error=None,
           pages_by_engine=None) -> PaperMarkdown:
    return PaperMarkdown(
        forum_id=task.forum_id,
        markdown=markdown,
        num_pages=num_pages,
        engine=engine.name,
        model=engine.model,
        error=error,
        pages_by_engine=dict(pages_by_engine or {}),
    )


def assemble_papers(
    rows: Iterator[dict[str, Any]], tasks: list[PdfTask], engine: Engine, lost: list[int]
) -> Iterator[PaperMarkdown]:
    """Group page rows into papers and yield them in task order.

    Preserved order makes a paper's rows contiguous and papers come in task order, so one paper is
    open at a time (memory stays flat) and a row of paper ``i`` settles every paper before ``i``:
    one whose rows did not all come (its block was dropped: the reading worker died) is not
    yielded but appended to ``lost``, as are the papers missing at the end. (Were rows of two papers
    ever to interleave, the first would be rerun for nothing, not lost.)
    """
    done = 0  # papers before this index are yielded or lost
    pages: dict[int, str] = {}  # page_index -> text, of paper ``done``
    routes: Counter = Counter()  # engine -> pages, of paper ``done``
    for row in rows:
        index = row["task_index"]
        if index < done:  # the other rows of a paper already yielded as an error (vllm page error)
            continue
        if index > done:  # rows skipped papers: they (and the open one) lost their rows
            lost.extend(range(done, index))
            done, pages, routes = index, {}, Counter()
        if row["error"]:  # unreadable PDF (page_index -1), or a page the engine failed on (vllm)
            yield _paper(tasks[index], engine, error=row["error"])
            done, pages, routes = index + 1, {}, Counter()
            continue
        pages[row["page_index"]] = row["page_text"]
        routes[row.get("page_engine") or engine.name] += 1
        if len(pages) == row["num_pages"]:
            markdown = PAGE_SEPARATOR.join(pages[i] for i in range(len(pages)))
            yield _paper(tasks[index], engine, markdown=markdown, num_pages=len(pages),
                         pages_by_engine=routes)
            done, pages, routes = index + 1, {}, Counter()
    lost.extend(range(done, len(tasks)))


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


def _paper_from_row(task: PdfTask, engine: Engine, row: dict[str, Any]) -> PaperMarkdown:
    return _paper(task, engine, markdown=row["markdown"], num_pages=row["num_pages"],
                  error=row["error"] or None, pages_by_engine=json.loads(row["engine_pages"]))


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
            yield _paper_from_row(tasks[index], engine, row)
            done = index + 1
    lost.extend(range(done, len(tasks)))


def _run(tasks, filesystem, engine, ray_address, num_cpus) -> Iterator[PaperMarkdown]:
    import ray

    # Here, not at the top: crash_rerun imports this module (the rerun reuses its engine stage and
    # paper assembly), so a top-level import either way round would be a cycle.
    from ocr_ray.crash_rerun import rerun_alone

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


def run_pipeline(
    tasks: list[PdfTask],
    filesystem: pafs.FileSystem | None = None,
    engine: str | Engine = "text-layer",
    ray_address: str | None = None,
    num_cpus: int | None = None,
) -> Iterator[PaperMarkdown]:
    """Yield one PaperMarkdown per task as papers complete: in task order, except that papers whose
    worker process died in the first pass (and so were rerun alone, see ``ocr_ray.crash_rerun``)
    come after all the others.

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
    return _run(tasks, filesystem, resolved_engine, ray_address, num_cpus)
