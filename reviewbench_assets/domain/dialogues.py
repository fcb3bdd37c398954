"""The Re^2 rebuttal dialogues, rule-based, and the Re^2 records made of them (pure domain code, no
Dagster): one module because the records are the dialogues in the shapes Re^2 publishes.

Dialogues. Rules (Re^2 §2.1, docs/re2-rules.md; which post goes where: `domain/routing.py`):
- one thread per official review: the review and every discussion post under it (transitively via
  `replyto`), plus the reviewer's own comments elsewhere in the forum and the replies under them,
  time-ordered, deleted notes dropped (their live children stay); a reviewer who posted comments
  but no official review gets a thread rooted at their first comment (`root_kind`);
- consecutive posts of the same speaker merge into one turn (texts "\\n\\n"-joined, titles kept,
  `note_ids` listing the parts); split posts titled "(k/n)" / "(Part k)" are put in part order;
- an author's post that only reminds/nudges an unresponsive reviewer, at the tail of a run of
  author posts, is dropped and counted (`dropped_reminders`);
- global responses (author notes replying to the forum itself, incl. Author_Rebuttal, and author
  replies under them or under an area chair's note to everyone) are inserted at their time
  position in each thread as `kind="reference_context"` turns, never as author turns.

The LLM step (`llm_merge`, `domain/llm.py`) replaces the text of multi-post turns behind the
same output when an LLM is configured and its merge passes the content guard; `merged_by` on the
dialogue and on each turn names who merged it, `merge_note` why an LLM merge was rejected.
Reminder candidates can be labelled by the LLM too (`reminder_candidates` -> labels ->
`build_dialogues(p, reminder_labels)`): the LLM can veto a rule match, never add a drop.

Records. The Re^2 subsets (`review`, `rebuttal`) in the record shapes Re^2 publishes
(docs/re2-rules.md §3.1), with our provenance fields and a deterministic
train/test split by forum id.
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
import re
from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, Field

from reviewbench_assets.domain.posts import ParsedForum, Post, authors_first_parsed, changed_during_rebuttal, sort_time
from reviewbench_assets.domain.reviews import reviewer_id
from reviewbench_assets.domain.routing import Routing
from reviewbench_assets.domain.schema import REVIEW_SCORE_FIELDS, REVIEW_TEXT_FIELDS

RULE_BASED = "rule-based"


class Turn(BaseModel):
    role: str  # reviewer | author | area_chair | program_chairs | public
    speaker: str = ""  # the signature's last segment (`Reviewer_abCd`, `Authors`, ...)
    kind: Literal["turn", "reference_context"] = "turn"
    title: str = ""  # merged turns: the parts' non-empty titles joined with " / "
    titles: list[str] = Field(default_factory=list)  # every part's title, in turn order
    text: str = ""
    note_ids: list[str] = Field(default_factory=list)
    tcdate: int | None = None  # of the first part
    merged_by: str = RULE_BASED  # single-post turns and rejected LLM merges stay rule-based
    merge_note: str = ""  # why an LLM merge was rejected (content guard, unparseable answer)


class Dialogue(BaseModel):
    forum_id: str
    review_id: str  # the thread's root: the official review, or the first comment of a reviewer without one
    reviewer: str
    root_kind: Literal["review", "reviewer_comment"] = "review"
    turns: list[Turn] = Field(default_factory=list)
    dropped_reminders: int = 0
    dropped_reminder_ids: list[str] = Field(default_factory=list)
    merged_by: str = RULE_BASED
    reminders_by: str = "rule"  # "rule", or the LLM that labelled this thread's candidates


# ---- reminders -------------------------------------------------------------------------------------------

REMINDER_MAX_CHARS = 1200
_REMINDER = re.compile(
    r"|".join([
        r"\b(gentle|kind|friendly|polite|quick|final|last)\s+reminder",
        r"\breminder\b",
        r"\bas\s+the\s+(author[-\s]+reviewer\s+)?discussion\s+(period|phase|stage|deadline)\s+(is\s+)?"
        r"(ending|end|closing|close|approaching|nearing|drawing)",
        r"\b(discussion|rebuttal)\s+(period|phase|deadline)\s+(is\s+|will\s+)?"
        r"(ending|end|closing|close|approaching|nearing|coming\s+to\s+an\s+end|ends)",
        r"\bdeadline\s+is\s+(approaching|coming|near)",
        r"\bwe\s+would\s+(greatly\s+|really\s+|very\s+much\s+|sincerely\s+)?appreciate\s+"
        r"(it\s+if\s+you\s+could\s+|your\s+)(feedback|response|reply|reconsider|let\s+us\s+know|"
        r"take\s+a\s+look|check)",
        r"\bhave\s+(we|our\s+(responses?|rebuttal|replies))\s+(adequately\s+|sufficiently\s+|fully\s+)?"
        r"(addressed|resolved|answered)\s+your\s+(concerns?|questions?|comments?)",
        r"\b(did|do|does)\s+(we|our\s+(responses?|rebuttal|replies))\s+(adequately\s+)?"
        r"(address|resolve|answer)\s+your\s+(concerns?|questions?)",
        r"\blook(ing)?\s+forward\s+to\s+(hearing\s+(back\s+)?from\s+you|your\s+(feedback|response|reply))",
        r"\bhaven'?t\s+(yet\s+)?(heard|received)\b",
    ]),
    re.IGNORECASE,
)


def is_reminder_candidate(post: Post) -> bool:
    """Only short author posts can be reminders (whoever classifies them)."""
    return post.role == "author" and not post.deleted and len(post.text.strip()) <= REMINDER_MAX_CHARS


def is_reminder(post: Post, labels: dict[str, bool] | None = None) -> bool:
    """A short author post whose text or title is a reminder / nudge to respond (regex rule).
    An LLM label in `labels` (note id -> is reminder) can only veto: a post the rule flags but
    the LLM calls content is kept. The LLM alone never drops a post (a small model calls
    ordinary short answers reminders; dropping them would lose content); such disagreements are
    reported by `llm_only_reminders`."""
    if not is_reminder_candidate(post):
        return False
    rule = bool(_REMINDER.search(post.text.strip()) or _REMINDER.search(post.title))
    if rule and labels and labels.get(post.note_id) is False:
        return False
    return rule


def llm_only_reminders(posts: list[Post], labels: dict[str, bool]) -> list[str]:
    """Note ids the LLM calls reminders but the rule does not (kept; reported for inspection)."""
    return [q.note_id for q in posts if labels.get(q.note_id) and not is_reminder(q)]


def reminder_candidates(p: ParsedForum, routing: Routing) -> list[Post]:
    """Author posts in some thread that could be reminders (for LLM labelling). `routing`: the
    forum's routing as the parse stage stored it (the one entrance: never routed again here)."""
    out: dict[str, Post] = {}
    for members in routing.threads.values():
        for nid in members[1:]:
            q = p.post(nid)
            if q is not None and is_reminder_candidate(q):
                out[q.note_id] = q
    return list(out.values())


