"""One raw OpenReview forum -> a typed `ParsedForum` (pure domain code, no Dagster).

Input is the raw submission note exactly as the API returned it (v1: plain-value content, single
`invitation`; v2: `{"value": ...}` content, `invitations` list, `domain`) whose `details.replies`
holds every note of the forum (nested replies included; the tree is rebuilt from `replyto`).

Replies are classified by their invitation suffix `/-/<Name>` against the venue catalogue's reply
names (never by position), and their author role by signature; each review is then normalised with
its scores (domain/reviews.py `attach_reviews`). `row_fields` turns a parsed forum into every
ReviewBench column except `markdown`/`markdown_chars`; `parsed_row` and `forum_of` make it one row of
`parsed/<pk>.parquet` and back (the parser runs once per forum, in the parsed_forums stage; every
later stage reads these rows instead of parsing raw JSON again).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from partitions.catalogue import VenueYear
from reviewbench_assets.domain.posts import (
    ForeignRepliesError,
    MalformedForumError,
    ParsedForum,
    Post,
    Reason,
    as_list,
    classify_kind,
    field_readers,
    int_or_none,
    kind_table,
    main_text,
    role_of,
    sort_key,
    text_of,
    unwrap_content,
)
from reviewbench_assets.domain.reviews import attach_reviews, review_dict, typed_reviews
from reviewbench_assets.domain.routing import Routing, post_placements, route_posts

# ---------------------------------------------------------------------------------------------
# parsing


def _license(raw: Mapping[str, Any]) -> str | None:
    """A note's own `license` as OpenReview states it ('CC BY 4.0'), None where the note carries none."""
    value = raw.get("license")
    return value.strip() or None if isinstance(value, str) else None


def _build_post(raw: Mapping[str, Any], table: Mapping[str, str], venue_ids: list[str]) -> Post:
    invitations = as_list(raw.get("invitations"))
    single = raw.get("invitation")
    if isinstance(single, str) and single and single not in invitations:
        invitations = [single] + invitations
    parents = as_list(raw.get("parentInvitations", raw.get("parent_invitations")))
    content = unwrap_content(raw.get("content"))
    kind = classify_kind(parents + invitations, table)
    signatures = as_list(raw.get("signatures"))
    signature = signatures[0] if signatures else ""
    return Post(
        note_id=str(raw["id"]),
        replyto=raw.get("replyto") or None,
        invitation=invitations[0] if invitations else "",
        invitations=invitations,
        parent_invitations=parents,
        kind=kind,
        role=role_of(signature, venue_ids),
        signature=signature,
        number=int_or_none(raw.get("number")),
        tcdate=int_or_none(raw.get("tcdate")),
        cdate=int_or_none(raw.get("cdate")),
        mdate=int_or_none(raw.get("tmdate", raw.get("mdate"))),
        title=text_of(content.get("title")),
        text=main_text(kind, content),
        content=content,
        deleted=bool(raw.get("ddate")),
        license=_license(raw),
        note={k: v for k, v in raw.items() if k not in _NOT_NOTE_LEVEL},
        content_readers=field_readers(raw.get("content")),
    )


# Kept elsewhere, so not again in `Post.note`: content (`Post.content`), the fields the typed ones
# hold as sent (id, forum = the forum's, replyto, number, cdate, tcdate, license, the invitations),
# and details (the crawl's expansions: replies, edits, not the note)
_NOT_NOTE_LEVEL = frozenset({"content", "details", "id", "forum", "replyto", "number", "cdate", "tcdate",
                             "license", "invitation", "invitations", "parentInvitations", "parent_invitations"})


_DEAR_AC = re.compile(
    r"^\W*dear\s+(the\s+)?(senior\s+)?(acs?|sacs?|pcs?|area[\s_-]+chairs?|program[\s_-]+chairs?|"
    r"meta[\s_-]?reviewers?|action[\s_-]+editors?|editors?)\b",
    re.IGNORECASE,
)
_SUMMARY_TITLE = re.compile(
    r"(discussion\s+summary|summary\s+of\s+(the\s+)?(author[-\s]+reviewer\s+)?discussions?|"
    r"(message|note|letter|summary)\s+(to|for)\s+(the\s+)?(acs?|sacs?|area\s+chairs?|pcs?|program\s+chairs?))",
    re.IGNORECASE,
)


