"""The typed shapes of a parsed forum (`Post`, `ParsedForum`) and the rules that read one raw
OpenReview note, shared by the crawl and the parser: v1/v2 content, invitation names, reply kinds,
author roles, a form value's text and a post's main text (`text_of`, `main_text`); which ids may
become part of a storage path (`id_problem`); and which reviews may have changed during the
rebuttal (`changed_during_rebuttal`)."""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, PlainValidator, WithJsonSchema

from partitions.catalogue import VenueYear, catalogue

Kind = Literal[
    "review", "meta_review", "decision", "rebuttal", "comment", "withdrawal", "desk_rejection", "other"
]
Role = Literal["reviewer", "author", "area_chair", "program_chairs", "public"]
Status = Literal["active", "withdrawn", "desk_rejected"]
KINDS: tuple[str, ...] = (
    "review", "meta_review", "decision", "rebuttal", "comment", "withdrawal", "desk_rejection"
)


class Reason(str):
    """Why a forum needs a look: the text a person reads, with the short code the quarantine tables
    group by (`code`), both made by the rule that decided it (nothing parses the text back). A plain
    `str` everywhere else: compared, joined and serialised as its text."""

    code: str

    def __new__(cls, code: str, text: str) -> Reason:
        self = super().__new__(cls, text)
        self.code = code
        return self

    def __reduce__(self):  # copies and pickles keep the code
        return (Reason, (self.code, str(self)))


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("a string is required")
    return value  # a Reason stays one: its code goes to the quarantine table


# A parser warning: a `Reason` when the parser made it, plain text when read back from JSON.
ReasonText = Annotated[str, PlainValidator(_text), WithJsonSchema({"type": "string"})]


class MalformedForumError(ValueError):
    """The forum cannot be parsed at all; the message names the forum id and the reason, and
    `code` says which rule refused it (the quarantine table's code)."""

    def __init__(self, forum_id: str | None, reason: str, code: str = "malformed_forum"):
        self.forum_id = forum_id
        self.reason = reason
        self.code = code
        super().__init__(f"malformed forum {forum_id or '<no id>'}: {reason}")


class ForeignRepliesError(MalformedForumError):
    """`details.replies` holds notes of another forum: the payload is not this forum's."""

    def __init__(self, forum_id: str, reply_ids: list[str], forums: list[str]):
        self.reply_ids = reply_ids
        shown = ", ".join(reply_ids[:5]) + (" ..." if len(reply_ids) > 5 else "")
        super().__init__(forum_id, f"details.replies holds {len(reply_ids)} replies of another forum "
                                   f"({', '.join(forums[:3])}): {shown}", "foreign_replies")


class Post(BaseModel):
    """One reply note of a forum, normalised across API v1/v2."""

    note_id: str
    replyto: str | None = None
    invitation: str = ""  # v1 `invitation`; v2 first of `invitations`
    invitations: list[str] = Field(default_factory=list)  # v2: every invitation that edited it
    parent_invitations: list[str] = Field(default_factory=list)  # v2 `parentInvitations`
    kind: Kind = "other"
    role: Role = "public"
    signature: str = ""
    number: int | None = None
    tcdate: int | None = None
    cdate: int | None = None
    mdate: int | None = None
    title: str = ""
    text: str = ""
    content: dict[str, Any] = Field(default_factory=dict)  # unwrapped (v2 `{"value": x}` -> x)
    deleted: bool = False
    license: str | None = None  # v2 note-level `license` (docs/openreview-api.md §license); v1: none
    # every other note-level field as the API sent it (readers, writers, nonreaders, all signatures,
    # cdate/tcdate/mdate/tmdate/odate/pdate/ddate, domain, version, ...): the typed fields above
    # normalise some of them (first signature, tmdate over mdate, ddate as a flag), this keeps the rest
    note: dict[str, Any] = Field(default_factory=dict)
    # v2 fields with readers of their own (`{"value": x, "readers": [...]}`): field -> its readers
    content_readers: dict[str, list[str]] = Field(default_factory=dict)

    @property
    def time(self) -> int:
        return sort_time(self)


