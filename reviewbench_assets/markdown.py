"""paper_markdown: the chosen PDFs through the Ray OCR pipeline, one markdown per paper
(`stages.paper_text.MarkdownStage`); this module wires and reports."""

import dagster as dg

from ocr_ray.engines import get_engine
from partitions.definitions import venue_year_partitions
from resources import RayResource, StorageResource
from reviewbench_assets.domain.schema import MARKDOWN_SCHEMA
from reviewbench_assets.metadata import column_schema, figures_table, materialize
from reviewbench_assets.stages.paper_text import MarkdownStage
from reviewbench_assets.stages.stage import MARKDOWN

MARKDOWN_COLUMNS = {"markdown": "the paper's text, pages joined by the card's page separator",
                    "num_pages": "pages of the PDF", "engine": "OCR engine that read the pages",
                    "model": "the engine's model (OCR engines with one)", "error": "why the paper has no markdown"}


class PaperMarkdownConfig(dg.Config):
    engine: str = "text-layer"  # see ocr_ray.engines: text-layer, rapidocr, auto, vllm


@dg.asset(partitions_def=venue_year_partitions, deps=["initial_submission_pdfs"], group_name="ocr",
          pool="ray", kinds={"ray", "python"}, code_version="2", metadata=figures_table(MARKDOWN))
def paper_markdown(context: dg.AssetExecutionContext, config: PaperMarkdownConfig, ray: RayResource,
                   storage: StorageResource) -> dg.MaterializeResult:
    """pypdfium2 pages -> engine -> markdown (pages joined by the card's separator), cached per PDF."""
    engine = get_engine(config.engine)
    engine.check_available()
    result = MarkdownStage(context.partition_key, engine, ray_address=ray.address, num_cpus=ray.num_cpus,
                           log=context.log.info)(storage.store())
    return materialize(result, extra={"dagster/column_schema": column_schema(MARKDOWN_SCHEMA, MARKDOWN_COLUMNS)})
