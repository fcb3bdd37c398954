"""run_pipeline on a real local Ray (2 CPUs, started once per session)."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

import pyarrow.fs as pafs
import pytest
from ray.data import DataContext

from ocr_ray import engines
from ocr_ray.conversion import PAGE_SEPARATOR, PdfTask
from ocr_ray.engine_base import Engine, EngineNotAvailableError
from ocr_ray.engines import get_engine, register_engine
from ocr_ray.pipeline import run_pipeline

from .conftest import page_sentences

GOOD = {"paperA": 3, "paperB": 2, "paperC": 3}
BROKEN = {
    "truncated": "truncated",
    "corrupt": "corrupt",
    "notpdf": "not a PDF",
    "missing": "missing file",
    "locked": "encrypted",
    "empty": "zero pages",
}


def test_engine_registry_errors():
    with pytest.raises(ValueError, match="known engines: .*text-layer"):
        get_engine("no-such-engine")
    with pytest.raises(EngineNotAvailableError, match="not available"):
        get_engine("nemotron")
    try:
        import vllm  # noqa: F401
    except ImportError:  # here: the vllm engine exists but says why it cannot run
        with pytest.raises(EngineNotAvailableError, match=r"reviewbench\[gpu\]"):
            get_engine("vllm").check_available()
        with pytest.raises(EngineNotAvailableError):
            run_pipeline([PdfTask("x", "/nowhere.pdf")], engine="vllm")
    # Validation happens at call time, before Ray would start.
    with pytest.raises(ValueError):
        run_pipeline([PdfTask("x", "/nowhere.pdf")], engine="bogus")


def test_no_tasks_needs_no_ray():
    assert list(run_pipeline([])) == []


@pytest.mark.slow
def test_good_and_broken_pdfs(ray_session, pdf_corpus, monkeypatch):
    # Broken files sit between good ones: the good ones must be unaffected.
    monkeypatch.chdir(pdf_corpus["paperA"].parent)  # one path is relative to the driver's cwd
    order = ["paperA", "truncated", "corrupt", "paperB", "notpdf", "missing", "locked", "empty", "paperC"]
    tasks = [PdfTask(forum_id, str(pdf_corpus[forum_id])) for forum_id in order]
    tasks[0] = PdfTask("paperA", "paperA.pdf")

    results = list(run_pipeline(tasks))

    assert [paper.forum_id for paper in results] == order
    assert ray_session.is_initialized()  # the caller's Ray is left running
    # Order is set on the dataset's own context copy, not the caller's global one.
    assert DataContext.get_current().execution_options.preserve_order is False
    by_id = {paper.forum_id: paper for paper in results}
    for forum_id, num_pages in GOOD.items():
        paper = by_id[forum_id]
        assert paper.error is None
        assert (paper.num_pages, paper.engine, paper.model) == (num_pages, "text-layer", None)
        pages = paper.markdown.split(PAGE_SEPARATOR)
        assert len(pages) == num_pages
        for page_number, page in enumerate(pages, start=1):
            left, right = page_sentences(forum_id, page_number)
            assert left in page and right in page
            assert page.index(left) < page.index(right)  # column order kept
            assert "\r" not in page
    for forum_id, reason in BROKEN.items():
        paper = by_id[forum_id]
        assert paper.markdown == "" and paper.num_pages == 0
        assert paper.error and reason in paper.error, (forum_id, paper.error)


@dataclass
class ImageSizeEngine(Engine):
    """Test engine on the image path: reports each page's JPEG size, via actors."""

    name: str = "image-size"
    model: str | None = "test/jpeg-size"
    needs_image: bool = True
    image_longest_side: int = 200
    uses_actor: bool = True
    num_cpus: float = 0.5
    loaded: bool = False

    def setup(self) -> None:
        self.loaded = True

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        assert self.loaded, "setup() must run in the actor before batches"
        return [f"jpeg:{page['image'][:3].hex()}:{page['page_index']}" for page in pages]


@pytest.mark.slow
def test_image_engine_through_actor_pool(ray_session, pdf_corpus, monkeypatch):
    from ray import cloudpickle

    # Ray workers cannot import this test module; ship the engine class by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    monkeypatch.setitem(engines._ENGINES, "image-size", ImageSizeEngine)
    tasks = [PdfTask("paperB", str(pdf_corpus["paperB"])), PdfTask("notpdf", str(pdf_corpus["notpdf"]))]

    good, broken = run_pipeline(tasks, engine="image-size")

    # ffd8ff: JPEG magic, i.e. the page really was rendered and encoded.
    assert good.markdown == PAGE_SEPARATOR.join(["jpeg:ffd8ff:0", "jpeg:ffd8ff:1"])
    assert (good.engine, good.model, good.num_pages) == ("image-size", "test/jpeg-size", 2)
    assert broken.error and "not a PDF" in broken.error


