"""The operation the crash-point suite kills (issue 29.4): one venue-year's whole pipeline, stage by
stage as its assets run it (the stage functions and `dagster_step.materialize`, which records the check
verdicts), without Dagster or HTTP:

crawl (raw forums, quarantine, errors, cursor; review-edit checkpoints) -> its check record ->
parsed forums + quarantine -> check record -> initial-submission PDFs (sources, PDFs, per-forum
checkpoints, the submissions table) -> markdown (cache per PDF, the table) -> dialogues + Re^2
records -> check record -> rows + provenance + statistics -> check record -> change log (snapshots,
trajectories, daily figures and plot) -> resubmissions (records, links, chains, left alone, state) ->
the iclr split (shards, part record, stats) -> the card and its plots.

Two generations: generation 1 is run once to make the root the trials start from; generation 2 has
two forums more and a reply more in another (so every stage publishes again), and is crawled with
`full_refresh` (so the crawl's page checkpoints are written, and their folder removed).
The fake API answers what the stages ask (the crawl's `/notes` paging, `/notes/edits`, the
submission invitation, PDF attachments) over the recorded ICLR 2026 forum; the OCR engine is an
in-process stand-in (the OCR itself is not a crash point: its cache write and the table are).
"""
from __future__ import annotations

import copy
import hashlib
import uuid
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass

from partitions.catalogue import catalogue
from resources.store import Store
from reviewbench_assets.dagster_step import guard_upstream, materialize
from reviewbench_assets.io import stage_io as split_writer
from reviewbench_assets.io.attempt import open_attempt
from reviewbench_assets.stages import paper_text
from reviewbench_assets.stages.card_stage import CardStage
from reviewbench_assets.stages.change_log import ChangesStage
from reviewbench_assets.stages.crawl_stage import CrawlStage
from reviewbench_assets.stages.dialogue_stage import DialogueStage
from reviewbench_assets.stages.paper_text import MarkdownStage
from reviewbench_assets.stages.parse_stage import ParseStage
from reviewbench_assets.stages.pdf_stage import PdfStage
from reviewbench_assets.stages.resubmission_stage import ResubmissionsStage
from reviewbench_assets.stages.rows_stage import RowsStage
from reviewbench_assets.stages.split_stage import UPSTREAM_GUARDED, SplitStage
from tests.stages.streamed import Streamed
from tests.stages.test_pdf_choice_stage import DUE, SUB_INV, edit, pdf
from tests.stages.test_refresh_stage import FakeApi as CrawlApi
from tests.stages.test_refresh_stage import _forums

PK = "iclr-2026"
SPLIT = "iclr"
SHARD_ROWS = 2  # rows a split shard, so a venue-year's publish moves several shards (as a large one does)


class PipelineApi:
    """The crawl's fake `/notes` (tests/stages/test_refresh_stage.py) and the PDF stage's fake
    invitation, edits and attachments (tests/stages/test_pdf_choice_stage.py) behind one client."""

    api = "v2"
    token = "fake-token"

    def __init__(self, generation: int, stamp_ms: int):
        self.stats: Counter = Counter()
        notes = _forums(1 + 2 * generation)  # generation 1: 3 forums; generation 2: 5
        if generation > 1:  # a new forum and a new reply in forum000, both after the last crawl
            reply = copy.deepcopy(notes[0]["details"]["replies"][-1])
            reply["id"] = f"{reply['id']}-gen{generation}"
            reply["tmdate"] = reply["tcdate"] = stamp_ms
            notes[0]["details"]["replies"].append(reply)
            for x in [notes[-1], *notes[-1]["details"]["replies"]]:
                x["tmdate"] = stamp_ms
        for n in notes:  # every note edited after the deadline: its PDF comes from its history
            n["tmdate"] = max(int(n.get("tmdate") or 0), DUE + 1)
        self.crawl = CrawlApi(notes)
        self.forum_ids = [n["id"] for n in notes]
        self.edits = {f: [edit(f"e-{f}", f, DUE - 3_600_000, SUB_INV)] for f in self.forum_ids}

    def thread_requests(self) -> int:
        return self.stats["requests"]

    def get_json(self, path: str, params: dict | None = None) -> dict:
        self.stats["requests"] += 1
        params = dict(params or {})
        if path == "/invitations":
            return {"invitations": [{"id": SUB_INV, "duedate": DUE, "expdate": DUE + 30 * 60_000}]}
        if path == "/notes/edits":
            return {"edits": self.edits.get(params.get("note.id"), [])}
        return self.crawl.get_json(path, params)

    def get_bytes(self, path: str, params: dict | None = None) -> bytes:
        self.stats["requests"] += 1
        params = dict(params or {})
        if path == "/notes/edits/attachment":
            return pdf(params["id"].removeprefix("e-"), 1)
        if path == "/pdf":
            return pdf(params["id"], 1)
        if path == "/notes":
            return self.crawl.get_bytes(path, params)
        raise AssertionError(f"unexpected request {path} {params}")

    def get_stream(self, path: str, params: dict | None = None):
        """What the PDF stage downloads with (stages/pdf_fetch.py, its staging): the body of get_bytes."""
        return Streamed(self.get_bytes(path, params))


