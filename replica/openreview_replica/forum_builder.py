"""The submission side of one generated forum: its PDF revisions, its note with the v2 edits or v1
references that make up its history, and its ground truth. A mixin of `fixtures.VenueGenerator`
(which holds the random stream and the id/time helpers these methods call)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from .fixture_model import DAY, HOUR, READER_GROUPS, ForumTruth, RevisionTruth, readable
from .pdfgen import PdfSpec, marker_text
from .venue_spec import DEADLINE_BOUNDARY_FORUMS, VenueSpec, note_license
from .vocabulary import FIRST, LAST, THING, TOPIC


class ForumBuilder:
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
        for tt in times:
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
        year = spec.year or datetime.fromtimestamp(self.D / 1000, tz=UTC).year
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
                "domain": V, "license": note_license(spec, fid), "version": 2,
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

        # When the initial submission is not public, the default policy takes the earliest public
        # PDF: the first visible PDF revision, else the note's current PDF (reviewbench's
        # domain/revisions.py `earliest_public`); `initial_only` keeps `unavailable`.
        strict_rule = rule
        if rule == "unavailable" and latest:
            public = sorted((p for p in pdf_plan if p.get("id") and p.get("visible", True)),
                            key=lambda p: (p["t"], p["id"]))
            first = public[0] if public else None
            rule, rev_id, exp_marker = ("earliest_public", first["id"], first["marker"]) if first else (
                "earliest_public", None, latest["marker"])
        pre_deadline_tails = {spec.submission_name, spec.post_submission_name, "Withdrawn_Submission",
                              "Desk_Rejected_Submission"}
        if self.v2:
            note_settles = bool(not spec.rolling and latest
                                and all(x.rsplit("/-/", 1)[-1] in pre_deadline_tails for x in note["invitations"]))
        else:  # v1: the note's pdf is its original_pdf (the same file), where the venue keeps one
            original = (note.get("content") or {}).get("original_pdf")
            note_settles = bool(latest and original and original.rsplit("/", 1)[-1] == f"{latest['sha']}.pdf")
        if note_settles:  # the history, if read, names the same PDF
            assert exp_marker == latest["marker"], fid
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
        chosen_marker = exp_marker if rule in ("initial", "earliest_public") else None
        if spec.rolling:
            post_markers = [p["marker"] for p in pdf_plan if p["marker"] != chosen_marker]
        else:  # markers of PDFs after the deadline that the chosen PDF must not hold
            post_markers = [p["marker"] for p in pdf_plan if p["t"] > self.E and p["marker"] != chosen_marker]
        visible_ids = {r["id"] for r in visible}
        general = [r["id"] for r in sorted(visible, key=lambda r: (r["tcdate"], r["id"]))
                   if r["replyto"] == fid and r["signatures"][0].endswith("/Authors")
                   and inv_of(r).rsplit("/-/", 1)[-1] in (spec.comment_name, spec.author_rebuttal_name, "Rebuttal")]
        by_id = {r["id"]: r for r in visible}
        group_replies = [r["id"] for r in sorted(visible, key=lambda r: (r["tcdate"], r["id"]))
                         if r["signatures"][0].endswith("/Authors") and r["replyto"] in by_id
                         and by_id[r["replyto"]]["replyto"] == fid
                         and (re.search(r"/(Area_Chair[^/]*|Action_Editors)$", by_id[r["replyto"]]["signatures"][0])
                              or by_id[r["replyto"]]["signatures"][0].startswith("~"))]  # a public comment
        vf.forums[fid] = ForumTruth(
            venue_key=spec.key, forum_id=fid, number=number, title=title, status=status, decision=decision,
            has_pdf=latest is not None, expected_rule=rule, expected_revision_id=rev_id,
            strict_rule=strict_rule if strict_rule != rule else None,
            expected_marker=exp_marker,
            post_deadline_markers=post_markers,
            num_reviews=len(review_ids), latest_marker=latest["marker"] if latest else None, tags=list(tags),
            revisions=revisions, num_replies=len(visible),
            num_direct_replies=sum(1 for r in visible if r["replyto"] == fid), review_ids=review_ids,
            author_reply_ids=author_ids, original_id=original_id,
            track=spec.track_of_decision.get(decision, spec.track) if decision else spec.track,
            general_rebuttal_ids=general, group_reply_ids=group_replies, note_settles=note_settles,
            review_initial_ratings={k: v[0] for k, v in self.review_edits.items() if k in visible_ids},
            review_final_ratings={k: v[1] for k, v in self.review_edits.items() if k in visible_ids})


def spec_p(spec: VenueSpec) -> float:
    return spec.p_post_deadline_revision

