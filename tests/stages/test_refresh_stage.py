"""The crawl stage (`stages.crawl_stage`: `CrawlStage`, `refresh_venue`) without Dagster
or HTTP: a fake API that answers `GET /notes` the way OpenReview does (paged, `details=replies`, the
`domain` tmdate cursor), over the real recorded ICLR 2026 forum (tests/fixtures/openreview-samples) and copies of it."""
from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from partitions.catalogue import catalogue
from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.crawl_stage import CrawlStage
from reviewbench_assets.stages.figures import CURSOR, ROW_COUNT
from tests.stages.figures_check import assert_every_figure

SAMPLE = (Path(__file__).resolve().parents[1] / "fixtures/openreview-samples"
          / "iclr2026_zzo3Sy3NSX_v2_submission_vars_with_replies.json")


class FakeApi:
    """Just enough of OpenReviewApi: `get_json` and `stats`; every call is recorded."""

    def __init__(self, notes: list[dict]):
        self.notes = notes
        self.calls: list[tuple[str, dict]] = []
        self.stats: Counter = Counter()

    def get_json(self, path: str, params: dict | None = None) -> dict:
        params = dict(params or {})
        self.calls.append((path, params))
        self.stats["requests"] += 1
        if path == "/notes/edits":
            return {"edits": []}
        assert path == "/notes", path
        if "id" in params:
            return {"notes": [n for n in self.notes if n["id"] == params["id"]]}
        if "domain" in params:  # every note of the venue, newest first
            every = [x for n in self.notes for x in [n, *n["details"]["replies"]]]
            every.sort(key=lambda x: -int(x.get("tmdate") or 0))
            off, lim = int(params["offset"]), int(params["limit"])
            return {"notes": every[off:off + lim]}
        if "invitation" in params:
            hits = [n for n in self.notes if params["invitation"] in n["invitations"]
                    and not _venueid(n).endswith(("Withdrawn_Submission", "Desk_Rejected_Submission"))]
        else:
            hits = [n for n in self.notes if _venueid(n) == params["content.venueid"]]
        off, lim = int(params["offset"]), int(params["limit"])
        return {"notes": hits[off:off + lim]}


    def get_bytes(self, path: str, params: dict | None = None) -> bytes:  # a page as sent, read note by note
        return json.dumps(self.get_json(path, params)).encode()


def _venueid(note: dict) -> str:
    return ((note.get("content") or {}).get("venueid") or {}).get("value", "")


def _forums(n: int) -> list[dict]:
    raw = json.loads(SAMPLE.read_text())
    raw["parentInvitations"] = raw.pop("parent_invitations", None)
    out = []
    for i in range(n):
        note = copy.deepcopy(raw)
        note["id"] = note["forum"] = f"forum{i:03d}"
        for r in note["details"]["replies"]:
            r["id"], r["forum"] = f"{r['id']}-{i}", note["id"]
            if r["replyto"] == raw["id"]:
                r["replyto"] = note["id"]
            else:
                r["replyto"] = f"{r['replyto']}-{i}"
        out.append(note)
    return out


@pytest.fixture
def venue():
    return catalogue().get("iclr-2026")


def test_full_crawl_then_incremental_refresh(tmp_path, venue):
    store = store_from_uri(str(tmp_path))
    api = FakeApi(_forums(5))
    first = CrawlStage(venue, api, api, review_edits=False)(store)
    f = first.figures
    assert f["mode"] == "full" and first.figures[ROW_COUNT] == 5 and f["forums_new"] == 5
    assert f["quarantined_forums"] == 0 and f["malformed_notes"] == 0
    assert_every_figure(first)
    stored = list(store.iter_jsonl(store.path(paths.raw_forums(venue.key))))
    assert [r["forum_id"] for r in stored] == [f"forum{i:03d}" for i in range(5)]
    assert all(len(r["note"]["details"]["replies"]) == 16 for r in stored)
    # the crawl asked for every reply (never directReplies) and checkpointed nothing left over
    assert all(p.get("details") == "replies" for path, p in api.calls if "invitation" in p)
    assert not store.exists(store.path(paths.crawl_checkpoints(venue.key)))

    # a new reply in one forum: the refresh fetches that forum alone
    cursor = store.read_json(store.path(paths.crawl_cursor(venue.key)))["crawl_started_ms"]
    reply = copy.deepcopy(api.notes[2]["details"]["replies"][0])
    reply["id"], reply["tmdate"], reply["tcdate"] = "new-reply", cursor + 5, cursor + 5
    api.notes[2]["details"]["replies"].append(reply)
    api.calls.clear()
    second = CrawlStage(venue, api, api, review_edits=False)(store)
    f = second.figures
    assert f["mode"] == "incremental" and f["notes_newer_than_cursor"] >= 1 and f["changes_since"]
    assert f["touched_forums"] == ["forum002"] and f["forums_changed"] == 1 and f["forums_unchanged"] == 4
    assert_every_figure(second, CURSOR)
    assert [p["id"] for path, p in api.calls if "id" in p] == ["forum002"]
    again = {r["forum_id"]: r for r in store.iter_jsonl(store.path(paths.raw_forums(venue.key)))}
    assert len(again["forum002"]["note"]["details"]["replies"]) == 17


