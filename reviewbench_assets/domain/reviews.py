"""A review normalised from its raw form: union fields, scores and their history, and a parsed
forum's reviews attached with their threads' author posts (`attach_reviews`), and their typed form
(`typed_reviews`, at the end: the strict model of schema.REVIEW_STRUCT); pure domain code, no Dagster.

Normalisation into the ReviewBench `reviews_json` union: every review form of every venue-year maps
onto `schema.REVIEW_FIELDS`:
- union fields are filled through the catalogue's alias tables (`vocabulary.field_aliases`, plus
  per-family overrides in `vocabulary.family_field_aliases`, partitions/venues.yaml), with a
  case-insensitive fallback (EMNLP's `Soundness` -> `soundness`);
- score fields are parsed to numbers by `parse_score` (ints, or strings such as
  "6: marginally above the acceptance threshold", "3 good"); a string original is kept verbatim in
  `extra_text["<field>_text"]`;
- any other field of the form goes to `extra_scores` (numeric, or a short score-like string whose
  text is then also kept in `extra_text["<field>_text"]`) or to `extra_text` (text), so no field of a
  real form is dropped.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from partitions.catalogue import VenueYear, catalogue
from reviewbench_assets.domain.posts import (
    ParsedForum,
    authors_first_parsed,
    changed_during_rebuttal,
    sort_key,
    text_of,
)
from reviewbench_assets.domain.routing import Routing
from reviewbench_assets.domain.schema import (
    REVIEW_DICT_FIELDS,
    REVIEW_FIELDS,
    REVIEW_FLAG_FIELDS,
    REVIEW_HISTORY_FIELDS,
    REVIEW_SCORE_FIELDS,
    REVIEW_TEXT_FIELDS,
)

# Fields the normaliser owns; a form field with one of these names must not overwrite them.
_RESERVED = {"review_id", "reviewer", "rebuttal", "was_revised", "extra_scores", "extra_text"}
_UNION_TEXT = set(REVIEW_TEXT_FIELDS) - _RESERVED
_UNION_SCORES = set(REVIEW_SCORE_FIELDS)

_LEADING_NUMBER = re.compile(r"^\s*[\[(]?\s*([+-]?\d+(?:\.\d+)?)")
# A short string that *looks* like a score ("3: good", "4 excellent", "2") for non-union fields,
# strict enough not to catch prose such as "1. The idea ..." or "2 issues: ...\n".
_SCORE_LIKE = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)\s*(?::|$|\s+[A-Za-z(])")


def parse_score(value: Any) -> float | None:
    """A review score as a float: ints/floats as is, strings by their leading number.

    "6: marginally above the acceptance threshold" -> 6.0, "3 good" -> 3.0, 4 -> 4.0,
    "4: The reviewer is confident ..." -> 4.0; None / bool / "" / "N/A" / "Strong Accept" / lists of
    several values / NaN -> None. A one-element list is unwrapped (some forms store radio answers so).
    """
    if isinstance(value, Mapping) and "value" in value:  # a v2 field that escaped unwrapping
        value = value["value"]
    if isinstance(value, (list, tuple)):
        if len(value) != 1:
            return None
        value = value[0]
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        f = float(value)
        return None if math.isnan(f) or math.isinf(f) else f
    if isinstance(value, str):
        m = _LEADING_NUMBER.match(value)
        if not m:
            return None
        try:
            return float(m.group(1))
        except ValueError:  # pragma: no cover - regex guarantees a number
            return None
    return None


def union_field(raw_name: str, conference: str | None = None) -> str | None:
    """The union field a raw form field maps to, or None when it belongs in extra_*."""
    low = raw_name.strip().lower()
    vocabulary = catalogue().vocabulary  # family overrides first; None there: not a union field
    override = vocabulary.family_field_aliases.get((conference or "").lower(), {})
    if low in override:
        return override[low]
    if low in vocabulary.field_aliases:
        return vocabulary.field_aliases[low]
    if low in _UNION_TEXT or low in _UNION_SCORES:
        return low
    return None


def reviewer_id(signature: str) -> str:
    """The signature's last path segment: `.../Reviewer_abCd` -> `Reviewer_abCd`."""
    return (signature or "").rstrip("/").rsplit("/", 1)[-1]


