"""GET /notes (both APIs, with `details`) and API v2's GET /notes/edits."""

from __future__ import annotations

from .faults import mutate_notes
from .http_base import ApiError


class NoteRoutes:
    """Notes and note edits: a mixin of server.ReplicaHandler, whose base
    (http_base.HandlerBase) holds the request plumbing these methods call."""

    # /notes
    def _notes(self):
        idx, q = self.idx, self.q
        if q.get("id"):
            items = [self._one("Note", q["id"], idx.notes.get(q["id"]))]
        elif q.get("forum"):
            v = idx.note_venue.get(q["forum"])
            items = ([v.notes[q["forum"]]] + v.replies_by_forum.get(q["forum"], [])) if v else []
        elif q.get("invitation"):
            items = list(idx.by_inv.get(q["invitation"], []))
        elif q.get("content.venueid"):
            items = [n for v in idx.venues for n in v.submissions]
        elif q.get("replyto"):
            items = [n for n in idx.all_notes if n.get("replyto") == q["replyto"]]
        else:
            items = list(idx.all_notes)
        if q.get("number"):
            items = [n for n in items if str(n.get("number")) == q["number"]]
        if q.get("replyto"):
            items = [n for n in items if n.get("replyto") == q["replyto"]]
        for key in ("signature", "signatures"):
            if q.get(key):
                items = [n for n in items if q[key] in (n.get("signatures") or [])]
        if q.get("parentInvitations"):
            items = [n for n in items if n.get("parentInvitations") == q["parentInvitations"]]
        if q.get("domain"):  # v2: every note of a venue (submissions and replies) carries `domain`
            items = [n for n in items if n.get("domain") == q["domain"]]
        if q.get("mintcdate"):
            items = [n for n in items if (n.get("tcdate") or 0) >= int(q["mintcdate"])]
        if q.get("trash") != "true":
            items = [n for n in items if not n.get("ddate")]
        items = self._filter_content(items)
        items = [n for n in items if self._visible(n)]
        page, total = self._page(items, "tcdate:desc")
        details = [d.strip() for d in (q.get("details") or "").split(",") if d.strip()]
        if details:
            page = [self._with_details(n, details) for n in page]
        page = mutate_notes(self.state.faults, page, first_page=not q.get("offset") or q.get("offset") == "0",
                            submissions_query=bool(q.get("invitation") or q.get("content.venueid")))
        resp: dict = {"notes": page}
        if self.version == 1 or q.get("count") == "true":
            resp["count"] = total
        self._json(resp)

    def _with_details(self, n: dict, details: list[str]) -> dict:
        v = self.idx.note_venue[n["id"]]
        out = dict(n)
        d: dict = {}
        is_forum = n["forum"] == n["id"]
        replies = [r for r in v.replies_by_forum.get(n["id"], []) if self._visible(r)] if is_forum else []
        replies = sorted(replies, key=lambda r: (r["tcdate"], r["id"]))
        if "replies" in details and is_forum:
            d["replies"] = replies
        if "directReplies" in details:
            if is_forum:
                d["directReplies"] = [r for r in replies if r.get("replyto") == n["id"]]
            else:
                fr = v.replies_by_forum.get(n["forum"], [])
                d["directReplies"] = [r for r in fr if r.get("replyto") == n["id"] and self._visible(r)]
        if "replyCount" in details:
            d["replyCount"] = len(replies)
        if "directReplyCount" in details:
            d["directReplyCount"] = sum(1 for r in replies if r.get("replyto") == n["id"])
        if "writable" in details:
            d["writable"] = False
        if "original" in details and self.version == 1:
            d["original"] = None
        if "revisions" in details and self.version == 1:
            d["revisions"] = len(v.refs_by_referent.get(n["id"], [])) > 1
        out["details"] = d
        return out

    # /notes/edits
    def _edits(self):
        idx, q = self.idx, self.q
        if q.get("id"):
            hit = idx.edits.get(q["id"])
            items = [self._one("Edit", q["id"], hit[1] if hit else None)]
        elif q.get("note.id"):
            v = idx.note_venue.get(q["note.id"])
            items = list(v.edits_by_note.get(q["note.id"], [])) if v else []
        elif q.get("invitation"):
            items = list(idx.edits_by_inv.get(q["invitation"], []))
        else:
            raise ApiError(400, "ValidationError", "note.id, id or invitation is required")
        if q.get("invitation"):
            items = [e for e in items if e["invitation"] == q["invitation"]]
        if q.get("trash") != "true":
            items = [e for e in items if not e.get("ddate")]
        items = [e for e in items if self._visible(e)]
        page, total = self._page(items, "tcdate:desc")
        details = {d.strip() for d in (q.get("details") or "").split(",") if d.strip()}
        if details & {"invitation", "writable", "presentation"}:  # openreview-web's revisions page asks
            d = {"writable": False} if "writable" in details else {}
            page = [{**e, "details": {**d, **({"invitation": idx.invitations.get(e["invitation"])}
                                              if "invitation" in details else {})}} for e in page]
        resp: dict = {"edits": page}
        if q.get("count") == "true":
            resp["count"] = total
        self._json(resp)
