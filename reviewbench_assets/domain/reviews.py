"""Typed reviews (issue 28.3, pure domain code, no Dagster): the parser's review dicts (the union of
domain/scores.py) checked once by a Pydantic model on their way into the parsed table's
`reviews list<struct>` column (schema.REVIEW_STRUCT), and what the rows make of that column: the
card's `reviews_json` string and the `reviews` config's rows, one per review.

The model is built from the same field lists as the Arrow struct (the catalogue's
`vocabulary.review_fields`), strict: a score that is not a number, a text that is not a string or a
field outside the union is a parser bug, said where the row is made, never written.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from reviewbench_assets.domain.schema import REVIEW_FIELDS, REVIEW_SCORE_FIELDS, REVIEW_TEXT_FIELDS


class ScorePoint(BaseModel):
    """One point of a review's score trajectory (domain/scores.py score_history)."""
    model_config = ConfigDict(extra="forbid", strict=True)
    time: int | None
    rating: float | None
    confidence: float | None
    edit_id: str | None


_STRICT = ConfigDict(extra="forbid", strict=True)
Review: type[BaseModel] = create_model(  # the union as a model: one field per schema.REVIEW_FIELDS entry
    "Review",
    __config__=_STRICT,
    **{f: (str, "") for f in REVIEW_TEXT_FIELDS},
    **{f: (float | None, None) for f in REVIEW_SCORE_FIELDS},
    was_revised=(bool | None, None),
    extra_scores=(dict[str, float | None], Field(default_factory=dict)),
    extra_text=(dict[str, str], Field(default_factory=dict)),
    score_history=(list[ScorePoint], Field(default_factory=list)),
)
assert list(Review.model_fields) == REVIEW_FIELDS


def typed_review(review: Mapping[str, Any]) -> dict[str, Any]:
    """A parser review dict -> one REVIEW_STRUCT value (the extras as name/value lists, in their order)."""
    d = Review.model_validate(dict(review)).model_dump()
    d["extra_scores"] = [{"name": k, "value": v} for k, v in d["extra_scores"].items()]
    d["extra_text"] = [{"name": k, "value": v} for k, v in d["extra_text"].items()]
    return d


def typed_reviews(reviews: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [typed_review(r) for r in reviews]


def review_dict(typed: Mapping[str, Any]) -> dict[str, Any]:
    """One REVIEW_STRUCT value (as pyarrow's `to_pylist` gives it) -> the card's review dict: every
    union field in the card's order, the extras as objects."""
    d = {f: typed[f] for f in REVIEW_FIELDS}
    d["extra_scores"] = {e["name"]: e["value"] for e in typed["extra_scores"] or []}
    d["extra_text"] = {e["name"]: e["value"] for e in typed["extra_text"] or []}
    d["score_history"] = [dict(p) for p in typed["score_history"] or []]
    return d


def reviews_json(typed: Iterable[Mapping[str, Any]] | None) -> str:
    """The card's `reviews_json` (`json.dumps(list[dict])`) of a paper's typed reviews: the same
    string the parser's dicts gave before reviews were typed."""
    return json.dumps([review_dict(r) for r in typed or []], ensure_ascii=False)


def review_rows(paper: Mapping[str, Any], typed: Iterable[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """The `reviews` config's rows of one paper (schema.REVIEWS_CONFIG_SCHEMA): its key and
    venue-year, the review's place among the paper's reviews, then the typed review."""
    key = {c: paper[c] for c in ("forum_id", "conference", "year", "track", "venue_id")}
    return [{**key, "review_index": i, **r} for i, r in enumerate(typed or [])]
