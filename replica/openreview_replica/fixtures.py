"""Deterministic fixture generator: notes, edits (v2), references (v1), PDFs and ground truth.

`VenueGenerator` assembles one venue: the forums (forum_builder), their replies (reply_builder),
the venue group and invitations (here). The data classes live in fixture_model."""

from __future__ import annotations

import random
import string
from collections.abc import Iterable

from .fixture_model import ANON_GROUPS, DAY, READER_GROUPS, Fixtures, ForumTruth, RevisionTruth, VenueFixture, readable
from .forum_builder import ForumBuilder
from .pdfgen import PdfStore, sentences
from .reply_builder import ReplyBuilder
from .venue_spec import FieldSpec, VenueSpec, iso_to_ms, note_license
from .venues import VENUE_SPECS


# ----------------------------------------------------------------------------------------------
class VenueGenerator(ForumBuilder, ReplyBuilder):
    ALNUM = string.ascii_letters + string.digits

    def __init__(self, fx: Fixtures, spec: VenueSpec, seed: int, n_forums: int, eager: bool,
                 allow_anonymous: bool | None, used_ids: set):
        self.fx, self.spec, self.eager = fx, spec, eager
        self.rng = random.Random(f"{seed}:{spec.key}")
        self.used = used_ids
        self.n = n_forums
        self.V = spec.venue_id
        self.D = iso_to_ms(spec.deadline or spec.anchor)  # the submission invitation's duedate
        # its expdate: uploads until then are part of the submission (OpenReview's grace)
        self.E = spec.expdate_ms if not spec.rolling else self.D
        self.D0 = self.D  # rolling venues move self.D per paper (its "under review" time)
        self.v2 = spec.api_version == 2
        sub_inv = (f"{self.V}/-/{spec.submission_name}" if self.v2
                   else f"{self.V}/-/{spec.v1_submission_invitation_tail}")
        self.vf = VenueFixture(key=spec.key, spec=spec, venue_id=self.V, api_version=spec.api_version,
                               deadline_ms=None if spec.rolling else self.D,
                               expdate_ms=None if spec.rolling else self.E,
                               allow_anonymous=spec.allow_anonymous if allow_anonymous is None else allow_anonymous,
                               submission_invitation=sub_inv)
        self.inv_used: set[str] = set()

    # -- helpers
    def nid(self, n=10, rng: random.Random | None = None) -> str:
        """A fresh note/edit id, drawn from `rng` (a stream of its own) or the venue's stream."""
        rng = rng or self.rng
        while True:
            s = "".join(rng.choice(self.ALNUM) for _ in range(n))
            if s not in self.used and not s[0].isdigit():
                self.used.add(s)
                return s

    def t(self, lo_days: float, hi_days: float | None = None) -> int:
        hi = lo_days if hi_days is None else hi_days
        return self.D + int(self.rng.uniform(lo_days, hi) * DAY) + self.rng.randint(0, 59_999)

    def text(self, n=3) -> str:
        return " ".join(sentences(self.rng, n))

    def val(self, v):
        return {"value": v} if self.v2 else v

    def form(self, fields: tuple, k: int = 1) -> dict:
        out = {}
        for f in fields:
            f: FieldSpec
            if f.kind == "choice":
                v = self.rng.choice(f.choices)
            elif f.kind == "const":
                v = f.value.format(k=k) if isinstance(f.value, str) else f.value
            elif f.kind == "list":
                v = [f.value]
            else:
                v = self.text(self.rng.randint(2, 5))
            out[f.name] = self.val(v)
        return out

    # -- build
    def build(self) -> VenueFixture:
        spec, vf = self.spec, self.vf
        numbers = sorted(self.rng.sample(range(1, self.n * 4 + 10), self.n))
        for i in range(self.n):
            tags = [spec.special_forums[i]] if i < len(spec.special_forums) else []
            if spec.rolling:
                self.D = self.E = self.D0 + int(i * spec.rolling_gap_days * DAY)
            self.forum(i, numbers[i], tags)
        self.D = self.D0
        self.E = spec.expdate_ms if not spec.rolling else self.D
        self.venue_objects()
        self.next_index = self.n
        return vf

    def paper(self, number: int) -> str:
        return f"{self.V}/{self.spec.paper_prefix}{number}"

    def edit(self, eid, inv, sigs, readers, writers, t, note_id, ncontent, number):
        note = {"id": note_id, "content": ncontent}
        if number is not None:
            note["number"] = number
        if self.spec.license and inv.endswith(f"/-/{self.spec.submission_name}"):
            note["license"] = note_license(self.spec, note_id)
        return {"id": eid, "invitation": inv, "domain": self.V, "signatures": sigs, "readers": list(readers),
                "writers": list(writers), "nonreaders": [], "cdate": t, "tcdate": t, "tmdate": t, "ddate": None,
                "note": note}

    def ref(self, rid, fid, original_id, number, inv, cdate, t, content, orig):
        return {"cdate": cdate, "content": content, "ddate": None,
                "details": {"original": orig, "originalWritable": False}, "forum": fid, "id": rid,
                "invitation": inv, "mdate": None, "nonreaders": [], "number": number, "odate": None,
                "original": original_id, "pdate": None, "readers": ["everyone"], "referent": fid,
                "replyto": None, "signatures": [self.V], "tcdate": t, "tmdate": t, "writers": [self.V]}

    # -- venue group / invitations
    def venue_objects(self):
        spec, V, vf = self.spec, self.V, self.vf
        t0 = self.D - 60 * DAY
        if self.v2:
            c = {
                "title": spec.short_name + ("" if spec.rolling else " Conference"), "subtitle": spec.subtitle,
                "submission_id": f"{V}/-/{spec.submission_name}", "submission_name": spec.submission_name,
                "submission_venue_id": f"{V}/{spec.submission_name}",
                "withdrawn_venue_id": f"{V}/Withdrawn_Submission",
                "desk_rejected_venue_id": f"{V}/Desk_Rejected_Submission",
                "rejected_venue_id": f"{V}/Rejected_Submission",
                "withdrawn_submission_id": f"{V}/-/Withdrawn_Submission",
                "desk_rejected_submission_id": f"{V}/-/Desk_Rejected_Submission",
                "review_name": spec.review_name, "review_rating": "rating", "review_confidence": "confidence",
                "meta_review_name": spec.meta_review_name, "meta_review_recommendation": "recommendation",
                "decision_name": spec.decision_name, "decision_field_name": spec.decision_field,
                "accept_decision_options": [d for d in spec.decision_options if d in spec.accept_venue_strings],
                "rebuttal_name": "Rebuttal", "reviewers_anon_name": "Reviewer_", "authors_name": "Authors",
                "start_date": "Sep 28 2023", "date": "Submission Start: Aug 15 2023, Abstract Registration: Sep 22 2023, Submission Deadline: Sep 28 2023",
            }
            vf.groups[V] = {"id": V, "domain": V, "content": {k: {"value": v} for k, v in c.items()},
                            "members": [f"{V}/Program_Chairs"], "readers": ["everyone"], "writers": [V],
                            "signatures": ["~Super_User1"], "signatories": [V], "nonreaders": [],
                            "cdate": t0, "tcdate": t0, "tmdate": t0, "mdate": t0, "invitations": [
                                f"{V}/-/Edit"], "details": {"writable": False}, "web": None, "version": 2}
        else:
            vf.groups[V] = {"id": V, "cdate": t0, "ddate": None, "tcdate": t0, "tmdate": t0,
                            "writers": [V], "members": [f"{V}/Program_Chairs"], "readers": ["everyone"],
                            "nonreaders": [], "signatures": [V.rsplit("/", 1)[0]], "signatories": [V],
                            "web": "// webfield code"}
        sub_ids = [f"{V}/-/{spec.submission_name}"] if self.v2 else [
            f"{V}/-/{spec.v1_original_invitation_tail}", f"{V}/-/{spec.v1_submission_invitation_tail}"]
        # Dates as openreview-py's venue code sets them: the invitation authors submit to carries
        # duedate = the deadline and expdate = deadline + SHORT_BUFFER_MIN unless the venue set one
        # (openreview/venue/invitation.py; v1: openreview/conference/invitation.py
        # SubmissionInvitation). v1's Blind_Submission copy carries no dates (BlindSubmissionsInvitation).
        dated = {f"{V}/-/{spec.submission_name}"} if self.v2 else {f"{V}/-/{spec.v1_original_invitation_tail}"}
        for i in sorted(self.inv_used | set(sub_ids)):
            is_sub = i in sub_ids
            due = spec.duedate_ms if i in dated and not spec.rolling else None
            exp = spec.expdate_ms if i in dated and not spec.rolling else None
            if self.v2:
                inv = {"id": i, "domain": V, "cdate": t0, "tcdate": t0, "tmdate": t0, "mdate": t0,
                       "duedate": due, "expdate": exp, "signatures": [V], "readers": ["everyone"],
                       "writers": [V], "invitees": ["~"] if is_sub else [V], "nonreaders": [],
                       "edit": {"signatures": {"param": {"items": [{"prefix": "~.*"}]}},
                                "note": {"content": {}}} if is_sub else {"note": {}},
                       "version": 2}
                if not is_sub:
                    inv["expdate"] = self.D + 200 * DAY
            else:
                inv = {"id": i, "cdate": t0, "tcdate": t0, "tmdate": t0, "ddate": None,
                       "duedate": due, "expdate": exp if is_sub else self.D + 200 * DAY,
                       "readers": ["everyone"], "nonreaders": [], "writers": [V], "invitees": ["~"],
                       "noninvitees": [], "signatures": [V], "multiReply": None, "taskCompletionCount": None,
                       "reply": {"readers": {"values": ["everyone"]}, "content": {}}, "transform": None,
                       "process": None, "rdate": None}
            vf.invitations[i] = inv


