"""`stages.pdf_stage.choose_initial_pdfs` without Dagster or HTTP: a fake API that answers the calls
the stage makes (`/invitations` for the deadline, v2 `/notes/edits` for revisions, the edit and
note PDF attachments, `/attachment?ids=` zips) over real reportlab PDFs, with errors injected per
forum. The store is a local directory; the forums are crawled (`paths.raw_forums`) and parsed
(`ParseStage`), as the stage reads them from `parsed_forums`."""
from __future__ import annotations

import hashlib
import io
import zipfile
from collections import Counter

import pytest

from openreview_replica.pdfgen import PdfSpec, render_pdf
from partitions.catalogue import catalogue
from resources.openreview_api import CredentialsError, OpenReviewError, RateLimitedError
from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.figures import ROW_COUNT, iso_utc
from reviewbench_assets.stages.parse_stage import ParseStage
from tests.published import write_jsonl
from tests.stages.figures_check import assert_every_figure
from tests.stages.pdf_stage_run import run_pdf_stage
from tests.stages.streamed import Streamed

VENUE = catalogue().get("iclr-2026")
DUE = VENUE.deadline_ms                    # what the submission invitation says (agrees with the catalogue)
EXP = DUE + 30 * 60_000                    # OpenReview's upload grace: the cutoff actually applied
SUB_INV = "ICLR.cc/2026/Conference/-/Submission"
CAMERA = "ICLR.cc/2026/Conference/Submission1/-/Camera_Ready_Revision"


def pdf(forum_id: str, revision: int, pages: int = 1) -> bytes:
    return render_pdf(PdfSpec(forum_id, revision, f"Paper {forum_id}", "An abstract.", pages, seed=revision))


class FakeApi:
    """Just enough of OpenReviewApi (v2): `api`, `token`, `stats`, `thread_requests`, `get_json`,
    `get_bytes`. `fail[(path, id)]` is a list of exceptions raised by the next calls for that id."""

    api = "v2"
    token = "fake-token"

    def __init__(self, edits: dict[str, list[dict]], edit_pdfs: dict[str, bytes], note_pdfs: dict[str, bytes]):
        self.edits, self.edit_pdfs, self.note_pdfs = edits, edit_pdfs, note_pdfs
        self.fail: dict[tuple[str, str], list[Exception]] = {}
        self.calls: list[tuple[str, dict]] = []
        self.stats: Counter = Counter()

    def thread_requests(self) -> int:
        return self.stats["requests"]

    def _call(self, path: str, params: dict | None, key: str) -> dict:
        params = dict(params or {})
        self.calls.append((path, params))
        self.stats["requests"] += 1
        queue = self.fail.get((path, key))
        if queue:
            raise queue.pop(0)
        return params

    def get_json(self, path: str, params: dict | None = None) -> dict:
        key = (params or {}).get("note.id") or (params or {}).get("id", "")
        params = self._call(path, params, key)
        if path == "/invitations":
            assert params["id"] == SUB_INV, params
            return {"invitations": [{"id": SUB_INV, "duedate": DUE, "expdate": EXP}]}
        assert path == "/notes/edits", path
        return {"edits": self.edits.get(params["note.id"], [])}

    def get_bytes(self, path: str, params: dict | None = None) -> bytes:
        key = (params or {}).get("id") or (params or {}).get("ids", "")
        params = self._call(path, params, key)
        if path == "/notes/edits/attachment":
            return self.edit_pdfs[params["id"]]
        if path == "/pdf":
            return self.note_pdfs[params["id"]]
        assert path == "/attachment" and params["name"] == "pdf", (path, params)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            for fid in params["ids"].split(","):
                if fid in self.note_pdfs:
                    zf.writestr(f"{fid}.pdf", self.note_pdfs[fid])
        return buf.getvalue()

    def get_stream(self, path: str, params: dict | None = None):
        """What the stage downloads files with (stages/pdf_fetch.py, its staging): the body of get_bytes."""
        return Streamed(self.get_bytes(path, params))

    def count(self, path: str) -> int:
        return sum(p == path for p, _ in self.calls)


def edit(eid: str, forum_id: str, tcdate: int, invitation: str, with_pdf: bool = True) -> dict:
    content = {"pdf": {"value": f"/pdf/{eid}.pdf"}} if with_pdf else {"title": {"value": "t"}}
    return {"id": eid, "tcdate": tcdate, "invitation": invitation, "note": {"id": forum_id, "content": content}}