# A salutation that names the reviewers too is addressed to everyone, not to the ACs only: "Dear AC
# and Reviewers", and the real ICLR 2026 author post "Dear AC and Referees" (referee is the reviewers'
# older name in several communities).
_ALSO_TO_REVIEWERS = re.compile(r"(?<!meta[\s_-])(?<!meta)\b(reviewers?|referees?)\b", re.IGNORECASE)


def is_discussion_summary(post: Post) -> bool:
    """An author note addressed to the ACs/PCs only (e.g. ICLR 2026 "Discussion Summary", "Dear
    ACs, ... we would like to summarize the discussion"): not a response to reviewers."""
    if post.role != "author":
        return False
    first_line = post.text.strip().split("\n", 1)[0] if post.text.strip() else ""
    to_ac = bool(_DEAR_AC.match(first_line)) and not _ALSO_TO_REVIEWERS.search(first_line)
    return bool(_SUMMARY_TITLE.search(post.title)) or to_ac


def _venue_id_of(raw: Mapping[str, Any], invitations: list[str], venue: VenueYear) -> str:
    domain = raw.get("domain")
    if isinstance(domain, str) and domain:
        return domain
    known = sorted(venue.venue_ids, key=len, reverse=True)
    for inv in invitations:
        for vid in known:
            if inv.startswith(vid + "/"):
                return vid
    for inv in invitations:
        if "/-/" in inv:
            return inv.split("/-/", 1)[0]
    return venue.venue_ids[0]


def _track_of(venue_id: str, venue_string: str, decision: str, venue: VenueYear) -> str:
    candidates = [t for t, vid in venue.tracks.items() if vid == venue_id] or list(venue.tracks)
    if len(candidates) == 1:
        return candidates[0]
    haystack = f"{venue_string}\n{decision}".lower()
    for track, needle in venue.track_from_venue.items():
        if track in candidates and needle.lower() in haystack:
            return track
    rest = [t for t in candidates if t not in venue.track_from_venue]
    if "main" in rest:
        return "main"
    return rest[0] if rest else candidates[0]


def _status_of(
    invitations: list[str], content: Mapping[str, Any], venue_id: str, posts: list[Post],
    venue: VenueYear,
) -> str:
    inv = venue.invitations
    desk = inv.desk_rejected_submission.format(venue_id=venue_id)
    withdrawn = inv.withdrawn_submission.format(venue_id=venue_id)
    venueid = text_of(content.get("venueid"))
    markers = set(invitations) | ({venueid} if venueid else set())
    if desk in markers or any(i.endswith("Desk_Rejected_Submission") for i in markers):
        return "desk_rejected"
    if withdrawn in markers or any(i.endswith("Withdrawn_Submission") for i in markers):
        return "withdrawn"
    venue_string = text_of(content.get("venue")).lower()
    if re.search(r"desk[\s_-]*reject", venue_string):
        return "desk_rejected"
    if "withdrawn" in venue_string:
        return "withdrawn"
    live = [p for p in posts if not p.deleted]
    if any(p.kind == "desk_rejection" for p in live):
        return "desk_rejected"
    if any(p.kind == "withdrawal" for p in live):
        return "withdrawn"
    return "active"


def _str_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [s.strip() for s in value.split(",") if s.strip()]
    if isinstance(value, (list, tuple)):
        return [text_of(v) for v in value if v not in (None, "")]
    return [text_of(value)]


def _first_text(content: Mapping[str, Any], *names: str) -> str:
    for n in names:
        if content.get(n) not in (None, ""):
            return text_of(content[n])
    return ""


def _metareview_field(content: Mapping[str, Any]) -> str:
    for k, v in content.items():
        if (k.lower().startswith("metareview") or k.lower().startswith("meta_review")) and v:
            return text_of(v)
    return ""


def _decision_and_comment(posts: list[Post]) -> tuple[str, str]:
    decisions = [p for p in posts if p.kind == "decision" and not p.deleted]
    metas = [p for p in posts if p.kind == "meta_review" and not p.deleted]
    decision = ""
    for p in reversed(decisions):  # latest decision note wins
        decision = _first_text(p.content, "decision", "recommendation")
        if decision:
            break
    if not decision:  # CoRL 2022 style: the decision lives on the meta-review
        for p in reversed(metas):
            decision = _first_text(p.content, "decision")
            if decision:
                break
    comment = ""
    for p in reversed(metas):
        comment = _metareview_field(p.content)
        if comment:
            break
    if not comment:
        for p in reversed(decisions):
            comment = _metareview_field(p.content) or _first_text(p.content, "comment")
            if comment:
                break
    if not comment and len(metas) == 1:
        comment = metas[0].text
    return decision, comment