def build_fixtures(venues: Iterable[str] = ("iclr-2024", "iclr-2020"), seed: int = 0, n_forums: int | dict = 32,
                   eager_pdfs: bool | None = None, allow_anonymous: bool | None = None,
                   specs: dict[str, VenueSpec] | None = None) -> Fixtures:
    """Generate deterministic fixtures.

    n_forums: per-venue count (int) or {venue_key: count}. eager_pdfs: render every PDF now so
    ``/pdf/<sha1>.pdf`` is the SHA-1 of the bytes; default: eager when the total forum count <= 400,
    otherwise lazy (the address is then the SHA-1 of the PDF spec, PDFs render on first download).
    allow_anonymous: override the venue's default (False = anonymous requests get ChallengeRequiredError).
    """
    specs = specs or VENUE_SPECS
    venues = [venues] if isinstance(venues, str) else list(venues)
    counts = {v: (n_forums.get(v, 32) if isinstance(n_forums, dict) else n_forums) for v in venues}
    if eager_pdfs is None:
        eager_pdfs = sum(counts.values()) <= 400
    fx = Fixtures(venues={}, pdfs=PdfStore(), seed=seed)
    used: set[str] = set()
    for v in venues:
        if v not in specs:
            raise KeyError(f"unknown venue key {v!r}; known: {sorted(specs)}")
        gen = VenueGenerator(fx, specs[v], seed, counts[v], eager_pdfs, allow_anonymous, used)
        fx.venues[v] = gen.build()
        fx.venues[v].gen = gen
    return fx


__all__ = ["build_fixtures", "Fixtures", "VenueFixture", "ForumTruth", "RevisionTruth", "readable",
           "READER_GROUPS", "ANON_GROUPS", "VenueGenerator"]
