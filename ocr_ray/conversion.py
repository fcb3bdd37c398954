"""The pieces of the Ray pipeline that the first pass (``ocr_ray.pipeline``) and the second pass
after worker crashes (``ocr_ray.crash_rerun``) share: the paper/task records, converting whole
PDFs in a worker (single-stage engines), the engine stage and its actor, and assembling page rows
into papers, where the layout step (``ocr_ray.layout.compose_pages``) turns every page of a paper
into markdown at once (page furniture is found by repetition across pages).

Both passes import this module; neither imports the other's internals.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.fs as pafs

from ocr_ray.engine_base import BLANK, FAILED, PLAIN, Engine
from ocr_ray.layout import Fallbacks, compose_pages
from ocr_ray.pdf_pages import read_pdf_pages

PAGE_SEPARATOR = "\n\n---\n\n"
# Retries of a reading or engine task whose worker process (or engine actor) died (Ray Data's
# default, -1, retries forever, so a PDF that crashes PDFium or the OCR runtime every time would
# hang the run); the same for each PDF rerun alone.
CRASH_RETRIES = 1
# The route's reason when the engine failed on a page and its text layer stands in (``engine_texts``).
OCR_FAILED = "ocr_failed"

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
    # per page, in page order: the engine that read it and, where the engine chose, why
    # (``text-layer:prose``, ``rapidocr:garbled``, ``rapidocr:no_text``, ``rapidocr:image_only``)
    page_routes: list[str] = field(default_factory=list)
    # the blocks that fell back to plain text, and why (``ocr_ray.layout.fallback``): one record
    # per block, ``{"page", "rule", "reason", "detail"}``; a page that could not be read at all is
    # rule ``page``, reason ``failed``
    fallbacks: list[dict] = field(default_factory=list)


def markdown_of(texts: list[str], fallbacks: Fallbacks | None = None) -> str:
    """Page payloads of one paper (layout JSON or text) -> the paper's markdown; the blocks whose
    rules failed are noted in ``fallbacks``."""
    return PAGE_SEPARATOR.join(compose_pages(texts, fallbacks))


# What a paper's file had wrong that PDFium read through (``pdf_pages``: a row's ``notes``).
FILE_NOTES = {"truncated": "no %%EOF at the end: the pages PDFium could rebuild are read, later ones may be missing",
              "no_header": "no %PDF- header in the first KiB: read as PDFium opens it",
              "repaired": "PDFium could not open the file; qpdf (pikepdf) rebuilt it and the rebuilt file is read"}


# A page route's reason (``<engine>:<reason>``) that is a fallback -> its record's rule, reason and detail.
PAGE_ROUTE_FALLBACKS = {
    FAILED: ("page", FAILED, "the page could not be read"),
    OCR_FAILED: ("ocr", "raised", "the OCR engine failed on the page: its text layer stands"),
    PLAIN: ("page", PLAIN, "the page's positioned text could not be read: its plain text stands"),
}


def paper_fallbacks(fallbacks: Fallbacks, routes: list[str], notes: str = "") -> list[dict]:
    """The paper's fallback records: its file's problems (``notes``), pages that could not be read
    (route ``<engine>:failed``, ``pdf_pages``) and the layout step's blocks, in page order."""
    file = [{"page": -1, "rule": "pdf", "reason": code,
             "detail": FILE_NOTES.get(code, code) + (f" ({why})" if why else "")}  # repaired=<why PDFium refused>
            for code, _, why in (note.partition("=") for note in notes.split(",")) if code]
    failed = [{"page": i, "rule": rule, "reason": reason, "detail": detail}
              for route_reason, (rule, reason, detail) in PAGE_ROUTE_FALLBACKS.items()
              for i, route in enumerate(routes) if route.endswith(f":{route_reason}")]
    return sorted(file + failed + fallbacks.as_records(), key=lambda f: f["page"])


