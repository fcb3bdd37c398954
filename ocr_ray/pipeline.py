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
pages, so every task yields exactly one ``PaperMarkdown``; a failing PDF never affects
the other PDFs of its block.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator

import pyarrow as pa
import pyarrow.fs as pafs

from ocr_ray.engines import Engine, get_engine

PAGE_SEPARATOR = "\n\n---\n\n"
# PDFs per input block: small blocks let the read stage spread over all workers
# and keep each task's output (rendered pages) a few MB.
PDFS_PER_BLOCK = 4
# PDFs per task on the single-stage path: ~9-page papers at ~300 pages/s/core make a task of ~0.25 s,
# so Ray's per-task cost (a few ms) stays around 1 %, while 1,000 PDFs still make 125 tasks that
# stream (a block of 8 papers' markdown is ~0.5 MB) and spread over every CPU.
PDFS_PER_TASK = 8
# Where a PDF's trailer must end; readers such as pdf.js search the last KiB too.
_EOF_WINDOW = 2048


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


class PdfReadError(Exception):
    """A PDF that cannot yield pages; the message is the short reason reported."""


# ---------------------------------------------------------------- worker side


def _read_bytes(filesystem: pafs.FileSystem, path: str) -> bytes:
    try:
        with filesystem.open_input_file(path) as handle:
            return handle.readall()
    except FileNotFoundError:
        raise PdfReadError(f"missing file: {path}") from None
    except OSError as exc:  # pyarrow reports S3 404s and permission errors as OSError
        if "not found" in str(exc).lower() or "does not exist" in str(exc).lower():
            raise PdfReadError(f"missing file: {path}") from None
        raise PdfReadError(f"cannot read file: {exc}") from None


def _check_pdf_bytes(data: bytes) -> None:
    """Cheap structural checks PDFium does not make.

    PDFium rebuilds a broken cross-reference table, so a truncated download often
    opens and silently loses its last pages; the missing ``%%EOF`` catches that.
    """
    if not data:
        raise PdfReadError("empty file")
    if b"%PDF-" not in data[:1024]:
        raise PdfReadError("not a PDF (no %PDF- header)")
    if b"%%EOF" not in data[-_EOF_WINDOW:]:
        raise PdfReadError("truncated PDF (no %%EOF at end)")


def _open_pdf(data: bytes) -> Any:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    # PDFium rejects a document with an empty page tree without setting its
    # (process-global) last error, so the code left by an earlier document would
    # be reported. Set a sentinel first: opening a missing *path* sets
    # FPDF_ERR_FILE, which loading from memory can never produce itself.
    pdfium_c.FPDF_LoadDocument(b"/nonexistent/ocr-ray-error-sentinel.pdf", None)
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == pdfium_c.FPDF_ERR_FILE:
            raise PdfReadError("PDF has zero pages (empty page tree)") from None
        if code == pdfium_c.FPDF_ERR_PASSWORD:
            raise PdfReadError("encrypted PDF (password required)") from None
        if code == pdfium_c.FPDF_ERR_FORMAT:
            raise PdfReadError("corrupt PDF (PDFium: data format error)") from None
        raise PdfReadError(f"unreadable PDF ({exc})") from None


# The same checks serve the PDF store (reviewbench_assets.domain.pdfs) before a PDF is kept.
check_pdf_bytes = _check_pdf_bytes
open_pdf = _open_pdf


def _error_row(task: dict[str, Any], reason: str) -> dict[str, Any]:
    return {
        "task_index": task["task_index"],
        "forum_id": task["forum_id"],
        "page_index": -1,
        "num_pages": 0,
        "text": "",
        "image": b"",
        "route": "",
        "error": reason,
    }


def read_pdf_pages(
    task: dict[str, Any], *, filesystem: pafs.FileSystem, engine: Engine
) -> Iterator[dict[str, Any]]:
    """flat_map UDF: one row per page, or one error row if the PDF is unusable.

    A generator, so Ray can ship a long PDF's rendered pages in several blocks.
    Pages are prepared before anything is yielded: a page that fails half way
    must turn the whole paper into one error row, not a partial paper.
    """
    try:
        data = _read_bytes(filesystem, task["pdf_path"])
        _check_pdf_bytes(data)
        pdf = _open_pdf(data)
    except PdfReadError as exc:
        yield _error_row(task, str(exc))
        return
    rows: list[dict[str, Any]] = []
    try:
        num_pages = len(pdf)
        if num_pages == 0:
            yield _error_row(task, "PDF has zero pages")
            return
        for page_index in range(num_pages):
            page = pdf[page_index]
            try:
                payload = engine.prepare_page(page)
            finally:
                page.close()
            rows.append(
                {
                    "task_index": task["task_index"],
                    "forum_id": task["forum_id"],
                    "page_index": page_index,
                    "num_pages": num_pages,
                    "error": "",
                    **payload,
                }
            )
    except Exception as exc:  # noqa: BLE001 - any PDFium failure is a per-paper error
        yield _error_row(task, f"failed on page {len(rows) + 1}: {type(exc).__name__}: {exc}"[:300])
        return
    finally:
        pdf.close()
    yield from rows


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
    stage_engine = getattr(engine, "ocr", None) or engine
    return not (engine.needs_image or engine.uses_actor or engine.num_gpus
                or hasattr(stage_engine, "build_stage"))


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


# ---------------------------------------------------------------- driver side


