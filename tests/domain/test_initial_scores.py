"""Score changes reach every output (issue 10 point 6): where a review's edit history was crawled
(v2 `/notes/edits`, the raw line's `review_edits`), the Re^2 `review` record carries its initial
scores (the first edit: the review as posted) beside the final ones, and the default config's
review dict keeps `extra_scores["initial_rating"]`. Checked against the replica's ground truth
(`ForumTruth.review_initial_ratings` / `review_final_ratings`: the rating before and after the
reviewer's post-rebuttal edit)."""
from __future__ import annotations

import copy

import pytest

from openreview_replica.fixtures import build_fixtures
from partitions import catalogue
from reviewbench_assets.domain.dialogues import review_record
from reviewbench_assets.domain.reviews import parse_score
from reviewbench_assets.stages.crawl import edited_reviews
from tests.forums import parse_forum


@pytest.mark.parametrize("key", ["iclr-2025", "neurips-2025"])
def test_review_config_initial_scores_from_edit_history(key):
    fx = build_fixtures([key], seed=5, n_forums=24, eager_pdfs=False)
    vf, venue = fx.venues[key], catalogue().get(key)
    edited = unedited = 0
    for sub in vf.submissions:
        raw = copy.deepcopy(sub)
        raw["details"] = {"replies": copy.deepcopy(vf.replies_by_forum.get(sub["id"], []))}
        truth = vf.forums[sub["id"]]
        # as the crawl fetches them (`stages.crawl.edited_reviews`): reviews modified once the authors
        # had posted, their edits under the paper's review invitation (not the venue's release edit)
        edits = {rid: [copy.deepcopy(e) for e in vf.edits_by_note[rid] if e["invitation"] == inv]
                 for inv, ids in edited_reviews(raw, venue.invitations.review).items() for rid in ids}
        p = parse_forum(raw, venue, review_edits=edits)
        rec = review_record(p, venue.conference, venue.year)
        dicts = {r["review_id"]: r for r in p.reviews}
        for r in rec["reviews"]:
            rid = r["review_id"]
            assert r["final_score"]["rating"] == dicts[rid]["rating"]
            if rid not in truth.review_ids:  # hidden from the replica's reader: no ground truth
                continue
            if rid in truth.review_initial_ratings:
                edited += 1
                initial = parse_score(truth.review_initial_ratings[rid])
                final = parse_score(truth.review_final_ratings[rid])
                assert initial != final
                assert r["initial_score_source"] == f"edit history: first of 2 edits ({edits[rid][0]['id']})"
                assert (r["initial_score"]["rating"], r["final_score"]["rating"]) == (initial, final)
                assert r["initial_score"]["confidence"] == r["final_score"]["confidence"]
                # the default config keeps initial_rating in the review dict, as before
                assert dicts[rid]["extra_scores"]["initial_rating"] == initial
                assert dicts[rid]["was_revised"] is True
                # the trajectory: one point per edit, oldest first, from the posted to the final rating
                hist = r["score_history"]
                assert [h["edit_id"] for h in hist] == [e["id"] for e in edits[rid]]
                assert (hist[0]["rating"], hist[-1]["rating"]) == (initial, final)
                assert [h["time"] for h in hist] == sorted(h["time"] for h in hist)
                assert dicts[rid]["score_history"] == hist
            else:
                unedited += 1
                assert r["initial_score"] == r["final_score"]
                assert r["initial_score_source"] in ("unmodified", "unmodified since the rebuttal",
                                                     "edit history: first of 1 edits "
                                                     f"({(edits.get(rid) or [{}])[0].get('id')})")
        # without the history (v1, or review_edits off) an edited review's initial score is null
        bare = review_record(parse_forum(copy.deepcopy(raw), venue), venue.conference, venue.year)
        for r in bare["reviews"]:
            if r["review_id"] in truth.review_initial_ratings:
                assert r["initial_score"] is None
                assert r["initial_score_source"] == "modified: edit history not crawled"
                assert r["score_history"] == []  # unknown, not flat
            elif r["initial_score_source"] in ("unmodified", "unmodified since the rebuttal"):
                assert [(h["rating"], h["edit_id"]) for h in r["score_history"]] == [
                    (r["final_score"]["rating"], None)]
    assert edited >= 5 and unedited >= 5
