"""Deterministic fixture generator: notes, edits (v2), references (v1), PDFs and ground truth."""

from __future__ import annotations

import random
import re
import string
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Iterable, Literal

from .discussion import discussion, review_references
from .pdfgen import PdfSpec, PdfStore, _sentences, marker_text
from .venues import DEADLINE_BOUNDARY_FORUMS, VENUE_SPECS, FieldSpec, VenueSpec, iso_to_ms

DAY = 86_400_000
HOUR = 3_600_000

READER_ID = "~Replica_Reader1"
READER_USERNAME = "reader@replica.test"
READER_PASSWORD = "replica-password"
READER_GROUPS = frozenset({"everyone", READER_ID, READER_USERNAME, "(guest)"})
ANON_GROUPS = frozenset({"everyone", "(guest)"})

Rule = Literal["initial", "current_is_initial", "unavailable"]
Status = Literal["active", "withdrawn", "desk_rejected"]

FIRST = ["Alice", "Bo", "Carla", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kavya", "Lena",
         "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yara"]
LAST = ["Abbott", "Berg", "Castro", "Dubois", "Engel", "Fischer", "Garcia", "Huang", "Ivanova", "Jensen",
        "Kim", "Larsen", "Moreau", "Nakamura", "Okafor", "Petrov", "Rossi", "Silva", "Tanaka", "Weber"]
TOPIC = ["Sparse", "Robust", "Scalable", "Contrastive", "Implicit", "Causal", "Efficient", "Provable",
         "Adaptive", "Hierarchical", "Equivariant", "Federated", "Latent", "Diffusion-Based", "Self-Supervised"]
THING = ["Attention", "Representation Learning", "Policy Optimization", "Graph Networks", "Language Models",
         "Vision Transformers", "Kernel Methods", "Generative Models", "Meta-Learning", "Optimizers",
         "Reward Models", "Neural Fields", "State Space Models", "Mixture of Experts"]


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
    expected_rule: Rule
    expected_revision_id: str | None
    expected_marker: str | None
    post_deadline_markers: list[str]
    num_reviews: int  # official reviews visible to the reader
    latest_marker: str | None  # marker of the current /pdf?id=<forum>
    tags: list[str] = field(default_factory=list)
    revisions: list[RevisionTruth] = field(default_factory=list)  # chronological
    num_replies: int = 0  # replies visible to the reader (details=replies)
    num_direct_replies: int = 0  # visible replies with replyto == forum
    review_ids: list[str] = field(default_factory=list)  # visible review note ids
    author_reply_ids: list[str] = field(default_factory=list)  # visible Authors-signed comments
    original_id: str | None = None  # v1 original (non-blind) note id
    track: str = "main"  # catalogue track (EMNLP: "findings" for Accept-Findings)
    general_rebuttal_ids: list[str] = field(default_factory=list)  # visible author notes to the forum
    group_reply_ids: list[str] = field(default_factory=list)  # visible author replies to an AC's note to all
    review_initial_ratings: dict = field(default_factory=dict)  # review id -> rating before its edit
    review_final_ratings: dict = field(default_factory=dict)  # review id -> rating now (edited ones)


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
        g: _Gen = v.gen
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
        g: _Gen = v.gen
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
                    "license": v.spec.license, "version": 2}
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


