"""Typed reviews (issue 28.3): the parser's review dicts go into the parsed table as a typed
`list<struct>` (a strict Pydantic model at that boundary), and the card's `reviews_json` derived from
what the table stores is the very string the dicts gave before: over the real recorded forums (ICLR
2020 API v1, ICLR 2026 API v2 and the 16 forums of the ICLR 2026 tracker file)."""
from __future__ import annotations

import copy
import json

import pyarrow as pa
import pydantic
import pytest

from reviewbench_assets.domain.forum import row_fields
from reviewbench_assets.domain.reviews import empty_review, review_rows, reviews_json, typed_reviews
from reviewbench_assets.domain.schema import PARSED_SCHEMA, REVIEW_STRUCT, REVIEWS_CONFIG_SCHEMA
from tests.forums import parse_forum


def _stored(p) -> list[dict]:
    """The reviews as the parsed table gives them back (written and read through Arrow)."""
    row = row_fields(p, "iclr", 2026)
    return pa.Table.from_pylist([row], schema=pa.schema([PARSED_SCHEMA.field("reviews")])).to_pylist()[0]["reviews"]


def _real_forums(iclr2020_raw, iclr2020, iclr2026_raw, iclr2026, tracker_forums):
    yield parse_forum(iclr2020_raw, iclr2020)
    yield parse_forum(iclr2026_raw, iclr2026)
    venue_id = "ICLR.cc/2026/Conference"
    for f in tracker_forums:
        raw = {"id": f["id"], "number": f["number"], "invitations": [f"{venue_id}/-/Submission"],
               "domain": venue_id, "content": {k: {"value": v} for k, v in f["content"].items()},
               "details": {"replies": copy.deepcopy(f["replies"])}}
        yield parse_forum(raw, iclr2026)


def test_reviews_json_from_the_typed_table_is_the_string_of_before(iclr2020_raw, iclr2020, iclr2026_raw, iclr2026,
                                                                   tracker_forums):
    n = scored = 0
    for p in _real_forums(iclr2020_raw, iclr2020, iclr2026_raw, iclr2026, tracker_forums):
        stored = _stored(p)
        assert reviews_json(stored) == json.dumps(p.reviews, ensure_ascii=False)
        n += len(stored)
        scored += sum(r["rating"] is not None and bool(r["extra_scores"]) for r in stored)
    assert n >= 60 and scored >= 60  # real reviews, with ratings and venue extras


def test_review_rows_are_the_typed_reviews_with_their_paper(iclr2026_raw, iclr2026):
    p = parse_forum(iclr2026_raw, iclr2026)
    paper = {"forum_id": p.forum_id, "conference": "iclr", "year": 2026, "track": "main", "venue_id": p.venue_id}
    rows = pa.Table.from_pylist(review_rows(paper, _stored(p)), schema=REVIEWS_CONFIG_SCHEMA).to_pylist()
    assert [r["review_index"] for r in rows] == [0, 1, 2, 3]
    assert [r["review_id"] for r in rows] == [r["review_id"] for r in p.reviews]
    assert all(r["forum_id"] == p.forum_id and isinstance(r["rating"], float) for r in rows)
    assert [r["score_history"] for r in rows] == [r["score_history"] for r in p.reviews]


@pytest.mark.parametrize("change, field", [
    (lambda r: r.update(rating="6: marginally above"), "rating"),  # a score the parser left as text
    (lambda r: r.update(summary=None), "summary"),  # text is "" when absent, never null
    (lambda r: r.update(novelty=3.0), "novelty"),  # outside the union: it belongs in extra_scores
    (lambda r: r["extra_scores"].update(novelty="high"), "extra_scores"),
    (lambda r: r.update(score_history=[{"time": 1, "rating": 6.0, "confidence": None}]), "edit_id"),
])
def test_a_review_outside_the_typed_union_is_refused_where_the_row_is_made(change, field):
    review = empty_review()
    review.update(review_id="r1", reviewer="Reviewer_x", rating=6.0)
    change(review)
    with pytest.raises(pydantic.ValidationError, match=field):
        typed_reviews([review])


def test_the_struct_follows_the_catalogue_union():
    from partitions.catalogue import catalogue

    union = catalogue().vocabulary.review_fields
    names = [f.name for f in REVIEW_STRUCT]
    assert names[3:3 + len(union.text)] == list(union.text)
    for score in union.scores:
        assert REVIEW_STRUCT.field(score).type == pa.float64()
    # every score a rating scale of the catalogue names is a typed column
    scaled = {f for v in catalogue().venues for f in v.rating_scales}
    assert scaled and scaled <= set(union.scores)


def test_the_parsed_forum_comes_back_whole_with_its_reviews_stored_once(iclr2020_raw, iclr2020, iclr2026_raw, iclr2026,
                                                                       tracker_forums):
    """The parsed table keeps each review once, typed; `forum_of` gives the later stages the parsed
    forum as the parser made it (its review dicts rebuilt from the typed column)."""
    from reviewbench_assets.domain.forum import forum_of, parsed_row
    from reviewbench_assets.domain.routing import route_posts

    for p in _real_forums(iclr2020_raw, iclr2020, iclr2026_raw, iclr2026, tracker_forums):
        routing = route_posts(p)
        row = parsed_row(p, routing, iclr2026, 0, None, "{}")
        assert '"review_id"' not in row["forum_json"]  # not a second copy of the reviews
        stored = pa.Table.from_pylist([row], schema=PARSED_SCHEMA).to_pylist()[0]
        forum, back = forum_of(stored)
        assert forum.model_dump() == p.model_dump() and back == routing
