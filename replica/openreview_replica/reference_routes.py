"""API v1's GET /references: a blind note's revision history (with original=true, its PDFs)."""

from __future__ import annotations

from .http_base import ApiError


class ReferenceRoutes:
    """v1 references: a mixin of server.ReplicaHandler, whose base
    (http_base.HandlerBase) holds the request plumbing these methods call."""

    # v1 references
    def _references(self):
        idx, q = self.idx, self.q
        if q.get("id"):
            hit = idx.refs.get(q["id"])
            items = [self._one("Reference", q["id"], hit[1] if hit else None, check_readers=False)]
        elif q.get("referent"):
            v = idx.note_venue.get(q["referent"])
            items = list(v.refs_by_referent.get(q["referent"], [])) if v else []
            if q.get("original") != "true":
                # without original=true only the blind note's own references (no PDF history)
                items = [r for r in items if "pdf" not in (r.get("content") or {})]
        elif q.get("invitation"):
            items = [r for _, r in idx.refs.values() if r["invitation"] == q["invitation"]]
        else:
            raise ApiError(400, "ValidationError", "referent, id or invitation is required")
        if q.get("invitation"):
            items = [r for r in items if r["invitation"] == q["invitation"]]
        if q.get("mintcdate"):
            items = [r for r in items if r["tcdate"] >= int(q["mintcdate"])]
        items = self._filter_content(items)
        items = [r for r in items if self._visible(r)]
        page, total = self._page(items, "tcdate:desc")
        self._json({"references": page, "count": total})
