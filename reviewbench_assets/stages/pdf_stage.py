"""The `initial_submission_pdfs` stage: per forum of the venue-year, the initial submission's
revision chosen (domain/revisions.py), its PDF fetched once and stored (stages/pdf_fetch.py), and a
record that says why; its figures (this run's work and the partition's totals, a preview of the
chosen revisions) and the deadline check (a warning: a disagreement is reported, the cutoff rule
then says what was used). No Dagster here. The record is the provenance that travels with the
paper (rule, revision, deadline, sha256, size, pages, error).

At scale (`initial_submission_records`): revision choice and PDF downloads run in a bounded thread
pool that shares the API client's `RateLimiter` (so concurrency never exceeds OpenReview's
request budget), and v2 forums whose current PDF is the initial one (`current_is_initial`) are
fetched 50 at a time through `/attachment?ids=...&name=pdf` (one zip per rate-limited request,
openreview-api.md §0.2, §1.5). A PDF missing from a zip is fetched alone, so its error is the API's.
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

import pyarrow as pa

from resources.openreview_api import OpenReviewApi, OpenReviewError, stops_the_run
from reviewbench_assets.domain.posts import id_problem
from reviewbench_assets.domain.revisions import (
    Cutoff,
    Revision,
    RevisionChoice,
    choose_from_note,
    choose_revision,
    fingerprint,
    forum_meta,
    history_needed,
    revisions_from_page,
)
from reviewbench_assets.domain.schema import SUBMISSIONS_SCHEMA
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.io.stage_io import Inputs, Outputs
from reviewbench_assets.io.upstream import SubmissionNotes
from reviewbench_assets.stages.deadline_check import venue_deadline_check
from reviewbench_assets.stages.figures import DEADLINE, PDFS, ROW_COUNT, Table, iso_utc
from reviewbench_assets.stages.pdf_fetch import (
    ATTACHMENT_BATCH,
    FETCH_WRITES,
    REVISIONS_UNREADABLE,
    download_batch,
    download_one,
    error_fields,
)
from reviewbench_assets.stages.progress import Progress
from reviewbench_assets.stages.revision_answers import RevisionAnswers, api_revision_page, read_pages
from reviewbench_assets.stages.stage import Stage

DEADLINE_CHECK = DEADLINE
PREVIEW_COLUMNS = ["forum_id", "rule", "reason", "revision_id", "pdf_pages", "error"]


def _per_forum(records: list[dict], field: str) -> float | None:
    """Mean OpenReview requests per forum for `field`, over the forums this run (re)did."""
    vals = [r[field] for r in records if r.get(field) is not None]
    return round(sum(vals) / len(vals), 3) if vals else None


class PdfStage(Stage):
    """`scrape(forum_ids, on_done, notes)` reads revision pages in a browser (None: the API recipe
    only); the options are `SubmissionPdfConfig`'s (reviewbench_assets/assets.py)."""

    name = PDFS
    reads = ("submission_note_lookup",)
    writes = ("submissions", "submission_checkpoints", *FETCH_WRITES)

    def __init__(self, venue, api: OpenReviewApi,
                 scrape: Callable[[list[str], Callable[[str], None], dict], dict] | None, *,
                 cross_check: bool = False, allow_earliest_public: bool = True, max_workers: int = 8,
                 batch_attachments: bool = True, read_every_history: bool = False,
                 log: Callable[[str], None] = lambda _m: None, warn: Callable[[str], None] = lambda _m: None,
                 progress: Callable[[str, int], Progress] | None = None):
        super().__init__(venue.key)
        self.venue, self.api, self.scrape, self.log, self.warn, self.progress = venue, api, scrape, log, warn, progress
        self.cross_check, self.allow_earliest_public, self.max_workers = cross_check, allow_earliest_public, max_workers
        self.batch_attachments, self.read_every_history = batch_attachments, read_every_history

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        choose_initial_pdfs(self, inputs, outputs)

    def record_forums(self, records: list[dict], redone: set[str]) -> None:
        """Every forum's record (crawl order); `redone`: the forums this run (re)did, the others resumed."""
        this_run = [x for x in records if x["forum_id"] in redone]
        fresh = [x for x in records if x.get("revision_requests") is not None]
        # by reason code; a record written before codes (no `error_code`) by its words' old prefix
        errors = Counter(x.get("error_code") or x["error"].split(":")[0] for x in records if x.get("error"))
        self.stat("redone_forums", sorted(redone)[:50])
        self.stat("pdf_fetch_this_run", dict(Counter(x.get("pdf_fetch") or "none" for x in this_run)))
        # where each choice came from: browser page, API recipe, or the note alone (history not read)
        self.stat("revision_sources_this_run", dict(Counter(x.get("revision_source") or "none" for x in this_run)))
        self.stat("browser_failures", sum(1 for x in this_run if x.get("revision_source") == "api"
                                          and self.scrape is not None))
        # every OpenReview request per forum: the revision page's own API calls (or the API recipe
        # when the page failed) and the PDF downloads
        self.stat("revision_requests_per_forum", _per_forum(fresh, "revision_requests"))
        self.stat("pdf_requests_per_forum", _per_forum(fresh, "pdf_requests"))
        # ... and the partition's totals (this run's and resumed forums)
        self.stat("rules", dict(Counter(x["rule"] for x in records)))
        self.stat("pdfs_stored", sum(1 for x in records if x.get("pdf_sha256")))
        self.stat("errors", {k: v for k, v in errors.items() if k})
        self.stat("pdf_fetch_total", dict(Counter(x.get("pdf_fetch") or "none" for x in records)))
        self.stat("cross_check_disagreements",
                  sum(1 for x in records if (x.get("cross_check") or "").startswith("disagree")))
        self.stat("chosen_revisions", Table(records, PREVIEW_COLUMNS, limit=20, what="forums"))

    def record_deadline(self, check: dict) -> None:
        """The catalogue's deadline against the submission invitation's (stages/deadline_check.py venue_deadline_check)."""
        venue = self.venue
        self.stat("deadline_announced", venue.deadline.announced if venue.deadline else "rolling")
        self.stat("deadline_announced_utc", venue.submission_deadline.isoformat() if venue.deadline else "rolling")
        self.stat("deadline_source", venue.deadline.source if venue.deadline else "")
        self.stat("deadline_confidence", venue.deadline.confidence if venue.deadline else "")
        self.stat("deadline_invitations", check["invitations"])
        self.stat("deadline_check", check["status"])
        self.stat("deadline_disagreement_h", check.get("disagreement_h"))
        self.stat("cutoff", iso_utc(check.get("cutoff_ms")) or "none (rolling venue)")
        self.stat("cutoff_rule", check.get("cutoff_rule"))
        self.check(DEADLINE_CHECK, check["status"] in ("agree", "agree_abstract", "rolling"), severity="WARN",
                   metadata={"status": check["status"], "disagreement_h": check.get("disagreement_h"),
                             "problems": "; ".join(check.get("problems") or []) or "none",
                             "cutoff_rule": check.get("cutoff_rule")})