def build_dataset(tasks: list[PdfTask], filesystem: pafs.FileSystem, engine: Engine):
    """The Ray Dataset of one run: paper rows (``single_stage(engine)``) or page rows."""
    import ray.data

    items = [
        {"task_index": index, "forum_id": task.forum_id, "pdf_path": task.pdf_path}
        for index, task in enumerate(tasks)
    ]
    per_block = PDFS_PER_TASK if single_stage(engine) else PDFS_PER_BLOCK
    dataset = ray.data.from_items(items, override_num_blocks=max(1, math.ceil(len(items) / per_block)))
    # The dataset holds its own copy of the DataContext: setting options here
    # configures this run without changing the caller's global context.
    dataset.context.execution_options.preserve_order = True
    if single_stage(engine):
        # One task per input block (batch_size=None): whole PDFs, markdown out, a full CPU each
        # (PDFium is not thread-safe, so parallelism is by process).
        return dataset.map_batches(convert_pdfs, fn_kwargs={"filesystem": filesystem, "engine": engine},
                                   batch_size=None, batch_format="pyarrow", num_cpus=1)
    # Reading (and, for OCR engines, rendering) runs in Ray worker *processes*: PDFium is not
    # thread-safe. Half a CPU per read task, so engine actors can never take every CPU from it.
    pages = dataset.flat_map(read_pdf_pages, fn_kwargs={"filesystem": filesystem, "engine": engine},
                             num_cpus=0.5 if engine.needs_image else 1)
    stage_engine = getattr(engine, "ocr", None) or engine
    if hasattr(stage_engine, "build_stage"):  # vllm: Ray Data LLM builds the (GPU) stage itself
        return stage_engine.build_stage(pages)
    engine_args: dict[str, Any] = {
        "batch_size": engine.batch_size,
        "batch_format": "pyarrow",
        "num_cpus": engine.num_cpus,
    }
    if engine.num_gpus:
        engine_args["num_gpus"] = engine.num_gpus
    if engine.uses_actor:
        return pages.map_batches(
            EngineActor,
            fn_constructor_kwargs={"engine": engine},
            compute=ray.data.ActorPoolStrategy(min_size=1, max_size=_max_actors(engine)),
            **engine_args,
        )
    return pages.map_batches(run_engine_task, fn_kwargs={"engine": engine}, **engine_args)


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
    rows: Iterator[dict[str, Any]], tasks: list[PdfTask], engine: Engine
) -> Iterator[PaperMarkdown]:
    """Group page rows into papers and yield them in task order.

    With preserved order the rows of one paper are contiguous, so ``open_papers``
    and ``finished`` hold at most a paper or two: memory stays flat.
    """
    open_papers: dict[int, dict[int, str]] = {}  # task_index -> page_index -> text
    routes: dict[int, Counter] = {}  # task_index -> engine -> pages
    failed: set[int] = set()
    finished: dict[int, PaperMarkdown] = {}
    next_to_yield = 0
    for row in rows:
        index = row["task_index"]
        task = tasks[index]
        if row["error"] and row["page_index"] < 0:
            finished[index] = _paper(task, engine, error=row["error"])
        elif index in failed:  # a page failed in the engine (vllm): the paper is already an error
            continue
        elif row["error"]:
            failed.add(index)
            open_papers.pop(index, None)
            routes.pop(index, None)
            finished[index] = _paper(task, engine, error=row["error"])
        else:
            pages = open_papers.setdefault(index, {})
            pages[row["page_index"]] = row["page_text"]
            routes.setdefault(index, Counter())[row.get("page_engine") or engine.name] += 1
            if len(pages) == row["num_pages"]:
                del open_papers[index]
                markdown = PAGE_SEPARATOR.join(pages[i] for i in range(len(pages)))
                finished[index] = _paper(task, engine, markdown=markdown, num_pages=len(pages),
                                         pages_by_engine=routes.pop(index))
        while next_to_yield in finished:
            yield finished.pop(next_to_yield)
            next_to_yield += 1
    # Only reachable if Ray lost rows: still one result per task.
    for index in range(next_to_yield, len(tasks)):
        if index in finished:
            yield finished.pop(index)
        else:
            got = len(open_papers.get(index, {}))
            yield _paper(tasks[index], engine, error=f"pipeline lost pages (got {got})")


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
    batches: Iterator[pa.Table], tasks: list[PdfTask], engine: Engine
) -> Iterator[PaperMarkdown]:
    """Single-stage path: rows are finished papers, already in task order (preserved order)."""
    seen = 0
    for batch in batches:
        for row in batch.to_pylist():
            index = row["task_index"]
            while seen < index:  # only reachable if Ray lost rows: still one result per task
                yield _paper(tasks[seen], engine, error="pipeline lost the paper")
                seen += 1
            routes = json.loads(row["engine_pages"])
            yield _paper(tasks[index], engine, markdown=row["markdown"], num_pages=row["num_pages"],
                         error=row["error"] or None, pages_by_engine=routes)
            seen = index + 1
    for index in range(seen, len(tasks)):
        yield _paper(tasks[index], engine, error="pipeline lost the paper")


def _run(tasks, filesystem, engine, ray_address, num_cpus) -> Iterator[PaperMarkdown]:
    import ray

    started_ray = ensure_ray(ray_address, num_cpus)
    try:
        dataset = build_dataset(tasks, filesystem, engine)
        if single_stage(engine):
            batches = dataset.iter_batches(batch_size=None, batch_format="pyarrow", prefetch_batches=1)
            yield from paper_rows_to_papers(batches, tasks, engine)
        else:
            yield from assemble_papers(dataset.iter_rows(), tasks, engine)
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
    """Yield one PaperMarkdown per task, in task order, as papers complete.

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
