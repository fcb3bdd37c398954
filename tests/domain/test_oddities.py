"""Quiet oddities of a crawl are quarantine reasons (issue 22): an over-long title, more than one
decision, more than 1,000 replies of one kind and a submission id listed twice. The forum is still
kept and parsed; the reason is recorded. Built on the real ICLR 2026 forum sample."""
from __future__ import annotations

import copy

from reviewbench_assets.domain.routing import MAX_REPLIES_OF_ONE_KIND, oddity_reasons
from reviewbench_assets.io.stage_io import Folder
from reviewbench_assets.stages.crawl import crawl_forums
from tests.forums import parse_forum


def test_a_real_forum_has_no_oddity(iclr2026_raw, iclr2026):
    assert oddity_reasons(iclr2026_raw, iclr2026) == []


def test_oversized_title_is_recorded_and_the_forum_still_parses(iclr2026_raw, iclr2026):
    raw = copy.deepcopy(iclr2026_raw)
    raw["content"]["title"] = {"value": "A" * 1_000_001}
    reasons = oddity_reasons(raw, iclr2026)
    assert any("oversized field: title of 1,000,001 characters" in r for r in reasons)
    assert parse_forum(raw, iclr2026).forum_id == raw["id"]


def test_two_decisions_and_a_flood_of_replies(iclr2026_raw, iclr2026):
    raw = copy.deepcopy(iclr2026_raw)
    replies = raw["details"]["replies"]
    comment = next(r for r in replies if r["invitations"][0].endswith("/-/Official_Comment"))
    # the sample was recorded before decisions: two decision notes shaped like its comments
    decisions = [dict(comment, id=f"Decision{i}X", invitations=[comment["invitations"][0].replace(
        "/-/Official_Comment", "/-/Decision")], content={"decision": {"value": "Reject"}}) for i in (1, 2)]
    flood = [dict(comment, id=f"Flood{i:05d}") for i in range(MAX_REPLIES_OF_ONE_KIND + 1)]
    raw["details"]["replies"] = replies + decisions + flood
    reasons = oddity_reasons(raw, iclr2026)
    assert any("absurd count: 2 decisions" in r for r in reasons)
    assert any("replies under Official_Comment" in r for r in reasons)


class _Pages:
    """An API whose every query lists one submission twice, as a misbehaving server could."""

    stats = {"requests": 0}

    def __init__(self, note):
        self.note = note

    def get_json(self, path, params):
        return {"notes": [self.note, self.note], "count": 2}

    def get_bytes(self, path, params):  # the crawl reads its pages as the API sent them
        import json

        return json.dumps(self.get_json(path, params)).encode()


def test_a_submission_id_listed_twice_is_counted(tmp_path, iclr2026_raw, iclr2026):
    from resources.store import store_from_uri

    store = store_from_uri(str(tmp_path))
    listed: dict[str, int] = {}
    out = list(crawl_forums(_Pages(iclr2026_raw), iclr2026, Folder(store, "ck"), listed=listed))
    fid = iclr2026_raw["id"]
    assert len(out) == 1  # kept once ...
    # ... listed twice by each of the three v2 queries (lists that overlap are normal; twice in one is not)
    assert listed == {f"{q}\t{fid}": 2 for q in ("submissions", "withdrawn", "desk_rejected")}
    reasons = oddity_reasons(iclr2026_raw, iclr2026, listed=2)
    assert reasons == [f"{fid}: duplicate submission id: listed 2 times by one query"]


def test_the_crawls_quarantine_counts_codes_set_by_the_rules(iclr2026_raw, iclr2026):
    """Issue 39 item 3: a quarantined forum carries each reason's code beside its words, and the
    crawl's figures count codes (before: the first word after the forum id, cut from the words)."""
    import copy

    from reviewbench_assets.stages.crawl_stage import CrawlStage, _Quarantine, forum_record

    raw = copy.deepcopy(iclr2026_raw)
    raw["content"]["title"] = {"value": "x" * 20_000}  # over the title's 10,000, under a field's 1,000,000
    q = _Quarantine(iclr2026)
    q.add({"forum_id": raw["id"], "query": "submissions", "note": raw, "listed": 2})
    _, error = forum_record({"query": "submissions", "note": {"id": "bad id!", "content": {}}}, "v2", 0.0)
    q.add_errors([error])
    assert [x["codes"] for x in q.quarantined] == [["duplicate_submission", "oversized_field"], ["invalid_id"]]
    stage = CrawlStage(iclr2026, None, None)
    stage.record_quarantine(q.quarantined, forums=2)
    assert stage.figure("quarantine_reasons") == {"duplicate_submission": 1, "oversized_field": 1, "invalid_id": 1}
    assert stage.figure("oddities") == {"duplicate_submission": 1, "oversized_field": 1}