def empty_reason(markdown: str, routes: list[str]) -> str | None:
    """Why a paper whose pages were all read has no text, or None when it has some: never an empty
    markdown without a reason (every page was read, and OCR'd where the text layer had nothing).
    Pages with nothing drawn on them (route ``<engine>:blank``) are empty pages, not unread ones:
    a paper of blank pages is an empty paper (one empty page per page), not an error (issue 27:
    olmOCR-Bench rejects a whole run for one page without its output)."""
    if markdown.replace(PAGE_SEPARATOR.strip(), "").strip():
        return None
    if all(route.endswith(f":{BLANK}") for route in routes):
        return None
    return f"no readable text on any of its {len(routes)} pages (page routes: {', '.join(sorted(set(routes)))})"


def count_routes(routes: list[str]) -> dict[str, int]:
    """Pages per engine, from per-page routes (``engine`` or ``engine:reason``)."""
    return dict(Counter(route.split(":", 1)[0] for route in routes))


# ---------------------------------------------------------------- worker side


def convert_pdf(task: dict[str, Any], *, filesystem: pafs.FileSystem, engine: Engine) -> dict[str, Any]:
    """One PDF to one paper row, in the worker: read, text per page, engine, markdown."""
    paper = {"task_index": task["task_index"], "num_pages": 0, "markdown": "", "error": "",
             "engine_pages": "[]", "fallbacks": "[]"}
    fallbacks = Fallbacks()
    try:
        rows = list(read_pdf_pages(task, filesystem=filesystem, engine=engine))
        if rows and rows[0]["error"]:
            return {**paper, "error": rows[0]["error"]}
        # the layout step never raises (each rule falls back on its block): what is caught here is
        # the engine itself failing (an OCR runtime), which no block of the paper survives
        markdown = markdown_of(read_pages(engine, rows), fallbacks)
    except Exception as exc:  # noqa: BLE001 - one paper's failure must not fail its block's papers
        return {**paper, "error": f"{type(exc).__name__}: {exc}"[:300]}
    routes = [row.get("route") or engine.name for row in rows]
    empty = empty_reason(markdown, routes)
    if empty:
        return {**paper, "error": empty, "engine_pages": json.dumps(routes)}
    return {**paper, "num_pages": len(rows), "markdown": markdown, "engine_pages": json.dumps(routes),
            "fallbacks": json.dumps(paper_fallbacks(fallbacks, routes, rows[0].get("notes") or ""))}


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
        "fallbacks": pa.array([p["fallbacks"] for p in papers], type=pa.string()),
    })


def single_stage(engine: Engine) -> bool:
    """True for engines that need no image, actor, GPU or Ray Data LLM stage (``text-layer``)."""
    return not (engine.needs_image or engine.uses_actor or engine.num_gpus or builds_stage(engine))


def apply_engine(engine: Engine, batch: pa.Table) -> pa.Table:
    """Replace page payloads by engine text; images never travel back to the driver."""
    rows = batch.to_pylist()
    page_texts = read_pages(engine, rows)
    return pa.table(
        {
            "task_index": batch["task_index"],
            "forum_id": batch["forum_id"],
            "page_index": batch["page_index"],
            "num_pages": batch["num_pages"],
            "error": batch["error"],
            "page_text": pa.array(page_texts, type=pa.string()),
            # read after the engine ran: recoded pages moved back to the text layer (``text_repair``)
            "page_engine": pa.array([row["route"] for row in rows], type=pa.string()),
            "notes": pa.array([row.get("notes") or "" for row in rows], type=pa.string()),
        }
    )


def engine_texts(engine: Engine, pages: list[dict[str, Any]]) -> list[str]:
    """``engine.process_batch(pages)``; when it raises, page by page, so that a page the engine
    fails on (an image the OCR runtime rejects) costs that page: it keeps what its text layer has
    (route ``text-layer:ocr_failed``), or is an empty page (``<engine>:failed``) without one.
    An engine that fails on every page of a batch of several is broken, not stopped by a page: its
    error is raised (the run fails and says why, ``crash_rerun`` tells it from a dead process)."""
    try:
        return engine.process_batch(pages)
    except Exception:  # noqa: BLE001 - find the page, keep the others
        if len(pages) == 1:
            return [_text_layer_instead(engine, pages[0])]
        texts: list[str | None] = [_page_text(engine, page) for page in pages]
        if all(text is None for text in texts):
            raise
    return [_text_layer_instead(engine, page) if text is None else text
            for page, text in zip(pages, texts, strict=True)]


