"""`stages.parse_stage.ParseStage`: the only caller of the forum parser quarantines with reason
codes and guards the partition with its blocking `quarantined_share` check (issue 20), on the real
recorded ICLR 2026 forum (tests/fixtures/openreview-samples)."""
from __future__ import annotations

import copy

from partitions.catalogue import catalogue
from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.figures import ROW_COUNT
from reviewbench_assets.stages.parse_stage import QUARANTINE_CHECK, ParseStage
from tests.published import write_jsonl
from tests.stages.figures_check import assert_every_figure
from tests.stages.test_dialogue_stage import _raw_forum


def test_a_payload_with_another_forums_reply_is_quarantined_with_every_other_problem(tmp_path):
    venue = catalogue().get("iclr-2026")
    store = store_from_uri(str(tmp_path))
    good, bad = _raw_forum(), _raw_forum()
    bad["id"] = "badForum01"
    replies = bad["details"]["replies"]
    for r in replies:
        r["forum"] = "badForum01"
        if r.get("replyto") == "zzo3Sy3NSX":
            r["replyto"] = "badForum01"
    stranger = copy.deepcopy(replies[0])
    stranger.update(id="Stranger1", forum="SomeOtherForum")
    contentless = copy.deepcopy(replies[1])
    contentless.update(id="NoContent1", content="not an object")
    replies += [stranger, contentless]
    write_jsonl(store, store.path(paths.raw_forums(venue.key)),
                [{"forum_id": good["id"], "note": good}, {"forum_id": bad["id"], "note": bad}])

    result = ParseStage(venue, 0.4)(store)
    assert result.figures[ROW_COUNT] == 1 and result.figures["malformed_forums"] == 1  # the bad payload gives no row
    quarantine = store.read_parquet(store.path(paths.parsed_quarantine(venue.key))).to_pylist()
    assert [(q["forum_id"], q["code"], q["parsed"]) for q in quarantine] == [
        ("badForum01", "foreign_replies", False), ("badForum01", "reply_skipped", False)]
    assert "Stranger1" in quarantine[0]["detail"] and "NoContent1" in quarantine[1]["detail"]
    [check] = result.checks
    assert check.name == QUARANTINE_CHECK and not check.passed and check.metadata["share"] == 0.5

    relaxed = ParseStage(venue, 0.5)(store)
    assert relaxed.checks[0].passed and relaxed.figures["quarantined_forums"] == 1


def test_a_clean_forum_passes_the_check(tmp_path):
    venue = catalogue().get("iclr-2026")
    store = store_from_uri(str(tmp_path))
    raw = _raw_forum()
    write_jsonl(store, store.path(paths.raw_forums(venue.key)), [{"forum_id": raw["id"], "note": raw}])
    result = ParseStage(venue, 0.0)(store)
    assert result.checks[0].passed and result.figures["quarantined_forums"] == 0
    assert_every_figure(result)
    assert store.read_parquet(store.path(paths.parsed_quarantine(venue.key))).num_rows == 0


def _reply_like(forum: dict, base: dict, note_id: str, replyto: str) -> dict:
    r = copy.deepcopy(base)
    r.update(id=note_id, forum=forum["id"], replyto=replyto)
    return r