# ---- merging ---------------------------------------------------------------------------------------------

_PART = re.compile(r"\(\s*(?:part\s*)?(\d+)\s*(?:/\s*(\d+))?\s*\)|\bpart\s+(\d+)\b", re.IGNORECASE)


def _part_index(title: str) -> int | None:
    m = _PART.search(title or "")
    if not m:
        return None
    if m.group(1) and m.group(2):
        return int(m.group(1))
    if m.group(1) and re.search(r"part", m.group(0), re.IGNORECASE):
        return int(m.group(1))
    if m.group(3):
        return int(m.group(3))
    return None


def _part_order(posts: list[Post]) -> list[Post]:
    """Posts in "(k/n)" / "(Part k)" order when every one carries a distinct part number
    (authors sometimes post part 2 before part 1); otherwise time order."""
    idx = [_part_index(p.title) for p in posts]
    if len(posts) > 1 and all(i is not None for i in idx) and len(set(idx)) == len(idx):
        return [p for _, p in sorted(zip(idx, posts, strict=False), key=lambda t: t[0])]
    return posts


def merge_turns(groups: list[list[Post]], kinds: list[str]) -> list[Turn]:
    """Rule-based merge: one Turn per group of consecutive same-role posts."""
    turns = []
    for group, kind in zip(groups, kinds, strict=False):
        ordered = _part_order(group) if kind == "turn" else group
        titles = [p.title for p in ordered]
        turns.append(Turn(
            role=ordered[0].role,
            speaker=reviewer_id(ordered[0].signature),
            kind=kind,
            title=" / ".join(t for t in titles if t),
            titles=titles,
            text="\n\n".join(p.text for p in ordered if p.text),
            note_ids=[p.note_id for p in ordered],
            tcdate=min(sort_time(p) for p in group),
        ))
    return turns


