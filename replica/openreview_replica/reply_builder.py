"""The replies of one generated forum (reviews with their v2 edit history, rebuttals, comments,
meta-reviews, decisions). A mixin of `fixtures.VenueGenerator`."""

from __future__ import annotations

import random

from .discussion import discussion, review_references
from .fixture_model import DAY
from .venue_spec import note_license
from .vocabulary import FIRST, LAST


class ReplyBuilder:
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
                     "parentInvitations": f"{V}/-/{name}", "license": note_license(spec, fid), "version": 2}
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
        if self.v2 and spec.review_release_edit and not hidden:
            self.release_reviews([r for r, _sig, _label in reviews], fid)
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
            for _review, sig, _label in reviews:
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

    def release_reviews(self, reviews: list[dict], fid: str) -> None:
        """The program chairs' release of a forum's reviews: one `<venue>/-/Edit` edit per review
        after the reviewing period and before any author reply, the forum's within seconds of each
        other (its own random stream, so the rest of the venue stays as generated before)."""
        rng = random.Random(f"{self.spec.key}:{fid}:release")
        start = self.spec.t_reviews[1] + 1
        t0 = self.D + int((start + rng.uniform(0, 0.33)) * DAY)
        inv = f"{self.V}/-/Edit"
        for r in reviews:
            t = t0 + rng.randint(0, 4000)
            e = self.edit(self.nid(10, rng), inv, [self.V], ["everyone"], [self.V], t, r["id"], {}, None)
            e["note"]["readers"] = ["everyone"]
            self.vf.edits[e["id"]] = e
            self.vf.edits_by_note[r["id"]] = sorted(self.vf.edits_by_note.get(r["id"], []) + [e],
                                                    key=lambda x: x["tcdate"])
            r["invitations"] = list(r["invitations"]) + [inv]
            r["tmdate"] = r["mdate"] = max(r["tmdate"], t)

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