# ----------------------------------------------------------------------------------------------
class _Gen:
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
    def nid(self, n=10) -> str:
        while True:
            s = "".join(self.rng.choice(self.ALNUM) for _ in range(n))
            if s not in self.used and not s[0].isdigit():
                self.used.add(s)
                return s

    def t(self, lo_days: float, hi_days: float | None = None) -> int:
        hi = lo_days if hi_days is None else hi_days
        return self.D + int(self.rng.uniform(lo_days, hi) * DAY) + self.rng.randint(0, 59_999)

    def text(self, n=3) -> str:
        return " ".join(_sentences(self.rng, n))

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

    def pdf_revisions_plan(self, tags: list[str], accepted: bool, status: str) -> list[dict]:
        """Chronological list of revisions: {t, kind, pdf(bool)}."""
        rng = self.rng
        created = self.D - int(rng.uniform(4, 10) * DAY)
        plan = []
        has_pdf = "no_pdf" not in tags
        if "abstract_only_first" in tags or (not self.v2 and rng.random() < 0.2):
            plan.append({"t": created, "kind": "abstract", "pdf": False})
            created += int(rng.uniform(0.5, 2) * DAY)
        npre = 1 if self.spec.rolling else rng.randint(1, 3)
        times = sorted(rng.randint(created, self.D - 60_000) for _ in range(npre))
        # the last one close to the deadline
        if "aoe_boundary" in tags:  # 20 min before the instant: hours after 23:59 UTC of the day
            times = sorted(min(t, self.D - 21 * 60_000) for t in times[:-1]) + [self.D - 20 * 60_000]
        for j, tt in enumerate(times):
            plan.append({"t": tt, "kind": "submission", "pdf": has_pdf})
        if "grace_upload" in tags:  # after duedate, before expdate: OpenReview still accepted it
            plan.append({"t": self.D + 10 * 60_000, "kind": "submission", "pdf": has_pdf})
        if "after_grace" in tags:  # one minute after expdate: a later revision, not the submission
            plan.append({"t": self.E + 60_000, "kind": "rebuttal", "pdf": True})
        no_post = {"no_revision", "history_public_no_revision", "desk_rejected", "no_pdf"} & set(tags)
        if not no_post and status == "active":
            if "history_public" in tags or rng.random() < spec_p(self.spec):
                for _ in range(rng.randint(1, 2)):
                    plan.append({"t": self.t(*self.spec.t_rebuttal), "kind": "rebuttal", "pdf": True})
            if accepted and rng.random() < 0.85:
                plan.append({"t": self.t(*self.spec.t_camera_ready), "kind": "camera_ready", "pdf": True})
        plan.sort(key=lambda p: p["t"])
        return plan

    def forum(self, i: int, number: int, tags: list[str]):
        spec, rng, V = self.spec, self.rng, self.V
        vf = self.vf
        fid = self.nid(10)
        P = self.paper(number)
        authors_grp = f"{P}/Authors"
        status = "withdrawn" if "withdrawn" in tags else "desk_rejected" if "desk_rejected" in tags else "active"
        decision = None
        if status == "active":
            decision = rng.choices(spec.decision_options,
                                   weights=[1] * (len(spec.decision_options) - 1) + [2.2])[0]
            if i < len(spec.special_forums) and tags and tags[0] in ("no_revision",):
                decision = spec.decision_options[-1]
        accepted = decision is not None and decision in spec.accept_venue_strings
        title = f"{rng.choice(TOPIC)} {rng.choice(THING)} via {rng.choice(TOPIC)} {rng.choice(THING)}"
        abstract = self.text(5)
        authors = [f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(rng.randint(2, 5))]
        authorids = [f"~{a.replace(' ', '_')}1" for a in authors]
        keywords = rng.sample(["deep learning", "optimization", "theory", "benchmarks", "robustness",
                               "generative models", "reinforcement learning", "transformers"], 3)
        tldr = self.text(1)
        plan = self.pdf_revisions_plan(tags, accepted, status)
        history_public = any(t.startswith("history_public") or t in DEADLINE_BOUNDARY_FORUMS for t in tags) or (
            spec.history_public and status != "desk_rejected")  # TMLR: released once under review

        # PDFs
        k = 0
        for p in plan:
            if p["pdf"]:
                k += 1
                spec_pdf = PdfSpec(fid, k, title, abstract, rng.randint(2, 5), rng.randint(0, 2**31))
                p["sha"] = self.fx.pdfs.add(spec_pdf, self.eager)
                p["k"] = k
                p["marker"] = marker_text(fid, k)
        pdf_plan = [p for p in plan if p["pdf"]]
        pre = [p for p in plan if p["t"] <= self.E]
        pre_pdf = [p for p in pre if p["pdf"]]
        latest = pdf_plan[-1] if pdf_plan else None
        created = plan[0]["t"]
        public_t = self.D + int(spec.t_public * DAY)
        decision_t = self.t(spec.t_decision, spec.t_decision + 0.2)
        withdraw_t = self.t(30, 60) if status == "withdrawn" else None
        desk_t = self.t(8, 12) if status == "desk_rejected" else None

        # venue / venueid
        if status == "withdrawn":
            venue_str, venueid = spec.withdrawn_venue_string, spec.withdrawn_venueid or f"{V}/Withdrawn_Submission"
        elif status == "desk_rejected":
            venue_str = spec.desk_rejected_venue_string
            venueid = spec.desk_rejected_venueid or f"{V}/Desk_Rejected_Submission"
        elif accepted:
            venue_str, venueid = spec.accept_venue_strings[decision], V
        else:
            venue_str, venueid = spec.rejected_venue_string, spec.rejected_venueid or f"{V}/Rejected_Submission"
        year = spec.year or datetime.fromtimestamp(self.D / 1000, tz=timezone.utc).year
        bibkey = f"{authors[0].split()[-1].lower()}{year - 1}{title.split()[0].lower()}"
        bibtex = (f"@inproceedings{{\n{bibkey},\ntitle={{{title}}},\nauthor={{{' and '.join(authors)}}},\n"
                  f"booktitle={{The {'Twelfth' if spec.year == 2024 else 'Eighth'} International Conference on "
                  f"Learning Representations}},\nyear={{{year}}},\nurl={{https://openreview.net/forum?id={fid}}}\n}}")
        paperhash = f"{authors[0].split()[-1].lower()}|{'_'.join(w.lower().strip('-') for w in title.split())}"
        base_content = {"title": title, "authors": authors, "authorids": authorids, "keywords": keywords,
                        spec.tldr_field: tldr, "abstract": abstract, "primary_area": rng.choice(spec.primary_areas),
                        "venue": venue_str, "venueid": venueid, "_bibtex": bibtex, "paperhash": paperhash,
                        "code": f"https://github.com/replica-{fid.lower()}/code"}
        if latest:
            base_content["pdf"] = f"/pdf/{latest['sha']}.pdf"
        if pre_pdf and not self.v2:
            base_content["original_pdf"] = f"/attachment/{pre_pdf[-1]['sha']}.pdf"
        content = {kk: self.val(base_content[kk]) for kk in spec.submission_content_fields if kk in base_content}

        revisions: list[RevisionTruth] = []
        original_id = None
        tmdate = max([p["t"] for p in plan] + [public_t])
        if self.v2:
            invitations = [f"{V}/-/{spec.submission_name}", f"{V}/-/{spec.post_submission_name}"]
            edits = []
            pre_readers = ["everyone"] if history_public else [V, authors_grp]
            for p in plan:
                eid = self.nid(10)
                if p["kind"] in ("submission", "abstract"):
                    inv, sigs, readers = f"{V}/-/{spec.submission_name}", [authorids[0]], pre_readers
                    ncontent = {kk: self.val(base_content[kk]) for kk in
                                ("title", "authors", "authorids", "keywords", spec.tldr_field, "abstract",
                                 "primary_area") if kk in base_content}
                else:
                    tail = spec.rebuttal_revision_name if p["kind"] == "rebuttal" else spec.camera_ready_revision_name
                    inv, sigs, readers = f"{P}/-/{tail}", [authors_grp], ["everyone"]
                    ncontent = {"title": self.val(title), "abstract": self.val(abstract)}
                    if inv not in invitations:
                        invitations.append(inv)
                if p["pdf"]:
                    ncontent["pdf"] = self.val(f"/pdf/{p['sha']}.pdf")
                edits.append(self.edit(eid, inv, sigs, readers, [V, authors_grp], p["t"], fid, ncontent,
                                       number if p["kind"] == "submission" else None))
                p["id"] = eid
                p["inv"] = inv
                p["visible"] = readable(readers, READER_GROUPS)
                if p["kind"] == "submission" and p is [q for q in plan if q["kind"] == "submission"][-1]:
                    # Post_Submission right after the deadline (authors/venue only)
                    edits.append(self.edit(self.nid(10), f"{V}/-/{spec.post_submission_name}", [V], [V, authors_grp],
                                           [V], self.D + int(0.2 * DAY), fid,
                                           {"authors": {"readers": [V, authors_grp]}}, None))
            if status in ("withdrawn", "desk_rejected"):
                tail = "Withdrawn_Submission" if status == "withdrawn" else "Desk_Rejected_Submission"
                inv = f"{V}/-/{tail}"
                invitations.append(inv)
                tt = withdraw_t or desk_t
                edits.append(self.edit(self.nid(10), inv, [V], ["everyone"], [V], tt, fid,
                                       {"venue": self.val(venue_str), "venueid": self.val(venueid)}, None))
                tmdate = max(tmdate, tt)
            edits.sort(key=lambda e: e["tcdate"])
            for e in edits:
                vf.edits[e["id"]] = e
                self.inv_used.add(e["invitation"])
            vf.edits_by_note[fid] = edits
            note = {
                "id": fid, "number": number, "cdate": created, "tcdate": created, "tmdate": tmdate,
                "mdate": tmdate, "odate": public_t, "pdate": decision_t if accepted else None, "ddate": None,
                "content": content, "forum": fid, "replyto": None, "readers": ["everyone"], "nonreaders": [],
                "signatures": [authors_grp], "writers": [V, authors_grp], "invitations": invitations,
                "domain": V, "license": spec.license, "version": 2,
            }
            for p in plan:
                if p.get("id") and p["pdf"]:
                    revisions.append(RevisionTruth(p["id"], p["t"], p["inv"], True, p["sha"], p["marker"], p["k"],
                                                   p["visible"], p["t"] <= self.E))
                elif p.get("id"):
                    revisions.append(RevisionTruth(p["id"], p["t"], p["inv"], False, None, None, None,
                                                   p["visible"], p["t"] <= self.E))
            post_rev_invs = [x for x in invitations if x.endswith("_Revision") or x.endswith("/-/Revision")]
            if not latest:
                rule, rev_id, exp_marker = "unavailable", None, None
            elif spec.rolling and history_public:  # TMLR: the first released revision
                rule, rev_id, exp_marker = "initial", pdf_plan[0]["id"], pdf_plan[0]["marker"]
            elif history_public and pre_pdf:
                rule, rev_id, exp_marker = "initial", pre_pdf[-1]["id"], pre_pdf[-1]["marker"]
            elif not post_rev_invs:
                rule, rev_id, exp_marker = "current_is_initial", None, latest["marker"]
            else:
                rule, rev_id, exp_marker = "unavailable", None, None
        else:
            original_id = self.nid(10)
            inv = f"{V}/-/{spec.v1_submission_invitation_tail}"
            if status == "withdrawn":
                inv = f"{V}/-/Withdrawn_Submission"
            elif status == "desk_rejected":
                inv = f"{V}/-/Desk_Rejected_Submission"
            self.inv_used.add(inv)
            blind_cdate = max(p["t"] for p in pre) + self.rng.randint(60_000, 4 * HOUR)
            blind_cdate = min(blind_cdate, self.D)
            refs = []
            for p in plan:
                rid = self.nid(9)
                rc = {kk: base_content[kk] for kk in ("title", "authors", "authorids", "keywords",
                                                      spec.tldr_field, "abstract", "paperhash", "_bibtex")}
                if p["pdf"]:
                    rc["pdf"] = f"/pdf/{p['sha']}.pdf"
                    if pre_pdf:
                        rc["original_pdf"] = f"/attachment/{pre_pdf[-1]['sha']}.pdf"
                if p["kind"] in ("rebuttal", "camera_ready"):
                    rc = {kk: rc[kk] for kk in ("pdf", "original_pdf", "_bibtex") if kk in rc}
                    rc["code"] = base_content["code"]
                refs.append(self.ref(rid, fid, original_id, number, f"{V}/-/{spec.v1_submission_invitation_tail}",
                                     blind_cdate, p["t"], rc, None))
                p["id"] = rid
            if status in ("withdrawn", "desk_rejected"):
                tt = withdraw_t or desk_t
                refs.append(self.ref(self.nid(9), fid, original_id, number, inv, blind_cdate, tt,
                                     {"venue": venue_str, "venueid": venueid}, None))
                tmdate = max(tmdate, tt)
            # system references without pdf (CatalyzeX-like), years later
            for _ in range(rng.randint(1, 3)):
                tt = self.D + int(rng.uniform(1200, 2200) * DAY)
                sid = self.nid(11)
                sc = {"_bibtex": bibtex, "community_implementations":
                      "[![CatalyzeX](/images/catalyzex_icon.svg) 1 code implementation](https://www.catalyzex.com/)"}
                if pre_pdf:
                    sc["original_pdf"] = f"/attachment/{pre_pdf[-1]['sha']}.pdf"
                orig = {"cdate": tt, "content": {"community_implementations": sc["community_implementations"]},
                        "ddate": None, "forum": original_id, "id": sid, "invitation": f"CatalyzeX.com/-/{V.replace('/', '_')}_Code",
                        "mdate": tt, "nonreaders": [], "number": rng.randint(10000, 20000), "original": None,
                        "readers": ["everyone"], "referent": original_id, "replyto": None,
                        "signatures": ["CatalyzeX.com"], "tcdate": tt, "tddate": None, "tmdate": tt, "writers": []}
                refs.append(self.ref(sid, fid, original_id, number, f"{V}/-/{spec.v1_submission_invitation_tail}",
                                     blind_cdate, tt, sc, orig))
            refs.sort(key=lambda r: -r["tcdate"])
            for r in refs:
                vf.references[r["id"]] = r
            vf.refs_by_referent[fid] = refs
            note = {
                "id": fid, "original": original_id, "number": number, "cdate": blind_cdate, "ddate": None,
                "tcdate": blind_cdate, "tmdate": tmdate, "tddate": None, "forum": fid, "replyto": None,
                "invitation": inv, "content": content, "signatures": [V], "readers": ["everyone"],
                "nonreaders": [], "writers": [V], "pdate": decision_t if accepted else None, "odate": blind_cdate + 300,
                "mdate": None,
            }
            for p in plan:
                revisions.append(RevisionTruth(p["id"], p["t"], f"{V}/-/{spec.v1_submission_invitation_tail}",
                                               p["pdf"], p.get("sha"), p.get("marker"), p.get("k"), True,
                                               p["t"] <= self.E))
            if pre_pdf:
                rule, rev_id, exp_marker = "initial", pre_pdf[-1]["id"], pre_pdf[-1]["marker"]
            else:
                rule, rev_id, exp_marker = "unavailable", None, None

        vf.notes[fid] = note
        vf.submissions.append(note)
        self.review_edits: dict[str, tuple] = {}
        replies = self.replies(fid, number, tags, status, decision, withdraw_t, desk_t, decision_t)
        vf.replies_by_forum[fid] = replies
        for r in replies:
            vf.notes[r["id"]] = r
        visible = [r for r in replies if readable(r["readers"], READER_GROUPS)]
        inv_of = (lambda r: r["invitations"][0]) if self.v2 else (lambda r: r["invitation"])
        review_ids = [r["id"] for r in visible if inv_of(r).endswith(f"/-/{spec.review_name}")]
        author_ids = [r["id"] for r in visible if inv_of(r).endswith(f"/-/{spec.comment_name}")
                      and r["signatures"][0].endswith("/Authors")]
        chosen_marker = exp_marker if rule == "initial" else None
        if spec.rolling:
            post_markers = [p["marker"] for p in pdf_plan if p["marker"] != chosen_marker]
        else:
            post_markers = [p["marker"] for p in pdf_plan if p["t"] > self.E]
        visible_ids = {r["id"] for r in visible}
        general = [r["id"] for r in sorted(visible, key=lambda r: (r["tcdate"], r["id"]))
                   if r["replyto"] == fid and r["signatures"][0].endswith("/Authors")
                   and inv_of(r).rsplit("/-/", 1)[-1] in (spec.comment_name, spec.author_rebuttal_name, "Rebuttal")]
        by_id = {r["id"]: r for r in visible}
        group_replies = [r["id"] for r in sorted(visible, key=lambda r: (r["tcdate"], r["id"]))
                         if r["signatures"][0].endswith("/Authors") and r["replyto"] in by_id
                         and by_id[r["replyto"]]["replyto"] == fid
                         and re.search(r"/(Area_Chair[^/]*|Action_Editors)$", by_id[r["replyto"]]["signatures"][0])]
        vf.forums[fid] = ForumTruth(
            venue_key=spec.key, forum_id=fid, number=number, title=title, status=status, decision=decision,
            has_pdf=latest is not None, expected_rule=rule, expected_revision_id=rev_id,
            expected_marker=exp_marker,
            post_deadline_markers=post_markers,
            num_reviews=len(review_ids), latest_marker=latest["marker"] if latest else None, tags=list(tags),
            revisions=revisions, num_replies=len(visible),
            num_direct_replies=sum(1 for r in visible if r["replyto"] == fid), review_ids=review_ids,
            author_reply_ids=author_ids, original_id=original_id,
            track=spec.track_of_decision.get(decision, spec.track) if decision else spec.track,
            general_rebuttal_ids=general, group_reply_ids=group_replies,
            review_initial_ratings={k: v[0] for k, v in self.review_edits.items() if k in visible_ids},
            review_final_ratings={k: v[1] for k, v in self.review_edits.items() if k in visible_ids})

    def edit(self, eid, inv, sigs, readers, writers, t, note_id, ncontent, number):
        note = {"id": note_id, "content": ncontent}
        if number is not None:
            note["number"] = number
        if self.spec.license and inv.endswith(f"/-/{self.spec.submission_name}"):
            note["license"] = self.spec.license
        return {"id": eid, "invitation": inv, "domain": self.V, "signatures": sigs, "readers": list(readers),
                "writers": list(writers), "nonreaders": [], "cdate": t, "tcdate": t, "tmdate": t, "ddate": None,
                "note": note}

    def ref(self, rid, fid, original_id, number, inv, cdate, t, content, orig):
        return {"cdate": cdate, "content": content, "ddate": None,
                "details": {"original": orig, "originalWritable": False}, "forum": fid, "id": rid,
                "invitation": inv, "mdate": None, "nonreaders": [], "number": number, "odate": None,
                "original": original_id, "pdate": None, "readers": ["everyone"], "referent": fid,
                "replyto": None, "signatures": [self.V], "tcdate": t, "tmdate": t, "writers": [self.V]}

    # -- replies
    def replies(self, fid, number, tags, status, decision, withdraw_t, desk_t, decision_t) -> list[dict]:
        spec, rng, V = self.spec, self.rng, self.V
        P = self.paper(number)
        A = f"{P}/Authors"
        PC = f"{V}/Program_Chairs"
        out: list[dict] = []
        counters: dict[str, int] = {}
        hidden = "hidden_reviews" in tags
        hidden_readers = [PC, f"{P}/Area_Chairs", f"{P}/Reviewers/Submitted", A]

        def add(name, replyto, sig, content, t, readers=None, writers=None, inv=None):
            inv = inv or f"{P}/-/{name}"
            self.inv_used.add(inv)
            counters[inv] = counters.get(inv, 0) + 1
            nid = self.nid(10)
            readers = readers or ["everyone"]
            tm = t + (self.rng.randint(0, 3 * DAY) if self.rng.random() < 0.3 else 0)  # self.rng: see discussion()
            if self.v2:
                n = {"content": content, "id": nid, "forum": fid, "replyto": replyto, "signatures": [sig],
                     "readers": readers, "nonreaders": [], "writers": writers or [V, sig], "number": counters[inv],
                     "invitations": [inv], "domain": V, "tcdate": t, "cdate": t, "tmdate": tm, "mdate": tm,
                     "odate": t if "everyone" in readers else None, "pdate": None, "ddate": None,
                     "parentInvitations": f"{V}/-/{name}", "license": spec.license, "version": 2}
            else:
                n = {"id": nid, "original": None, "number": counters[inv], "cdate": t, "ddate": None, "tcdate": t,
                     "tmdate": tm, "tddate": None, "forum": fid, "replyto": replyto, "invitation": inv,
                     "content": content, "signatures": [sig], "readers": readers, "nonreaders": [],
                     "writers": writers or [sig]}
            out.append(n)
            return n

        if status == "desk_rejected":
            add(spec.desk_rejection_name, fid, PC,
                {"desk_reject_comments": self.val("This submission violates the page limit."),
                 "title": self.val("Submission Desk Rejected by Program Chairs")}, desk_t, writers=[PC])
            return out
        n_rev = rng.randint(3, 4)
        reviews = []
        for k in range(1, n_rev + 1):
            if spec.reviewer_style == "anon_hash":
                sig = f"{P}/Reviewer_" + "".join(rng.choice(self.ALNUM) for _ in range(4))
                label = sig.rsplit("_", 1)[-1]
            else:
                sig = f"{P}/AnonReviewer{k}"
                label = f"#{k}"
            content = self.form(spec.review_fields, k=n_rev + 1 - k)
            r = add(spec.review_name, fid, sig, content, self.t(*spec.t_reviews),
                    readers=hidden_readers if hidden else None, writers=[V, sig] if self.v2 else [sig])
            reviews.append((r, sig, label))
        reviews.sort(key=lambda x: x[0]["tcdate"])
        if self.v2 and spec.p_review_edit:
            for r, sig, _label in reviews:
                self.review_history(r, sig, P)
        if not self.v2:  # v1 reviews edited after the rebuttal, kept as references (own random stream)
            main, self.rng = self.rng, random.Random(f"{spec.key}:{fid}:review-references")
            try:
                for r, sig, _label in reviews:
                    review_references(self, r, sig, fid)
            finally:
                self.rng = main
        cwriters = [V, A] if self.v2 else [A, V]
        if spec.author_rebuttal_name and rng.random() < 0.85:  # NeurIPS 2023-24 general rebuttal
            add(spec.author_rebuttal_name, fid, A,
                {"rebuttal": self.val("Global response. " + self.text(5))},
                self.t(spec.t_rebuttal[0], spec.t_rebuttal[0] + 2), writers=cwriters)
        for r, sig, label in reviews:
            readers = hidden_readers if hidden else None
            if "split_rebuttal" in tags or rng.random() < 0.8:
                base_t = self.t(*spec.t_rebuttal)
                parts = [" (1/2)", " (2/2)"] if ("split_rebuttal" in tags or rng.random() < 0.15) else [""]
                last = None
                for j, suffix in enumerate(parts):
                    if spec.rebuttal_style == "per_review" and j == 0:  # one Rebuttal per review
                        last = add("Rebuttal", r["id"], A, {"rebuttal": self.val(self.text(4))},
                                   base_t, readers=readers, writers=cwriters,
                                   inv=f"{P}/{spec.review_name}{r['number']}/-/Rebuttal")
                        continue
                    last = add(spec.comment_name, r["id"], A,
                               {"title": self.val(f"Response to Reviewer {label}{suffix}"),
                                "comment": self.val(self.text(4))}, base_t + j * 60_000, readers=readers,
                               writers=cwriters)
                if rng.random() < 0.5:
                    fu = add(spec.comment_name, last["id"], sig,
                             {"comment": self.val("Thank you for the response. " + self.text(2))},
                             last["tcdate"] + int(rng.uniform(0.5, 3) * DAY), readers=readers,
                             writers=[V, sig] if self.v2 else [sig])
                    if rng.random() < 0.4:
                        add(spec.comment_name, fu["id"], A,
                            {"title": self.val("Thank you"), "comment": self.val(self.text(2))},
                            fu["tcdate"] + int(rng.uniform(0.2, 1) * DAY), readers=readers, writers=cwriters)
        if "general_response" in tags or rng.random() < spec.p_general_response:
            add(spec.comment_name, fid, A,
                {"title": self.val("General Response to All Reviewers"), "comment": self.val(self.text(5))},
                self.t(spec.t_rebuttal[0], spec.t_rebuttal[0] + 1), writers=cwriters)
        if "split_rebuttal" in tags and status == "active":
            main, self.rng = self.rng, random.Random(f"{spec.key}:{fid}:discussion")
            try:
                discussion(self, add, fid, P, A, reviews, cwriters, len(reviews))
            finally:
                self.rng = main
        if spec.public_comment_name and rng.random() < spec.p_public_comment:
            who = f"~{rng.choice(FIRST)}_{rng.choice(LAST)}1"
            add(spec.public_comment_name, fid, who,
                {"title": self.val("Question about the experiments"), "comment": self.val(self.text(2))},
                self.t(10, 60), writers=[V, who] if self.v2 else [who])
        if status == "withdrawn":
            add(spec.withdrawal_name, fid, A,
                {"withdrawal_confirmation": self.val(
                    "I have read and agree with the venue's withdrawal policy on behalf of myself and my co-authors."),
                 "comment": self.val("We thank the reviewers for their feedback.")}, withdraw_t, writers=cwriters)
            return out
        if spec.meta_review_name and spec.meta_review_by == "reviewers":  # TMLR Official_Recommendation
            for r, sig, _label in reviews:
                add(spec.meta_review_name, fid, sig, self.form(spec.meta_review_fields), self.t(*spec.t_meta),
                    readers=hidden_readers if hidden else None, writers=[V, sig])
        elif spec.meta_review_name:
            ac = f"{P}/Area_Chair_" + "".join(rng.choice(self.ALNUM) for _ in range(4))
            mc = self.form(spec.meta_review_fields)
            if spec.decision_on_meta:  # CoRL 2022: the decision lives on the meta-review
                mc[spec.decision_field] = self.val(decision)
                add(spec.meta_review_name, fid, ac, mc, decision_t, writers=[V, ac])
                return out
            add(spec.meta_review_name, fid, ac, mc, self.t(*spec.t_meta), writers=[V, ac])
        if spec.decision_signer == "action_editors":
            PC = f"{P}/Action_Editors"
        dc = {}
        for f in spec.decision_extra_fields:
            if f == "title":
                dc["title"] = self.val("Paper Decision")
            else:
                dc[f] = self.val(self.text(4))
        dc[spec.decision_field] = self.val(decision)
        add(spec.decision_name, fid, PC, dc, decision_t, writers=[PC])
        return out

    def review_history(self, r: dict, sig: str, P: str) -> None:
        """v2 note edits of one review: its creation edit, and for some reviews a later edit
        (after the rebuttal) that changes the rating and adds `review_edit_fields`."""
        spec, rng, vf = self.spec, self.rng, self.vf
        content = dict(r["content"])
        edits = [self.edit(self.nid(10), r["invitations"][0], [sig], r["readers"], [self.V, sig],
                           r["tcdate"], r["id"], dict(content), None)]
        rating = next((f for f in spec.review_fields if f.name == "rating"), None)
        if rating is not None and rng.random() < spec.p_review_edit:
            final = content["rating"]["value"]
            lower = [c for c in rating.choices if c != final]
            initial = rng.choice(lower)
            t = self.t(spec.t_rebuttal[1], spec.t_rebuttal[1] + 6)
            changed = {"rating": {"value": final}}
            changed.update(self.form(spec.review_edit_fields))
            edits[0]["note"]["content"]["rating"] = {"value": initial}
            edits.append(self.edit(self.nid(10), r["invitations"][0], [sig], r["readers"], [self.V, sig], t,
                                   r["id"], changed, None))
            r["content"].update(changed)
            r["tmdate"] = r["mdate"] = max(r["tmdate"], t)
            self.review_edits[r["id"]] = (initial, final)
        for e in edits:
            vf.edits[e["id"]] = e
        vf.edits_by_note[r["id"]] = edits

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


def spec_p(spec: VenueSpec) -> float:
    return spec.p_post_deadline_revision


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
        gen = _Gen(fx, specs[v], seed, counts[v], eager_pdfs, allow_anonymous, used)
        fx.venues[v] = gen.build()
        fx.venues[v].gen = gen
    return fx


__all__ = ["build_fixtures", "Fixtures", "VenueFixture", "ForumTruth", "RevisionTruth", "readable",
           "READER_GROUPS", "ANON_GROUPS"]
_ = Any