def note(forum_id: str, tmdate: int, invitations: list[str]) -> dict:
    return {"id": forum_id, "forum": forum_id, "tmdate": tmdate, "invitations": invitations,
            "content": {"title": {"value": f"Paper {forum_id}"}, "pdf": {"value": f"/pdf/{forum_id}.pdf"}},
            "details": {"replies": []}}


def crawl_and_parse(store, notes: list[dict]) -> None:
    """The stage's input as the pipeline makes it: the crawl's file, then the parsed table."""
    write_jsonl(store, store.path(paths.raw_forums(VENUE.key)), [{"forum_id": n["id"], "note": n} for n in notes])
    ParseStage(VENUE)(store)


@pytest.fixture
def world(tmp_path):
    return make_world(tmp_path)


def make_world(tmp_path):
    """Three forums: `revisedAAA` has two PDF revisions before the cutoff and a camera-ready after
    it; `currentBBB` shows no revision (its note alone says its current PDF is the submission: its
    history is not read); `flakyCCCC` has one pre-cutoff revision and a rebuttal revision on its note
    that readers cannot see (so its history is read)."""
    store = store_from_uri(str(tmp_path))
    notes, api = world_notes_and_api()
    crawl_and_parse(store, notes)
    return store, api


def world_notes_and_api() -> tuple[list[dict], FakeApi]:
    """The world's submission notes (as the crawl answers them) and its API."""
    notes = [note("revisedAAA", EXP + 9_000_000, [SUB_INV, CAMERA]),
             note("currentBBB", DUE - 5_000, [SUB_INV]),
             note("flakyCCCC", DUE - 7_000, [SUB_INV, "ICLR.cc/2026/Conference/Submission3/-/Rebuttal_Revision"])]
    edits = {"revisedAAA": [edit("eA1", "revisedAAA", DUE - 86_400_000, SUB_INV),
                            edit("eA2", "revisedAAA", DUE + 10 * 60_000, SUB_INV),  # in the grace window
                            edit("eA3", "revisedAAA", EXP + 1, CAMERA)],
             "flakyCCCC": [edit("eC1", "flakyCCCC", DUE - 3_600_000, SUB_INV)]}
    edit_pdfs = {"eA1": pdf("revisedAAA", 1), "eA2": pdf("revisedAAA", 2, pages=2),
                 "eA3": pdf("revisedAAA", 3), "eC1": pdf("flakyCCCC", 1)}
    note_pdfs = {"currentBBB": pdf("currentBBB", 1, pages=3)}
    return notes, FakeApi(edits, edit_pdfs, note_pdfs)


def test_the_stage_takes_its_submission_notes_in_memory(tmp_path):
    """A stage test hands the PDF stage its input in memory (issue 39 item 1): the submission notes the
    parse stage would have stored, given as the IO layer's reader hands them
    (io/memory_inputs.py SubmissionNotesInMemory); nothing of the crawl or the parse is written. The
    choices are the world's (test_last_pre_cutoff_revision_is_stored_then_resumed: the grace-window
    upload of revisedAAA, currentBBB's current PDF, flakyCCCC's one pre-cutoff revision)."""
    from reviewbench_assets.io.memory_inputs import SubmissionNotesInMemory
    from reviewbench_assets.stages.pdf_stage import PdfStage

    store = store_from_uri(str(tmp_path))
    notes, api = world_notes_and_api()
    given = SubmissionNotesInMemory([(n["id"], "v2", n) for n in notes])
    result = PdfStage(VENUE, api, None, max_workers=2)(store, inputs={"submission_note_lookup": given})
    records = store.read_parquet(result.figures["path"]).to_pylist()
    assert [(r["forum_id"], r["rule"], r["revision_id"]) for r in records] == [
        ("revisedAAA", "initial", "eA2"), ("currentBBB", "current_is_initial", None), ("flakyCCCC", "initial", "eC1")]
    assert [r["pdf_sha256"] for r in records] == [hashlib.sha256(b).hexdigest() for b in (
        api.edit_pdfs["eA2"], api.note_pdfs["currentBBB"], api.edit_pdfs["eC1"])]
    assert not store.exists(store.path(paths.raw_forums(VENUE.key))) and not store.exists(store.path(paths.parsed(VENUE.key)))


