"""A PDF that kills its worker process (a native crash in PDFium) fails alone, and the run goes on.

The crash is real: the test engines below send SIGSEGV to their own Ray worker process while
reading a page of the designated PDF, where PDFium would crash. They recognise it by its text
layer (the fixture PDFs say "... in paper <forum id> ..."), since ``prepare_page`` sees only the
page: that is the reading/rendering step, in both the one-stage and the two-stage path.
Each crash first appends a line to a log file, so the tests can count the attempts.

The same for a crash in the engine stage (``process_batch`` of a two-stage engine, where
onnxruntime would crash on a page image): the engines named ``Engine*`` segfault there, on a batch
holding a page of the designated PDF, in an actor of the pool or in a stateless task.

Without crash isolation Ray Data retries the crashed task forever (its tasks default to
``max_retries=-1``, its actors to unlimited restarts and task retries): the run hangs, hence the
timeouts.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import pyarrow.fs as pafs
import pytest

from ocr_ray import crash_rerun, pipeline
from ocr_ray.engine_base import page_text_layer
from ocr_ray.ocr_engines import RapidOcrEngine
from ocr_ray.pipeline import PdfTask, run_pipeline
from ocr_ray.routing import TextLayerEngine

from .conftest import page_sentences, write_two_column_pdf

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

CRASH_ERROR = "renderer crashed: worker process died on this PDF (2 attempts; WorkerCrashedError)"
# An actor's last attempt may end as ActorDiedError or, the actor restarting, ActorUnavailableError.
ENGINE_CRASH_ERROR = re.compile(
    r"engine crashed: worker process died on this PDF's pages \(2 attempts; "
    r"(WorkerCrashedError|ActorDiedError|ActorUnavailableError)\)")


def _segfault(crash_log: str) -> None:
    """Log the attempt, then die as a native bug (PDFium, onnxruntime) kills its process."""
    with open(crash_log, "a") as log:
        log.write(f"{os.getpid()}\n")
    os.kill(os.getpid(), signal.SIGSEGV)


def _crash_if_marked(pdf_page, crash_log: str) -> None:
    if "in paper crash" in page_text_layer(pdf_page):
        _segfault(crash_log)


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


def _crash_if_pages_marked(pages, crash_log: str) -> None:
    if any("in paper crash" in (page["text"] or "") for page in pages):
        _segfault(crash_log)


@dataclass
class EngineSegfaultingTextLayer(TextLayerEngine):
    """text-layer whose engine step (``process_batch``) segfaults its process on a batch holding a
    page of a ``crash*`` paper. Two stages only with ``uses_actor`` (an actor pool) or
    ``needs_image`` (stateless engine tasks)."""

    crash_log: str = ""

    def process_batch(self, pages):
        _crash_if_pages_marked(pages, self.crash_log)
        return super().process_batch(pages)


@dataclass
class EngineSegfaultingRapidOcr(RapidOcrEngine):
    """rapidocr whose OCR step (``process_batch``, in its actors) segfaults on a ``crash*`` page."""

    crash_log: str = ""

    def process_batch(self, pages):
        _crash_if_pages_marked(pages, self.crash_log)
        return super().process_batch(pages)


@dataclass
class BrokenSetup(TextLayerEngine):
    """An engine bug: a Python exception for every task, which no worker process dies of."""

    def setup(self) -> None:
        raise ValueError("broken engine setup")


@dataclass
class BrokenBatch(TextLayerEngine):
    """An engine bug in the engine stage: a Python exception for every batch."""

    def process_batch(self, pages):
        raise ValueError("broken engine batch")


@pytest.fixture
def crash_log(tmp_path) -> Path:
    from ray import cloudpickle

    # Ray workers cannot import this test module; ship the engine classes by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    return tmp_path / "crashes.log"


ACTOR_DIED = {"ActorDiedError", "ActorUnavailableError"}


def _engine_crash(error: str | None) -> str:
    """The Ray error named by an engine-crash error (which must be one)."""
    match = ENGINE_CRASH_ERROR.fullmatch(error or "")
    assert match, error
    return match.group(1)


def _crashes(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def _tasks(pdf_corpus, tmp_path, names: list[str], crash_pages: int = 2) -> list[PdfTask]:
    """``paperX-N`` reads the corpus' paperX, ``notpdf-N`` its non-PDF, ``crash*`` a PDF naming itself."""
    tasks = []
    for n, name in enumerate(names):
        if name.startswith("crash"):
            path = write_two_column_pdf(tmp_path / f"{name}.pdf", name, crash_pages)
            tasks.append(PdfTask(name, str(path)))
        else:
            tasks.append(PdfTask(f"{name}-{n}", str(pdf_corpus[name])))
    return tasks


