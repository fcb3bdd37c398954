"""The `paper_markdown` stage: the chosen PDFs of a venue-year through the Ray OCR pipeline, one
markdown per paper, cached per (PDF sha256, engine@version) so that nothing is OCR'd twice."""
from __future__ import annotations

import json
import time
from collections.abc import Callable

import pyarrow as pa

from ocr_ray.layout.fallback import degraded_counts
from ocr_ray.pipeline import PdfTask, run_pipeline
from reviewbench_assets.domain.schema import MARKDOWN_SCHEMA
from reviewbench_assets.io.stage_io import Inputs, Outputs, Staging
from reviewbench_assets.io.upstream import Spool
from reviewbench_assets.stages.figures import MARKDOWN, ROW_COUNT, Table
from reviewbench_assets.stages.stage import Stage

MARKDOWN_ROW_GROUP = 64


class MarkdownStage(Stage):
    """`engine`: an ocr_ray engine (`ocr_ray.engines.get_engine`); Ray at `ray_address` (None: a
    local Ray with `num_cpus`)."""

    name = MARKDOWN
    reads = ("pdf_records", "stored_pdfs")
    writes = ("markdown", "markdown_cache")

    def __init__(self, pk: str, engine, *, ray_address: str | None = None, num_cpus: int | None = None,
                 log: Callable[[str], None] = lambda _m: None):
        super().__init__(pk)
        self.engine, self.ray_address, self.num_cpus, self.log = engine, ray_address, num_cpus, log

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        convert_papers(self, inputs, outputs)


def convert_papers(stage: MarkdownStage, inputs: Inputs, outputs: Outputs) -> None:
    """Every paper's markdown, OCR'd once per (PDF, engine) and cached. Results stream: each one is
    spooled to local scratch as it comes (cached, without PDF, or from the OCR), and the table is
    written from the spool in submission order, MARKDOWN_ROW_GROUP papers at a time, so the stage
    holds one row group of markdown, not the venue-year's."""
    pk, engine, log = stage.key, stage.engine, stage.log
    cache_id = engine.cache_id  # (PDF sha256, engine, engine version): a new version redoes OCR
    pdfs = inputs.stored_pdfs()
    subs = inputs.pdf_records(["forum_id", "pdf_sha256", "rule", "error"])
    with Spool() as spool:
        where: dict[str, tuple[int, int]] = {}  # forum id -> its result's line in the spool
        tasks = []
        for s in subs:
            if not s["pdf_sha256"]:
                where[s["forum_id"]] = spool.append({"markdown": "", "num_pages": 0, "engine": None, "model": None,
                                                     "error": s["error"] or f"no pdf ({s['rule']})"})
                continue
            cached = outputs.read_json("markdown_cache", cache_id, s["pdf_sha256"])
            if isinstance(cached, dict) and isinstance(cached.get("markdown"), str):
                where[s["forum_id"]] = spool.append(cached)  # same PDF, same engine: never OCR twice (corrupt = miss)
            elif not pdfs.ok(s["pdf_sha256"]):  # never OCR (nor cache) bytes that are not the PDF
                where[s["forum_id"]] = spool.append({
                    "markdown": "", "num_pages": 0, "engine": None, "model": None,
                    "error": f"stored PDF {pdfs.path(s['pdf_sha256'])} is missing or does not match its "
                             "sha256; re-materialize initial_submission_pdfs to download it again"})
            else:  # the path from the hash, not the record: records made under another root still work
                tasks.append(PdfTask(forum_id=s["forum_id"], pdf_path=pdfs.path(s["pdf_sha256"])))
        sha_of = {s["forum_id"]: s["pdf_sha256"] for s in subs}
        log(f"{pk}: {len(where)} papers cached or without PDF, {len(tasks)} to OCR")

        started, pages = time.time(), 0
        if tasks:
            for i, paper in enumerate(run_pipeline(tasks, filesystem=pdfs.filesystem, engine=engine,
                                                   ray_address=stage.ray_address, num_cpus=stage.num_cpus), 1):
                result = {"markdown": paper.markdown, "num_pages": paper.num_pages, "engine": paper.engine,
                          "model": paper.model, "error": paper.error, "pages_by_engine": paper.pages_by_engine,
                          "fallbacks": json.dumps(paper.fallbacks)}
                if paper.error is None:
                    outputs.write_json("markdown_cache", result, cache_id, sha_of[paper.forum_id])
                where[paper.forum_id] = spool.append(result)
                pages += paper.num_pages
                if i % 50 == 0 or i == len(tasks):
                    rate = pages / max(time.time() - started, 1e-6)
                    log(f"{pk}: OCR {i}/{len(tasks)} papers, {pages} pages ({rate:.1f} pages/s)")

        out = outputs.path("markdown")
        # this run's OCR ...
        stage.stat("path", out)
        stage.stat(ROW_COUNT, len(subs))
        stage.stat("pages_ocrd", pages)
        stage.stat("papers_ocrd", len(tasks))
        stage.stat("papers_cached_or_without_pdf", len(subs) - len(tasks))
        stage.stat("engine_cache_id", cache_id)
        # Row groups of a few dozen papers: a reader that joins on forum_id (io/upstream.py:
        # ParquetLookup) holds one row group of markdown at a time, not the venue-year's; so does
        # this writer.
        errors: list[dict] = []
        with outputs.publish() as pub:
            _write_rows(stage, pub, subs, spool, where, {t.forum_id for t in tasks}, errors)
        stage.stat("papers_with_errors", Table(errors, ["forum_id", "error"], limit=20, what="papers with an error"))
    elapsed = time.time() - started  # the OCR and the table written from its results
    stage.stat("ocr_s", round(elapsed, 3))
    stage.stat("pages_per_s", round(pages / max(elapsed, 1e-6), 2))


