"""Issue 29.3: nothing asked twice after a kill. Every revision-history answer (a revisions page read
in the browser, or the API recipe's) is checkpointed per forum as it arrives
(stages/revision_answers.py RevisionAnswers), so a run killed while the pages are read, or between the
histories and the downloads, is resumed by a re-run that asks only for the forums it had not heard
about, and whose records are those of an uninterrupted run."""
from __future__ import annotations

import pytest

from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.revision_answers import RoundPages
from tests.stages.pdf_stage_run import run_pdf_stage
from tests.stages.test_pdf_choice_stage import VENUE, FakeApi, crawl_and_parse, make_world


@pytest.fixture
def world(tmp_path):
    return make_world(tmp_path)


class Killed(BaseException):
    """Stands for kill -9: nothing after it runs (no except Exception catches it)."""


def _pages(api: FakeApi, kill_after: int | None = None, asked: list | None = None):
    """A browser stand-in: each forum's revisions page is its edits, as the page would receive them,
    costing one API request and two web requests; dies after `kill_after` answers."""
    def scrape(forum_ids, on_done, notes):
        out = RoundPages()  # a dict with `.requests` per forum, as the browser's results
        for n, fid in enumerate(forum_ids):
            if kill_after is not None and n == kill_after:
                raise Killed()
            if asked is not None:
                asked.append(fid)
            out[fid], out.requests[fid] = {"kind": "edits", "items": api.edits.get(fid, [])}, {"api": 1, "all": 3}
            on_done(fid, out[fid], out.requests[fid])
        return out
    return scrape


def _records(result) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "pdf_fetch"} for r in result.records]


def test_a_kill_while_the_pages_are_read_leaves_the_answers_received(world, tmp_path):
    store, api = world
    clean_store = store_from_uri(str(tmp_path / "clean"))
    crawl_and_parse(clean_store, [r["note"] for r in store.iter_jsonl(store.path(paths.raw_forums(VENUE.key)))])
    clean = run_pdf_stage(VENUE, clean_store, FakeApi(api.edits, api.edit_pdfs, api.note_pdfs),
                                _pages(api), max_workers=1)
    with pytest.raises(Killed):
        run_pdf_stage(VENUE, store, api, _pages(api, kill_after=1), max_workers=1)
    asked: list[str] = []
    again = run_pdf_stage(VENUE, store, api, _pages(api, asked=asked), max_workers=1)
    assert asked == ["flakyCCCC"]  # revisedAAA's page was answered before the kill: not read again
    assert _records(again) == _records(clean)  # the same records, request counts included
    assert {r["forum_id"]: r["revision_requests"] for r in again.records} == {
        "revisedAAA": 1.0, "currentBBB": 0.0, "flakyCCCC": 1.0}
    assert not store.list_files(store.path(paths.revision_checkpoints(VENUE.key)))  # done: cleared


def test_a_kill_between_the_histories_and_the_downloads_asks_no_history_again(world):
    store, api = world
    api.fail[("/notes/edits/attachment", "eA2")] = [Killed()]  # the first download
    with pytest.raises(Killed):
        run_pdf_stage(VENUE, store, api, None, max_workers=1)
    assert api.count("/notes/edits") == 2  # both histories were answered before the kill
    again = run_pdf_stage(VENUE, store, api, None, max_workers=1)
    assert api.count("/notes/edits") == 2  # and none is asked again
    by = {r["forum_id"]: r for r in again.records}
    assert by["revisedAAA"]["revision_id"] == "eA2" and by["revisedAAA"]["revision_requests"] == 1.0
    assert by["flakyCCCC"]["revision_id"] == "eC1"


def test_an_edited_note_is_asked_again(world):
    store, api = world
    api.fail[("/notes/edits/attachment", "eA2")] = [Killed()]
    with pytest.raises(Killed):
        run_pdf_stage(VENUE, store, api, None, max_workers=1)
    raw = store.path(paths.raw_forums(VENUE.key))
    rows = list(store.iter_jsonl(raw))
    for r in rows:
        if r["forum_id"] == "revisedAAA":
            r["note"]["tmdate"] += 1  # the crawl saw a newer version of this note
    crawl_and_parse(store, [r["note"] for r in rows])
    run_pdf_stage(VENUE, store, api, None, max_workers=1)
    assert [p["note.id"] for path, p in api.calls if path == "/notes/edits"][2:] == ["revisedAAA"]
