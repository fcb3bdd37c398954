"""`stages.paper_text.MarkdownStage` without Dagster: real reportlab PDFs in a local store, the
`text-layer` engine on a local Ray (1 CPU), the per-(sha256, engine) markdown cache."""
from __future__ import annotations

import pytest

from ocr_ray.conversion import PAGE_SEPARATOR
from ocr_ray.engines import get_engine
from openreview_replica.pdfgen import PdfSpec, marker_text, render_pdf
from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.figures import ROW_COUNT
from reviewbench_assets.stages.paper_text import MarkdownStage
from reviewbench_assets.stages.pdf_stage import records_table
from tests.stages.figures_check import assert_every_figure

PK = "iclr-2026"


@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray")
    started_here = not ray.is_initialized()  # another package's fixture may own Ray
    if started_here:
        ray.init(num_cpus=1, include_dashboard=False, logging_level="ERROR")
    yield ray
    if started_here:
        ray.shutdown()


def _pdf(forum_id: str, pages: int) -> bytes:
    return render_pdf(PdfSpec(forum_id, 1, f"Paper {forum_id}", "An abstract.", pages, seed=7))


@pytest.mark.slow
def test_cached_markdown_reused_and_rotten_pdf_not_ocrd(tmp_path, ray_local):
    store = store_from_uri(str(tmp_path))
    sha_a, _, _ = store.put_pdf(_pdf("paperAAAA", 2))
    sha_b, _, _ = store.put_pdf(_pdf("paperBBBB", 1))
    sha_c, path_c, _ = store.put_pdf(_pdf("paperCCCC", 1))
    store.write_bytes(path_c, b"%PDF-1.4 these are not the bytes that were hashed")  # bit rot
    records = [{"forum_id": "paperAAAA", "rule": "initial", "pdf_sha256": sha_a, "error": None},
               {"forum_id": "paperBBBB", "rule": "current_is_initial", "pdf_sha256": sha_b, "error": None},
               {"forum_id": "paperCCCC", "rule": "initial", "pdf_sha256": sha_c, "error": None},
               {"forum_id": "paperDDDD", "rule": "unavailable", "pdf_sha256": None, "error": None}]
    store.write_parquet(store.path(paths.submissions(PK)), records_table(records))
    engine = get_engine("text-layer")

    first = MarkdownStage(PK, engine, num_cpus=1)(store)
    first_rows = store.read_parquet(first.figures["path"]).to_pylist()  # written from the spool, in submission order
    by = {r["forum_id"]: r for r in first_rows}
    assert [r["forum_id"] for r in first_rows] == ["paperAAAA", "paperBBBB", "paperCCCC", "paperDDDD"]
    f = first.figures
    assert_every_figure(first)
    assert first.figures[ROW_COUNT] == 4 and f["empty_markdown"] == 2 and f["papers_by_engine_total"] == {"text-layer": 2}
    assert [e["forum_id"] for e in f["papers_with_errors"].rows] == ["paperCCCC", "paperDDDD"]
    assert f["papers_ocrd"] == 2 and f["pages_ocrd"] == 3  # the rotten PDF was never OCR'd
    assert f["pages_by_engine_this_run"] == {"text-layer": 3} and f["papers_cached_or_without_pdf"] == 2
    assert by["paperAAAA"]["error"] is None and by["paperAAAA"]["num_pages"] == 2
    assert marker_text("paperAAAA", 1) in by["paperAAAA"]["markdown"]
    assert by["paperAAAA"]["markdown"].count(PAGE_SEPARATOR) == 1  # two pages
    assert by["paperBBBB"]["num_pages"] == 1 and marker_text("paperBBBB", 1) in by["paperBBBB"]["markdown"]
    assert "does not match its sha256" in by["paperCCCC"]["error"] and by["paperCCCC"]["markdown"] == ""
    assert by["paperDDDD"]["error"] == "no pdf (unavailable)"
    cache = store.path(paths.markdown_cache(engine.cache_id, sha_a))
    assert store.read_json(cache)["markdown"] == by["paperAAAA"]["markdown"]
    assert not store.exists(store.path(paths.markdown_cache(engine.cache_id, sha_c)))  # errors are not cached
    assert store.read_parquet(first.figures["path"]).num_rows == 4

    second = MarkdownStage(PK, engine, num_cpus=1)(store)
    f = second.figures
    assert f["papers_ocrd"] == 0 and f["pages_ocrd"] == 0 and not f["pages_by_engine_this_run"]
    assert f["pages_by_engine_total"] == {"text-layer": 3}  # the cached papers still count in the split
    second_rows = store.read_parquet(second.figures["path"]).to_pylist()
    assert [r["markdown"] for r in second_rows] == [r["markdown"] for r in first_rows]
    assert "does not match its sha256" in {r["forum_id"]: r for r in second_rows}["paperCCCC"]["error"]


@pytest.mark.slow
def test_a_blank_pdf_is_an_empty_paper_not_an_error(tmp_path, ray_local):
    """Issue 27: a PDF whose one page has nothing drawn on it is read as one empty page: no error
    row for the stage to report, and cached like any paper read in full."""
    from reportlab.pdfgen import canvas

    canvas_ = canvas.Canvas(str(tmp_path / "blank.pdf"))
    canvas_.showPage()
    canvas_.save()
    store = store_from_uri(str(tmp_path / "store"))
    sha, _, _ = store.put_pdf((tmp_path / "blank.pdf").read_bytes())
    store.write_parquet(store.path(paths.submissions(PK)), records_table(
        [{"forum_id": "blankPDF", "rule": "initial", "pdf_sha256": sha, "error": None}]))
    engine = get_engine("text-layer")
    result = MarkdownStage(PK, engine, num_cpus=1)(store)
    [row] = store.read_parquet(result.figures["path"]).to_pylist()
    assert result.figures["papers_with_errors"].rows == [] and row["error"] is None
    assert row["num_pages"] == 1 and row["markdown"] == ""
    assert result.figures["pages_by_engine_total"] == {"text-layer": 1}
    assert store.exists(store.path(paths.markdown_cache(engine.cache_id, sha)))