def test_register_engine(monkeypatch):
    monkeypatch.setattr(engines, "_ENGINES", dict(engines._ENGINES))
    register_engine("image-size", ImageSizeEngine)
    assert get_engine("image-size").needs_image


@pytest.mark.slow
def test_page_rows_arrive_in_task_and_page_order(ray_session, pdf_corpus):
    """Two-stage engines: the driver's assembly relies on contiguous, ordered page rows for flat memory."""
    from dataclasses import replace

    from ocr_ray.pipeline import build_dataset, single_stage

    # the text layer through an actor pool takes the two-stage path (like rapidocr / auto) cheaply
    engine = replace(get_engine("text-layer"), uses_actor=True, num_cpus=0.5)
    assert not single_stage(engine)
    order = ["paperA", "notpdf", "paperB", "paperC"] * 3
    tasks = [PdfTask(f"{forum_id}-{n}", str(pdf_corpus[forum_id])) for n, forum_id in enumerate(order)]
    dataset = build_dataset(tasks, pafs.LocalFileSystem(), engine)
    assert dataset.context.execution_options.preserve_order

    keys = [(row["task_index"], row["page_index"]) for row in dataset.iter_rows()]

    assert keys == sorted(keys)
    assert len(keys) == 3 * (3 + 1 + 2 + 3)
    papers = list(run_pipeline(tasks, engine=engine))
    assert [p.num_pages for p in papers] == [3, 0, 2, 3] * 3
    assert all(p.pages_by_engine == {"text-layer": p.num_pages} for p in papers if not p.error)


@pytest.mark.slow
def test_text_layer_is_one_stage_of_whole_papers_in_order(ray_session, pdf_corpus, monkeypatch):
    """text-layer: one map_batches over blocks of whole PDFs, one finished paper row per PDF, in task
    order; a broken PDF inside a block fails alone."""
    from ocr_ray import pipeline

    monkeypatch.setattr(pipeline, "PDFS_PER_TASK", 5)
    engine = get_engine("text-layer")
    assert pipeline.single_stage(engine)
    order = ["paperA", "notpdf", "paperB", "corrupt", "paperC", "truncated"] * 4
    tasks = [PdfTask(f"{forum_id}-{n}", str(pdf_corpus[forum_id])) for n, forum_id in enumerate(order)]
    dataset = pipeline.build_dataset(tasks, pafs.LocalFileSystem(), engine)
    assert dataset.context.execution_options.preserve_order

    rows = list(dataset.iter_rows())

    assert [row["task_index"] for row in rows] == list(range(len(tasks)))
    papers = list(run_pipeline(tasks, engine=engine))
    assert [p.forum_id for p in papers] == [t.forum_id for t in tasks]
    for paper, forum_id in zip(papers, order, strict=False):
        if forum_id in GOOD:
            assert paper.error is None and paper.num_pages == GOOD[forum_id]
            assert paper.pages_by_engine == {"text-layer": GOOD[forum_id]}
            base = paper.forum_id.split("-")[0]
            assert page_sentences(base, GOOD[forum_id])[1] in paper.markdown.split(PAGE_SEPARATOR)[-1]
        else:
            assert paper.error and paper.markdown == "" and paper.num_pages == 0


@pytest.mark.parametrize("name", ["text-layer", "auto"])
def test_a_broken_font_is_recoded_through_ray(ray_session, tmp_path, name):
    """Through Ray (``auto``: the OCR engine in its own actor stage), a paper whose font lies is
    recoded from a strip of its own lines and its pages report ``text-layer:recoded``; the other
    paper of the run, born digital, keeps ``text-layer:prose``."""
    from benchmarks.fulltext import harness

    docs = {d.variant: d for d in harness.build_set(tmp_path, papers=["twocol_layout"], variants=("digital", "broken"))}
    tasks = [PdfTask("broken", str(docs["broken"].pdf)), PdfTask("digital", str(docs["digital"].pdf))]
    papers = {p.forum_id: p for p in run_pipeline(tasks, engine=name)}
    assert papers["broken"].error is None
    assert papers["broken"].page_routes == ["text-layer:recoded"] * 3
    assert papers["digital"].page_routes == ["text-layer:prose"] * 3
    assert "reading order of two-column pages from the positions of characters alone" in papers["broken"].markdown
    assert papers["broken"].markdown.count("<table>") == 1


