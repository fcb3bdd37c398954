"""The reasons a forum needs a look (pure domain code, no Dagster): what the parser found
(`reasons_of_parsed`, recorded by parsed_forums, the parser's only caller) and what the crawl sees
without parsing (`oddity_reasons`: over-long fields, absurd counts, duplicate ids). Each reason is a
`posts.Reason`: its text and the short code the quarantine tables and their checks group by, made
together by the rule that found it (codes: foreign_replies, no_replies, malformed_submission and
malformed_forum for a forum refused whole; reply_skipped, duplicate_reply, orphan_reply,
unknown_invitation from the parser; duplicate_submission, oversized_field, absurd_count from the
crawl's look)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partitions.catalogue import VenueYear
from reviewbench_assets.domain.forum import ForeignRepliesError
from reviewbench_assets.domain.posts import (
    MalformedForumError,
    ParsedForum,
    Reason,
    as_list,
    field_value,
    invitation_name,
)


def without_foreign_replies(raw: Any, exc: MalformedForumError) -> dict | None:
    """The forum payload without the replies of another forum that `exc` found in it (so the rest
    can be checked too), or None when the error is of another kind."""
    if not isinstance(exc, ForeignRepliesError):
        return None
    return dict(raw, details=dict(raw["details"], replies=[
        r for r in raw["details"]["replies"] if not (isinstance(r, Mapping) and r.get("id") in exc.reply_ids)]))


def reasons_of_parsed(parsed: ParsedForum, venue: VenueYear) -> list[Reason]:
    """What is wrong with a forum that parsed: the parser's warnings (skipped, duplicated or orphan
    replies) and replies under an invitation neither a kind nor the venue's `known_other` names
    (the catalogue's vocabulary). `parsed` is the parser's own result: a forum read back from JSON
    has its warnings' texts without their codes."""
    known = set(venue.invitations.known_other)
    uncoded = [w for w in parsed.warnings if not isinstance(w, Reason)]
    if uncoded:
        raise TypeError(f"{parsed.forum_id}: warnings without their codes (a forum read back from JSON?): {uncoded[:3]}")
    reasons = list(parsed.warnings) + reply_shape_reasons(parsed)
    for p in parsed.posts:
        if p.kind != "other":
            continue
        names = [invitation_name(i) for i in (p.parent_invitations + p.invitations)]
        if not any(n in known for n in names):
            reasons.append(Reason("unknown_invitation", f"{parsed.forum_id}: reply {p.note_id} under unknown "
                                                        f"invitation {(p.invitations or [''])[0]!r}"))
    return reasons


MAX_REPLY_DEPTH = 100  # replies under replies; the deepest real discussions are a few dozen deep


def reply_shape_reasons(parsed: ParsedForum, max_depth: int = MAX_REPLY_DEPTH) -> list[Reason]:
    """Reply chains no discussion makes: replies whose `replyto` chain loops (each loop named once;
    routing leaves them out of the dialogues) and a chain deeper than `max_depth` (named by its
    deepest reply). Iterative: a 100,000-deep chain costs a walk, not the stack."""
    parent = {q.note_id: q.replyto for q in parsed.posts}
    depth: dict[str, int | None] = {}  # note id -> replies above it + 1; None: on or under a loop
    reasons: list[Reason] = []
    for start in parent:
        path: list[str] = []
        on_path: dict[str, int] = {}
        node = start
        while node in parent and node not in depth and node not in on_path:
            on_path[node] = len(path)
            path.append(node)
            node = parent[node]
        base: int | None = depth.get(node, 0) if node not in on_path else None
        if node in on_path:  # the walk came back to itself: a loop
            loop = path[on_path[node]:]
            reasons.append(Reason("reply_cycle", f"{parsed.forum_id}: reply cycle: replies {', '.join(loop)} reply "
                                  "to each other and never reach the forum (left out of the dialogues)"))
            for n in loop:
                depth[n] = None
            path = path[:on_path[node]]
        for n in reversed(path):
            base = None if base is None else base + 1
            depth[n] = base
    deepest = max(((d, n) for n, d in depth.items() if d is not None), default=(0, ""))
    if deepest[0] > max_depth:
        reasons.append(Reason("deep_reply_chain", f"{parsed.forum_id}: reply chain {deepest[0]} replies deep "
                                                  f"(more than {max_depth}), down to {deepest[1]}"))
    return reasons


# Oddities: a forum that parses but that no real venue produces. It is kept and parsed as usual; the
# reason is recorded so someone looks at it before the numbers are trusted.
MAX_TITLE_CHARS = 10_000  # real titles are under 300 characters; 10 kB is a paste or an injection
MAX_FIELD_CHARS = 1_000_000  # a review or abstract field of 1 MB is no text a person wrote
MAX_DECISIONS = 1  # a paper gets one decision (a revised one replaces it: a new edit, not a new note)
MAX_REPLIES_OF_ONE_KIND = 1_000  # the busiest real forums hold a few hundred replies in all


def oddity_reasons(raw: Any, venue: VenueYear, listed: int = 1) -> list[Reason]:
    """Why a parseable forum looks impossible: over-long fields, absurd counts, an id listed more
    than once by one of the venue's submission queries (`listed`: the most times one query listed it). [] for an ordinary forum."""
    if not isinstance(raw, Mapping):
        return []
    fid = raw.get("id")
    reasons = [Reason("duplicate_submission", f"{fid}: duplicate submission id: listed {listed} times by one query")
               ] if listed > 1 else []
    content = raw.get("content") if isinstance(raw.get("content"), Mapping) else {}
    title = field_value(content.get("title"))
    if isinstance(title, str) and len(title) > MAX_TITLE_CHARS:
        reasons.append(Reason("oversized_field",
                              f"{fid}: oversized field: title of {len(title):,} characters (> {MAX_TITLE_CHARS:,})"))
    replies = (raw.get("details") or {}).get("replies") if isinstance(raw.get("details"), Mapping) else None
    notes = [raw] + [r for r in replies or [] if isinstance(r, Mapping)]
    for note in notes:
        for key, value in (note.get("content") or {}).items() if isinstance(note.get("content"), Mapping) else ():
            value = field_value(value)
            if isinstance(value, str) and len(value) > MAX_FIELD_CHARS:
                reasons.append(Reason("oversized_field",
                                      f"{fid}: oversized field: {note.get('id')} content.{key} of {len(value):,} characters"))
    kinds: dict[str, int] = {}
    for r in notes[1:]:
        if r.get("ddate"):
            continue
        name = invitation_name((as_list(r.get("invitations")) or as_list(r.get("invitation")) or [""])[0])
        kinds[name] = kinds.get(name, 0) + 1
    decisions = sum(n for name, n in kinds.items() if name in venue.invitations.decision)
    if decisions > MAX_DECISIONS:
        reasons.append(Reason("absurd_count", f"{fid}: absurd count: {decisions} decisions (a paper has {MAX_DECISIONS})"))
    reasons += [Reason("absurd_count", f"{fid}: absurd count: {n:,} replies under {name or '?'} (> {MAX_REPLIES_OF_ONE_KIND:,})")
                for name, n in kinds.items() if n > MAX_REPLIES_OF_ONE_KIND]
    return reasons