class ParsedForum(BaseModel):
    forum_id: str
    number: int | None = None
    api: Literal["v1", "v2"] = "v2"
    venue_id: str = ""
    track: str = "main"
    status: Status = "active"
    title: str = ""
    abstract: str = ""
    authors: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    tldr: str = ""
    primary_area: str = ""
    venue: str = ""
    decision: str = ""
    decision_comment: str = ""
    author_rebuttal: str = ""
    reviews: list[dict[str, Any]] = Field(default_factory=list)
    posts: list[Post] = Field(default_factory=list)  # time-ordered, deleted ones included
    # author notes replying to the forum itself (general rebuttals, Author_Rebuttal) -> Re^2
    # "global responses"; author notes to the ACs only ("Discussion Summary") are kept apart.
    global_response_ids: list[str] = Field(default_factory=list)
    discussion_summary_ids: list[str] = Field(default_factory=list)
    pdf: str | None = None
    invitations: list[str] = Field(default_factory=list)
    content: dict[str, Any] = Field(default_factory=dict)  # submission content, unwrapped
    cdate: int | None = None
    tcdate: int | None = None
    mdate: int | None = None
    tmdate: int | None = None
    license: str | None = None  # the submission note's own `license` (API v2); None: the note has none
    warnings: list[ReasonText] = Field(default_factory=list)
    # review id -> {"initial_scores": union score fields of its first edit, "edits": n,
    # "first_edit_id": ...}, for reviews whose edit history was crawled (v2 `/notes/edits`)
    review_history: dict[str, dict[str, Any]] = Field(default_factory=dict)

    def post(self, note_id: str) -> Post | None:
        for p in self.posts:
            if p.note_id == note_id:
                return p
        return None

    def descendants(self, note_id: str) -> list[Post]:
        """Every note under `note_id` (transitively, deleted ones included), time-ordered."""
        out, frontier, seen = [], [note_id], {note_id}
        while frontier:
            parent = frontier.pop()
            for p in self.posts:
                if p.replyto == parent and p.note_id not in seen:
                    seen.add(p.note_id)
                    out.append(p)
                    frontier.append(p.note_id)
        return sorted(out, key=sort_time)


# ---------------------------------------------------------------------------------------------
# small helpers


def sort_time(p: Post) -> int:
    for t in (p.tcdate, p.cdate, p.mdate):
        if isinstance(t, int):
            return t
    return 0


def sort_key(p: Post) -> tuple[int, str]:
    return (sort_time(p), p.note_id)


def field_value(v: Any) -> Any:
    """One content field: the `value` of a v2 `{"value": x, "readers": ...}` field, a v1 value as is."""
    return v.get("value") if isinstance(v, Mapping) and "value" in v else v


def unwrap_content(content: Mapping[str, Any] | None) -> dict[str, Any]:
    """v2 `{"field": {"value": x, "readers": ...}}` -> `{"field": x}`; v1 content unchanged.
    A v2 field without a `value` (hidden from us) is dropped."""
    out: dict[str, Any] = {}
    for k, v in (content or {}).items():
        if isinstance(v, Mapping) and ("value" in v or "readers" in v) and set(v) <= {
            "value", "readers", "nonreaders", "writers", "order", "description"
        }:
            if "value" in v:
                out[k] = v["value"]
        else:
            out[k] = v
    return out


def field_readers(content: Any) -> dict[str, list[str]]:
    """The readers of each v2 content field that has its own (hidden from everyone else)."""
    if not isinstance(content, Mapping):
        return {}
    return {k: as_list(v["readers"]) for k, v in content.items()
            if isinstance(v, Mapping) and v.get("readers") is not None}


def invitation_name(invitation: str) -> str:
    """`ICLR.cc/2020/Conference/Paper1/-/Official_Review` -> `Official_Review` (also the pre-2019
    layout `<venue>/-/Paper1/Official_Review`)."""
    if "/-/" not in invitation:
        return ""
    return invitation.rsplit("/-/", 1)[1].rsplit("/", 1)[-1]


def as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if v]
    return []


def kind_table(venue: VenueYear) -> dict[str, str]:
    """Catalogue reply name -> kind (first kind listing a name wins, in KINDS order)."""
    table: dict[str, str] = {}
    inv = venue.invitations
    for kind in KINDS:
        for name in getattr(inv, kind):
            table.setdefault(name, kind)
    return table


def classify_kind(invitations: Iterable[str], table: Mapping[str, str]) -> str:
    """The kind of the first invitation whose `/-/<Name>` suffix names a catalogue reply."""
    for inv in invitations:
        kind = table.get(invitation_name(inv))
        if kind:
            return kind
    return "other"


@lru_cache(maxsize=1)
def _signature_patterns() -> tuple[tuple[str, re.Pattern], ...]:
    """The catalogue's signature patterns (`vocabulary.signatures`), anchored at the signature's end,
    in the order they are tried."""
    patterns = catalogue().vocabulary.signatures
    return tuple((role, re.compile(rf"/({patterns[role]})$")) for role in ("reviewer", "area_chair", "program_chairs")
                 if role in patterns)


def role_of(signature: str, venue_ids: Iterable[str] = ()) -> str:
    sig = (signature or "").rstrip("/")
    if sig.endswith("/Authors"):
        return "author"
    for role, pattern in _signature_patterns():
        if pattern.search(sig):
            return role
    if sig in set(venue_ids):
        return "program_chairs"
    return "public"


