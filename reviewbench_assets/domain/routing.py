"""Where each post of a forum goes in the dialogues, and why a forum needs a look (pure domain code,
no Dagster).

Every author and reviewer post of a forum ends up in exactly one place: a turn of one thread, the
reference context of every thread (a response to all reviewers), or the excluded list with a
reason. The rules, applied to each post by walking up its `replyto` chain:

1. Only discussion posts (official reviews, comments, rebuttals) can be turns; withdrawal notices,
   decisions, meta-reviews / recommendations and other notes (ratings of reviews, revisions ...)
   are excluded with their kind. Deleted posts are excluded; their live replies still count.
2. A post under an official review (transitively) belongs to that review's thread, as before.
3. Otherwise the nearest reviewer post up the chain (the post itself included) decides: the post
   belongs to that reviewer's review thread; a reviewer who posted no official review (e.g. one
   who only joined the discussion, signing `.../Reviewer_xxxx` comments) gets a thread of their
   own, rooted at their first such post. So a reviewer's top-level comment and the authors'
   answers to it are never lost.
4. Otherwise (no review, no reviewer above it) the top-level post decides: an author's note to the
   forum (a global response) and author replies under it or under an area chair's note to everyone
   are reference context in every thread, and so are the authors' answers to a public comment
   (written in the open for the whole discussion; the public comment itself is excluded); an author
   note addressed to the ACs only (discussion summary) and other replies to a public comment, a
   program-chair note, a decision or meta-review are excluded with that reason. A reply whose
   replyto chain loops (two replies pointing at each other) is excluded as a reply cycle, one whose
   parent is missing as an orphan. With no thread at all in the forum, reference context is excluded
   too ("no reviewer thread").

`account_posts` then checks the dialogues actually built against this: each author/reviewer post
must be a turn of exactly one dialogue, reference context only, a dropped reminder, or excluded.

Why a forum needs a look (the quarantine): what the parser found (`reasons_of_parsed`, recorded by
parsed_forums, the parser's only caller), reply chains no discussion makes (`reply_shape_reasons`:
loops, which the routing leaves out, and absurd depths) and what the crawl sees without parsing
(`oddity_reasons`: over-long fields, absurd counts, duplicate ids). Each reason is a
`posts.Reason`: its text and the short code the quarantine tables and their checks group by, made
together by the rule that found it (codes: foreign_replies, no_replies, malformed_submission and
malformed_forum for a forum refused whole; reply_skipped, duplicate_reply, orphan_reply,
unknown_invitation from the parser; duplicate_submission, oversized_field, absurd_count from the
crawl's look).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from partitions.catalogue import VenueYear
from reviewbench_assets.domain.posts import (
    ForeignRepliesError,
    MalformedForumError,
    ParsedForum,
    Post,
    Reason,
    as_list,
    field_value,
    invitation_name,
    sort_key,
)

DISCUSSION_KINDS = frozenset({"review", "comment", "rebuttal"})
ACCOUNTED_ROLES = frozenset({"author", "reviewer"})
_KIND_REASON = {
    "withdrawal": "withdrawal notice", "desk_rejection": "desk rejection notice", "decision": "decision",
    "meta_review": "meta-review / recommendation",
}
# Why a post is in no dialogue: each exclusion is a code (what figures count) with its words (what a
# person reads), both set by the rule that decided it; nothing splits the words back into a code.
EXCLUSION_CODES = frozenset({
    "deleted", "withdrawal", "desk_rejection", "decision", "meta_review", "non_discussion_note",
    "orphan", "reply_cycle", "reply_to_deleted", "reply_to_non_discussion", "discussion_summary",
    "reply_to_program_chairs", "public_comment", "reply_to_public_comment", "no_reviewer_thread"})


class Routing(BaseModel):
    """The plan for one forum: thread roots and members, reference context, exclusions."""

    threads: dict[str, list[str]] = Field(default_factory=dict)  # root id -> member ids (root first)
    thread_kind: dict[str, Literal["review", "reviewer_comment"]] = Field(default_factory=dict)
    thread_of: dict[str, str] = Field(default_factory=dict)  # note id -> root id
    context: list[str] = Field(default_factory=list)  # reference context of every thread, time order
    # note id -> reason (context posts too when the forum has no thread to show them in)
    excluded: dict[str, str] = Field(default_factory=dict)
    excluded_code: dict[str, str] = Field(default_factory=dict)  # note id -> its reason's code (EXCLUSION_CODES)

    def exclude(self, note_id: str, code: str, words: str) -> None:
        assert code in EXCLUSION_CODES, code
        self.excluded[note_id], self.excluded_code[note_id] = words, code


def _chain(p: ParsedForum, q: Post, by_id: dict[str, Post]) -> tuple[list[Post], str | None]:
    """q and its ancestors up to the forum (q first), and what broke the walk: "orphan" when an
    ancestor is missing, "cycle" when the replyto chain comes back to a post already on it (two
    replies that point at each other: their parents are in the forum, they just never reach it)."""
    chain, seen = [q], {q.note_id}
    while chain[-1].replyto not in (None, p.forum_id):
        parent = by_id.get(chain[-1].replyto or "")
        if parent is None:
            return chain, "orphan"
        if parent.note_id in seen:
            return chain, "cycle"
        seen.add(parent.note_id)
        chain.append(parent)
    return chain, None


def _kind_reason(q: Post) -> tuple[str, str]:
    """(code, words) of a note that is no discussion post."""
    if q.kind in _KIND_REASON:
        return q.kind, _KIND_REASON[q.kind]
    name = invitation_name((q.invitations or [q.invitation or ""])[0]) or q.invitation or "?"
    return "non_discussion_note", f"non-discussion note ({name})"


def route_posts(p: ParsedForum) -> Routing:
    by_id = {q.note_id: q for q in p.posts}
    posts = sorted(p.posts, key=sort_key)
    review_of: dict[str, str] = {}  # reviewer signature -> their (first live) official review
    for q in posts:
        if q.kind == "review" and not q.deleted:
            review_of.setdefault(q.signature, q.note_id)
    summaries = set(p.discussion_summary_ids)
    r = Routing()
    reviewer_groups: dict[str, list[Post]] = {}  # signature without review -> anchored posts
    context: list[Post] = []

    def put(q: Post, root: str) -> None:
        r.threads.setdefault(root, []).append(q.note_id)
        r.thread_of[q.note_id] = root

    for q in posts:
        if q.deleted:
            r.exclude(q.note_id, "deleted", "deleted")
            continue
        if q.kind not in DISCUSSION_KINDS:
            r.exclude(q.note_id, *_kind_reason(q))
            continue
        chain, broken = _chain(p, q, by_id)
        review = next((a for a in chain if a.kind == "review" and not a.deleted), None)
        if review is not None:  # rule 2
            r.thread_kind[review.note_id] = "review"
            put(q, review.note_id)
            continue
        voice = next((a for a in chain if a.role == "reviewer" and not a.deleted
                      and a.kind in DISCUSSION_KINDS), None)
        if voice is not None:  # rule 3
            if voice.signature in review_of:
                root = review_of[voice.signature]
                r.thread_kind[root] = "review"
                put(q, root)
            else:
                reviewer_groups.setdefault(voice.signature, []).append(q)
            continue
        top = chain[-1]  # rule 4
        if broken == "orphan":
            r.exclude(q.note_id, "orphan", f"orphan: parent {top.replyto} is not in the forum")
        elif broken == "cycle":
            r.exclude(q.note_id, "reply_cycle", f"reply cycle: the replyto chain from {q.note_id} returns to "
                                                f"{top.replyto} and never reaches the forum")
        elif top.deleted and top is not q:
            r.exclude(q.note_id, "reply_to_deleted", f"reply to a deleted note ({top.note_id})")
        elif top.kind not in DISCUSSION_KINDS:
            r.exclude(q.note_id, "reply_to_non_discussion", f"reply to a {_kind_reason(top)[1]}")
        elif top.role == "author" and top.note_id in summaries:
            r.exclude(q.note_id, "discussion_summary", "discussion summary addressed to the area chairs only")
        elif top.role in ("author", "area_chair"):
            if q.role == "author":
                context.append(q)
            # an area chair's own note is no author/reviewer post: neither turn nor context
        elif top.role == "program_chairs":
            r.exclude(q.note_id, "reply_to_program_chairs", "reply to a program-chair note")
        elif top is q:  # a public comment itself: no author/reviewer voice of the discussion
            r.exclude(q.note_id, "public_comment", "public comment")
        elif q.role == "author":
            # The authors answer a public comment in the open, for the whole discussion (the
            # question is often one a reviewer might ask): reference context for every thread.
            context.append(q)
        else:
            r.exclude(q.note_id, "reply_to_public_comment", "reply to a public comment")

    for signature, group in reviewer_groups.items():
        own = [q for q in group if q.signature == signature]
        root = min(own or group, key=sort_key)
        r.thread_kind[root.note_id] = "reviewer_comment"
        put(root, root.note_id)
        for q in group:
            if q is not root:
                put(q, root.note_id)
    # roots first within each thread; threads in root time order
    for root, members in r.threads.items():
        r.threads[root] = [root] + [m for m in members if m != root]
    r.threads = dict(sorted(r.threads.items(), key=lambda kv: sort_key(by_id[kv[0]])))
    r.context = [q.note_id for q in context]  # also the row's `author_rebuttal`
    if not r.threads:  # in no dialogue then: say why
        for q in context:
            r.exclude(q.note_id, "no_reviewer_thread", "no reviewer thread in this forum")
    return r


# ---------------------------------------------------------------------------------------------
# accounting: the dialogues actually built, checked post by post


class PostAccount(BaseModel):
    forum_id: str
    note_id: str
    role: str
    status: Literal["turn", "reference_context", "dropped_reminder", "excluded", "unaccounted"]
    dialogue: str = ""  # root id of the thread holding the turn
    reason: str = ""  # why excluded / why unaccounted: the words
    code: str = ""  # and the code (routing.EXCLUSION_CODES, or reminder / in_two_dialogues / in_no_dialogue)


def account_posts(p: ParsedForum, dialogues, routing: Routing) -> list[PostAccount]:
    """One entry per author/reviewer post of `p` (deleted ones included), from what `dialogues`
    (`threads.Dialogue`) hold: a post that is a turn of two dialogues, both a turn and context,
    or nowhere without an exclusion reason is `unaccounted`."""
    turns: dict[str, list[str]] = {}
    context: set[str] = set()
    dropped: set[str] = set()
    for d in dialogues:
        for t in d.turns:
            for nid in t.note_ids:
                if t.kind == "turn":
                    turns.setdefault(nid, []).append(d.review_id)
                else:
                    context.add(nid)
        dropped.update(d.dropped_reminder_ids)
    out = []
    for q in p.posts:
        if q.role not in ACCOUNTED_ROLES:
            continue
        where = turns.get(q.note_id, [])
        entry = PostAccount(forum_id=p.forum_id, note_id=q.note_id, role=q.role, status="unaccounted")
        if len(where) == 1 and q.note_id not in context:
            entry.status, entry.dialogue = "turn", where[0]
        elif len(where) > 1:
            entry.code, entry.reason = "in_two_dialogues", f"a turn of {len(where)} dialogues"
        elif q.note_id in context:
            entry.status = "reference_context"
        elif q.note_id in dropped:
            entry.status, entry.code, entry.reason = "dropped_reminder", "reminder", "reminder to respond"
        elif q.note_id in routing.excluded:
            entry.status, entry.reason = "excluded", routing.excluded[q.note_id]
            entry.code = routing.excluded_code.get(q.note_id, "uncoded")  # a routing stored before codes
        else:
            entry.code, entry.reason = "in_no_dialogue", "in no dialogue and not excluded"
        out.append(entry)
    return out


def coverage(accounts: list[PostAccount]) -> tuple[int, int]:
    """(author/reviewer posts accounted for, all of them)."""
    return sum(a.status != "unaccounted" for a in accounts), len(accounts)

# ---------------------------------------------------------------------------------------------
# the quarantine: why a forum needs a look


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


def post_placements(p: ParsedForum, routing: Routing) -> list[dict]:
    """Every post of the forum with where the routing put it: a thread (with its root), the
    reference context of every thread, or excluded with the reason (its code and words); `none` for posts that are no
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
                    "thread": routing.thread_of.get(q.note_id), "reason": reason,
                    "code": routing.excluded_code[q.note_id] if place == "excluded" else None})
    return out
