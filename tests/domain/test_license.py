"""Each record's license is read from the note that carries it (issue 37 item 1): the truth is the real
payloads' own `license` field (tests/fixtures/openreview-samples/, recorded from api2.openreview.net)."""
from __future__ import annotations

import json
from pathlib import Path

from partitions.catalogue import catalogue
from resources.store import store_from_uri
from reviewbench_assets.domain.reviews import review_rows
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.parse_stage import ParseStage
from tests.forums import parse_forum
from tests.stages.test_dialogue_stage import _raw_forum

SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "openreview-samples"


def test_the_v2_submission_and_every_reply_keep_their_own_license_into_the_parsed_table(tmp_path):
    raw = _raw_forum()
    truth = {r["id"]: r["license"] for r in raw["details"]["replies"]}  # every reply of the payload has one
    assert set(truth.values()) == {"CC BY 4.0"} and raw["license"] == "CC BY 4.0"
    store = store_from_uri(str(tmp_path))
    venue = catalogue().get("iclr-2026")
    ParseStage(venue)(store, inputs={"raw_forums": [{"forum_id": raw["id"], "note": raw}]})
    [row] = store.read_parquet(store.path(paths.parsed(venue.key))).to_pylist()
    assert row["license"] == "CC BY 4.0"
    assert row["review_licenses"] == ["CC BY 4.0"] * 4  # the four official reviews
    forum = json.loads(row["forum_json"])
    assert {p["note_id"]: p["license"] for p in forum["posts"]} == truth


def test_a_v1_note_has_no_license_and_its_records_say_unknown(iclr2020_raw):
    replies = json.loads((SAMPLES / "iclr2020_ryxz8CVYDH_v1_details_replies.json").read_text())
    assert all("license" not in r for r in replies)  # the recorded v1 replies carry none
    p = parse_forum(iclr2020_raw, catalogue().get("iclr-2020"))
    assert p.posts
    assert p.license is None and all(post.license is None for post in p.posts)
    rows = review_rows({"forum_id": "f", "conference": "ICLR", "year": 2020, "track": "main", "venue_id": "v"},
                       [{"review_id": "r1"}, {"review_id": "r2"}], [None, "CC BY 4.0"])
    assert [r["license"] for r in rows] == ["unknown", "CC BY 4.0"]


def test_a_v2_reply_keeps_its_readers_writers_and_dates_into_the_parsed_table(tmp_path):
    # truth by hand from the recorded ICLR 2026 payload: reply f62LQEWDzg, an author comment
    raw = _raw_forum()
    store = store_from_uri(str(tmp_path))
    venue = catalogue().get("iclr-2026")
    ParseStage(venue)(store, inputs={"raw_forums": [{"forum_id": raw["id"], "note": raw}]})
    [row] = store.read_parquet(store.path(paths.parsed(venue.key))).to_pylist()
    post = {p["note_id"]: p for p in json.loads(row["forum_json"])["posts"]}["f62LQEWDzg"]
    assert post["note"] == {
        "signatures": ["ICLR.cc/2026/Conference/Submission4956/Authors"], "readers": ["everyone"],
        "writers": ["ICLR.cc/2026/Conference", "ICLR.cc/2026/Conference/Submission4956/Authors"],
        "domain": "ICLR.cc/2026/Conference", "tmdate": 1764613744011, "mdate": 1764613744011, "version": 2}
    assert (post["cdate"], post["tcdate"], post["license"]) == (1764610597098, 1764610597098, "CC BY 4.0")


def test_a_v1_review_keeps_its_readers_writers_and_dates(iclr2020_raw):
    # truth by hand from the recorded ICLR 2020 replies: HylOroWRYB, AnonReviewer3's review
    p = parse_forum(iclr2020_raw, catalogue().get("iclr-2020"))
    post = p.post("HylOroWRYB")
    assert post.note == {"original": None, "ddate": None, "tmdate": 1574665228676, "tddate": None,
                         "signatures": ["ICLR.cc/2020/Conference/Paper1130/AnonReviewer3"], "readers": ["everyone"],
                         "nonreaders": [], "writers": ["ICLR.cc/2020/Conference/Paper1130/AnonReviewer3"]}
    assert (post.cdate, post.tcdate, post.license) == (1571851072514, 1571851072514, None)
