"""The fixtures' data: ground truth per forum and revision, a venue's raw API objects, and the
`Fixtures` container the server reads (with its run-time changes: a night of TMLR activity)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from .pdfgen import PdfSpec, PdfStore
from .venue_spec import VenueSpec, note_license

DAY = 86_400_000
HOUR = 3_600_000

READER_ID = "~Replica_Reader1"
READER_USERNAME = "reader@replica.test"
READER_PASSWORD = "replica-password"
READER_GROUPS = frozenset({"everyone", READER_ID, READER_USERNAME, "(guest)"})
ANON_GROUPS = frozenset({"everyone", "(guest)"})

Rule = Literal["initial", "current_is_initial", "earliest_public", "unavailable"]
Status = Literal["active", "withdrawn", "desk_rejected"]


def readable(readers: Iterable[str] | None, groups: frozenset) -> bool:
    return any(r in groups for r in (readers or ()))


@dataclass
class RevisionTruth:
    revision_id: str  # v2 edit id / v1 reference id
    tcdate: int
    invitation: str
    has_pdf: bool
    pdf_sha: str | None
    marker: str | None  # marker sentence of this revision's PDF
    revision_index: int | None  # k in the marker (1-based among PDF revisions)
    visible: bool  # readable by the configured reader
    pre_deadline: bool


@dataclass
class ForumTruth:
    venue_key: str
    forum_id: str
    number: int
    title: str
    status: Status
    decision: str | None
    has_pdf: bool
    # What the default policy chooses: the initial submission, or, when it is not public, the
    # earliest public PDF (`earliest_public`); `strict_rule` is what `initial_only` chooses.
    expected_rule: Rule
    expected_revision_id: str | None
    expected_marker: str | None
    post_deadline_markers: list[str]
    num_reviews: int  # official reviews visible to the reader
    latest_marker: str | None  # marker of the current /pdf?id=<forum>
    tags: list[str] = field(default_factory=list)
    strict_rule: Rule | None = None  # the rule under `initial_only` (None: the same as expected_rule)
    revisions: list[RevisionTruth] = field(default_factory=list)  # chronological
    num_replies: int = 0  # replies visible to the reader (details=replies)
    num_direct_replies: int = 0  # visible replies with replyto == forum
    review_ids: list[str] = field(default_factory=list)  # visible review note ids
    author_reply_ids: list[str] = field(default_factory=list)  # visible Authors-signed comments
    original_id: str | None = None  # v1 original (non-blind) note id
    track: str = "main"  # catalogue track (EMNLP: "findings" for Accept-Findings)
    general_rebuttal_ids: list[str] = field(default_factory=list)  # visible author notes to the forum
    # visible author replies to an AC's note to all or to a public comment: reference context of every thread
    group_reply_ids: list[str] = field(default_factory=list)
    review_initial_ratings: dict = field(default_factory=dict)  # review id -> rating before its edit
    review_final_ratings: dict = field(default_factory=dict)  # review id -> rating now (edited ones)
    # The note alone settles the choice, so reviewbench's stage takes its current PDF without reading
    # the history (`current_is_initial`): an API v2 note with a deadline and a PDF that no revision
    # invitation ever edited (its `invitations` list every editing invitation, private ones too), or
    # an API v1 note whose pdf is its original_pdf (the same file).
    note_settles: bool = False

    @property
    def stage_rule(self) -> Rule:
        """What the `initial_submission_pdfs` stage records by default (`expected_rule` is what
        reading the revision history chooses; both name the same PDF)."""
        return "current_is_initial" if self.note_settles else self.expected_rule

    @property
    def stage_revision_id(self) -> str | None:
        return None if self.note_settles else self.expected_revision_id


@dataclass
class VenueFixture:
    key: str
    spec: VenueSpec
    venue_id: str
    api_version: int
    deadline_ms: int | None  # the submission invitation's duedate; None: rolling venue (TMLR)
    expdate_ms: int | None  # its expdate: the last instant an upload was accepted
    allow_anonymous: bool
    submission_invitation: str
    forums: dict[str, ForumTruth] = field(default_factory=dict)
    # raw API objects
    notes: dict[str, dict] = field(default_factory=dict)  # every note (forums + replies) by id
    submissions: list[dict] = field(default_factory=list)  # forum notes
    replies_by_forum: dict[str, list[dict]] = field(default_factory=dict)
    edits: dict[str, dict] = field(default_factory=dict)  # v2
    edits_by_note: dict[str, list[dict]] = field(default_factory=dict)
    references: dict[str, dict] = field(default_factory=dict)  # v1
    refs_by_referent: dict[str, list[dict]] = field(default_factory=dict)
    groups: dict[str, dict] = field(default_factory=dict)
    invitations: dict[str, dict] = field(default_factory=dict)
    gen: Any = field(default=None, repr=False, compare=False)  # the generator, for run-time changes

    @property
    def forum_ids(self) -> list[str]:
        return list(self.forums)

    def forums_with(self, tag: str) -> list[ForumTruth]:
        return [f for f in self.forums.values() if tag in f.tags]


@dataclass
class Fixtures:
    venues: dict[str, VenueFixture]
    pdfs: PdfStore
    seed: int
    username: str = READER_USERNAME
    password: str = READER_PASSWORD
    reader_id: str = READER_ID

    def venues_for_api(self, version: int) -> list[VenueFixture]:
        return [v for v in self.venues.values() if v.api_version == version]

    def pdf_bytes(self, sha: str) -> bytes | None:
        return self.pdfs.get(sha)

    def pdf_spec(self, sha: str) -> PdfSpec | None:
        return self.pdfs.specs.get(sha)

    # ---- run-time changes (a night of TMLR activity); call ReplicaServer.reindex() afterwards ----
    def last_modified_ms(self, venue_key: str) -> int:
        v = self.venues[venue_key]
        return max((n.get("tmdate") or n.get("tcdate") or 0) for n in v.notes.values())

    def add_forums(self, venue_key: str, n: int = 1) -> list[str]:
        """New submissions (with their reviews etc.) whose every note is newer than anything served
        so far. Rolling venues only (a conference's papers all share one deadline)."""
        v = self.venues[venue_key]
        if not v.spec.rolling:
            raise ValueError(f"{venue_key}: only rolling venues (TMLR) get new papers at run time")
        g = v.gen  # fixtures.VenueGenerator
        out = []
        for _ in range(n):
            g.D = max(int(time.time() * 1000), self.last_modified_ms(venue_key)) + 11 * DAY  # first edit ~10 days earlier
            g.E = g.D
            number = max(f.number for f in v.forums.values()) + 1 + g.rng.randint(0, 3)
            g.forum(g.next_index, number, [])
            g.next_index += 1
            out.append(list(v.forums)[-1])
        g.D = g.E = g.D0
        return out

    def add_reply(self, forum_id: str, at_ms: int | None = None) -> str:
        """An author comment on the forum posted now (or at `at_ms`): the forum changes, its
        submission note does not (as on OpenReview, a reply leaves the forum note's tmdate alone)."""
        v = next(x for x in self.venues.values() if forum_id in x.forums)
        g = v.gen  # fixtures.VenueGenerator
        sub = v.notes[forum_id]
        t = at_ms or max(int(time.time() * 1000), self.last_modified_ms(v.key) + 1)
        P, V = g.paper(sub["number"]), v.venue_id
        A = f"{P}/Authors"
        inv = f"{P}/-/{v.spec.comment_name}"
        content = {"title": g.val("Update after the discussion"), "comment": g.val(g.text(3))}
        nid = g.nid(10)
        if g.v2:
            note = {"content": content, "id": nid, "forum": forum_id, "replyto": forum_id, "signatures": [A],
                    "readers": ["everyone"], "nonreaders": [], "writers": [V, A], "number": 99,
                    "invitations": [inv], "domain": V, "tcdate": t, "cdate": t, "tmdate": t, "mdate": t,
                    "odate": t, "pdate": None, "ddate": None, "parentInvitations": f"{V}/-/{v.spec.comment_name}",
                    "license": note_license(v.spec, forum_id), "version": 2}
        else:
            note = {"id": nid, "original": None, "number": 99, "cdate": t, "ddate": None, "tcdate": t,
                    "tmdate": t, "tddate": None, "forum": forum_id, "replyto": forum_id, "invitation": inv,
                    "content": content, "signatures": [A], "readers": ["everyone"], "nonreaders": [],
                    "writers": [A, V]}
        v.replies_by_forum[forum_id].append(note)
        v.notes[nid] = note
        f = v.forums[forum_id]
        f.num_replies += 1
        f.num_direct_replies += 1
        f.general_rebuttal_ids.append(nid)
        return nid

    def delete_forum(self, forum_id: str, at_ms: int | None = None) -> None:
        """Soft-delete a submission (`ddate`), as OpenReview does; `trash=true` still returns it."""
        v = next(x for x in self.venues.values() if forum_id in x.forums)
        t = at_ms or max(int(time.time() * 1000), self.last_modified_ms(v.key) + 1)
        v.notes[forum_id]["ddate"] = t
        v.notes[forum_id]["tmdate"] = t