def _page_text(engine: Engine, page: dict[str, Any]) -> str | None:
    try:
        return engine.process_batch([page])[0]
    except Exception:  # noqa: BLE001 - this page only
        return None


def _text_layer_instead(engine: Engine, page: dict[str, Any]) -> str:
    text = page.get("text") or ""
    page["route"] = f"text-layer:{OCR_FAILED}" if text else f"{engine.name}:{FAILED}"
    return text


def read_pages(engine: Engine, rows: list[dict[str, Any]]) -> list[str]:
    """Each page row's text: the engine's (``engine_texts``), but for rows no engine reads: an
    unreadable PDF's error row, a page PDFium failed on and an empty page (``""``), and a page read
    as plain text (its text)."""
    own = [_own_text(row) for row in rows]  # before the engine marks any page
    pages = [row for row, text in zip(rows, own, strict=True) if text is None]
    texts = iter(engine_texts(engine, pages) if pages else [])
    return [next(texts) if text is None else text for text in own]


def _own_text(row: dict[str, Any]) -> str | None:
    route = row.get("route") or ""
    # a page PDFium failed on, and an empty page (nothing drawn, a scanned empty sheet: ``blank``),
    # whatever the engine: an OCR engine would read specks, or nothing, and the page would count unread
    if row.get("error") or route.endswith((f":{FAILED}", f":{BLANK}")):
        return ""
    return (row.get("text") or "") if route.endswith(f":{PLAIN}") else None


def run_engine_task(batch: pa.Table, *, engine: Engine) -> pa.Table:
    """Stateless map_batches UDF; setup runs per batch, so only for cheap engines."""
    engine.setup()
    return apply_engine(engine, batch)


class EngineActor:
    """map_batches UDF for engines holding a model: setup once per actor."""

    def __init__(self, engine: Engine):
        engine.setup()
        self.engine = engine

    def __call__(self, batch: pa.Table) -> pa.Table:
        return apply_engine(self.engine, batch)

    def apply_to_paper(self, pages: pa.Table) -> pa.Table:
        """``crash_rerun.rerun_alone``: all page rows of one paper, in batches of ``batch_size``."""
        return apply_engine_in_batches(self.engine, pages)


def apply_engine_in_batches(engine: Engine, pages: pa.Table) -> pa.Table:
    size = max(1, int(engine.batch_size))
    return pa.concat_tables([apply_engine(engine, pages.slice(start, size))
                             for start in range(0, pages.num_rows, size)])



def task_items(tasks: list[PdfTask]) -> list[dict[str, Any]]:
    """The rows the reading step takes: a PDF and its index in ``tasks`` (papers are put back in
    order by it)."""
    return [{"task_index": index, "forum_id": task.forum_id, "pdf_path": task.pdf_path}
            for index, task in enumerate(tasks)]