def _check_innocent(results, tasks, engine) -> tuple[list[str], PdfTask, dict]:
    """One paper per task, and every paper but the crasher's as a run without the crasher makes
    it; the crasher has no markdown. Returns (forum ids in result order, the crasher, papers by id)."""
    forum_ids = [paper.forum_id for paper in results]
    assert sorted(forum_ids) == sorted(task.forum_id for task in tasks)  # exactly one each
    crasher, = (task for task in tasks if task.forum_id.startswith("crash"))
    innocent = [task for task in tasks if task is not crasher]
    reference = {paper.forum_id: asdict(paper) for paper in run_pipeline(innocent, engine=engine)}
    by_id = {paper.forum_id: paper for paper in results}
    for task in innocent:
        assert asdict(by_id[task.forum_id]) == reference[task.forum_id], task.forum_id
    assert (by_id[crasher.forum_id].markdown, by_id[crasher.forum_id].num_pages) == ("", 0)
    return forum_ids, crasher, by_id


def _check(results, tasks, engine, crash_log: Path, crashed_block: set[str]) -> None:
    """One paper per task; every paper as a run without the crasher makes it; the crasher's error;
    the crashed block's papers (rerun alone) last; two attempts in its block, two alone."""
    forum_ids, crasher, by_id = _check_innocent(results, tasks, engine)
    assert by_id[crasher.forum_id].error == CRASH_ERROR
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


def _check_ocr_read(by_id: dict, forum_ids) -> None:
    """RapidOCR read each one-page paper whole: both columns' known sentences."""
    for forum_id in forum_ids:
        paper = by_id[forum_id]
        assert paper.error is None and paper.pages_by_engine == {"rapidocr": 1}, forum_id
        left, right = page_sentences(forum_id, 1)
        assert left in paper.markdown and right in paper.markdown, (forum_id, paper.markdown)


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
    _check_ocr_read(by_id, ("paperP", "paperQ", "paperR", "paperS"))
    assert _crashes(crash_log) == 4


def test_python_exception_is_no_crash(ray_session, pdf_corpus, tmp_path, crash_log):
    """The first pass drops failed blocks whatever failed them; the rerun tells a Python exception
    from a dead worker and lets it fail the run, as it did before, instead of reporting crashes."""
    tasks = _tasks(pdf_corpus, tmp_path, ["paperA", "paperB", "paperC"])

    with pytest.raises(ValueError, match="broken engine setup"):
        list(run_pipeline(tasks, engine=BrokenSetup()))


# ---------------------------------------------------------------- crashes in the engine stage


def _check_engine_crash(results, tasks, engine, crash_log: Path, caplog, died: set[str]) -> None:
    """One paper per task; every other paper as a run without the crasher makes it; the crasher's
    engine-crash error; the papers lost in the first pass (which ones depends on which engine tasks
    shared the crashed actor or batch) come last, each part in task order; the crasher's batch
    crashed twice in the first pass and twice alone."""
    forum_ids, crasher, by_id = _check_innocent(results, tasks, engine)
    assert _engine_crash(by_id[crasher.forum_id].error) in died
    _check_lost_last(forum_ids, tasks, crasher.forum_id, caplog)
    assert _crashes(crash_log) == 4


def _check_lost_last(forum_ids: list[str], tasks, crasher: str, caplog) -> None:
    """The papers lost in the first pass (the driver logs how many) come last, the crasher among
    them; the others before them; each part in task order."""
    counts = [re.match(r"(\d+) of (\d+) papers lost", record.getMessage()) for record in caplog.records]
    (lost, total), = [tuple(map(int, match.groups())) for match in counts if match]
    assert total == len(tasks) and crasher in forum_ids[-lost:]
    order = [task.forum_id for task in tasks]
    for part in (forum_ids[:-lost], forum_ids[-lost:]):
        assert part == sorted(part, key=order.index)