def is_done(prev, meta: dict, cutoff_ms: int | None, files: PdfFiles) -> bool:
    """A checkpoint is reused only when it is this note's and cutoff's FINAL answer and its PDF is
    in the store with the right bytes (a mismatch is downloaded again)."""
    if not isinstance(prev, dict) or prev.get("fingerprint") != fingerprint(meta, cutoff_ms):
        return False
    if prev.get("error") and prev.get("error_final") is not True:  # old records: no flag, redone
        return False
    return not prev.get("pdf_sha256") or files.pdf_ok(prev["pdf_sha256"])


# ---------------------------------------------------------------- one forum


def choose_for_forum(api: OpenReviewApi, meta: dict, deadline: Cutoff | int | None,
                     browser_result: list[Revision] | Exception | None, cross_check: bool,
                     allow_earliest_public: bool, page_requests: int = 0,
                     answers: RevisionAnswers | None = None) -> tuple[dict, RevisionChoice | None]:
    """Revision choice of one forum (API calls only when the browser failed or for the cross-check).
    `page_requests`: the OpenReview requests the browser's revision page made for this forum.
    `answers`: the API's answer is checkpointed as it arrives and reused by a re-run."""
    forum_id, cut = meta["forum_id"], Cutoff.of(deadline)
    record = {"forum_id": forum_id, "deadline_ms": cut.deadline_ms, "cutoff_ms": cut.cutoff_ms,
              "cutoff_rule": cut.rule, "error": None, "error_code": None, "fingerprint": fingerprint(meta, cut.cutoff_ms),
              "cross_check": None, "pdf_fetch": None}
    before, earlier = api.thread_requests(), 0  # earlier: requests of answers an earlier run received

    def choose(revs: list[Revision]) -> RevisionChoice:
        return choose_revision(revs, cut.cutoff_ms, forum_id, meta["invitations"], meta["pdf"],
                               allow_earliest_public)

    def api_choice() -> RevisionChoice:
        nonlocal earlier
        got = answers.get(meta, "api") if answers is not None else None
        if got is None:
            start = api.thread_requests()
            got = (api_revision_page(api, forum_id), {"api": api.thread_requests() - start})
            if answers is not None:
                answers.put(meta, "api", *got)
        else:
            earlier += int(got[1].get("api", 0))
        return choose(revisions_from_page(got[0]))

    def spent() -> float:
        return float(page_requests + api.thread_requests() - before + earlier)

    try:
        if isinstance(browser_result, dict):  # the page's own API answer (resources.browser.RevisionPage)
            choice, record["revision_source"] = choose(revisions_from_page(browser_result)), "browser"
            if cross_check:
                api_chose = api_choice()
                same = (api_chose.rule, api_chose.revision_id) == (choice.rule, choice.revision_id)
                record["cross_check"] = "agree" if same else (
                    f"disagree: api chose {api_chose.rule}/{api_chose.revision_id}")
        else:  # the browser failed for this forum: the API recipe gives the same answer
            choice, record["revision_source"] = api_choice(), "api"
            if browser_result is not None:
                record["cross_check"] = f"browser failed: {browser_result}"[:300]
    except OpenReviewError as exc:
        if stops_the_run(exc):
            raise
        return record | {"rule": "unavailable", "reason": f"revision history unreadable: {exc}"[:300],
                         "revision_source": "none", **error_fields(REVISIONS_UNREADABLE, "", exc),
                         "revision_requests": spent()}, None
    record |= {"rule": choice.rule, "reason": choice.reason, "revision_id": choice.revision_id,
               "revision_tcdate": choice.revision_tcdate, "revision_requests": spent()}
    return record, choice


