"""Which reviews' edit histories are asked for, on the real recorded payloads: on API v2 the venue's
release edit (`<venue>/-/Edit`) moves every review's tmdate, so `tmdate > tcdate` would ask for every
paper; a review last modified before the authors' first post was not changed in response to them
(`domain.posts` changed_during_rebuttal, docs/openreview-api.md §1.8)."""
from __future__ import annotations

from reviewbench_assets.domain.dialogues import review_record
from reviewbench_assets.domain.posts import authors_first_post, changed_during_rebuttal
from reviewbench_assets.stages.crawl import edited_reviews
from tests.forums import parse_forum

REVIEW = ["Official_Review"]


def _review_sigs(note: dict) -> set[str]:
    wanted = {rid for ids in edited_reviews(note, REVIEW).values() for rid in ids}
    return {r["signatures"][0].rsplit("/", 1)[-1].removeprefix("Reviewer_") for r in note["details"]["replies"]
            if r["id"] in wanted}


def test_iclr2026_forum_asks_only_for_the_reviews_changed_after_the_authors_replied(iclr2026_raw):
    # every review carries the release edit; two reviewers answered the authors and edited theirs
    reviews = [r for r in iclr2026_raw["details"]["replies"] if r["invitations"][0].endswith("/-/Official_Review")]
    assert len(reviews) == 4 and all(r["tmdate"] > r["tcdate"] for r in reviews)
    assert all("ICLR.cc/2026/Conference/-/Edit" in r["invitations"] for r in reviews)
    assert _review_sigs(iclr2026_raw) == {"6VkV", "NkPg"}


def test_iclr2026_initial_scores_of_released_reviews_are_their_scores(iclr2026_raw, iclr2026):
    rec = review_record(parse_forum(iclr2026_raw, iclr2026), iclr2026.conference, iclr2026.year)
    by_sig = {r["reviewer_id"].rsplit("_", 1)[-1]: r for r in rec["reviews"]}
    for sig in ("zm69", "T1BF"):  # only released: the same before and after the rebuttal
        assert by_sig[sig]["initial_score_source"] == "unmodified since the rebuttal"
        assert by_sig[sig]["initial_score"] == by_sig[sig]["final_score"]
        assert len(by_sig[sig]["score_history"]) == 1
    for sig in ("6VkV", "NkPg"):  # edited after the authors replied, no history crawled: unknown
        assert by_sig[sig]["initial_score"] is None
        assert by_sig[sig]["score_history"] == []


def test_tracker_forums_release_edits_alone_cost_no_request(tracker_forums):
    asked = released = 0
    for f in tracker_forums:
        replies = f.get("replies") or []
        first = authors_first_post(replies)
        for r in replies:
            if not r["invitations"][0].endswith("/-/Official_Review"):
                continue
            released += 1
            assert r["tmdate"] > r["tcdate"]  # the old rule would have asked for all 61
            if first is not None:  # authors replied after the release: nothing to ask
                assert not changed_during_rebuttal(r["tcdate"], r["tmdate"], first)
            asked += changed_during_rebuttal(r["tcdate"], r["tmdate"], first)
    # the forums without any author reply (direct replies only in this crawl) stay asked for
    assert released == 61 and 0 < asked < released


def test_iclr2020_reviews_edited_during_the_discussion_are_asked_for(iclr2020_raw):
    assert _review_sigs(iclr2020_raw) == {"AnonReviewer1", "AnonReviewer2", "AnonReviewer3"}


def test_rule_edges():
    assert not changed_during_rebuttal(10, 10, None)  # never modified
    assert changed_during_rebuttal(10, 20, None)  # modified, authors never posted: unknown
    assert not changed_during_rebuttal(10, 20, 30)  # modified before the authors' first post
    assert changed_during_rebuttal(10, 30, 30)
    assert changed_during_rebuttal(None, 5, 30)  # creation time unknown
    sigs = [{"signatures": ["V/Submission1/Reviewer_a"], "tcdate": 5},
            {"signatures": ["V/Submission1/Authors"], "tcdate": 9},
            {"signatures": ["V/Submission1/Authors"], "tcdate": 7}]
    assert authors_first_post(sigs) == 7 and authors_first_post(sigs[:1]) is None