def fail_history_and_download_once(api: FakeApi) -> None:
    """Two transient faults, once each: flakyCCCC's revision history answers 502, and the PDF of
    revisedAAA's chosen revision (eA2) answers 503."""
    api.fail[("/notes/edits", "flakyCCCC")] = [OpenReviewError("InternalServerError", "boom", 502, "/notes/edits")]
    api.fail[("/notes/edits/attachment", "eA2")] = [OpenReviewError("ServiceUnavailable", "down", 503,
                                                                    "/notes/edits/attachment")]


def ckpt(store, forum_id: str):
    return store.read_json_or_none(store.path(paths.submission_checkpoints(VENUE.key), f"{forum_id}.json"))


def test_last_pre_cutoff_revision_is_stored_then_resumed(world):
    store, api = world
    first = run_pdf_stage(VENUE, store, api, None, max_workers=2)
    assert first.figures["deadline_check"] == "agree"
    assert first.figures["cutoff_rule"] == "invitation_expdate" and first.figures["cutoff"] == iso_utc(EXP)
    assert (first.resumed, first.todo) == (0, 3)
    assert_every_figure(first.result)
    assert first.redone == {"revisedAAA", "currentBBB", "flakyCCCC"}
    by = {r["forum_id"]: r for r in first.records}
    assert [r["forum_id"] for r in first.records] == ["revisedAAA", "currentBBB", "flakyCCCC"]

    a = by["revisedAAA"]  # the upload inside the 30-minute grace counts; the camera-ready does not
    assert (a["rule"], a["revision_id"], a["revision_source"]) == ("initial", "eA2", "api")
    assert a["cutoff_ms"] == EXP and a["deadline_ms"] == DUE and a["cutoff_rule"] == "invitation_expdate"
    expected = hashlib.sha256(api.edit_pdfs["eA2"]).hexdigest()
    assert a["pdf_sha256"] == expected and a["pdf_pages"] == 2 and a["pdf_size"] == len(api.edit_pdfs["eA2"])
    assert a["error"] is None and a["pdf_fetch"] == "single"
    assert a["pdf_path"] == f"pdfs/{expected[:2]}/{expected}.pdf"
    assert store.read_bytes(store.pdf_path(expected)) == api.edit_pdfs["eA2"]
    assert ("/notes/edits/attachment", {"id": "eA2", "name": "pdf"}) in api.calls
    assert not any(p.get("id") in ("eA1", "eA3") for _, p in api.calls)

    b = by["currentBBB"]  # no revision visible: the current PDF, fetched through one /attachment zip
    assert b["rule"] == "current_is_initial" and b["pdf_fetch"] == "batch" and b["pdf_pages"] == 3
    assert b["revision_source"] == "note" and b["revision_requests"] == 0
    assert not any(p.get("note.id") == "currentBBB" for _, p in api.calls)  # its history is not asked
    assert b["pdf_sha256"] == hashlib.sha256(api.note_pdfs["currentBBB"]).hexdigest()
    assert api.count("/attachment") == 1 and api.count("/pdf") == 0

    assert by["flakyCCCC"]["revision_id"] == "eC1" and store.pdf_ok(by["flakyCCCC"]["pdf_sha256"])
    assert first.result.figures[ROW_COUNT] == 3
    assert store.read_parquet(first.figures["path"]).column("forum_id").to_pylist() == [
        "revisedAAA", "currentBBB", "flakyCCCC"]
    assert ckpt(store, "revisedAAA")["pdf_sha256"] == expected

    # second call: every checkpoint is reused, only the deadline is read again
    api.calls.clear()
    second = run_pdf_stage(VENUE, store, api, None, max_workers=2)
    assert (second.resumed, second.todo, second.redone) == (3, 0, set())
    assert [p for p, _ in api.calls] == ["/invitations"]
    assert second.records == first.records

    # a stored PDF whose bytes no longer match its sha256 is downloaded again (that forum only)
    store.write_bytes(store.pdf_path(expected), b"%PDF-1.4 bit rot")
    api.calls.clear()
    third = run_pdf_stage(VENUE, store, api, None, max_workers=2)
    assert third.redone == {"revisedAAA"} and third.resumed == 2
    assert store.pdf_ok(expected)


