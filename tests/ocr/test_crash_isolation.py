"""A PDF that kills its worker process (a native crash in PDFium) fails alone, and the run goes on.

The crash is real: the test engines below send SIGSEGV to their own Ray worker process while
reading a page of the designated PDF, where PDFium would crash. They recognise it by its text
layer (the fixture PDFs say "... in paper <forum id> ..."), since ``prepare_page`` sees only the
page: that is the reading/rendering step, in both the one-stage and the two-stage path.
Each crash first appends a line to a log file, so the tests can count the attempts.

Without crash isolation Ray Data retries the crashed task forever (its tasks default to
``max_retries=-1``): the run hangs, hence the timeouts.
"""

from __future__ import annotations

import os
import signal
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import pytest

from ocr_ray import pipeline
from ocr_ray.engines import RapidOcrEngine, TextLayerEngine, page_text_layer
from ocr_ray.pipeline import PdfTask, run_pipeline

from .conftest import page_sentences, write_two_column_pdf

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

CRASH_ERROR = "renderer crashed: worker process died on this PDF (2 attempts; WorkerCrashedError)"


def _crash_if_marked(pdf_page, crash_log: str) -> None:
    if "in paper crash" in page_text_layer(pdf_page):
        with open(crash_log, "a") as log:
            log.write(f"{os.getpid()}\n")
        os.kill(os.getpid(), signal.SIGSEGV)  # what a PDFium bug does to the process


@dataclass
class SegfaultingTextLayer(TextLayerEngine):
    """text-layer whose reading step segfaults its process on a PDF that names a ``crash*`` paper."""

    crash_log: str = ""

    def prepare_page(self, pdf_page):
        _crash_if_marked(pdf_page, self.crash_log)
        return super().prepare_page(pdf_page)


@dataclass
class SegfaultingRapidOcr(RapidOcrEngine):
    """rapidocr whose render step segfaults its process on a PDF that names a ``crash*`` paper."""

    crash_log: str = ""

    def prepare_page(self, pdf_page):
        _crash_if_marked(pdf_page, self.crash_log)
        return super().prepare_page(pdf_page)


@dataclass
class BrokenSetup(TextLayerEngine):
    """An engine bug: a Python exception for every task, which no worker process dies of."""

    def setup(self) -> None:
        raise ValueError("broken engine setup")


@pytest.fixture
def crash_log(tmp_path) -> Path:
    from ray import cloudpickle

    # Ray workers cannot import this test module; ship the engine classes by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    return tmp_path / "crashes.log"


