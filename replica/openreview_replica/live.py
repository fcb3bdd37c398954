"""A venue's discussion simulated day by day (issue 30 item 4): the test advances the discussion one
day at a time (`advance()`, then a refresh), and each day's events are applied to the fixtures as OpenReview applies them (new
notes, edits that move `tmdate`, soft deletions, decisions released at the end), each with its
ground-truth change, so that what the platform records can be compared with what happened.

API v2 venues only: what a live refresh relies on (a `tmdate` cursor over the venue's notes, note
edits) is API v2's. After `advance()`, call `ReplicaServer.reindex()` to serve the day's state.

What is modelled, per day, on a share of the venue's active forums:
- an author response under a review (`response_added`), a reviewer's reply to an author post
  (`comment_added`);
- a reviewer's rating edit, as a note edit of the review's invitation that changes `rating`
  (`review_edited`, old and new rating; the edit is in `/notes/edits`, the note's tmdate moves);
- a review deleted by its reviewer (`review_removed`: OpenReview soft-deletes, `ddate` set, the
  note still listed with `trash=true`); `make_private` (called by a test) hides one from the public
  instead, which no cursor shows;
- a PDF revision (`pdf_revised`: the submission's `pdf` changes, its tmdate moves);
- on the last day, the meta-reviews (`comment_added`) and decisions (`decision_changed`), held back
  since day 0.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .fixture_model import Fixtures
from .venue_spec import note_license


@dataclass(frozen=True)
class TruthChange:
    day: int
    forum_id: str
    change: str
    target_id: str
    old_rating: float | None = None
    new_rating: float | None = None


def rating_of_note(note: dict) -> float | None:
    raw = ((note.get("content") or {}).get("rating") or {}).get("value")
    if isinstance(raw, (int, float)):
        return float(raw)
    if isinstance(raw, str) and raw.split(":")[0].strip().isdigit():
        return float(raw.split(":")[0])
    return None


class LiveDiscussion:
    def __init__(self, fx: Fixtures, venue_key: str, days: int = 14, seed: int = 0, share_per_day: float = 0.15):
        v = fx.venues[venue_key]
        if v.api_version != 2:
            raise ValueError(f"{venue_key}: the live discussion is simulated on API v2 venues only")
        self.fx, self.v, self.g, self.days = fx, v, v.gen, days
        self.rng = random.Random(f"{venue_key}:live:{seed}")
        self.share = share_per_day
        self.day = 0
        self.truth: list[TruthChange] = []
        self.clock_ms = fx.last_modified_ms(venue_key)
        self.held: dict[str, list[dict]] = {}
        spec = v.spec
        held_names = {f"/-/{spec.decision_name}"} | ({f"/-/{spec.meta_review_name}"} if spec.meta_review_name else set())
        for fid, replies in v.replies_by_forum.items():
            keep = [n for n in replies if not any(n["invitations"][0].endswith(s) for s in held_names)]
            if len(keep) != len(replies):
                self.held[fid] = [n for n in replies if n not in keep]
                v.replies_by_forum[fid] = keep
                for n in self.held[fid]:
                    v.notes.pop(n["id"], None)

    # ---- the clock --------------------------------------------------------------------------
    def _at(self) -> int:
        """The time of the next event: the wall clock, strictly after every earlier event. A
        simulated day passes in seconds, so that the platform's own clock (the refresh time it
        records, its cursor) and the replica's agree; what is simulated is the order of events and
        refreshes, not the length of a day."""
        self.clock_ms = max(int(time.time() * 1000), self.clock_ms + 1)
        return self.clock_ms

    def _active(self) -> list[str]:
        return [fid for fid, f in self.v.forums.items() if f.status == "active" and not self.v.notes[fid].get("ddate")]

    def _reviews(self, fid: str) -> list[dict]:
        """The forum's live reviews the public can read: the truth is what a reader can see (the
        changes of a review hidden from the public are changes nobody outside the venue records)."""
        name = f"/-/{self.v.spec.review_name}"
        return [n for n in self.v.replies_by_forum.get(fid, [])
                if n["invitations"][0].endswith(name) and not n.get("ddate") and "everyone" in n["readers"]]

    # ---- one day ----------------------------------------------------------------------------
    def advance(self) -> list[TruthChange]:
        """The next day's events (day 1 .. `days`), applied to the fixtures; their truth."""
        if self.day >= self.days:
            raise ValueError(f"the discussion lasts {self.days} days")
        self.day += 1
        today: list[TruthChange] = []
        forums = self._active()
        for fid in self.rng.sample(forums, max(1, int(self.share * len(forums)))) if forums else []:
            today += self._events(fid)
        if self.day == self.days:
            today += self._release_decisions()
        self.truth += today
        return today

    def make_private(self, fid: str) -> TruthChange:
        """One of the forum's public reviews made private, as OpenReview does it: an edit of its
        readers (the note's tmdate moves), after which the public reader no longer sees the note,
        nor its edit, in any listing."""
        r = self._reviews(fid)[0]
        P = self.g.paper(self.v.notes[fid]["number"])
        r["readers"] = [f"{self.v.venue_id}/Program_Chairs", f"{P}/Area_Chairs", f"{P}/Authors"]
        r["tmdate"] = self._at()
        change = TruthChange(self.day, fid, "review_removed", r["id"], rating_of_note(r), None)
        self.truth.append(change)
        return change

    def quiet_day(self) -> None:
        """A day without changes: the clock moves, nothing else."""
        self.day += 1

    def _events(self, fid: str) -> list[TruthChange]:
        out = []
        reviews = self._reviews(fid)
        roll = self.rng.random()
        if reviews and roll < 0.45:
            r = self.rng.choice(reviews)
            a = self._reply(fid, r["id"], f"{self.g.paper(self.v.notes[fid]['number'])}/Authors", "Response")
            out.append(TruthChange(self.day, fid, "response_added", a["id"]))
            if self.rng.random() < 0.5:
                c = self._reply(fid, a["id"], r["signatures"][0], "Thanks")
                out.append(TruthChange(self.day, fid, "comment_added", c["id"]))
        elif reviews and roll < 0.8:
            out.append(self._edit_rating(fid, self.rng.choice(reviews)))
        elif reviews and roll < 0.88:
            r = self.rng.choice(reviews)
            t = self._at()
            r["ddate"] = t
            r["tmdate"] = t
            out.append(TruthChange(self.day, fid, "review_removed", r["id"], rating_of_note(r), None))
        else:
            note = self.v.notes[fid]
            t = self._at()
            note["content"]["pdf"] = {"value": f"/pdf/{self.g.nid(40)}.pdf"}
            note["tmdate"] = note["mdate"] = t
            out.append(TruthChange(self.day, fid, "pdf_revised", fid))
        return out

    def _reply(self, fid: str, replyto: str, sig: str, title: str) -> dict:
        g, v = self.g, self.v
        number = v.notes[fid]["number"]
        P, V = g.paper(number), v.venue_id
        inv = f"{P}/-/{v.spec.comment_name}"
        t = self._at()
        note = {"content": {"title": g.val(title), "comment": g.val(g.text(2))}, "id": g.nid(10), "forum": fid,
                "replyto": replyto, "signatures": [sig], "readers": ["everyone"], "nonreaders": [],
                "writers": [V, sig], "number": 100 + len(v.replies_by_forum[fid]), "invitations": [inv], "domain": V,
                "tcdate": t, "cdate": t, "tmdate": t, "mdate": t, "odate": t, "pdate": None, "ddate": None,
                "parentInvitations": f"{V}/-/{v.spec.comment_name}", "license": note_license(v.spec, fid), "version": 2}
        v.replies_by_forum[fid].append(note)
        v.notes[note["id"]] = note
        return note

    def _edit_rating(self, fid: str, r: dict) -> TruthChange:
        spec = self.v.spec
        field = next(f for f in spec.review_fields if f.name == "rating")
        old_raw = r["content"]["rating"]["value"]
        new_raw = self.rng.choice([c for c in field.choices if c != old_raw])
        t = self._at()
        e = self.g.edit(self.g.nid(10), r["invitations"][0], r["signatures"], r["readers"], r["writers"], t, r["id"],
                        {"rating": {"value": new_raw}}, None)
        self.v.edits[e["id"]] = e
        self.v.edits_by_note[r["id"]] = sorted(self.v.edits_by_note.get(r["id"], []) + [e], key=lambda x: x["tcdate"])
        old = rating_of_note(r)
        r["content"]["rating"] = {"value": new_raw}
        r["tmdate"] = r["mdate"] = t
        return TruthChange(self.day, fid, "review_edited", r["id"], old, rating_of_note(r))

    def _release_decisions(self) -> list[TruthChange]:
        out = []
        for fid, notes in self.held.items():
            if self.v.notes[fid].get("ddate"):
                continue
            for n in notes:
                t = self._at()
                n["tcdate"] = n["cdate"] = n["tmdate"] = n["mdate"] = t
                self.v.replies_by_forum[fid].append(n)
                self.v.notes[n["id"]] = n
            for n in notes:  # the meta-review is a post of its own; the decision note is the decision
                if n["invitations"][0].endswith(f"/-/{self.v.spec.decision_name}"):
                    out.append(TruthChange(self.day, fid, "decision_changed", fid))
                else:
                    out.append(TruthChange(self.day, fid, "comment_added", n["id"]))
        self.held = {}
        return out