def test_transient_error_is_recorded_not_final_and_redone(world):
    store, api = world
    fail_history_and_download_once(api)
    first = run_pdf_stage(VENUE, store, api, None, max_workers=2)
    by = {r["forum_id"]: r for r in first.records}
    c = by["flakyCCCC"]  # the revision history could not be read
    assert c["rule"] == "unavailable" and c["revision_source"] == "none" and c["error_final"] is False
    assert "502" in c["error"] and c.get("pdf_sha256") is None
    a = by["revisedAAA"]  # the revision was chosen, its PDF download failed
    assert a["revision_id"] == "eA2" and a["error_final"] is False and a["error"].startswith("pdf: ")
    assert a.get("pdf_sha256") is None
    assert ckpt(store, "flakyCCCC")["error_final"] is False  # checkpointed, but as not final

    second = run_pdf_stage(VENUE, store, api, None, max_workers=2)
    assert second.redone == {"flakyCCCC", "revisedAAA"} and second.resumed == 1
    by = {r["forum_id"]: r for r in second.records}
    assert by["flakyCCCC"]["error"] is None and by["flakyCCCC"]["revision_id"] == "eC1"
    assert by["revisedAAA"]["pdf_sha256"] == hashlib.sha256(api.edit_pdfs["eA2"]).hexdigest()
    assert all(store.pdf_ok(r["pdf_sha256"]) for r in second.records)


def test_final_error_is_not_redone(world):
    store, api = world
    api.fail[("/notes/edits", "flakyCCCC")] = [OpenReviewError("NotFoundError", "gone", 404, "/notes/edits")]
    first = run_pdf_stage(VENUE, store, api, None, max_workers=1)
    c = {r["forum_id"]: r for r in first.records}["flakyCCCC"]
    assert c["rule"] == "unavailable" and c["error_final"] is True
    second = run_pdf_stage(VENUE, store, api, None, max_workers=1)
    assert (second.resumed, second.todo) == (3, 0)


def test_errors_are_recorded_and_counted_by_reason_code(world):
    """Issue 39 item 3: a record's error carries a reason code with its words, and the figure
    `errors` counts the codes (it split the words at their first colon: 'InternalServerError (502) on
    /notes/edits' and 'pdf' were the kinds)."""
    store, api = world
    fail_history_and_download_once(api)
    run = run_pdf_stage(VENUE, store, api, None, max_workers=2)
    by = {r["forum_id"]: r for r in run.records}
    assert by["flakyCCCC"]["error_code"] == "revision_history_unreadable" and "502" in by["flakyCCCC"]["error"]
    assert by["revisedAAA"]["error_code"] == "pdf_download_failed" and "503" in by["revisedAAA"]["error"]
    assert by["currentBBB"]["error_code"] is None
    assert run.figures["errors"] == {"revision_history_unreadable": 1, "pdf_download_failed": 1}

    api.edit_pdfs["eA2"] = b"<html>not a pdf</html>"  # the retry gets an answer that is not a PDF
    again = run_pdf_stage(VENUE, store, api, None, max_workers=2)
    a = {r["forum_id"]: r for r in again.records}["revisedAAA"]
    assert a["error_code"] == "pdf_invalid" and a["error"].startswith("pdf: ") and a["error_final"] is True
    assert again.figures["errors"] == {"pdf_invalid": 1}


def test_a_record_written_before_codes_is_counted_by_its_old_prefix(world):
    """The migration of the records made before `error_code` (code_version 3): such a record, resumed
    from its checkpoint, is counted by its error's words up to the first colon, as before."""
    store, api = world
    api.fail[("/notes/edits", "flakyCCCC")] = [OpenReviewError("NotFoundError", "gone", 404, "/notes/edits")]
    run_pdf_stage(VENUE, store, api, None, max_workers=1)
    old = {k: v for k, v in ckpt(store, "flakyCCCC").items() if k != "error_code"}
    assert old["error"] == "NotFoundError (404) on /notes/edits: gone"
    store.write_json(store.path(paths.submission_checkpoints(VENUE.key), "flakyCCCC.json"), old)
    second = run_pdf_stage(VENUE, store, api, None, max_workers=1)
    assert second.resumed == 3
    assert {r["forum_id"]: r for r in second.records}["flakyCCCC"]["error_code"] is None
    assert second.figures["errors"] == {"NotFoundError (404) on /notes/edits": 1}


