"""The review text in the union (issue 10 point 7): the body of every review form is a union key of
`reviews_json`, never only in `extra_text`, over every replica venue and the real recorded forums."""
from __future__ import annotations

import copy

import pytest

from openreview_replica.fixtures import build_fixtures
from openreview_replica.venues import VENUE_SPECS
from partitions import catalogue
from reviewbench_assets.domain.posts import unwrap_content
from reviewbench_assets.domain.reviews import parse_score, union_field
from reviewbench_assets.domain.schema import REVIEW_TEXT_FIELDS
from tests.forums import parse_forum

BODY = [f for f in REVIEW_TEXT_FIELDS if f not in ("review_id", "reviewer", "rebuttal")]


def _has_text(content: dict) -> bool:
    """The note carries prose: a string field (not the title) that is no score or short answer."""
    return any(isinstance(v, str) and k != "title" and len(v) >= 30 and parse_score(v) is None
               for k, v in unwrap_content(content).items())


def _check_forum(raw: dict, venue) -> int:
    p = parse_forum(raw, venue)
    replies = {r["id"]: r for r in raw["details"]["replies"]}
    for r in p.reviews:
        content = replies[r["review_id"]]["content"]
        if _has_text(content):
            assert any(r[f].strip() for f in BODY), (venue.key, r["review_id"], sorted(r["extra_text"]))
    return len(p.reviews)


@pytest.fixture(scope="module")
def replica_fx():
    return build_fixtures(sorted(VENUE_SPECS), seed=3, n_forums=8, eager_pdfs=False)


@pytest.mark.parametrize("key", sorted(VENUE_SPECS))
def test_no_replica_review_hides_its_text(key, replica_fx):
    vf = replica_fx.venues[key]
    venue = catalogue().get(key)
    seen = 0
    for sub in vf.submissions:
        raw = copy.deepcopy(sub)
        raw["details"] = {"replies": copy.deepcopy(vf.replies_by_forum.get(sub["id"], []))}
        seen += _check_forum(raw, venue)
    assert seen > 0, key
    # every free-text field of the venue's review form is a union key (or maps onto one)
    for spec in vf.spec.review_fields:
        if spec.kind == "text":
            assert union_field(spec.name, venue.conference) in BODY, (key, spec.name)


def test_no_real_review_hides_its_text(iclr2020_raw, iclr2020, iclr2026_raw, iclr2026, tracker_forums):
    assert _check_forum(iclr2020_raw, iclr2020) == 3
    assert _check_forum(iclr2026_raw, iclr2026) == 4
    venue_id = "ICLR.cc/2026/Conference"
    n = 0
    for f in tracker_forums:
        raw = {"id": f["id"], "number": f["number"], "invitations": [f"{venue_id}/-/Submission"],
               "domain": venue_id, "content": {k: {"value": v} for k, v in f["content"].items()},
               "details": {"replies": copy.deepcopy(f["replies"])}}
        n += _check_forum(raw, iclr2026)
    assert n >= 60


def test_iclr2020_review_body_is_the_review_key(iclr2020_raw, iclr2020):
    p = parse_forum(iclr2020_raw, iclr2020)
    for r in p.reviews:
        assert r["review"] == p.post(r["review_id"]).content["review"] and len(r["review"]) > 500
        assert "review" not in r["extra_text"]
