"""paper_markdown: the chosen PDFs through the Ray OCR pipeline, one markdown per paper."""

import time
from collections import Counter

import dagster as dg
import pyarrow as pa

from ocr_ray.engines import get_engine
from ocr_ray.pipeline import PdfTask, run_pipeline
from partitions.definitions import venue_year_partitions
from resources import RayResource, StorageResource
from reviewbench_assets import paths
from reviewbench_assets.metadata import preview, table_metadata

MARKDOWN_SCHEMA = pa.schema([("forum_id", pa.string()), ("markdown", pa.string()),
                             ("num_pages", pa.int32()), ("engine", pa.string()), ("model", pa.string()),
                             ("pdf_sha256", pa.string()), ("error", pa.string())])


class PaperMarkdownConfig(dg.Config):
    engine: str = "text-layer"  # see ocr_ray.engines: text-layer, rapidocr, auto, vllm


@dg.asset(partitions_def=venue_year_partitions, deps=["initial_submission_pdfs"], group_name="ocr",
          pool="ray", kinds={"ray", "python"}, code_version="2")
def paper_markdown(context: dg.AssetExecutionContext, config: PaperMarkdownConfig, ray: RayResource,
                   storage: StorageResource) -> dg.MaterializeResult:
    """pypdfium2 pages -> engine -> markdown (pages joined by the card's separator), cached per PDF."""
    store = storage.store()
    pk = context.partition_key
    engine = get_engine(config.engine)
    engine.check_available()
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
    context.log.info(f"{pk}: {len(results)} papers cached or without PDF, {len(tasks)} to OCR")

    started, pages = time.time(), 0
    if tasks:
        for i, paper in enumerate(run_pipeline(tasks, filesystem=store.fs, engine=engine,
                                               ray_address=ray.address, num_cpus=ray.num_cpus), 1):
            result = {"markdown": paper.markdown, "num_pages": paper.num_pages, "engine": paper.engine,
                      "model": paper.model, "error": paper.error, "pages_by_engine": paper.pages_by_engine}
            if paper.error is None:
                store.write_json(store.path(paths.markdown_cache(cache_id, sha_of[paper.forum_id])), result)
            results[paper.forum_id] = result
            pages += paper.num_pages
            if i % 50 == 0 or i == len(tasks):
                rate = pages / max(time.time() - started, 1e-6)
                context.log.info(f"{pk}: OCR {i}/{len(tasks)} papers, {pages} pages ({rate:.1f} pages/s)")

    page_split: Counter = Counter()  # pages per engine, this run's OCR and cached papers alike
    for r in results.values():
        page_split.update(r.get("pages_by_engine") or ({r["engine"]: r["num_pages"]} if r.get("engine") else {}))
    cols = MARKDOWN_SCHEMA.names
    rows = [{"forum_id": s["forum_id"], "pdf_sha256": s["pdf_sha256"],
             **{k: v for k, v in results[s["forum_id"]].items() if k in cols}} for s in subs]
    table = pa.Table.from_pylist(rows, schema=MARKDOWN_SCHEMA)
    out = store.path(paths.markdown(pk))
    store.write_parquet(out, table)
    engines = Counter(r["engine"] for r in rows if r["engine"])
    return dg.MaterializeResult(metadata={
        **table_metadata(MARKDOWN_SCHEMA, table.num_rows, out),
        "pages_ocrd": pages, "papers_ocrd": len(tasks), "papers_cached_or_without_pdf": len(rows) - len(tasks),
        "pages_per_s": round(pages / max(time.time() - started, 1e-6), 2),
        "papers_by_engine": dict(engines), "pages_by_engine": dict(page_split),
        "engine_cache_id": cache_id, "empty_markdown": sum(1 for r in rows if not r["markdown"]),
        "errors": preview([r for r in rows if r["error"]], ["forum_id", "error"], limit=20),
    })