NAMES = ["paperA", "paperB", "paperC", "notpdf", "paperB", "crash", "paperC", "paperA", "paperB"]


@pytest.mark.timeout(120)
def test_engine_actor_crash_fails_only_its_pdf(ray_session, pdf_corpus, tmp_path, crash_log, caplog):
    """Two stages, the engine in an actor pool (the text layer keeps it fast; 4 pages a batch, so
    the pool has several batches to spread): an actor dies on the crasher's page, its batch is
    retried once on the restarted actor, dies again and drops; the lost papers are rerun alone,
    the crasher's page kills the engine twice more there and the paper gets the engine error."""
    caplog.set_level(logging.WARNING, logger=pipeline.__name__)
    engine = replace(EngineSegfaultingTextLayer(crash_log=str(crash_log)), uses_actor=True,
                     num_cpus=0.5, batch_size=4)
    assert not pipeline.single_stage(engine)
    tasks = _tasks(pdf_corpus, tmp_path, NAMES, crash_pages=1)  # a page in one batch: 2 crashes

    results = list(run_pipeline(tasks, engine=engine))

    _check_engine_crash(results, tasks, engine, crash_log, caplog, ACTOR_DIED)
    by_id = {paper.forum_id: paper for paper in results}
    assert by_id["paperB-4"].pages_by_engine == {"text-layer": 2}
    assert "not a PDF" in by_id["notpdf-3"].error


@pytest.mark.timeout(120)
def test_engine_task_crash_fails_only_its_pdf(ray_session, pdf_corpus, tmp_path, crash_log, caplog):
    """The same with a stateless engine (engine tasks, no actors: tiny rendered images make it two
    stages): the crashed task is retried once, then its batch drops; the rerun isolates the pages
    of each lost paper in a task of their own."""
    caplog.set_level(logging.WARNING, logger=pipeline.__name__)
    engine = replace(EngineSegfaultingTextLayer(crash_log=str(crash_log)), needs_image=True,
                     image_longest_side=32, batch_size=4)
    assert not pipeline.single_stage(engine) and not engine.uses_actor
    tasks = _tasks(pdf_corpus, tmp_path, NAMES, crash_pages=1)

    results = list(run_pipeline(tasks, engine=engine))

    _check_engine_crash(results, tasks, engine, crash_log, caplog, {"WorkerCrashedError"})


@pytest.mark.timeout(120)
def test_rapidocr_crash_in_engine_fails_only_its_pdf(ray_session, tmp_path, crash_log, caplog):
    """The real OCR path (RapidOCR actors, rendered pages), kept small: one-page PDFs, a crash in
    the OCR step of the crasher's page."""
    caplog.set_level(logging.WARNING, logger=pipeline.__name__)
    engine = EngineSegfaultingRapidOcr(crash_log=str(crash_log))
    tasks = [PdfTask(forum_id, str(write_two_column_pdf(tmp_path / f"{forum_id}.pdf", forum_id, 1)))
             for forum_id in ["paperP", "paperQ", "crash", "paperR", "paperS"]]

    results = list(run_pipeline(tasks, engine=engine))

    assert sorted(paper.forum_id for paper in results) == sorted(task.forum_id for task in tasks)
    by_id = {paper.forum_id: paper for paper in results}
    assert _engine_crash(by_id["crash"].error) in ACTOR_DIED
    _check_ocr_read(by_id, ("paperP", "paperQ", "paperR", "paperS"))
    _check_lost_last([paper.forum_id for paper in results], tasks, "crash", caplog)
    assert _crashes(crash_log) == 4