@dataclass
class _Paper:
    forum_id: str
    markdown: str
    num_pages: int
    engine: str = "crash-harness"
    model: str | None = None
    error: str | None = None
    fallbacks: tuple = ()  # the blocks a layout rule failed on (ocr_ray.pipeline's paper result has them)

    @property
    def pages_by_engine(self) -> dict:
        return {self.engine: self.num_pages}


class _Engine:
    cache_id = "crash-harness-v1"


def _ocr(tasks, filesystem, engine, ray_address=None, num_cpus=None):
    """The OCR stand-in: a paper's markdown names its PDF's bytes (deterministic, in process)."""
    for t in tasks:
        with filesystem.open_input_stream(t.pdf_path) as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        yield _Paper(t.forum_id, f"# Paper {t.forum_id}\n\nPDF {digest[:16]}", 1)


_API: dict[tuple[int, int], PipelineApi] = {}


def _api(generation: int, stamp_ms: int) -> PipelineApi:
    if (generation, stamp_ms) not in _API:
        _API[generation, stamp_ms] = PipelineApi(generation, stamp_ms)
    return _API[generation, stamp_ms]


@contextmanager
def _patched():
    """The OCR stand-in and small split shards, for the run only: other tests of the same process
    get the real ones back (a small-shard writer once leaked into test_split_update)."""
    ocr, writer = paper_text.run_pipeline, split_writer.write_conference_split

    def small(fs, inputs, out, split, _target, _rows, **kw):
        return writer(fs, inputs, out, split, 1, SHARD_ROWS, **kw)

    paper_text.run_pipeline, split_writer.write_conference_split = _ocr, small
    try:
        yield
    finally:
        paper_text.run_pipeline, split_writer.write_conference_split = ocr, writer


def run_pipeline(store: Store, generation: int, stamp_ms: int = 0) -> None:
    """Every stage of the venue-year, in the order its assets run, as they run them. `stamp_ms`: when
    generation 2's new notes were modified (after generation 1's crawl; the same value in every run
    of a suite, so every run writes the same data)."""
    with _patched():
        _stages(store, generation, stamp_ms)


def _stages(store: Store, generation: int, stamp_ms: int) -> None:
    venue, api = catalogue().get(PK), _api(generation, stamp_ms)
    # the partition's attempt, as reviewbench_assets/dagster_step.py (partition_attempt) opens it; each run is a new run whose
    # predecessor is unknown to it (no Dagster instance here), so it starts a new attempt
    attempt = open_attempt(store, PK, uuid.uuid4().hex, None, lambda _run_id: None)
    # generation 2 re-crawls in full (the crawl's page checkpoints, then their folder removed)
    materialize(CrawlStage(venue, api, api, full_refresh=generation > 1,
                           attempt_continues=attempt.continues)(store), store)
    materialize(ParseStage(venue)(store), store)
    materialize(PdfStage(venue, api, None, max_workers=1)(store))  # one worker: the same call order each run
    materialize(MarkdownStage(PK, _Engine())(store))
    materialize(DialogueStage(venue, None)(store), store)
    guard_upstream(store, PK, UPSTREAM_GUARDED, False, lambda _m: None)
    materialize(RowsStage(venue, 1.0)(store), store)
    materialize(ChangesStage(PK)(store))
    materialize(ResubmissionsStage([PK])(store))  # corpus-level; the operation's one venue-year
    materialize(SplitStage(SPLIT)(store))
    materialize(CardStage()(store))
