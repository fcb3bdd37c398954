"""The Re^2 subsets (`review`, `rebuttal`) in the record shapes Re^2 publishes
(docs/re2-rules.md §3.1), with our provenance fields and a deterministic
train/test split by forum id.

Pure domain code, no Dagster.
- `review`: one record per paper: paper id, venue, reviews (reviewer id, title, content, initial
  and final scores), meta-review, decision.
- `rebuttal`: one record per (paper, reviewer): `messages` with roles system / user / assistant
  (`root_kind`: the thread starts at an official review, or at the first comment of a reviewer
  who posted none, whose `review_id` is then that comment's id);
  the reviewer speaks as `assistant`, the authors as `user`; the first user message carries the
  paper placeholder ```<<paper_id>>```; titles are kept in the content ("Title: ...\\n...");
  global responses enter the user side as marked reference context.
- split: `test` iff the first 8 hex digits of sha256(forum_id) / 2^32 < `test_share`, the same
  rule for both subsets, so a paper is never in train of one and test of the other, and never
  in both splits of one subset.

Initial scores: where the crawl fetched a review's edit history (API v2 `/notes/edits`, API v1
`/references`; the raw line's `review_edits`), the initial scores are those of its first edit, the
review as posted (`initial_score_source="edit history: first of <n> edits (<edit id>)"`). A review
never modified after creation (`tmdate` == `tcdate`) has initial == final (`"unmodified"`), and so
has one last modified before the authors' first post in its forum (`"unmodified since the
rebuttal"`: on v2 the venue's release edit moves every review's tmdate; `domain.posts.changed_during_rebuttal`); for
one modified later without a crawled history (`review_edits` switched off, or the request failed)
the initial scores are null (`"modified: edit history not crawled"`), never guessed.
"""
from __future__ import annotations

import hashlib
import json

from reviewbench_assets.domain.posts import ParsedForum, Post, authors_first_parsed, changed_during_rebuttal
from reviewbench_assets.domain.schema import REVIEW_SCORE_FIELDS, REVIEW_TEXT_FIELDS
from reviewbench_assets.domain.threads import Dialogue

DEFAULT_TEST_SHARE = 0.05
TRAIN_TEST_SPLITS = ("train", "test")
SYSTEM_PROMPT = (
    "You are an expert reviewer for a scientific conference. You have read the paper below and "
    "write your review, then discuss it with the authors during the rebuttal: answer their "
    "responses, state which concerns were resolved, and say whether your assessment changes."
)
PAPER_PLACEHOLDER = "```<<{paper_id}>>```"
REFERENCE_HEADER = "[Reference context: global response of the authors to all reviewers]"



def split_of(forum_id: str, test_share: float = DEFAULT_TEST_SHARE) -> str:
    """Deterministic, version-independent train/test assignment of one paper."""
    h = int(hashlib.sha256(forum_id.encode("utf-8")).hexdigest()[:8], 16)
    return "test" if h / 2**32 < test_share else "train"


def conference_year_track(conference: str, year: int | None, track: str) -> str:
    return f"{conference}_{year if year is not None else 'rolling'}_{track or 'main'}"


# ---------------------------------------------------------------------------------------------
# review records


def _score(review: dict) -> dict:
    aspects = {f: review[f] for f in REVIEW_SCORE_FIELDS
               if f not in ("rating", "confidence") and review.get(f) is not None}
    return {"rating": review.get("rating"), "confidence": review.get("confidence"),
            "aspect_score": json.dumps(aspects, sort_keys=True)}


def review_content(review: dict) -> str:
    """The review's text fields of the union form, "Field: text" blocks in form order."""
    skip = {"review_id", "reviewer", "rebuttal"}
    blocks = [f"{f.replace('_', ' ').capitalize()}: {review[f].strip()}"
              for f in REVIEW_TEXT_FIELDS if f not in skip and (review.get(f) or "").strip()]
    blocks += [f"{k.replace('_', ' ').capitalize()}: {v}" for k, v in sorted((review.get("extra_text") or {}).items())
               if isinstance(v, str) and v.strip() and not k.endswith("_text")]
    return "\n\n".join(blocks)