@pytest.mark.timeout(60)
@pytest.mark.parametrize("uses_actor", [True, False], ids=["actor", "task"])
def test_rerun_isolates_the_engine_per_pdf(ray_session, pdf_corpus, tmp_path, crash_log, uses_actor):
    """The second pass alone: each PDF's pages go through the engine on their own (an actor call or
    a task per paper, one retry), so the crasher's neighbours come out whole and in task order, and
    the crasher's engine death (twice: no more) becomes its error, whatever its batch-mates."""
    engine = replace(EngineSegfaultingTextLayer(crash_log=str(crash_log)), uses_actor=uses_actor,
                     needs_image=not uses_actor, image_longest_side=32, num_cpus=0.5)
    tasks = _tasks(pdf_corpus, tmp_path, ["paperA", "crash", "notpdf", "paperB"])

    results = list(crash_rerun.rerun_alone(tasks, pafs.LocalFileSystem(), engine))

    assert [paper.forum_id for paper in results] == [task.forum_id for task in tasks]
    others = run_pipeline(tasks[:1] + tasks[2:], engine=engine)
    reference = {paper.forum_id: asdict(paper) for paper in others}
    for paper in results[:1] + results[2:]:
        assert asdict(paper) == reference[paper.forum_id], paper.forum_id
    assert _engine_crash(results[1].error) in (ACTOR_DIED if uses_actor else {"WorkerCrashedError"})
    assert _crashes(crash_log) == 2


@pytest.mark.timeout(60)
@pytest.mark.parametrize("uses_actor", [True, False], ids=["actor", "task"])
def test_python_exception_in_engine_is_no_crash(ray_session, pdf_corpus, tmp_path, crash_log, uses_actor):
    """The engine stage's failed batches drop whatever failed them; the rerun's engine tells a
    Python exception from a dead process and lets it fail the run instead of reporting crashes."""
    engine = BrokenBatch(uses_actor=uses_actor, needs_image=not uses_actor, image_longest_side=32)
    assert not pipeline.single_stage(engine)
    tasks = _tasks(pdf_corpus, tmp_path, ["paperA", "paperB", "paperC"])

    with pytest.raises(ValueError, match="broken engine batch"):
        list(run_pipeline(tasks, engine=engine))


# ---------------------------------------------------------------- without Ray (ocr_ray.local_pool)

LOCAL_CRASH_ERROR = "renderer crashed: worker process died on this PDF (2 attempts; WorkerDied)"


def test_local_pool_crash_fails_only_its_pdf(ray_session, pdf_corpus, tmp_path, crash_log):
    """The no-Ray path (a local process pool, as the CLI takes for a few PDFs): the crasher's worker
    dies (SIGSEGV), the papers in flight with it are rerun alone, every other paper comes out as a
    Ray run without the crasher makes it (``_check_innocent``'s reference runs on Ray: ray_session),
    the crasher gets a crash error after two attempts alone (three in all, the first in the pool),
    and the suspects come last, in task order."""
    engine = SegfaultingTextLayer(crash_log=str(crash_log))
    names = ["paperA", "paperB", "crash", "notpdf", "paperC", "paperA", "paperB"]
    tasks = _tasks(pdf_corpus, tmp_path, names)

    results = list(run_pipeline(tasks, engine=engine, use_ray=False, num_cpus=2))

    forum_ids, crasher, by_id = _check_innocent(results, tasks, engine)
    assert by_id["crash"].error == LOCAL_CRASH_ERROR
    assert _crashes(crash_log) == 3
    order = [task.forum_id for task in tasks]
    split = 1
    while split < len(forum_ids) and order.index(forum_ids[split]) > order.index(forum_ids[split - 1]):
        split += 1
    normal, rerun = forum_ids[:split], forum_ids[split:]
    assert "crash" in rerun and len(rerun) <= 2  # the crasher and at most the one job in flight beside it
    assert rerun == sorted(rerun, key=order.index) and "paperB-6" in normal
    assert "not a PDF" in by_id["notpdf-3"].error


def test_local_pool_python_exception_is_no_crash(ray_session, pdf_corpus, tmp_path):
    """As on Ray: an engine whose setup raises fails the run, it is not reported as crashes."""
    tasks = _tasks(pdf_corpus, tmp_path, ["paperA", "paperB", "paperC"])

    with pytest.raises(ValueError, match="broken engine setup"):
        list(run_pipeline(tasks, engine=BrokenSetup(), use_ray=False))