def normalize_review(
    review_id: str,
    signature: str,
    content: Mapping[str, Any],
    *,
    conference: str | None = None,
    rebuttal: str = "",
) -> dict:
    """One review note's (unwrapped) content -> a dict with exactly the `REVIEW_FIELDS` keys."""
    review = empty_review()
    review["review_id"] = review_id
    review["reviewer"] = reviewer_id(signature)
    review["rebuttal"] = rebuttal or ""
    extra_scores: dict[str, float] = {}
    extra_text: dict[str, str] = {}
    for raw_name, value in content.items():
        target = union_field(raw_name, conference)
        if target is not None and target in _UNION_SCORES:
            if review[target] is not None:  # two raw fields for one union score: keep both
                _extra(raw_name, value, extra_scores, extra_text)
                continue
            review[target] = parse_score(value)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                if value is not None:
                    extra_text[f"{target}_text"] = text_of(value)
            continue
        if target is not None and target in _UNION_TEXT:
            text = text_of(value)
            if review[target]:  # two raw fields for one union text field: keep the second aside
                extra_text[raw_name] = text
            else:
                review[target] = text
            continue
        _extra(raw_name, value, extra_scores, extra_text)
    if "final_justification" in {k.lower() for k in content}:
        review["was_revised"] = bool(review["final_justification"].strip())
    review["extra_scores"] = extra_scores
    review["extra_text"] = extra_text
    return review


def _extra(name: str, value: Any, scores: dict, texts: dict) -> None:
    if value is None:
        return
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        score = parse_score(value)
        if score is not None:
            scores[name] = score
        return
    if isinstance(value, str) and "\n" not in value and len(value) <= 200:
        m = _SCORE_LIKE.match(value)
        if m:
            scores[name] = float(m.group(1))
            texts[f"{name}_text"] = value
            return
    texts[name] = text_of(value)


def scaled_score(scales: Mapping[str, Any], field: str, value: Any) -> tuple[float | None, float | None]:
    """(number, scale maximum) of a raw score, given the venue's form scales (the catalogue's
    `rating_scales`: field -> object with `max` and `labels`): a leading number, else the form's
    label table ("Strong accept" -> 4 for CoRL); (None, max) when it cannot be read."""
    scale = scales.get(field)
    high = None if scale is None else scale.max
    labels = {} if scale is None else scale.labels
    number = parse_score(value)
    if number is None and isinstance(value, str):
        number = labels.get(value.strip())
        if number is None:
            number = {k.lower(): v for k, v in labels.items()}.get(value.strip().lower())
    return (None if number is None else float(number)), (None if high is None else float(high))


def first_edit_content(edits: list[dict]) -> dict[str, Any]:
    """The (unwrapped) form content of a review's first edit (v2 note edit, or v1 reference),
    i.e. the review as posted."""
    return _edit_content(edits[0]) if edits else {}


def apply_review_history(review: dict, edits: list[dict], conference: str | None = None) -> dict:
    """Initial vs final scores from a review's edits (oldest first; v2 edits or v1 references): `rating` stays the final
    one; the rating of the first edit goes to extra_scores["initial_rating"] (its text, when a
    string, to extra_text["initial_rating_text"]); `was_revised` is True when a later edit changed
    a form field."""
    if not edits:
        return review
    initial = None
    for raw_name, v in first_edit_content(edits).items():
        if union_field(raw_name, conference) == "rating":
            initial = v
            break
    if initial is not None:
        review["extra_scores"]["initial_rating"] = parse_score(initial)
        if isinstance(initial, str):
            review["extra_text"]["initial_rating_text"] = initial
    later = [((e.get("note") or e).get("content")) or {} for e in edits[1:]]
    if any(later):
        review["was_revised"] = True
    return review


def _edit_content(edit: Mapping[str, Any]) -> dict[str, Any]:
    content = (edit.get("note") or edit).get("content") or {}
    return {k: (v.get("value") if isinstance(v, Mapping) else v) for k, v in content.items()
            if not isinstance(v, Mapping) or "value" in v}


def score_history(review: Mapping[str, Any], edits: list[dict], scales: Mapping[str, Any],
                  conference: str | None, posted_ms: int | None, modified: bool) -> list[dict]:
    """The review's (rating, confidence) after each of its edits, oldest first. An edit sets only the
    fields it changes (v2 note edits, v1 references), so the form is replayed edit by edit. A
    review never edited has one point (its final scores at posting time); an edited review whose
    history was not crawled has none: its trajectory is unknown, not flat."""
    if not edits:
        if modified:
            return []
        return [{"time": posted_ms, "rating": review.get("rating"), "confidence": review.get("confidence"),
                 "edit_id": None}]
    form: dict[str, Any] = {}
    points = []
    for edit in edits:
        form.update(_edit_content(edit))
        scores: dict[str, float | None] = {"rating": None, "confidence": None}
        for raw_name, value in form.items():
            field = union_field(raw_name, conference)
            if field in scores and scores[field] is None:
                scores[field] = scaled_score(scales, field, value)[0]  # a number, or a label's number
        time = edit.get("tcdate") or edit.get("cdate") or (edit.get("note") or {}).get("tcdate")
        points.append({"time": time, **scores, "edit_id": str(edit.get("id") or "") or None})
    return points