def review_record(p: ParsedForum, conference: str, year: int | None) -> dict:
    reviews = []
    authors_first = authors_first_parsed(p.posts)
    for rev in p.reviews:
        post: Post | None = p.post(rev["review_id"])
        final = _score(rev)
        tc = post.tcdate if post else None
        tm = post.mdate if post else None
        unmodified = tc is not None and (tm is None or tm <= tc)
        history = p.review_history.get(rev["review_id"])
        if history is not None:
            initial = _score(history["initial_scores"])
            source = f"edit history: first of {history['edits']} edits ({history['first_edit_id']})"
        elif unmodified:
            initial, source = final, "unmodified"
        elif not changed_during_rebuttal(tc, tm, authors_first):
            initial, source = final, "unmodified since the rebuttal"
        else:
            initial, source = None, "modified: edit history not crawled"
        reviews.append({
            "reviewer_id": rev["reviewer"], "review_id": rev["review_id"],
            "review_title": post.title if post else "", "review_content": review_content(rev),
            "initial_score": initial, "final_score": final, "initial_score_source": source,
            "tcdate": tc, "tmdate": tm, "score_history": rev.get("score_history") or [],
        })
    return {
        "paper_id": p.forum_id, "conference_year_track": conference_year_track(conference, year, p.track),
        "conference": conference, "year": year, "track": p.track, "venue_id": p.venue_id,
        "reviews": reviews, "metareview": p.decision_comment, "decision": p.decision, "venue": p.venue,
    }


# ---------------------------------------------------------------------------------------------
# rebuttal records


def _titled(title: str, text: str) -> str:
    return f"Title: {title}\n{text}" if title else text


def rebuttal_record(d: Dialogue, p: ParsedForum, conference: str, year: int | None) -> dict:
    """Turns -> chat messages. The thread's reviewer -> assistant; author -> user; global responses
    and comments by anyone else (area chairs, other reviewers, public) join the user side as marked
    context, so that roles alternate user / assistant after the system message. A thread rooted at
    a reviewer's comment (no official review) starts with that comment as the assistant's turn."""
    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}]
    note_ids: list[list[str]] = [[]]
    turn_merged_by: list[str] = [""]

    def add(role: str, content: str, ids: list[str], merged_by: str) -> None:
        if messages[-1]["role"] == role and len(messages) > 1:
            messages[-1]["content"] += "\n\n" + content
            note_ids[-1].extend(ids)
            turn_merged_by[-1] = turn_merged_by[-1] or merged_by
        else:
            messages.append({"role": role, "content": content})
            note_ids.append(list(ids))
            turn_merged_by.append(merged_by)

    add("user", f"Please review the following paper.\n\n{PAPER_PLACEHOLDER.format(paper_id=p.forum_id)}",
        [p.forum_id], "")
    for i, t in enumerate(d.turns):
        body = _titled(t.title, t.text)
        if t.kind == "reference_context":
            add("user", f"{REFERENCE_HEADER}\n{body}", t.note_ids, t.merged_by)
        elif i == 0 or (t.role == "reviewer" and (t.speaker or d.reviewer) == d.reviewer):
            add("assistant", body, t.note_ids, t.merged_by)  # the thread's reviewer
        elif t.role == "author":
            add("user", body, t.note_ids, t.merged_by)
        elif t.role == "reviewer":  # another reviewer joining this thread
            add("user", f"[Comment by another reviewer ({t.speaker})]\n{body}", t.note_ids, t.merged_by)
        else:
            add("user", f"[Comment by {t.role.replace('_', ' ')}]\n{body}", t.note_ids, t.merged_by)
    return {
        "paper_id": p.forum_id, "conference_year_track": conference_year_track(conference, year, p.track),
        "conference": conference, "year": year, "track": p.track, "venue_id": p.venue_id,
        "reviewer_id": d.reviewer, "review_id": d.review_id, "root_kind": d.root_kind, "messages": messages,
        "message_note_ids": note_ids, "merged_by": d.merged_by, "turn_merged_by": turn_merged_by,
        "reminders_by": d.reminders_by, "dropped_reminder_ids": list(d.dropped_reminder_ids),
    }