def test_unusable_note_is_kept_as_an_error_not_a_crash(tmp_path, venue):
    store = store_from_uri(str(tmp_path))
    notes = _forums(3)
    notes[1]["content"] = None  # a note without content
    api = FakeApi(notes)
    result = CrawlStage(venue, api, api, review_edits=False)(store)
    assert result.figures[ROW_COUNT] == 2 and result.figures["malformed_notes"] == 1
    errors = list(store.iter_jsonl(store.path(paths.crawl_errors(venue.key))))
    assert [e["forum_id"] for e in errors] == ["forum001"]
    quarantined = list(store.iter_jsonl(store.path(paths.quarantine(venue.key))))
    assert any(q["forum_id"] == "forum001" and "without content" in q["reasons"][0] for q in quarantined)
    check = result.check("quarantined_share")
    assert check.metadata["quarantined"] == 1 and check.metadata["share"] == round(1 / 3, 4)


def _forums_with_edited_reviews(n: int) -> list[dict]:
    """`n` forums, each with an edited review: one /notes/edits request each."""
    notes = _forums(n)
    for note in notes:
        review = next(r for r in note["details"]["replies"] if r["invitations"][0].endswith("/-/Official_Review"))
        review["tmdate"] = int(review["tcdate"]) + 1000
    return notes


class _Outage(Exception):
    pass


def test_review_edit_histories_resume_after_a_kill(tmp_path, venue):
    """Edit histories are checkpointed per forum as they come: a run stopped halfway (here by an
    outage on the fourth forum's history) loses none of the three it had, and the next run asks
    only for the rest; the raw file is published once, at the end."""
    store = store_from_uri(str(tmp_path))
    notes = _forums_with_edited_reviews(6)
    api = FakeApi(notes)
    real = api.get_json

    def failing(path, params=None):
        if path == "/notes/edits" and sum(p == "/notes/edits" for p, _ in api.calls) == 3:
            raise _Outage("api2.openreview.net unreachable")
        return real(path, params)

    api.get_json = failing
    with pytest.raises(_Outage):
        CrawlStage(venue, api, api)(store)
    assert not store.exists(store.path(paths.raw_forums(venue.key)))  # nothing published
    api.get_json = real
    api.calls.clear()
    result = CrawlStage(venue, api, api)(store)
    assert result.figures["review_edits_resumed"] == 3
    assert sum(p == "/notes/edits" for p, _ in api.calls) == 3  # the other three forums only
    stored = list(store.iter_jsonl(store.path(paths.raw_forums(venue.key))))
    assert all("review_edits" in r for r in stored) and len(stored) == 6


def test_full_refresh_keeps_unchanged_forums_edit_histories_from_the_stored_file(tmp_path, venue):
    """A full re-crawl compares each forum as it arrives with the stored file's index: an unchanged
    forum takes its review edit histories back from its stored line (no request), a changed one asks
    again, and a forum gone from the venue counts as removed."""
    store = store_from_uri(str(tmp_path))
    notes = _forums_with_edited_reviews(4)
    api = FakeApi(notes)
    first = CrawlStage(venue, api, api)(store)
    assert first.figures["review_edit_requests"] == 4
    for ckpt in store.list_files(store.path(paths.review_edit_checkpoints(venue.key))):
        store.fs.delete_file(ckpt)  # only the stored file can give them back now
    notes[1]["details"]["replies"][0]["tmdate"] += 1  # forum001 changed
    api.notes = [n for n in notes if n["id"] != "forum003"]  # forum003 gone
    api.calls.clear()
    again = CrawlStage(venue, api, api, full_refresh=True)(store)
    f = again.figures
    assert f["mode"] == "full" and f["touched_forums"] == ["forum001"]
    assert (f["forums_unchanged"], f["forums_changed"], f["forums_removed"]) == (2, 1, 1)
    assert f["review_edit_requests"] == 1  # forum001's only
    stored = list(store.iter_jsonl(store.path(paths.raw_forums(venue.key))))
    assert [r["forum_id"] for r in stored] == ["forum000", "forum001", "forum002"]
    assert all(r["review_edits"] is not None and "review_edits" in r for r in stored)