# ---------------------------------------------------------------- many forums


def initial_submission_records(api: OpenReviewApi, files: PdfFiles, metas: list[dict],
                               deadline: Cutoff | int | None, browser_results: dict, *, cross_check: bool = False,
                               allow_earliest_public: bool = True, max_workers: int = 8,
                               batch_attachments: bool = True, read_every_history: bool = False,
                               on_record: Callable[[dict], None] | None = None,
                               answers: RevisionAnswers | None = None) -> list[dict]:
    """Every forum's record, in `metas` order, with choice and downloads in a bounded thread pool.

    Every request still goes through `api`, whose `RateLimiter` is shared with the browser, so the
    pool only overlaps latency; it never raises the request rate above the configured interval.
    `on_record` is called in the caller's thread as each forum completes (checkpoints).
    `browser_results` may carry `.requests` (forum id -> requests its revision page made).
    A forum whose note settles the choice (`history_needed`) is not asked unless `read_every_history`.
    `files`: where PDFs are stored and downloads staged (`Outputs.pdf_files()`).
    """
    # the API requests each forum's revision page made (what OpenReview meters per account; the
    # page's own HTML and cached scripts are web requests, counted apart by the browser client)
    page_requests = {fid: c.get("api", 0) for fid, c in (getattr(browser_results, "requests", {}) or {}).items()}
    results: dict[str, dict] = {}
    lock = threading.Lock()

    def done(record: dict) -> dict:
        # Called in the worker right after a forum finishes, so its checkpoint is written before
        # anything else happens: a kill can no longer fall between storing a PDF and recording it.
        with lock:
            results[record["forum_id"]] = record
            if on_record:
                on_record(record)
        return record

    stop = threading.Event()  # set by an error that stops the run: queued forums are skipped

    def choose(meta: dict):
        if stop.is_set():
            return None, None
        if not read_every_history and not history_needed(meta, deadline, api.api):
            return choose_from_note(meta, deadline, api.api)
        return choose_for_forum(api, meta, deadline, browser_results.get(meta["forum_id"]),
                                cross_check, allow_earliest_public, page_requests.get(meta["forum_id"], 0),
                                answers)

    def download_and_record(record: dict, url: str) -> dict | None:
        return None if stop.is_set() else done(download_one(api, files, record, url))

    def batch_and_record(records: list[dict]) -> list[dict]:
        return [] if stop.is_set() else [done(r) for r in download_batch(api, files, records)]

    pool = ThreadPoolExecutor(max_workers=max(1, max_workers), thread_name_prefix="pdfs")
    try:
        chosen = [pool.submit(choose, m) for m in metas]
        pending, batchable = [], []
        for fut in as_completed(chosen):
            record, choice = fut.result()
            if record is None:
                continue
            if choice is None or not choice.pdf_url:
                done(record)
            elif (batch_attachments and api.api == "v2" and choice.rule == "current_is_initial"
                  and choice.pdf_url == f"/pdf?id={record['forum_id']}"):
                batchable.append(record)
            else:
                pending.append(pool.submit(download_and_record, record, choice.pdf_url))
        batchable.sort(key=lambda r: r["forum_id"])  # deterministic batches
        pending += [pool.submit(batch_and_record, batchable[i:i + ATTACHMENT_BATCH])
                    for i in range(0, len(batchable), ATTACHMENT_BATCH)]
        for fut in as_completed(pending):
            fut.result()  # re-raise unexpected errors and those that stop the run
    except BaseException:
        stop.set()  # forums already checkpointed stay done; the rest are left to do
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return [results[m["forum_id"]] for m in metas]


