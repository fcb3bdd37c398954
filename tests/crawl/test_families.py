"""Each venue family, crawled from the replica (openreview-py + the project's crawl code) and
parsed into the final ReviewBench row, compared field by field with the fixtures' ground truth."""
from __future__ import annotations

import json

import pyarrow as pa
import pytest

from openreview_replica import VENUE_SPECS
from partitions import catalogue
from resources.store import store_from_uri
from reviewbench_assets.domain.forum import row_fields, unwrap_content
from reviewbench_assets.domain.reviews import parse_score, reviews_json, union_field
from reviewbench_assets.domain.routing import oddity_reasons, reasons_of_parsed
from reviewbench_assets.domain.schema import PARSED_SCHEMA, REVIEW_FIELDS
from reviewbench_assets.io.stage_io import Folder
from reviewbench_assets.stages.crawl import crawl_forums, fetch_review_edits
from tests.forums import parse_forum

from .conftest import openreview_resource


def test_specs_equal_the_catalogue():
    cat = catalogue()
    assert set(VENUE_SPECS) == set(cat.keys)
    for key, spec in VENUE_SPECS.items():
        entry = cat.get(key)
        assert spec.api_version == int(entry.api[1]), key
        assert spec.venue_id in entry.venue_ids, key
        assert (spec.deadline is None) == (entry.submission_deadline is None), key
        if spec.deadline:
            from openreview_replica.venues import iso_to_ms
            assert iso_to_ms(spec.deadline) == entry.deadline_ms, key


@pytest.mark.parametrize("key", sorted(VENUE_SPECS))
def test_family_parses_into_the_final_schema(key, replica, all_fx, tmp_path):
    venue = catalogue().get(key)
    vf = all_fx.venues[key]
    api = openreview_resource(replica).api(venue.api)
    items = list(crawl_forums(api, venue, Folder(store_from_uri(str(tmp_path)), "ck")))
    assert sorted(i["note"]["id"] for i in items) == sorted(vf.forums)
    assert len(vf.forums) >= 20
    # batched: a handful of requests for the whole venue, never one per forum
    assert api.stats["requests"] <= 4
    statuses = set()
    for item in items:
        raw = item["note"]
        truth = vf.forums[raw["id"]]
        parsed = parse_forum(raw, venue)
        assert reasons_of_parsed(parsed, venue) == [] and oddity_reasons(raw, venue) == []
        row = row_fields(parsed, venue.conference, venue.year)
        content = unwrap_content(raw["content"])
        statuses.add(parsed.status)
        assert row["forum_id"] == truth.forum_id
        assert row["conference"] == venue.conference
        assert row["year"] == (venue.year or row["year"]) and isinstance(row["year"], int)
        assert row["track"] == truth.track
        assert row["venue_id"] == vf.venue_id
        assert row["paper_number"] == truth.number
        assert row["title"] == truth.title
        assert row["abstract"] == content["abstract"]
        assert row["authors"] == content["authors"]
        assert row["keywords"] == content.get("keywords", [])
        assert row["tldr"] == content.get(vf.spec.tldr_field, "")
        assert row["venue"] == content.get("venue", "")
        assert parsed.status == truth.status
        assert row["decision"] == (truth.decision or "")
        replies = {r["id"]: r for r in raw["details"]["replies"]}
        # author notes to the forum and author replies to an area chair's note to all reviewers
        general = [unwrap_content(replies[i]["content"]) for i in sorted(
            truth.general_rebuttal_ids + truth.group_reply_ids, key=lambda i: (replies[i]["tcdate"], i))]
        assert row["author_rebuttal"] == "\n\n".join(c.get("rebuttal") or c.get("comment") for c in general)
        if truth.decision and vf.spec.meta_review_name is None and "comment" in vf.spec.decision_extra_fields:
            assert row["decision_comment"]  # v1 ICLR-style: the decision note carries the meta-review
        # the typed reviews as the parsed table stores them (an Arrow round trip) give the card's
        # reviews_json exactly as the parser's dicts did before reviews were typed (issue 28.3)
        stored = pa.Table.from_pylist([row], schema=PARSED_SCHEMA).to_pylist()[0]["reviews"]
        assert reviews_json(stored) == json.dumps(parsed.reviews, ensure_ascii=False)
        reviews = json.loads(reviews_json(stored))
        assert row["num_reviews"] == truth.num_reviews == len(reviews)
        assert [r["review_id"] for r in reviews] == [i for i in sorted(truth.review_ids, key=lambda i: (replies[i]["tcdate"], i))]
        for r in reviews:
            assert list(r) == REVIEW_FIELDS
            rc = unwrap_content(replies[r["review_id"]]["content"])
            assert r["reviewer"] == replies[r["review_id"]]["signatures"][0].rsplit("/", 1)[-1]
            raw_rating = rc.get("rating", rc.get("recommendation", rc.get("overall_recommendation")))
            if raw_rating is not None and parse_score(raw_rating) is not None:
                assert r["rating"] == parse_score(raw_rating)
                if isinstance(raw_rating, str):
                    assert r["extra_text"]["rating_text"] == raw_rating  # the original text is kept
            # no field of the form is dropped: every raw field lands in the union or extra_*
            kept = {k for k, v in r.items() if v not in ("", None, {})} | set(r["extra_scores"]) | {
                k[:-5] for k in r["extra_text"] if k.endswith("_text")} | set(r["extra_text"])
            for name in rc:
                target = union_field(name, venue.conference)
                assert (target in kept if target else name in kept), (key, name)
            author_posts = [p for p in parsed.descendants(r["review_id"]) if p.role == "author"]
            assert bool(r["rebuttal"]) == bool(author_posts)
    assert "active" in statuses
    assert len(statuses) == 3  # withdrawn and desk-rejected papers are crawled too


