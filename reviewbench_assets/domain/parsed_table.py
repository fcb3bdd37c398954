"""A parsed forum as one row of `parsed/<pk>.parquet` (schema.PARSED_SCHEMA) and back (pure domain
code, no Dagster): the parser runs once per forum, in the parsed_forums stage; every later stage
reads these rows instead of parsing raw JSON again."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from partitions.catalogue import VenueYear
from reviewbench_assets.domain.posts import ParsedForum
from reviewbench_assets.domain.reviews import review_dict, typed_reviews
from reviewbench_assets.domain.routing import ACCOUNTED_ROLES, Routing


def post_placements(p: ParsedForum, routing: Routing) -> list[dict]:
    """Every post of the forum with where the routing put it: a thread (with its root), the
    reference context of every thread, or excluded with the reason; `none` for posts that are no
    author or reviewer voice and that the routing did not exclude (an area chair's own note)."""
    context = set(routing.context)
    out = []
    for q in p.posts:
        if q.note_id in routing.thread_of:
            place, reason = "thread", None
        elif q.note_id in routing.excluded:
            place, reason = "excluded", routing.excluded[q.note_id]
        elif q.note_id in context:
            place, reason = "reference_context", None
        else:
            place, reason = ("none" if q.role not in ACCOUNTED_ROLES else "unrouted"), None
        out.append({"note_id": q.note_id, "replyto": q.replyto, "kind": q.kind, "role": q.role,
                    "signature": q.signature, "tcdate": q.tcdate, "deleted": q.deleted, "place": place,
                    "thread": routing.thread_of.get(q.note_id), "reason": reason})
    return out


def parsed_row(p: ParsedForum, routing: Routing, venue: VenueYear, ordinal: int,
               crawled_at: float | None, submission_json: str) -> dict[str, Any]:
    """The `parsed/<pk>.parquet` row of one forum (`submission_json`: its raw submission note as
    crawled, without its replies, as JSON)."""
    return {**row_fields(p, venue.conference, venue.year), "ordinal": ordinal, "status": p.status,
            "api": p.api, "crawled_at": crawled_at, "posts": post_placements(p, routing),
            # the reviews are the typed column alone (one copy, the one SQL reads); forum_of puts them back
            "warnings": list(p.warnings), "forum_json": p.model_dump_json(exclude={"reviews"}),
            "routing_json": routing.model_dump_json(),
            "submission_json": submission_json}


def forum_of(row: Mapping[str, Any]) -> tuple[ParsedForum, Routing]:
    """The parsed forum and its routing back from a `parsed/<pk>.parquet` row (its two JSON columns
    and the typed `reviews`, as the parser's dicts)."""
    forum = ParsedForum.model_validate_json(row["forum_json"])
    forum.reviews = [review_dict(r) for r in row["reviews"] or []]
    return forum, Routing.model_validate_json(row["routing_json"])


def _year_from_ms(ms: int | None) -> int | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).year


def row_fields(p: ParsedForum, conference: str, year: int | None) -> dict:
    """Every ReviewBench column except `markdown`/`markdown_chars`, in schema order, with the reviews
    typed (`reviews`, schema.REVIEW_STRUCT) where the card has their JSON."""
    if year is None:  # TMLR (rolling): the submission's creation year
        year = _year_from_ms(p.cdate if p.cdate is not None else p.tcdate)
    return {
        "forum_id": p.forum_id,
        "conference": conference,
        "year": year,
        "track": p.track,
        "venue_id": p.venue_id,
        "paper_number": p.number,
        "title": p.title,
        "abstract": p.abstract,
        "authors": list(p.authors),
        "keywords": list(p.keywords),
        "tldr": p.tldr,
        "primary_area": p.primary_area,
        "venue": p.venue,
        "decision": p.decision,
        "decision_comment": p.decision_comment,
        "author_rebuttal": p.author_rebuttal,
        "num_reviews": len(p.reviews),
        "reviews": typed_reviews(p.reviews),  # the rows derive reviews_json from it (domain/reviews.py)
    }