def records_table(records: list[dict]) -> pa.Table:
    cols = SUBMISSIONS_SCHEMA.names
    return pa.Table.from_pylist([{c: r.get(c) for c in cols} for r in records], schema=SUBMISSIONS_SCHEMA)


# ---------------------------------------------------------------------------------------------
# the stage: every forum of a venue-year, resumable per forum


ROUND = 250  # forums whose revision pages, choices and downloads are in memory at once


def _submission_notes(notes: SubmissionNotes, forum_ids: list[str], api_version: str) -> dict[str, tuple[str, dict]]:
    """The submission notes of `forum_ids` (without their replies, a few KB each), read back from the
    parsed table, so the revision page's own note lookup is answered without a request."""
    out = {}
    for fid in forum_ids:
        api, note = notes.note(fid)
        out[fid] = (api or api_version, note)
    return out


def choose_initial_pdfs(stage: Stage, inputs: Inputs, outputs: Outputs) -> None:
    """The `initial_submission_pdfs` stage's work (`stage`: a `PdfStage`, which
    records the forums' and the deadline's figures): per parsed forum (`parsed_forums`), the chosen revision and its
    PDF in the store, checkpointed per forum (a forum whose checkpoint matches the note and deadline
    is not redone). The stage's `scrape(forum_ids, on_done, notes)` reads the revision pages in a
    browser (None: API recipe only); it returns {forum_id: revisions or error}. `progress(stage,
    total)` makes a reporter (stages/progress.py `Progress`) for the revision pages and for the forums recorded."""
    venue, api, scrape, log, warn, progress = stage.venue, stage.api, stage.scrape, stage.log, stage.warn, stage.progress
    cross_check, allow_earliest_public, read_every_history = (stage.cross_check, stage.allow_earliest_public,
                                                              stage.read_every_history)
    max_workers, batch_attachments = stage.max_workers, stage.batch_attachments
    files, checkpoints = outputs.pdf_files(), outputs.folder("submission_checkpoints")  # the folder checks each id
    # Once per venue: the announced deadline against the submission invitation's duedate/expdate,
    # which also decides the cutoff every forum is judged by (stages/deadline_check.py, domain/revisions.py judge_deadline).
    deadline_check = venue_deadline_check(api, venue)
    if deadline_check["status"] not in ("agree", "agree_abstract", "rolling"):
        warn(f"{venue.key}: deadline cross-check {deadline_check['status']}: {deadline_check.get('problems')}")
    cut = Cutoff.from_check(deadline_check)
    files.sweep_staging_records()  # the staging records a killed run left behind its stored PDFs
    order, done, todo = [], {}, []
    # The forums whose revision history is read: their submission notes are read back from the
    # parsed table when their round comes (`_submission_notes`), not held for every forum.
    where: set[str] = set()
    upstream = inputs
    # One snapshot of the parsed table serves both passes: the forums to do, then their notes by id.
    with upstream.submission_note_lookup() as notes:
        for _fid, _api, note in notes.scan():
            meta = forum_meta(note)
            problem = id_problem(meta["forum_id"])
            if problem:  # its id names its checkpoint file: a forum the crawl let through with a bad id is skipped
                warn(f"{venue.key}: skipped a forum: {problem}")
                continue
            order.append(meta["forum_id"])
            # A corrupt or truncated checkpoint is a miss; a transient error or a PDF whose bytes
            # no longer match is redone.
            prev = checkpoints.read_json(f"{meta['forum_id']}.json")
            if is_done(prev, meta, cut.cutoff_ms, files):
                done[meta["forum_id"]] = prev
            else:
                todo.append(meta)
                if scrape is not None and (read_every_history or history_needed(meta, cut, api.api)):
                    where.add(meta["forum_id"])
        log(f"{venue.key}: {len(done)} forums already done, {len(todo)} to do"
            + (f", {len(where)} of them with a revision history to read" if scrape is not None else ""))

        started, browser_s = time.time(), 0.0
        pages = progress("forums (revision pages)", len(where)) if progress and where else None
        recorded = progress("forums (chosen PDF stored and recorded)", len(todo)) if progress and todo else None
        count = Counter()

        def on_done(_fid: str, *_answer) -> None:
            count["n"] += 1
            if pages is not None:
                pages.advance()
            if count["n"] % 25 == 0 or count["n"] == len(where):
                rate = count["n"] / max(time.time() - started, 1e-6)
                eta = (len(where) - count["n"]) / max(rate, 1e-6)
                log(f"{venue.key}: revisions {count['n']}/{len(where)} ({rate:.1f}/s, eta {eta:.0f}s)")

        def checkpoint(record: dict) -> None:
            checkpoints.write_json(f"{record['forum_id']}.json", record)
            done[record["forum_id"]] = record
            if recorded is not None:
                recorded.advance()

        # In rounds of ROUND forums: their revision pages, then their choices and downloads. A round's
        # notes and pages (the page's API answers, tens of KB a forum) are dropped before the next, so
        # the stage holds one round whatever the venue's size; every forum is checkpointed as it ends.
        # Every revision-history answer is checkpointed per forum as it arrives (stages/revision_answers.py RevisionAnswers):
        # a re-run after a kill asks only for the forums it had not heard about.
        answers = RevisionAnswers(outputs.folder("revision_checkpoints"))
        for i in range(0, len(todo), ROUND):
            batch = todo[i:i + ROUND]
            reads = [m["forum_id"] for m in batch if m["forum_id"] in where]
            scraped: dict = {}
            if reads:
                t0 = time.time()
                scraped = read_pages(answers, {m["forum_id"]: m for m in batch}, reads, scrape,
                                     lambda ids: _submission_notes(notes, ids, venue.api), on_done)
                browser_s += time.time() - t0
            initial_submission_records(api, files, batch, cut, scraped, cross_check=cross_check,
                                       allow_earliest_public=allow_earliest_public, max_workers=max_workers,
                                       batch_attachments=batch_attachments, read_every_history=read_every_history,
                                       on_record=checkpoint, answers=answers)
            del scraped
    records = [done[fid] for fid in order]
    retryable = sum(1 for x in records if x.get("error") and not x.get("error_final"))
    if retryable:
        warn(f"{venue.key}: {retryable} forums met transient errors (5xx after retries, no answer) and are "
             "left to do: the next run retries them")
    table = records_table(records)
    outputs.write_parquet("submissions", table)
    if not retryable:  # every forum recorded for good: no answer is needed again
        answers.clear()
    stage.stat("path", outputs.path("submissions"))
    stage.stat(ROW_COUNT, table.num_rows)
    stage.stat("forums_done_this_run", len(todo))
    stage.stat("forums_resumed", len(order) - len(todo))
    stage.stat("retryable_errors", retryable)
    stage.stat("forums_per_s", round(len(todo) / max(time.time() - started, 1e-6), 2))
    stage.stat("browser_s", round(browser_s, 2))
    stage.record_forums(records, {m["forum_id"] for m in todo})
    stage.record_deadline(deadline_check)
