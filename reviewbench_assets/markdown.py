"""paper_markdown: the chosen PDFs through the Ray OCR pipeline, one markdown per paper
(`stages.paper_text.convert_papers`); this module wires and reports."""

from collections import Counter

import dagster as dg

from ocr_ray.engines import get_engine
from partitions.definitions import venue_year_partitions
from resources import RayResource, StorageResource
from reviewbench_assets.domain.schema import MARKDOWN_SCHEMA
from reviewbench_assets.metadata import preview, table_metadata
from reviewbench_assets.stages.paper_text import convert_papers


class PaperMarkdownConfig(dg.Config):
    engine: str = "text-layer"  # see ocr_ray.engines: text-layer, rapidocr, auto, vllm


@dg.asset(partitions_def=venue_year_partitions, deps=["initial_submission_pdfs"], group_name="ocr",
          pool="ray", kinds={"ray", "python"}, code_version="2")
def paper_markdown(context: dg.AssetExecutionContext, config: PaperMarkdownConfig, ray: RayResource,
                   storage: StorageResource) -> dg.MaterializeResult:
    """pypdfium2 pages -> engine -> markdown (pages joined by the card's separator), cached per PDF."""
    engine = get_engine(config.engine)
    engine.check_available()
    r = convert_papers(context.partition_key, storage.store(), engine, ray_address=ray.address,
                       num_cpus=ray.num_cpus, log=context.log.info)
    rows = r.rows
    return dg.MaterializeResult(metadata={
        **table_metadata(MARKDOWN_SCHEMA, r.table.num_rows, r.out_path),
        "pages_ocrd": r.pages_ocrd, "papers_ocrd": r.papers_ocrd,
        "papers_cached_or_without_pdf": len(rows) - r.papers_ocrd,
        "pages_per_s": round(r.pages_ocrd / max(r.elapsed_s, 1e-6), 2),
        "papers_by_engine": dict(Counter(x["engine"] for x in rows if x["engine"])),
        "pages_by_engine": dict(r.page_split),
        "engine_cache_id": engine.cache_id, "empty_markdown": sum(1 for x in rows if not x["markdown"]),
        "errors": preview([x for x in rows if x["error"]], ["forum_id", "error"], limit=20),
    })