def _write_rows(stage: MarkdownStage, pub: Staging, subs: list[dict], spool: Spool,
                where: dict[str, tuple[int, int]], ocrd: set[str], errors: list[dict]) -> None:
    """The table in submission order, one row group at a time, read back from the spool; the
    partition's figures (cached papers included) are recorded on the way, the papers with an error
    listed in `errors`."""
    cols = MARKDOWN_SCHEMA.names
    stage.stat("pages_by_engine_this_run", {})  # shown when nothing was read, then counted per paper
    stage.stat("papers_by_engine_total", {})
    stage.stat("pages_by_engine_total", {})
    stage.stat("empty_markdown", 0)
    stage.stat("blocks_fallen_back", {})  # per <rule>:<reason> (ocr_ray.layout.fallback), counted per paper
    stage.stat("papers_with_fallbacks", 0)
    with pub.parquet("markdown", MARKDOWN_SCHEMA) as writer:
        for i in range(0, len(subs), MARKDOWN_ROW_GROUP):
            rows = []
            for s in subs[i:i + MARKDOWN_ROW_GROUP]:
                res = spool.read(*where[s["forum_id"]])
                by_engine = res.get("pages_by_engine") or ({res["engine"]: res["num_pages"]} if res.get("engine")
                                                           else {})
                stage.stat("pages_by_engine_total", by_engine)
                if s["forum_id"] in ocrd:
                    stage.stat("pages_by_engine_this_run", by_engine)
                if res.get("engine"):
                    stage.stat("papers_by_engine_total", {res["engine"]: 1})
                stage.stat("empty_markdown", int(not res.get("markdown")))
                fallbacks = json.loads(res.get("fallbacks") or "[]")
                stage.stat("blocks_fallen_back", degraded_counts(fallbacks))
                stage.stat("papers_with_fallbacks", int(bool(fallbacks)))
                if res.get("error"):
                    errors.append({"forum_id": s["forum_id"], "error": res["error"]})
                rows.append({"forum_id": s["forum_id"], "pdf_sha256": s["pdf_sha256"], "fallbacks": "[]",
                             **{k: v for k, v in res.items() if k in cols}})
            writer.write_table(pa.Table.from_pylist(rows, schema=MARKDOWN_SCHEMA), row_group_size=MARKDOWN_ROW_GROUP)
        if not subs:  # an empty table still has its schema
            writer.write_table(MARKDOWN_SCHEMA.empty_table())
