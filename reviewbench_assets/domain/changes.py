"""What changed in a venue-year between two refreshes (issue 30 item 2), per forum: pure domain code.

A refresh observes each forum as a small *snapshot* (its status, decision, PDF and, per live post,
what it is; per review, its scores and modification time). Comparing the previous refresh's snapshot
with this one's gives one `Change` per event: reviews added, edited (old and new scores) or removed
(deleted or made private between two refreshes: recorded, never dropped silently), author responses
and comments added or removed, decisions, withdrawals and desk rejections, PDF revisions, forums
appearing or disappearing. Replaying the changes in refresh order from an empty state gives every
snapshot back, so a venue's history can be replayed day by day.

The first refresh of a venue-year has nothing to compare with: it records a *baseline*, what was there
at the first observation (`*_observed` rows: each forum, its decision and PDF, each review with its
scores, each live post), never changes (issue 38.6: a first build of ICLR 2026 recorded 999
`pdf_revised` for 1,000 forums). A forum that appears at a later refresh is `forum_added`, and its PDF
is its first (`pdf_observed`), not a revision.

Only what the parsed table holds is compared: the caller passes parsed forums, nothing is fetched.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

from pydantic import BaseModel

from reviewbench_assets.domain.posts import ParsedForum

ChangeKind = Literal[
    "forum_added", "forum_removed", "status_changed", "decision_changed", "pdf_revised",
    "review_added", "review_edited", "review_removed", "response_added", "comment_added", "post_removed",
    "forum_observed", "decision_observed", "pdf_observed", "review_observed", "post_observed",
]
CHANGE_KINDS: tuple[str, ...] = ChangeKind.__args__  # type: ignore[attr-defined]
# what a first observation saw (the baseline), not something that changed
BASELINE_KINDS = tuple(k for k in CHANGE_KINDS if k.endswith("_observed"))
SCORES = ("rating", "confidence")
# Posts whose effect is a forum-level change (decision_changed, status_changed), not a post added
STATE_POSTS = ("decision", "withdrawal", "desk_rejection")


class Change(BaseModel):
    forum_id: str
    change: ChangeKind
    target_id: str  # the review or post the change is about; the forum id for forum-level changes
    old_value: str | None = None  # status, decision or PDF before (forum-level changes)
    new_value: str | None = None
    old_rating: float | None = None
    new_rating: float | None = None
    old_confidence: float | None = None
    new_confidence: float | None = None
    role: str | None = None  # who posted (posts added)
    at_ms: int | None = None  # the post's own creation time (posts added)


def snapshot(p: ParsedForum) -> dict[str, Any]:
    """What a refresh observes of one forum (JSON-able, a few hundred bytes)."""
    # Scores only: a review's modification time moves without the reviewer (on API v2 the venue's
    # release edit moves every review's tmdate), and a text edit without a score change is not a move.
    reviews = {r["review_id"]: {s: r.get(s) for s in SCORES} for r in p.reviews}
    posts = {}
    for q in p.posts:
        if q.deleted or q.kind in STATE_POSTS:
            continue
        if q.kind == "review":
            reviews.setdefault(q.note_id, {s: None for s in SCORES})
        else:
            posts[q.note_id] = {"kind": q.kind, "role": q.role, "at": q.tcdate}
    return {"status": p.status, "decision": p.decision or "", "pdf": p.pdf or "", "reviews": reviews,
            "posts": posts}


def _scores_of(r: Mapping | None) -> dict[str, float | None]:
    r = r or {}
    return {"rating": r.get("rating"), "confidence": r.get("confidence")}


def _review_change(forum_id: str, kind: str, rid: str, old: Mapping | None, new: Mapping | None) -> Change:
    o, n = _scores_of(old), _scores_of(new)
    return Change(forum_id=forum_id, change=kind, target_id=rid, old_rating=o["rating"], new_rating=n["rating"],
                  old_confidence=o["confidence"], new_confidence=n["confidence"])


def forum_changes(forum_id: str, old: Mapping | None, new: Mapping | None, baseline: bool = False) -> list[Change]:
    """The changes that turn snapshot `old` (None: not seen before) into `new` (None: gone: deleted
    or made private since). `baseline`: the venue-year's first refresh: what `new` holds is
    recorded as observed (`*_observed`), not as changes."""
    if old is None and new is None:
        return []
    if new is None:
        out = [Change(forum_id=forum_id, change="forum_removed", target_id=forum_id)]
        out += [_review_change(forum_id, "review_removed", rid, r, None) for rid, r in old["reviews"].items()]
        return out
    if old is None and baseline:
        return _observed(forum_id, new)
    out: list[Change] = []
    before = old or {"status": None, "decision": "", "pdf": "", "reviews": {}, "posts": {}}
    if old is None:
        out.append(Change(forum_id=forum_id, change="forum_added", target_id=forum_id, new_value=new["status"]))
    for field, kind in (("status", "status_changed"), ("decision", "decision_changed"), ("pdf", "pdf_revised")):
        if old is None and field == "status":
            continue  # forum_added carries the first status
        if before[field] != new[field]:
            kind = "pdf_observed" if old is None and field == "pdf" else kind  # a new forum's first PDF
            out.append(Change(forum_id=forum_id, change=kind, target_id=forum_id,
                              old_value=before[field] or None, new_value=new[field] or None))
    for rid, r in new["reviews"].items():
        prev = before["reviews"].get(rid)
        if prev is None:
            out.append(_review_change(forum_id, "review_added", rid, None, r))
        elif _scores_of(prev) != _scores_of(r):
            out.append(_review_change(forum_id, "review_edited", rid, prev, r))
    out += [_review_change(forum_id, "review_removed", rid, r, None)
            for rid, r in before["reviews"].items() if rid not in new["reviews"]]
    for pid, q in new["posts"].items():
        if pid not in before["posts"]:
            kind = "response_added" if q["role"] == "author" else "comment_added"
            out.append(Change(forum_id=forum_id, change=kind, target_id=pid, new_value=q["kind"], role=q["role"],
                              at_ms=q.get("at")))
    out += [Change(forum_id=forum_id, change="post_removed", target_id=pid, old_value=q["kind"])
            for pid, q in before["posts"].items() if pid not in new["posts"]]
    return out


def _observed(forum_id: str, new: Mapping) -> list[Change]:
    """The baseline of one forum: what the first observation saw."""
    out = [Change(forum_id=forum_id, change="forum_observed", target_id=forum_id, new_value=new["status"])]
    out += [Change(forum_id=forum_id, change=kind, target_id=forum_id, new_value=new[field])
            for field, kind in (("decision", "decision_observed"), ("pdf", "pdf_observed")) if new[field]]
    out += [_review_change(forum_id, "review_observed", rid, None, r) for rid, r in new["reviews"].items()]
    out += [Change(forum_id=forum_id, change="post_observed", target_id=pid, new_value=q["kind"], role=q["role"],
                   at_ms=q.get("at")) for pid, q in new["posts"].items()]
    return out


def venue_changes(previous: Mapping[str, Mapping], current: Mapping[str, Mapping],
                  baseline: bool = False) -> Iterator[Change]:
    """Every change between two refreshes' snapshots of a venue-year (forum id -> snapshot), forums
    in the current refresh's order, then the forums that disappeared. `baseline`: there was no
    earlier refresh: `current` is recorded as observed."""
    for fid, snap in current.items():
        yield from forum_changes(fid, previous.get(fid), snap, baseline)
    for fid, snap in previous.items():
        if fid not in current:
            yield from forum_changes(fid, snap, None)


def apply_changes(state: dict[str, dict], changes: list[Change]) -> dict[str, dict]:
    """Replay: the snapshots after `changes` (as `venue_changes` yields them) applied to `state`.
    The refresh replays a stored log with it (stages/change_log.py), and a test holds that the
    recorded changes say everything."""
    out = {fid: {**s, "reviews": dict(s["reviews"]), "posts": dict(s["posts"])} for fid, s in state.items()}
    for c in changes:
        if c.change == "forum_removed":
            out.pop(c.forum_id, None)
            continue
        s = out.setdefault(c.forum_id, {"status": None, "decision": "", "pdf": "", "reviews": {}, "posts": {}})
        if c.change in ("forum_added", "status_changed", "forum_observed"):
            s["status"] = c.new_value
        elif c.change in ("decision_changed", "decision_observed"):
            s["decision"] = c.new_value or ""
        elif c.change in ("pdf_revised", "pdf_observed"):
            s["pdf"] = c.new_value or ""
        elif c.change in ("review_added", "review_edited", "review_observed"):
            s["reviews"][c.target_id] = {"rating": c.new_rating, "confidence": c.new_confidence}
        elif c.change == "review_removed":
            s["reviews"].pop(c.target_id, None)
        elif c.change in ("response_added", "comment_added", "post_observed"):
            s["posts"][c.target_id] = {"kind": c.new_value, "role": c.role, "at": c.at_ms}
        elif c.change == "post_removed":
            s["posts"].pop(c.target_id, None)
    return out


def summary(changes: list[Change]) -> dict[str, Any]:
    """Counts per kind, forums touched and rating moves, for the run's metadata; a baseline's rows
    (`*_observed`) are counted apart (`observed`), never as changes."""
    counts = {k: 0 for k in CHANGE_KINDS}
    up = down = 0
    moves: list[float] = []
    for c in changes:
        counts[c.change] += 1
        if c.change == "review_edited" and c.old_rating is not None and c.new_rating is not None:
            delta = c.new_rating - c.old_rating
            if delta:
                moves.append(delta)
                up += delta > 0
                down += delta < 0
    real = [c for c in changes if c.change not in BASELINE_KINDS]
    return {"changes": len(real), "forums_changed": len({c.forum_id for c in real}),
            "observed": len(changes) - len(real),
            "by_kind": {k: v for k, v in counts.items() if v and k not in BASELINE_KINDS},
            "observed_by_kind": {k: v for k, v in counts.items() if v and k in BASELINE_KINDS},
            "ratings_up": up, "ratings_down": down,
            "mean_rating_move": round(sum(moves) / len(moves), 3) if moves else None}