def with_crash_retries(transform, fn, *, retries_arg: str = "max_retries", **kwargs):
    """``transform(fn, ..., max_retries=CRASH_RETRIES)`` (``retries_arg="max_task_retries"`` for an
    actor pool): Ray 2.60 has no named parameter for retries, only ``**ray_remote_args``, which
    warns that Ray 2.64 removes it. Silence that one warning (every run would print it); a Ray
    without the keyword will raise here instead."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "`ray_remote_args` is deprecated", DeprecationWarning)
        return transform(fn, **{retries_arg: CRASH_RETRIES}, **kwargs)


def read_cpus(engine: Engine) -> float:
    return 0.5 if engine.needs_image else 1


def builds_stage(engine: Engine) -> bool:
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

    if builds_stage(engine):
        stage_engine = getattr(engine, "ocr", None) or engine
        return stage_engine.build_stage(pages)
    engine_args = {"batch_size": engine.batch_size, "batch_format": "pyarrow", **engine_resources(engine)}
    if engine.uses_actor:
        return with_crash_retries(
            pages.map_batches,
            EngineActor,
            retries_arg="max_task_retries",
            fn_constructor_kwargs={"engine": engine},
            compute=ray.data.ActorPoolStrategy(min_size=1, max_size=max_actors(engine)),
            **engine_args,
        )
    return with_crash_retries(pages.map_batches, run_engine_task, fn_kwargs={"engine": engine},
                               **engine_args)


def engine_resources(engine: Engine) -> dict[str, Any]:
    """Ray resources of one engine task or actor (GPUs only when the engine uses some)."""
    return {"num_cpus": engine.num_cpus, **({"num_gpus": engine.num_gpus} if engine.num_gpus else {})}


def max_actors(engine: Engine) -> int:
    """Actors that leave one CPU to the read/render tasks (at least one actor)."""
    import ray

    limit = getattr(engine, "max_actors", None)
    if limit:
        return limit
    if engine.num_gpus:
        return max(1, int(ray.cluster_resources().get("GPU", 1) // engine.num_gpus))
    cpus = ray.cluster_resources().get("CPU", 2)
    return max(1, int((cpus - 1) // max(engine.num_cpus, 0.1)))


def make_paper(task: PdfTask, engine: Engine, *, markdown="", num_pages=0, error=None,
               routes: list[str] | None = None, fallbacks: list[dict] | None = None) -> PaperMarkdown:
    routes = list(routes or [])
    return PaperMarkdown(
        forum_id=task.forum_id,
        markdown=markdown,
        num_pages=num_pages,
        engine=engine.name,
        model=engine.model,
        error=error,
        pages_by_engine=count_routes(routes),
        page_routes=routes,
        fallbacks=list(fallbacks or []),
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
    routes: dict[int, str] = {}  # page_index -> engine[:reason], of paper ``done``
    for row in rows:
        index = row["task_index"]
        if index < done:  # the other rows of a paper already yielded as an error (vllm page error)
            continue
        if index > done:  # rows skipped papers: they (and the open one) lost their rows
            lost.extend(range(done, index))
            done, pages, routes = index, {}, {}
        if row["error"]:  # unreadable PDF (page_index -1), or a page the engine failed on (vllm)
            yield make_paper(tasks[index], engine, error=row["error"])
            done, pages, routes = index + 1, {}, {}
            continue
        pages[row["page_index"]] = row["page_text"]
        routes[row["page_index"]] = row.get("page_engine") or engine.name
        if len(pages) == row["num_pages"]:
            order = range(len(pages))
            fallbacks = Fallbacks()
            try:
                markdown, error = markdown_of([pages[i] for i in order], fallbacks), None
            except Exception as exc:  # noqa: BLE001 - the layout step falls back per block; this is a last resort
                markdown, error = "", f"layout step failed: {type(exc).__name__}: {exc}"[:300]
            paper_routes = [routes[i] for i in order]
            if error is None:
                error = empty_reason(markdown, paper_routes)
                markdown = "" if error else markdown
            yield make_paper(tasks[index], engine, markdown=markdown, num_pages=0 if error else len(pages),
                             error=error, routes=[] if error else paper_routes,
                             fallbacks=[] if error else paper_fallbacks(fallbacks, paper_routes,
                                                                         row.get("notes") or ""))
            done, pages, routes = index + 1, {}, {}
    lost.extend(range(done, len(tasks)))


def paper_from_row(task: PdfTask, engine: Engine, row: dict[str, Any]) -> PaperMarkdown:
    return make_paper(task, engine, markdown=row["markdown"], num_pages=row["num_pages"],
                      error=row["error"] or None, routes=json.loads(row["engine_pages"]) or [],
                      fallbacks=json.loads(row.get("fallbacks") or "[]"))