def _crashes(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def _tasks(pdf_corpus, tmp_path, names: list[str]) -> list[PdfTask]:
    """``paperX-N`` reads the corpus' paperX, ``notpdf-N`` its non-PDF, ``crash*`` a PDF naming itself."""
    tasks = []
    for n, name in enumerate(names):
        if name.startswith("crash"):
            tasks.append(PdfTask(name, str(write_two_column_pdf(tmp_path / f"{name}.pdf", name, 2))))
        else:
            tasks.append(PdfTask(f"{name}-{n}", str(pdf_corpus[name])))
    return tasks


def _check(results, tasks, engine, crash_log: Path, crashed_block: set[str]) -> None:
    """One paper per task; every paper as a run without the crasher makes it; the crasher's error;
    the crashed block's papers (rerun alone) last; two attempts in its block, two alone."""
    forum_ids = [paper.forum_id for paper in results]
    assert sorted(forum_ids) == sorted(task.forum_id for task in tasks)  # exactly one each
    crasher, = (task for task in tasks if task.forum_id.startswith("crash"))
    innocent = [task for task in tasks if task is not crasher]
    reference = {paper.forum_id: asdict(paper) for paper in run_pipeline(innocent, engine=engine)}
    by_id = {paper.forum_id: paper for paper in results}
    for task in innocent:
        assert asdict(by_id[task.forum_id]) == reference[task.forum_id], task.forum_id
    assert by_id[crasher.forum_id].error == CRASH_ERROR
    assert (by_id[crasher.forum_id].markdown, by_id[crasher.forum_id].num_pages) == ("", 0)
    order = [task.forum_id for task in tasks]
    rerun = [forum_id for forum_id in order if forum_id in crashed_block]
    assert forum_ids == [forum_id for forum_id in order if forum_id not in crashed_block] + rerun
    assert _crashes(crash_log) == 4


def test_single_stage_crash_fails_only_its_pdf(ray_session, pdf_corpus, tmp_path, crash_log):
    """text-layer: 16 PDFs make two tasks of 8; the crasher takes the first task down (twice), its
    7 neighbours (one a non-PDF) are rerun alone and come out as in a normal run."""
    engine = SegfaultingTextLayer(crash_log=str(crash_log))
    assert pipeline.single_stage(engine) and pipeline.PDFS_PER_TASK == 8
    names = ["paperA", "paperB", "crash", "notpdf", "paperC", "paperA", "paperB", "paperC"] + \
            ["paperC", "paperB", "paperA", "notpdf", "paperA", "paperB", "paperC", "paperA"]
    tasks = _tasks(pdf_corpus, tmp_path, names)

    results = list(run_pipeline(tasks, engine=engine))

    _check(results, tasks, engine, crash_log, {task.forum_id for task in tasks[:8]})
    by_id = {paper.forum_id: paper for paper in results}
    assert "not a PDF" in by_id["notpdf-3"].error  # a per-PDF error survives the rerun
    left, right = page_sentences("paperC", 3)
    assert left in by_id["paperC-4"].markdown and right in by_id["paperC-4"].markdown


def test_two_stage_crash_fails_only_its_pdf(ray_session, pdf_corpus, tmp_path, crash_log):
    """Two stages (reading tasks, engine actors; the text layer keeps it fast): blocks of 4 PDFs,
    the crasher's block drops, its neighbours are read alone and go through the engine stage."""
    engine = replace(SegfaultingTextLayer(crash_log=str(crash_log)), uses_actor=True, num_cpus=0.5)
    assert not pipeline.single_stage(engine) and pipeline.PDFS_PER_BLOCK == 4
    names = ["paperA", "paperB", "paperC", "notpdf", "paperB", "crash", "paperC", "paperA", "paperB"]
    tasks = _tasks(pdf_corpus, tmp_path, names)

    results = list(run_pipeline(tasks, engine=engine))

    # from_items puts 9 rows in 3 blocks of 3: the crasher (index 5) shares the second with 3 and 4
    _check(results, tasks, engine, crash_log, {task.forum_id for task in tasks[3:6]})
    by_id = {paper.forum_id: paper for paper in results}
    assert by_id["paperB-4"].error is None and by_id["paperB-4"].pages_by_engine == {"text-layer": 2}


def test_rapidocr_crash_in_render_fails_only_its_pdf(ray_session, tmp_path, crash_log):
    """The real OCR path (rendered JPEGs through the rerun, RapidOCR actors), kept small: one-page
    PDFs, the crasher between two neighbours in its block of 3."""
    engine = SegfaultingRapidOcr(crash_log=str(crash_log))
    tasks = [PdfTask(forum_id, str(write_two_column_pdf(tmp_path / f"{forum_id}.pdf", forum_id, 1)))
             for forum_id in ["paperP", "crash", "paperQ", "paperR", "paperS"]]

    results = list(run_pipeline(tasks, engine=engine))

    assert [paper.forum_id for paper in results] == ["paperR", "paperS", "paperP", "crash", "paperQ"]
    by_id = {paper.forum_id: paper for paper in results}
    assert by_id["crash"].error == CRASH_ERROR
    for forum_id in ("paperP", "paperQ", "paperR", "paperS"):
        paper = by_id[forum_id]
        assert paper.error is None and paper.pages_by_engine == {"rapidocr": 1}, forum_id
        left, right = page_sentences(forum_id, 1)
        assert left in paper.markdown and right in paper.markdown, (forum_id, paper.markdown)
    assert _crashes(crash_log) == 4


def test_python_exception_is_no_crash(ray_session, pdf_corpus, tmp_path, crash_log):
    """The first pass drops failed blocks whatever failed them; the rerun tells a Python exception
    from a dead worker and lets it fail the run, as it did before, instead of reporting crashes."""
    tasks = _tasks(pdf_corpus, tmp_path, ["paperA", "paperB", "paperC"])

    with pytest.raises(ValueError, match="broken engine setup"):
        list(run_pipeline(tasks, engine=BrokenSetup()))