def test_a_paper_without_any_readable_text_gets_an_error_not_an_empty_text(tmp_path):
    """Issue 21.5: pages with something drawn on them but no text (the text layer has nothing, OCR
    finds nothing) give a per-paper error naming the pages' routes, never an empty markdown without
    a reason."""
    import pyarrow.fs as pafs
    from reportlab.pdfgen import canvas

    from ocr_ray.conversion import assemble_papers, convert_pdf, empty_reason
    from ocr_ray.engines import get_engine

    pdf = canvas.Canvas(str(tmp_path / "drawn.pdf"))
    for _ in range(2):  # a grey box on each page: drawn, but no word on it
        pdf.setFillGray(0.6)
        pdf.rect(100, 300, 300, 200, fill=1)
        pdf.showPage()
    pdf.save()
    engine = get_engine("text-layer")
    row = convert_pdf({"task_index": 0, "forum_id": "drawn", "pdf_path": str(tmp_path / "drawn.pdf")},
                      filesystem=pafs.LocalFileSystem(), engine=engine)
    assert row["markdown"] == "" and row["error"].startswith("no readable text on any of its 2 pages"), row
    # the two-stage path (page rows from an engine) says the same
    rows = [{"task_index": 0, "page_index": i, "num_pages": 2, "page_text": "", "error": "", "page_engine": "rapidocr:no_text"}
            for i in range(2)]
    [paper] = list(assemble_papers(rows, [PdfTask("drawn", "drawn.pdf")], engine, []))
    assert paper.markdown == "" and "rapidocr:no_text" in paper.error
    assert empty_reason("Some text.", ["text-layer"]) is None


def _blank_pdfs(tmp_path) -> tuple[str, str]:
    """A typeset paper with a blank page between its two pages of text (``\\newpage\\thispagestyle
    {empty}\\mbox{}\\newpage``), and a one-page PDF with nothing on its page."""
    import shutil
    import subprocess

    from reportlab.pdfgen import canvas

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    text = "{} page of the paper says what it says in a sentence of its own, long enough to be prose."
    (tmp_path / "gap.tex").write_text("\\documentclass{article}\n\\begin{document}\n" + text.format("The first")
                                      + "\n\\newpage\\thispagestyle{empty}\\mbox{}\\newpage\n" + text.format("The third")
                                      + "\n\\end{document}\n")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "gap.tex"], cwd=tmp_path, check=True,
                   capture_output=True, timeout=120)
    pdf = canvas.Canvas(str(tmp_path / "blank.pdf"))
    pdf.showPage()
    pdf.save()
    return str(tmp_path / "gap.pdf"), str(tmp_path / "blank.pdf")


@pytest.mark.parametrize("name", ["text-layer", "auto"])
def test_a_blank_page_is_an_empty_page_not_an_error(tmp_path, name):
    """Issue 27: a page with nothing drawn on it is an empty page in its place of the page sequence
    (never OCR'd), and a PDF of one blank page an empty paper of one page, not an error row."""
    from ocr_ray.conversion import assemble_papers, convert_pdf

    gap, blank = _blank_pdfs(tmp_path)
    engine = get_engine(name)
    rows = {}
    for path in (gap, blank):
        rows[path] = convert_pdf({"task_index": 0, "forum_id": "x", "pdf_path": path},
                                 filesystem=pafs.LocalFileSystem(), engine=engine)
    pages = rows[gap]["markdown"].split(PAGE_SEPARATOR)
    assert rows[gap]["error"] == "" and rows[gap]["num_pages"] == 3 and len(pages) == 3
    assert "The first page" in pages[0] and pages[1] == "" and "The third page" in pages[2]
    assert json.loads(rows[gap]["engine_pages"])[1] == "text-layer:blank"
    assert rows[blank] == {**rows[blank], "error": "", "num_pages": 1, "markdown": "",
                           "engine_pages": '["text-layer:blank"]'}
    # the two-stage path (page rows from the engine stage) keeps it too
    page_rows = [{"task_index": 0, "page_index": 0, "num_pages": 1, "page_text": "", "error": "",
                  "page_engine": "text-layer:blank"}]
    [paper] = list(assemble_papers(page_rows, [PdfTask("blank", blank)], engine, []))
    assert paper.error is None and paper.num_pages == 1 and paper.markdown == ""


@pytest.mark.slow
def test_blank_pages_through_ray_are_no_failures(ray_session, tmp_path):
    """The Ray path (as ``paper_markdown`` runs it): the blank PDF and the paper with a blank page
    come out without an error, every page counted."""
    gap, blank = _blank_pdfs(tmp_path)
    for name in ("text-layer", "auto"):
        papers = {p.forum_id: p for p in run_pipeline([PdfTask("gap", gap), PdfTask("blank", blank)], engine=name)}
        assert papers["blank"].error is None and papers["blank"].num_pages == 1, papers["blank"]
        assert papers["gap"].error is None and papers["gap"].num_pages == 3
        assert papers["gap"].markdown.split(PAGE_SEPARATOR)[1] == ""
        assert papers["blank"].page_routes == ["text-layer:blank"]