# ---- threads ---------------------------------------------------------------------------------------------

def _drop_reminders(items: list[tuple[str, Post]], labels: dict[str, bool] | None = None
                    ) -> tuple[list[tuple[str, Post]], list[str]]:
    """Drop reminders at the tail of each run of author posts; a run that is only reminders is
    dropped only when it ends the thread (a nudge the reviewer never answered)."""
    keep: list[tuple[str, Post]] = []
    dropped: list[str] = []
    i, n = 0, len(items)
    while i < n:
        kind, post = items[i]
        if kind != "turn" or post.role != "author":
            keep.append(items[i])
            i += 1
            continue
        j = i
        while j < n and items[j][0] == "turn" and items[j][1].role == "author":
            j += 1
        run = items[i:j]
        tail = len(run)
        while tail > 0 and is_reminder(run[tail - 1][1], labels):
            tail -= 1
        trailing = all(k == "reference_context" for k, _ in items[j:])
        if tail == len(run) or (tail == 0 and not trailing):
            keep.extend(run)
        else:
            keep.extend(run[:tail])
            dropped.extend(p.note_id for _, p in run[tail:])
        i = j
    return keep, dropped


def build_thread(p: ParsedForum, root: Post, routing: Routing, reminder_labels: dict[str, bool] | None = None,
                 reminders_by: str = "rule") -> Dialogue:
    """The dialogue rooted at `root` (an official review, or the first post of a reviewer
    without one) with the members `routing` (the stored routing) gave it."""
    members = routing.threads.get(root.note_id, [root.note_id])
    replies = sorted((q for q in (p.post(n) for n in members[1:]) if q is not None and not q.deleted),
                     key=sort_time)
    globals_ = [q for q in (p.post(g) for g in routing.context) if q is not None and not q.deleted]
    timeline: list[tuple[str, Post]] = [("turn", q) for q in replies] + [
        ("reference_context", q) for q in globals_
    ]
    # a global response posted before the root is placed right after it, never before it
    timeline.sort(key=lambda t: (max(sort_time(t[1]), sort_time(root)), t[1].note_id))
    items, dropped = _drop_reminders([("turn", root)] + timeline, reminder_labels)

    groups: list[list[Post]] = []
    kinds: list[str] = []
    for kind, post in items:
        if (kind == "turn" and groups and kinds[-1] == "turn"
                and groups[-1][-1].role == post.role and groups[-1][-1].signature == post.signature):
            groups[-1].append(post)
        else:
            groups.append([post])
            kinds.append(kind)
    return Dialogue(
        forum_id=p.forum_id,
        review_id=root.note_id,
        reviewer=reviewer_id(root.signature),
        root_kind=routing.thread_kind.get(root.note_id, "review"),
        turns=merge_turns(groups, kinds),
        dropped_reminders=len(dropped),
        dropped_reminder_ids=dropped,
        merged_by=RULE_BASED,
        reminders_by=reminders_by,
    )


def build_dialogues(p: ParsedForum, routing: Routing, reminder_labels: dict[str, bool] | None = None,
                    reminders_by: str = "rule") -> list[Dialogue]:
    """One dialogue per (non-deleted) official review and per reviewer who commented without
    one, in root time order. `routing`: the forum's routing as the parse stage stored it (the
    parsed table's `routing_json`; `domain/forum.py parse_routed` makes it): the only entrance."""
    return [build_thread(p, root, routing, reminder_labels, reminders_by)
            for root in (p.post(r) for r in routing.threads) if root is not None]


