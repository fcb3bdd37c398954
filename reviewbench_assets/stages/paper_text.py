"""The `paper_markdown` stage: the chosen PDFs of a venue-year through the Ray OCR pipeline, one
markdown per paper, cached per (PDF sha256, engine@version) so that nothing is OCR'd twice."""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pyarrow as pa

from ocr_ray.pipeline import PdfTask, run_pipeline
from resources.store import Store
from reviewbench_assets import paths
from reviewbench_assets.domain.schema import MARKDOWN_SCHEMA

MARKDOWN_ROW_GROUP = 64


@dataclass
class MarkdownResult:
    rows: list[dict]
    table: pa.Table
    out_path: str
    papers_ocrd: int
    pages_ocrd: int
    page_split: Counter          # pages per engine, this run's OCR and cached papers alike
    elapsed_s: float
    run_page_split: Counter = field(default_factory=Counter)  # pages per engine, this run's OCR only


def convert_papers(pk: str, store: Store, engine, *, ray_address: str | None = None,
                   num_cpus: int | None = None, log: Callable[[str], None] = lambda _m: None) -> MarkdownResult:
    cache_id = engine.cache_id  # (PDF sha256, engine, engine version): a new version redoes OCR
    subs = store.read_parquet(store.path(paths.submissions(pk))).to_pylist()
    results: dict[str, dict] = {}
    tasks = []
    for s in subs:
        if not s["pdf_sha256"]:
            results[s["forum_id"]] = {"markdown": "", "num_pages": 0, "engine": None, "model": None,
                                      "error": s["error"] or f"no pdf ({s['rule']})"}
            continue
        cached = store.read_json_or_none(store.path(paths.markdown_cache(cache_id, s["pdf_sha256"])))
        if isinstance(cached, dict) and isinstance(cached.get("markdown"), str):
            results[s["forum_id"]] = cached  # same PDF, same engine: never OCR twice (corrupt = miss)
        elif not store.pdf_ok(s["pdf_sha256"]):  # never OCR (nor cache) bytes that are not the PDF
            results[s["forum_id"]] = {
                "markdown": "", "num_pages": 0, "engine": None, "model": None,
                "error": f"stored PDF {store.pdf_path(s['pdf_sha256'])} is missing or does not match its "
                         "sha256; re-materialize initial_submission_pdfs to download it again"}
        else:  # the path from the hash, not the record: records made under another root still work
            tasks.append(PdfTask(forum_id=s["forum_id"], pdf_path=store.pdf_path(s["pdf_sha256"])))
    sha_of = {s["forum_id"]: s["pdf_sha256"] for s in subs}
    log(f"{pk}: {len(results)} papers cached or without PDF, {len(tasks)} to OCR")

    started, pages = time.time(), 0
    if tasks:
        for i, paper in enumerate(run_pipeline(tasks, filesystem=store.fs, engine=engine,
                                               ray_address=ray_address, num_cpus=num_cpus), 1):
            result = {"markdown": paper.markdown, "num_pages": paper.num_pages, "engine": paper.engine,
                      "model": paper.model, "error": paper.error, "pages_by_engine": paper.pages_by_engine}
            if paper.error is None:
                store.write_json(store.path(paths.markdown_cache(cache_id, sha_of[paper.forum_id])), result)
            results[paper.forum_id] = result
            pages += paper.num_pages
            if i % 50 == 0 or i == len(tasks):
                rate = pages / max(time.time() - started, 1e-6)
                log(f"{pk}: OCR {i}/{len(tasks)} papers, {pages} pages ({rate:.1f} pages/s)")

    ocrd = {t.forum_id for t in tasks}
    page_split: Counter = Counter()
    run_split: Counter = Counter()
    for fid, r in results.items():
        by_engine = r.get("pages_by_engine") or ({r["engine"]: r["num_pages"]} if r.get("engine") else {})
        page_split.update(by_engine)
        if fid in ocrd:
            run_split.update(by_engine)
    cols = MARKDOWN_SCHEMA.names
    rows = [{"forum_id": s["forum_id"], "pdf_sha256": s["pdf_sha256"],
             **{k: v for k, v in results[s["forum_id"]].items() if k in cols}} for s in subs]
    table = pa.Table.from_pylist(rows, schema=MARKDOWN_SCHEMA)
    out = store.path(paths.markdown(pk))
    # Row groups of a few dozen papers: a reader that joins on forum_id (stages/parsed_io.py:
    # ParquetLookup) holds one row group of markdown at a time, not the venue-year's.
    store.write_parquet(out, table, row_group_size=MARKDOWN_ROW_GROUP)
    return MarkdownResult(rows=rows, table=table, out_path=out, papers_ocrd=len(tasks), pages_ocrd=pages,
                          page_split=page_split, elapsed_s=time.time() - started, run_page_split=run_split)