def parse_routed(raw: dict, venue: VenueYear,
                 review_edits: Mapping[str, list[dict]] | None = None) -> tuple[ParsedForum, Routing]:
    """Parse one raw forum (submission note + `details.replies`) of `venue`, top to bottom: the
    note's shape, its replies as posts, the forum's fields, the routing of its posts, then each
    review with its scores.

    `review_edits` (review id -> its edits, oldest first: v2 note edits or v1 references; the raw
    line's `review_edits`) adds the initial rating of edited reviews (`extra_scores["initial_rating"]`)
    and their initial scores (`review_history`, for the Re^2 `review` config).

    Raises `MalformedForumError` when the forum itself is unusable; a single bad reply is skipped
    and recorded in `ParsedForum.warnings`.
    """
    forum_id, replies = _checked_note(raw)
    invitations = as_list(raw.get("invitations"))
    if isinstance(raw.get("invitation"), str) and raw["invitation"] not in invitations:
        invitations = [raw["invitation"]] + invitations
    venue_id = _venue_id_of(raw, invitations, venue)
    posts, warnings = _posts_of(forum_id, replies, kind_table(venue),
                                list(dict.fromkeys([venue_id, *venue.venue_ids])))
    parsed = _forum_of(raw, forum_id, invitations, venue_id, posts, warnings, venue)
    routing = route_posts(parsed)
    by_id = {p.note_id: p for p in posts}
    parsed.author_rebuttal = "\n\n".join(by_id[n].text for n in routing.context if by_id[n].text)
    attach_reviews(parsed, venue, review_edits or {}, routing)
    return parsed, routing


def _checked_note(raw: Any) -> tuple[str, list]:
    """The forum id and its replies, or `MalformedForumError` saying why the payload is unusable."""
    if not isinstance(raw, Mapping):
        raise MalformedForumError(None, f"expected a JSON object, got {type(raw).__name__}", "malformed_submission")
    forum_id = raw.get("id")
    if not isinstance(forum_id, str) or not forum_id:
        raise MalformedForumError(raw.get("forum") if isinstance(raw.get("forum"), str) else None,
                                  "submission note has no id", "malformed_submission")
    if not isinstance(raw.get("content"), Mapping):
        raise MalformedForumError(forum_id, "submission note has no content object", "malformed_submission")
    details = raw.get("details") or {}
    if not isinstance(details, Mapping):
        raise MalformedForumError(forum_id, "details is not an object", "no_replies")
    if "replies" not in details:
        # e.g. fetched with `details=directReplies` (author answers under reviews are missing) or
        # without details at all: parsing it would give a row with 0 reviews and no warning.
        other = ", ".join(sorted(map(str, details))) or "nothing"
        raise MalformedForumError(forum_id, f"no details.replies (details has: {other}; "
                                            f"fetch the forum with details=replies)", "no_replies")
    replies = details["replies"]
    if replies is None:
        replies = []
    if not isinstance(replies, list):
        raise MalformedForumError(forum_id, f"details.replies is not a list ({type(replies).__name__})", "no_replies")
    strangers = [r for r in replies if isinstance(r, Mapping) and r.get("forum") not in (None, forum_id)]
    if strangers:
        raise ForeignRepliesError(forum_id, [str(r.get("id")) for r in strangers],
                                  sorted({str(r.get("forum")) for r in strangers}))
    return forum_id, replies