# ---------------------------------------------------------------------------------------------
# a parsed forum's reviews, each with its thread's author posts, scales and score history


def attach_reviews(parsed: ParsedForum, venue: VenueYear, edits: Mapping[str, list[dict]],
                    routing: Routing) -> None:
    """Each live review in the union form, with its thread's author posts, scale maxima, initial
    rating and score trajectory; and, for edited reviews, their scores as first posted."""
    authors_first = authors_first_parsed(parsed.posts)
    for p in parsed.posts:
        if p.kind != "review" or p.deleted:
            continue
        history = edits.get(p.note_id) or []
        review = attach_scales(apply_review_history(normalize_review(
            p.note_id, p.signature, p.content, conference=venue.conference,
            rebuttal=review_rebuttal(parsed, p.note_id, routing),
        ), history, venue.conference), venue.rating_scales)
        # A review last modified before the authors' first post keeps one point, at that modification
        changed = changed_during_rebuttal(p.tcdate, p.mdate, authors_first)
        posted = p.tcdate if p.tcdate is not None else p.cdate
        at = p.mdate if (p.mdate is not None and posted is not None and p.mdate > posted) else posted
        review["score_history"] = score_history(review, history, venue.rating_scales, venue.conference,
                                                at, changed)
        parsed.reviews.append(review)
        if not history:
            continue
        first = attach_scales(normalize_review(p.note_id, p.signature, first_edit_content(history),
                                               conference=venue.conference), venue.rating_scales)
        parsed.review_history[p.note_id] = {
            "initial_scores": {f: first[f] for f in REVIEW_SCORE_FIELDS},
            "edits": len(history), "first_edit_id": str(history[0].get("id") or ""),
        }


def attach_scales(review: dict, scales: Mapping) -> dict:
    """Scale maxima from the venue's form (the catalogue's `rating_scales`) (`extra_scores["<field>_max"]`), so scores can be
    normalised across venues; a score given only as a label ("Strong accept") gets its number.
    The raw text stays in `extra_text["<field>_text"]`."""
    for field in REVIEW_SCORE_FIELDS:
        raw = review["extra_text"].get(f"{field}_text", review.get(field))
        if raw is None and review.get(field) is None:
            continue
        number, maximum = scaled_score(scales, field, raw if raw is not None else review[field])
        if review.get(field) is None and number is not None:
            review[field] = number
        if maximum is not None:
            review["extra_scores"][f"{field}_max"] = maximum
    return review


def review_rebuttal(p: ParsedForum, review_id: str, routing: Routing) -> str:
    """The author posts of a review's thread (under the review, directly or transitively, and under
    the reviewer's comments elsewhere in the forum), time-ordered, "\\n\\n"-joined."""
    posts = [p.post(n) for n in routing.threads.get(review_id, [])[1:]]
    return "\n\n".join(
        q.text for q in sorted((q for q in posts if q is not None), key=sort_key)
        if q.role == "author" and not q.deleted and q.text
    )


# ---------------------------------------------------------------------------------------------
# typed reviews (issue 28.3): the parser's review dicts checked once by a strict Pydantic model built
# from the same field lists as the Arrow struct (schema.REVIEW_STRUCT, the catalogue's
# `vocabulary.review_fields`) on their way into the parsed table's `reviews list<struct>` column, and
# what the rows make of that column: the card's `reviews_json` string and the `reviews` config's rows,
# one per review. A score that is not a number, a text that is not a string or a field outside the
# union is a parser bug, said where the row is made, never written.


def empty_review() -> dict:
    """A review dict with every union field present and empty."""
    review: dict = {f: "" for f in REVIEW_TEXT_FIELDS}
    review.update({f: None for f in REVIEW_SCORE_FIELDS})
    review.update({f: None for f in REVIEW_FLAG_FIELDS})
    review.update({f: {} for f in REVIEW_DICT_FIELDS})
    review.update({f: [] for f in REVIEW_HISTORY_FIELDS})
    return review


class ScorePoint(BaseModel):
    """One point of a review's score trajectory (domain/reviews.py score_history)."""
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


def review_rows(paper: Mapping[str, Any], typed: Iterable[Mapping[str, Any]] | None,
                licenses: list[str | None] | None = None) -> list[dict[str, Any]]:
    """The `reviews` config's rows of one paper (schema.REVIEWS_CONFIG_SCHEMA): its key and
    venue-year, the review's place among the paper's reviews, its note's license ("unknown" where the
    note has none), then the typed review."""
    key = {c: paper[c] for c in ("forum_id", "conference", "year", "track", "venue_id")}
    licenses = licenses or []
    return [{**key, "review_index": i, "license": (licenses[i] if i < len(licenses) else None) or "unknown", **r}
            for i, r in enumerate(typed or [])]