@pytest.mark.parametrize("error", [
    CredentialsError("ForbiddenError", "no access", 403, "/notes/edits", logged_in=True),
    RateLimitedError("Too many requests.", "/notes/edits", wait_s=3600, max_wait_s=60),
], ids=["credentials", "rate_limit"])
def test_stopping_error_raises_without_checkpointing(world, error):
    store, api = world
    api.fail[("/notes/edits", "revisedAAA")] = [error]
    with pytest.raises(type(error)):
        run_pdf_stage(VENUE, store, api, None, max_workers=1)
    assert ckpt(store, "revisedAAA") is None  # never recorded as that forum's answer
    assert not store.exists(store.path(paths.submissions(VENUE.key)))

    # once the cause is gone, the next call does the forum (and resumes whatever was checkpointed)
    again = run_pdf_stage(VENUE, store, api, None, max_workers=1)
    assert "revisedAAA" in again.redone and again.resumed + again.todo == 3
    assert {r["forum_id"]: r for r in again.records}["revisedAAA"]["revision_id"] == "eA2"
    assert all(r["error"] is None for r in again.records)


def test_killed_between_the_pdf_and_its_checkpoint_downloads_nothing_again(world):
    """A process killed (os._exit: no cleanup, like kill -9) right after a PDF is stored and before
    its checkpoint is written: the next run finds the PDF through its source record and asks
    OpenReview for no PDF again (issue 22.2)."""
    import multiprocessing
    import os

    store, api = world
    real_write_json = type(store).write_json

    def killed_at_checkpoint(self, path, obj):
        if "/checkpoints/submissions/" in path and obj.get("pdf_sha256"):
            os._exit(137)
        return real_write_json(self, path, obj)

    def child():
        type(store).write_json = killed_at_checkpoint
        run_pdf_stage(VENUE, store, api, None, max_workers=1, batch_attachments=False)

    proc = multiprocessing.get_context("fork").Process(target=child)
    proc.start()
    proc.join(60)
    assert proc.exitcode == 137
    stored = [p for p in store.list_files(store.path("pdfs")) if p.endswith(".pdf")]
    assert len(stored) == 1  # one PDF in the store, no checkpoint says so

    again = run_pdf_stage(VENUE, store, api, None, max_workers=1, batch_attachments=False)
    pdf_calls = [(p, q) for p, q in api.calls if p in ("/pdf", "/attachment", "/notes/edits/attachment")]
    fetched = {r["forum_id"] for r in again.records if r["pdf_fetch"] == "single"}
    found = [r for r in again.records if r["pdf_fetch"] == "single, stored before"]
    assert len(found) == 1 and found[0]["pdf_path"] == store.rel(stored[0])
    assert found[0]["forum_id"] not in fetched
    assert len(pdf_calls) == len(fetched) == 2  # the other two forums only
    assert all(store.pdf_ok(r["pdf_sha256"]) for r in again.records)


def test_forums_are_done_in_rounds_with_their_notes_read_back_per_round(world, monkeypatch):
    """The stage holds one round of forums at a time: the revision pages of a round get the submission
    notes of that round only (read back from the parsed table, without replies), and the records are
    those of a single pass, in crawl order."""
    import reviewbench_assets.stages.pdf_stage as pdf_choice

    store, api = world
    monkeypatch.setattr(pdf_choice, "ROUND", 1)
    rounds: list[tuple[list[str], dict]] = []

    def scrape(forum_ids, on_done, notes):
        rounds.append((list(forum_ids), dict(notes)))
        for fid in forum_ids:
            on_done(fid)
        return {fid: RuntimeError("no browser in this test: the API recipe answers") for fid in forum_ids}

    result = run_pdf_stage(VENUE, store, api, scrape, max_workers=2)
    # currentBBB's note settles its choice: it is in no round of pages
    assert [ids for ids, _ in rounds] == [["revisedAAA"], ["flakyCCCC"]]
    assert [sorted(notes) for _, notes in rounds] == [["revisedAAA"], ["flakyCCCC"]]
    version, shown = rounds[0][1]["revisedAAA"]
    assert version == VENUE.api and shown["id"] == "revisedAAA" and "details" not in shown
    assert [r["forum_id"] for r in result.records] == ["revisedAAA", "currentBBB", "flakyCCCC"]
    by = {r["forum_id"]: r for r in result.records}
    assert by["revisedAAA"]["revision_id"] == "eA2" and by["flakyCCCC"]["revision_id"] == "eC1"
    assert by["revisedAAA"]["revision_source"] == "api" and "browser failed" in by["revisedAAA"]["cross_check"]
    assert result.todo == 3 and store.read_parquet(result.figures["path"]).num_rows == 3