def _posts_of(forum_id: str, replies: list, table: Mapping[str, str],
              venue_ids: list[str]) -> tuple[list[Post], list[str]]:
    """Every usable reply as a `Post`, in time order, and a warning for each one skipped, duplicated
    or orphaned (one bad reply never fails the forum)."""
    warnings: list[Reason] = []
    by_id: dict[str, Post] = {}
    for i, r in enumerate(replies):
        if not isinstance(r, Mapping):
            warnings.append(Reason("reply_skipped", f"{forum_id}: reply #{i} skipped: not an object"))
            continue
        rid = r.get("id")
        if not isinstance(rid, str) or not rid:
            warnings.append(Reason("reply_skipped", f"{forum_id}: reply #{i} skipped: no id"))
            continue
        if not isinstance(r.get("content"), Mapping):
            warnings.append(Reason("reply_skipped", f"{forum_id}: reply {rid} skipped: no content object"))
            continue
        try:
            post = _build_post(r, table, venue_ids)
        except Exception as exc:  # one bad reply must not fail the forum
            warnings.append(Reason("reply_skipped", f"{forum_id}: reply {rid} skipped: {type(exc).__name__}: {exc}"))
            continue
        if post.replyto is None:
            post.replyto = forum_id
        if rid in by_id:
            warnings.append(Reason("duplicate_reply", f"{forum_id}: reply {rid} duplicated; the latest modification kept"))
            if (by_id[rid].mdate or 0) > (post.mdate or 0):
                continue
        by_id[rid] = post
    for p in by_id.values():
        if p.replyto != forum_id and p.replyto not in by_id:
            warnings.append(Reason("orphan_reply", f"{forum_id}: reply {p.note_id} is an orphan (replyto {p.replyto} absent)"))
    return sorted(by_id.values(), key=sort_key), warnings


def _forum_of(raw: Mapping[str, Any], forum_id: str, invitations: list[str], venue_id: str, posts: list[Post],
              warnings: list[str], venue: VenueYear) -> ParsedForum:
    """The forum's own fields: submission content, status and track, decision, and which top-level
    author posts are global responses or summaries for the ACs."""
    content = unwrap_content(raw["content"])
    decision, decision_comment = _decision_and_comment(posts)
    venue_string = text_of(content.get("venue"))
    globals_, summaries = [], []
    for p in posts:
        if p.deleted or p.role != "author" or p.replyto != forum_id or p.kind not in ("rebuttal", "comment"):
            continue
        (summaries if is_discussion_summary(p) else globals_).append(p)
    return ParsedForum(
        forum_id=forum_id,
        number=int_or_none(raw.get("number")),
        api="v2" if (raw.get("domain") or isinstance(raw.get("invitations"), list)) else venue.api,
        venue_id=venue_id,
        track=_track_of(venue_id, venue_string, decision, venue),
        status=_status_of(invitations, content, venue_id, posts, venue),
        title=_first_text(content, "title"),
        abstract=_first_text(content, "abstract"),
        authors=_str_list(content.get("authors")),
        keywords=_str_list(content.get("keywords")),
        tldr=_first_text(content, "TLDR", "TL;DR", "tldr", "TL;DR:"),
        primary_area=_first_text(content, "primary_area", "Primary_Area", "primary_subject_area"),
        venue=venue_string,
        decision=decision,
        decision_comment=decision_comment,
        author_rebuttal="",
        posts=posts,
        global_response_ids=[p.note_id for p in globals_],
        discussion_summary_ids=[p.note_id for p in summaries],
        pdf=_first_text(content, "pdf") or None,
        invitations=invitations,
        content=content,
        cdate=int_or_none(raw.get("cdate")),
        tcdate=int_or_none(raw.get("tcdate")),
        mdate=int_or_none(raw.get("mdate")),
        tmdate=int_or_none(raw.get("tmdate")),
        license=_license(raw),
        warnings=warnings,
    )


# ---------------------------------------------------------------------------------------------
# the parsed table's row: a parsed forum and its routing, and back


def parsed_row(p: ParsedForum, routing: Routing, venue: VenueYear, ordinal: int,
               crawled_at: float | None, submission_json: str) -> dict[str, Any]:
    """The `parsed/<pk>.parquet` row of one forum (`submission_json`: its raw submission note as
    crawled, without its replies, as JSON)."""
    return {**row_fields(p, venue.conference, venue.year), "ordinal": ordinal, "status": p.status,
            "api": p.api, "crawled_at": crawled_at, "posts": post_placements(p, routing),
            # the reviews are the typed column alone (one copy, the one SQL reads); forum_of puts them back
            "warnings": list(p.warnings), "forum_json": p.model_dump_json(exclude={"reviews"}),
            "routing_json": routing.model_dump_json(),
            "submission_json": submission_json, "license": p.license,
            "review_licenses": [getattr(p.post(str(r.get("review_id"))), "license", None) for r in p.reviews]}


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
        "reviews": typed_reviews(p.reviews),  # the rows derive reviews_json from it (`reviews_json`)
    }
