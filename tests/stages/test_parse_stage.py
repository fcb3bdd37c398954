"""`stages.parse_stage.parse_venue`: the only caller of the forum parser quarantines with reason
codes and guards the partition with its blocking `quarantined_share` check (issue 20), on the real
recorded ICLR 2026 forum (tests/fixtures/openreview-samples)."""
from __future__ import annotations

import copy

from partitions.catalogue import catalogue
from resources.store import store_from_uri
from reviewbench_assets import paths
from reviewbench_assets.stages.parse_stage import QUARANTINE_CHECK, parse_venue
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
    store.write_jsonl(store.path(paths.raw_forums(venue.key)),
                      [{"forum_id": good["id"], "note": good}, {"forum_id": bad["id"], "note": bad}])

    result = parse_venue(venue, store, max_quarantined_share=0.4)
    assert result.row_count == 1 and result.counts["malformed_forums"] == 1  # the bad payload gives no row
    quarantine = store.read_parquet(store.path(paths.parsed_quarantine(venue.key))).to_pylist()
    assert [(q["forum_id"], q["code"], q["parsed"]) for q in quarantine] == [
        ("badForum01", "foreign_replies", False), ("badForum01", "reply_skipped", False)]
    assert "Stranger1" in quarantine[0]["detail"] and "NoContent1" in quarantine[1]["detail"]
    [check] = result.checks
    assert check.name == QUARANTINE_CHECK and not check.passed and check.metadata["share"] == 0.5

    relaxed = parse_venue(venue, store, max_quarantined_share=0.5)
    assert relaxed.checks[0].passed and relaxed.counts["quarantined_forums"] == 1


def test_a_clean_forum_passes_the_check(tmp_path):
    venue = catalogue().get("iclr-2026")
    store = store_from_uri(str(tmp_path))
    raw = _raw_forum()
    store.write_jsonl(store.path(paths.raw_forums(venue.key)), [{"forum_id": raw["id"], "note": raw}])
    result = parse_venue(venue, store, max_quarantined_share=0.0)
    assert result.checks[0].passed and result.counts["quarantined_forums"] == 0
    assert store.read_parquet(store.path(paths.parsed_quarantine(venue.key))).num_rows == 0