# ---- the LLM step ----------------------------------------------------------------------------------------

def llm_merge(dialogues: list[Dialogue], forums: dict[str, ParsedForum], steps) -> list[Dialogue]:
    """Replace every multi-post turn by the LLM's merge (`steps`: `domain.llm.LLMSteps`) when it
    passes the content guard; otherwise keep the rule-based turn and record why. One batch for
    all turns of `dialogues`. Returns new Dialogue objects."""
    targets: list[tuple[int, int]] = []
    items: list[tuple[str, list[tuple[str, str]]]] = []
    for di, d in enumerate(dialogues):
        p = forums[d.forum_id]
        for ti, t in enumerate(d.turns):
            if t.kind != "turn" or len(t.note_ids) < 2:
                continue
            posts = [p.post(n) for n in t.note_ids]
            items.append((t.role, [(q.title, q.text) for q in posts if q is not None]))
            targets.append((di, ti))
    results = steps.merge(items) if items else []
    out = [d.model_copy(deep=True, update={"merged_by": steps.merged_by}) for d in dialogues]
    for (di, ti), res in zip(targets, results, strict=False):
        turn = out[di].turns[ti]
        if res.accepted:
            turn.title, turn.text, turn.merged_by, turn.merge_note = (res.title, res.text,
                                                                      steps.merged_by, "")
        else:
            turn.merge_note = res.note
    return out


# ==== the Re^2 records ====================================================================================

DEFAULT_TEST_SHARE = 0.05
TRAIN_TEST_SPLITS = ("train", "test")
SYSTEM_PROMPT = (
    "You are an expert reviewer for a scientific conference. You have read the paper below and "
    "write your review, then discuss it with the authors during the rebuttal: answer their "
    "responses, state which concerns were resolved, and say whether your assessment changes."
)
PAPER_PLACEHOLDER = "```<<{paper_id}>>```"
REFERENCE_HEADER = "[Reference context: global response of the authors to all reviewers]"


def split_of(forum_id: str, test_share: float = DEFAULT_TEST_SHARE,
             chain_sides: Mapping[str, str] | None = None) -> str:
    """Deterministic train/test assignment of one paper. A forum that is a version of a paper
    submitted more than once takes its chain's side (`chain_sides`: forum id -> side, for the forums
    whose chain's side differs from their own draw: domain/resubmission_rows.py `chain_sides`), so
    every version of a paper is on one side; any other forum draws by a hash of its own id."""
    if chain_sides and forum_id in chain_sides:
        return chain_sides[forum_id]
    h = int(hashlib.sha256(forum_id.encode("utf-8")).hexdigest()[:8], 16)
    return "test" if h / 2**32 < test_share else "train"


def conference_year_track(conference: str, year: int | None, track: str) -> str:
    return f"{conference}_{year if year is not None else 'rolling'}_{track or 'main'}"


def _paper_fields(p: ParsedForum, conference: str, year: int | None) -> dict:
    """The paper's fields every record starts with (both configs key their records the same way)."""
    return {"paper_id": p.forum_id, "conference_year_track": conference_year_track(conference, year, p.track),
            "conference": conference, "year": year, "track": p.track, "venue_id": p.venue_id}


# ---- review records --------------------------------------------------------------------------------------

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
        **_paper_fields(p, conference, year),
        "reviews": reviews, "metareview": p.decision_comment, "decision": p.decision, "venue": p.venue,
    }


# ---- rebuttal records ------------------------------------------------------------------------------------

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
        **_paper_fields(p, conference, year),
        "reviewer_id": d.reviewer, "review_id": d.review_id, "root_kind": d.root_kind, "messages": messages,
        "message_note_ids": note_ids, "merged_by": d.merged_by, "turn_merged_by": turn_merged_by,
        "reminders_by": d.reminders_by, "dropped_reminder_ids": list(d.dropped_reminder_ids),
    }