def test_tmlr_shape_and_rule(all_fx):
    vf = all_fx.venues["tmlr"]
    assert vf.deadline_ms is None and vf.submission_invitation == "TMLR/-/Submission"
    active = [f for f in vf.forums.values() if f.status == "active" and f.has_pdf]
    assert active and all(f.expected_rule == "initial" for f in active)
    for f in active:  # the first released revision is the TMLR/-/Submission edit, readable by everyone
        first = f.revisions[0]
        assert first.revision_id == f.expected_revision_id and first.visible
        assert first.invitation == "TMLR/-/Submission"
    reply_invs = {r["invitations"][0].rsplit("/-/", 1)[1] for rs in vf.replies_by_forum.values() for r in rs}
    assert {"Review", "Official_Recommendation", "Decision"} <= reply_invs


def test_emnlp_findings_and_neurips_rebuttal_styles(all_fx):
    emnlp = all_fx.venues["emnlp-2023"]
    assert {f.track for f in emnlp.forums.values()} == {"main", "findings"}
    assert all(f.decision == "Accept-Findings" for f in emnlp.forums.values() if f.track == "findings")
    n23 = all_fx.venues["neurips-2023"]
    invs = {r["invitations"][0] for rs in n23.replies_by_forum.values() for r in rs}
    assert any(i.endswith("/-/Author_Rebuttal") for i in invs)
    assert any("/Official_Review" in i and i.endswith("/-/Rebuttal") for i in invs)


def _crawled_with_review_edits(replica, all_fx, tmp_path, key: str):
    """(venue, crawled forum, its fixture truth, its reviews' edits) for each forum of `key` on the
    replica; each forum's edits cost at most one request (one per paper's review invitation)."""
    venue = catalogue().get(key)
    api = openreview_resource(replica).api(venue.api)
    for item in list(crawl_forums(api, venue, Folder(store_from_uri(str(tmp_path)), "ck"))):
        before = api.stats["requests"]
        edits = fetch_review_edits(api, item["note"], venue.invitations.review, venue.api)
        assert api.stats["requests"] - before <= 1
        yield venue, item, all_fx.venues[key].forums[item["note"]["id"]], edits


def test_review_edits_give_initial_and_final_rating(replica, all_fx, tmp_path):
    """NeurIPS 2025: the edits of edited reviews (one request per paper's review invitation)."""
    seen = 0
    for venue, item, truth, edits in _crawled_with_review_edits(replica, all_fx, tmp_path, "neurips-2025"):
        for rid, initial in truth.review_initial_ratings.items():
            assert edits[rid][0]["note"]["content"]["rating"]["value"] == initial
            parsed = parse_forum(item["note"], venue, review_edits=edits)
            review = next(r for r in parsed.reviews if r["review_id"] == rid)
            assert review["rating"] == truth.review_final_ratings[rid]
            assert review["extra_scores"]["initial_rating"] == initial
            assert review["was_revised"] is True and review["final_justification"]
            seen += 1
    assert seen >= 5


@pytest.mark.parametrize("key", ["iclr-2020", "iclr-2022"])
def test_v1_review_references_give_initial_and_final_scores(key, replica, all_fx, tmp_path):
    """API v1: a review's revision history is its references; one request per paper's review
    invitation; the Re^2 `review` record carries the initial and final scores (issue 10 point 6)."""
    from reviewbench_assets.domain.dialogues import review_record

    seen = 0
    for venue, item, truth, edits in _crawled_with_review_edits(replica, all_fx, tmp_path, key):
        assert venue.api == "v1"
        rec = review_record(parse_forum(item["note"], venue, review_edits=edits), venue.conference, venue.year)
        by_id = {r["review_id"]: r for r in rec["reviews"]}
        for rid, initial in truth.review_initial_ratings.items():
            assert len(edits[rid]) == 2 and edits[rid][0]["referent"] == rid
            r = by_id[rid]
            assert r["initial_score"]["rating"] == parse_score(initial) != r["final_score"]["rating"]
            assert r["final_score"]["rating"] == parse_score(truth.review_final_ratings[rid])
            assert r["initial_score_source"].startswith("edit history: first of 2 edits")
            seen += 1
    assert seen >= 3
