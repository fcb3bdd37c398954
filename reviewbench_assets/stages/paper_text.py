"""The `paper_markdown` stage: the chosen PDFs of a venue-year through the Ray OCR pipeline, one
markdown per paper, cached per (PDF sha256, engine@version) so that nothing is OCR'd twice."""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pyarrow as pa

from ocr_ray.pipeline import PdfTask, run_pipeline
from resources.store import Store, parquet_writer
from reviewbench_assets import paths
from reviewbench_assets.domain.schema import MARKDOWN_SCHEMA
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.jsonl_io import Spool
from reviewbench_assets.stages.result import StageResult, Table

MARKDOWN_ROW_GROUP = 64


@dataclass
class MarkdownResult:
    out_path: str
    num_rows: int
    papers_ocrd: int
    pages_ocrd: int
    page_split: Counter          # pages per engine, this run's OCR and cached papers alike
    elapsed_s: float
    run_page_split: Counter = field(default_factory=Counter)  # pages per engine, this run's OCR only
    papers_by_engine: Counter = field(default_factory=Counter)  # the partition's papers per engine
    empty_markdown: int = 0
    errors: list[dict] = field(default_factory=list)  # {"forum_id", "error"} of the papers with one


def convert_papers(pk: str, store: Store, engine, *, ray_address: str | None = None,
                   num_cpus: int | None = None, log: Callable[[str], None] = lambda _m: None) -> MarkdownResult:
    """Every paper's markdown, OCR'd once per (PDF, engine) and cached. Results stream: each one is
    spooled to local scratch as it comes (cached, without PDF, or from the OCR), and the table is
    written from the spool in submission order, MARKDOWN_ROW_GROUP papers at a time, so the stage
    holds one row group of markdown, not the venue-year's."""
    cache_id = engine.cache_id  # (PDF sha256, engine, engine version): a new version redoes OCR
    subs = Upstream(store, pk).pdf_records(["forum_id", "pdf_sha256", "rule", "error"])
    with Spool() as spool:
        where: dict[str, tuple[int, int]] = {}  # forum id -> its result's line in the spool
        tasks = []
        for s in subs:
            if not s["pdf_sha256"]:
                where[s["forum_id"]] = spool.append({"markdown": "", "num_pages": 0, "engine": None, "model": None,
                                                     "error": s["error"] or f"no pdf ({s['rule']})"})
                continue
            cached = store.read_json_or_none(store.path(paths.markdown_cache(cache_id, s["pdf_sha256"])))
            if isinstance(cached, dict) and isinstance(cached.get("markdown"), str):
                where[s["forum_id"]] = spool.append(cached)  # same PDF, same engine: never OCR twice (corrupt = miss)
            elif not store.pdf_ok(s["pdf_sha256"]):  # never OCR (nor cache) bytes that are not the PDF
                where[s["forum_id"]] = spool.append({
                    "markdown": "", "num_pages": 0, "engine": None, "model": None,
                    "error": f"stored PDF {store.pdf_path(s['pdf_sha256'])} is missing or does not match its "
                             "sha256; re-materialize initial_submission_pdfs to download it again"})
            else:  # the path from the hash, not the record: records made under another root still work
                tasks.append(PdfTask(forum_id=s["forum_id"], pdf_path=store.pdf_path(s["pdf_sha256"])))
        sha_of = {s["forum_id"]: s["pdf_sha256"] for s in subs}
        log(f"{pk}: {len(where)} papers cached or without PDF, {len(tasks)} to OCR")

        started, pages = time.time(), 0
        if tasks:
            for i, paper in enumerate(run_pipeline(tasks, filesystem=store.fs, engine=engine,
                                                   ray_address=ray_address, num_cpus=num_cpus), 1):
                result = {"markdown": paper.markdown, "num_pages": paper.num_pages, "engine": paper.engine,
                          "model": paper.model, "error": paper.error, "pages_by_engine": paper.pages_by_engine}
                if paper.error is None:
                    store.write_json(store.path(paths.markdown_cache(cache_id, sha_of[paper.forum_id])), result)
                where[paper.forum_id] = spool.append(result)
                pages += paper.num_pages
                if i % 50 == 0 or i == len(tasks):
                    rate = pages / max(time.time() - started, 1e-6)
                    log(f"{pk}: OCR {i}/{len(tasks)} papers, {pages} pages ({rate:.1f} pages/s)")

        out = store.path(paths.markdown(pk))
        r = MarkdownResult(out_path=out, num_rows=len(subs), papers_ocrd=len(tasks), pages_ocrd=pages,
                           page_split=Counter(), elapsed_s=0.0)
        ocrd = {t.forum_id for t in tasks}
        # Row groups of a few dozen papers: a reader that joins on forum_id (stages/parquet_io.py:
        # ParquetLookup) holds one row group of markdown at a time, not the venue-year's; so does
        # this writer.
        store.write_with(out, lambda target: _write_rows(store, target, subs, spool, where, ocrd, r))
    r.elapsed_s = time.time() - started
    return r


def _write_rows(store: Store, target: str, subs: list[dict], spool: Spool, where: dict[str, tuple[int, int]],
                ocrd: set[str], r: MarkdownResult) -> None:
    """The table in submission order, one row group at a time, read back from the spool; the
    partition's figures (`r`) are counted on the way."""
    cols = MARKDOWN_SCHEMA.names
    with parquet_writer(store.fs, target, MARKDOWN_SCHEMA) as writer:
        for i in range(0, len(subs), MARKDOWN_ROW_GROUP):
            rows = []
            for s in subs[i:i + MARKDOWN_ROW_GROUP]:
                res = spool.read(*where[s["forum_id"]])
                by_engine = res.get("pages_by_engine") or ({res["engine"]: res["num_pages"]} if res.get("engine")
                                                           else {})
                r.page_split.update(by_engine)
                if s["forum_id"] in ocrd:
                    r.run_page_split.update(by_engine)
                if res.get("engine"):
                    r.papers_by_engine[res["engine"]] += 1
                r.empty_markdown += not res.get("markdown")
                if res.get("error"):
                    r.errors.append({"forum_id": s["forum_id"], "error": res["error"]})
                rows.append({"forum_id": s["forum_id"], "pdf_sha256": s["pdf_sha256"],
                             **{k: v for k, v in res.items() if k in cols}})
            writer.write_table(pa.Table.from_pylist(rows, schema=MARKDOWN_SCHEMA), row_group_size=MARKDOWN_ROW_GROUP)
        if not subs:  # an empty table still has its schema
            writer.write_table(MARKDOWN_SCHEMA.empty_table())


def markdown_stage_result(r: MarkdownResult, engine_cache_id: str) -> StageResult:
    """The `paper_markdown` stage's result in the one stage shape: this run's OCR and the partition's
    totals (cached papers included), and the papers with an error (first 20 shown)."""
    return StageResult(written={"path": r.out_path}, row_count=r.num_rows, counts={
        # this run's OCR ...
        "pages_ocrd": r.pages_ocrd, "papers_ocrd": r.papers_ocrd,
        "papers_cached_or_without_pdf": r.num_rows - r.papers_ocrd,
        "pages_per_s": round(r.pages_ocrd / max(r.elapsed_s, 1e-6), 2),
        "pages_by_engine_this_run": dict(r.run_page_split),
        # ... and the partition's totals (cached papers included)
        "papers_by_engine_total": dict(r.papers_by_engine),
        "pages_by_engine_total": dict(r.page_split),
        "engine_cache_id": engine_cache_id, "empty_markdown": r.empty_markdown,
        "errors": Table(r.errors, ["forum_id", "error"], limit=20, what="papers with an error"),
    })