def main_text(kind: str, content: Mapping[str, Any]) -> str:
    """A post's text: the first present of its kind's text fields (the catalogue's
    `vocabulary.text_fields`); else the longest string field."""
    if kind == "review":
        return render_review_text(content)
    text_fields = catalogue().vocabulary.text_fields
    for name in text_fields.get(kind, text_fields["other"]):
        value = content.get(name)
        if value not in (None, "", []):
            return text_of(value)
    strings = [v for k, v in content.items() if k != "title" and isinstance(v, str)]
    return max(strings, key=len) if strings else ""


def text_of(value: Any) -> str:
    """Plain text of a form value: strings as is, lists joined with "; ", numbers str()'d."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, (int, float)):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    if isinstance(value, (list, tuple)):
        return "; ".join(text_of(v) for v in value if v is not None)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def render_review_text(content: Mapping[str, Any], skip: Iterable[str] = ("title",)) -> str:
    """A review's readable text (Post.text, dialogue review turn): every field but the title as
    "Field name: value" (short values) or "Field name:\\nvalue" (long ones), in form order."""
    skip = set(skip)
    fields = [(k, text_of(v)) for k, v in content.items() if k not in skip and v not in (None, "")]
    if not fields:
        return ""
    parts = []
    for k, v in fields:
        label = k.replace("_", " ").strip().capitalize()
        parts.append(f"{label}: {v}" if len(v) <= 120 and "\n" not in v else f"{label}:\n{v}")
    return "\n\n".join(parts)


def int_or_none(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


# ---------------------------------------------------------------------------------------------
# Which ids may become part of a storage path.
#
# OpenReview note, forum and edit ids are short strings of letters, digits, `_` and `-` (e.g.
# `ryxz8CVYDH` on API v1, `zzo3Sy3NSX` on v2, 10 characters in practice; the live samples in
# tests/fixtures/openreview-samples hold nothing else). Anything else (path separators, `..`, NUL,
# 400 characters) is not an id we will ever write a file for: the note is quarantined with
# `id_problem(...)` as its reason instead.

MAX_ID_LEN = 64
_ID_RE = re.compile(rf"^[A-Za-z0-9_-]{{1,{MAX_ID_LEN}}}$")


def id_problem(value) -> str | None:
    """None for a usable id, else why it is not one (for the quarantine reason)."""
    if not isinstance(value, str):
        return f"id is {type(value).__name__}, not a string"
    if _ID_RE.match(value):
        return None
    shown = value[:40].encode("unicode_escape").decode("ascii")
    if len(value) > MAX_ID_LEN:
        return f"invalid id {shown!r}...: {len(value)} characters (at most {MAX_ID_LEN})"
    return f"invalid id {shown!r}: only letters, digits, '_' and '-' are allowed"


# ---------------------------------------------------------------------------------------------
# Which reviews may have changed during the rebuttal: the one rule behind the crawl's review
# edit-history requests (`stages.crawl.edited_reviews`) and the Re^2 initial scores (`re2`).
#
# Re^2 records scores "before and after rebuttal". A note says when it was last modified (`tmdate`),
# not by whom, and on API v2 venues the venue's own meta-invitation edits (`<venue>/-/Edit`, used by
# the program chairs to release reviews and change readers) touch reviews too: every one of the 61
# reviews of the 16 real ICLR 2026 forums in docs/openreview-api.md §1.8 carries
# `ICLR.cc/2026/Conference/-/Edit` and a `tmdate` on 2025-11-12, the day reviews were released, so
# `tmdate > tcdate` flags every released review and would cost one edit-history request per paper.
# What the note does settle: a review last modified before the paper's authors first posted in the
# forum was not changed in response to them, whoever modified it; its scores before and after the
# rebuttal are its current ones. Only a review modified once the authors had posted (or in a forum
# where they never posted) needs its history.


def authors_first(signed: Iterable[tuple[str, int | None]]) -> int | None:
    """Creation time (ms) of the first post the paper's authors signed, from (signature, creation
    time) pairs: a raw note's, or a parsed post's; None when they posted nothing."""
    times = [t for sig, t in signed if t and role_of(str(sig)) == "author"]
    return min(times) if times else None


def authors_first_post(replies: Iterable[Mapping[str, Any]]) -> int | None:
    """`authors_first` over raw API notes (v1 or v2), any of whose signatures may be the authors'."""
    return authors_first((s, int(r.get("tcdate") or r.get("cdate") or 0))
                         for r in replies for s in r.get("signatures") or [])


def authors_first_parsed(posts: Iterable[Post]) -> int | None:
    """`authors_first` over a parsed forum's posts."""
    return authors_first((p.signature, p.tcdate) for p in posts)


def changed_during_rebuttal(tcdate: int | None, tmdate: int | None, authors_first: int | None) -> bool:
    """Whether a review may hold scores that changed once the authors had posted: modified after
    creation (or its creation time unknown), and not provably before the authors' first post."""
    if tcdate is None:
        return True
    if tmdate is None or tmdate <= tcdate:
        return False
    return authors_first is None or tmdate >= authors_first