def test_reply_cycles_and_over_deep_chains_are_quarantine_problems_with_their_reason(tmp_path):
    """Issue 29.5: two replies pointing at each other were left out of the dialogues but recorded
    nowhere, and a chain of 500 comments, each replying to the last, was flagged nowhere."""
    from reviewbench_assets.domain.routing import MAX_REPLY_DEPTH

    venue = catalogue().get("iclr-2026")
    store = store_from_uri(str(tmp_path))
    cyc, deep, clean = _raw_forum(), _raw_forum(), _raw_forum()
    for forum, fid in ((cyc, "cycleForum1"), (deep, "deepForum01")):
        forum["id"] = fid
        for r in forum["details"]["replies"]:
            r["forum"] = fid
            if r.get("replyto") == "zzo3Sy3NSX":
                r["replyto"] = fid
    comment = next(r for r in cyc["details"]["replies"] if r["replyto"] != cyc["id"])  # a reply to a reply
    cyc["details"]["replies"] += [_reply_like(cyc, comment, "LoopA00001", "LoopB00001"),
                                  _reply_like(cyc, comment, "LoopB00001", "LoopA00001")]
    parent = next(r for r in deep["details"]["replies"] if r["replyto"] != deep["id"])
    chain = [_reply_like(deep, parent, f"Deep{i:06d}", parent["id"] if i == 0 else f"Deep{i - 1:06d}")
             for i in range(500)]
    deep["details"]["replies"] += chain
    write_jsonl(store, store.path(paths.raw_forums(venue.key)),
                [{"forum_id": f["id"], "note": f} for f in (cyc, deep, clean)])

    result = ParseStage(venue, 1.0)(store)
    quarantine = store.read_parquet(store.path(paths.parsed_quarantine(venue.key))).to_pylist()
    by_forum = {(q["forum_id"], q["code"]): q for q in quarantine}
    assert set(by_forum) == {("cycleForum1", "reply_cycle"), ("deepForum01", "deep_reply_chain")}, quarantine
    assert "LoopA00001" in by_forum[("cycleForum1", "reply_cycle")]["detail"]
    assert "LoopB00001" in by_forum[("cycleForum1", "reply_cycle")]["detail"]
    deep_detail = by_forum[("deepForum01", "deep_reply_chain")]["detail"]
    assert f"more than {MAX_REPLY_DEPTH}" in deep_detail and "Deep000499" in deep_detail
    assert all(q["parsed"] for q in quarantine)  # the forums are still parsed and used
    assert result.figures[ROW_COUNT] == 3 and result.figures["quarantined_forums"] == 2


def test_the_base_hands_a_stage_its_declared_inputs_in_memory_and_nothing_else(tmp_path):
    """Issue 39 item 1: a stage test hands the parser the crawl's records in memory (no raw file on
    disk), and a stage reading what it did not declare fails naming it."""
    import pytest

    from reviewbench_assets.io.stage_io import Inputs, UndeclaredIO

    store = store_from_uri(str(tmp_path))
    venue = catalogue().get("iclr-2026")
    raw = _raw_forum()
    result = ParseStage(venue)(store, inputs={"raw_forums": [{"forum_id": raw["id"], "note": raw}]})
    assert not store.exists(store.path(paths.raw_forums(venue.key)))  # never written: handed in memory
    assert result.figures[ROW_COUNT] == 1
    [row] = store.read_parquet(store.path(paths.parsed(venue.key))).to_pylist()
    assert row["forum_id"] == raw["id"] == "zzo3Sy3NSX"
    inputs = Inputs("parsed_forums", ParseStage.reads, store, venue.key)
    with pytest.raises(UndeclaredIO, match="markdown"):
        inputs.markdown()
    with pytest.raises(UndeclaredIO, match="pdf_records"):
        ParseStage(venue)(store, inputs={"pdf_records": []})


def test_excluded_posts_are_stored_with_a_reason_code_and_counted_by_code(tmp_path):
    """Issue 39 item 3: a parsed post the routing excluded carries its reason as a code with its
    words (as the quarantine's problems do), and the stage counts the codes. In the recorded forum,
    the authors' comment f62LQEWDzg is titled 'Discussion Summary' and opens 'Dear ACs': a summary to
    the area chairs, no turn of a rebuttal; a reply added here with a deletion date is a deleted post."""
    venue = catalogue().get("iclr-2026")
    store = store_from_uri(str(tmp_path))
    raw = _raw_forum()
    replies = raw["details"]["replies"]
    gone = _reply_like(raw, next(r for r in replies if r["id"] != "f62LQEWDzg"), "GoneReply1", raw["id"])
    gone["ddate"] = gone["tcdate"] + 1
    replies.append(gone)
    write_jsonl(store, store.path(paths.raw_forums(venue.key)), [{"forum_id": raw["id"], "note": raw}])
    result = ParseStage(venue, 0.0)(store)
    [row] = store.read_parquet(store.path(paths.parsed(venue.key))).to_pylist()
    excluded = {p["note_id"]: (p["code"], p["reason"]) for p in row["posts"] if p["place"] == "excluded"}
    assert {k: code for k, (code, _) in excluded.items()} == {"f62LQEWDzg": "discussion_summary", "GoneReply1": "deleted"}
    assert excluded["f62LQEWDzg"][1] == "discussion summary addressed to the area chairs only"  # with its words
    assert all(p["code"] is None for p in row["posts"] if p["place"] != "excluded")
    assert result.figures["exclusion_reasons"] == {"discussion_summary": 1, "deleted": 1}
    assert result.figures["posts_excluded"] == 2
