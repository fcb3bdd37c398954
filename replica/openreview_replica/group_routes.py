"""GET /groups, /invitations and /profiles (both APIs; API v1 always answers `count`)."""

from __future__ import annotations

import time

from .http_base import ApiError


class GroupRoutes:
    """Groups, invitations and the reader's profile: a mixin of server.ReplicaHandler, whose base
    (http_base.HandlerBase) holds the request plumbing these methods call."""

    # groups / invitations / profiles
    def _groups_ep(self):
        idx, q = self.idx, self.q
        if q.get("id"):
            g = idx.groups.get(q["id"])
            if g is None:
                raise ApiError(404, "NotFoundError", f"Group Not Found: {q['id']}", {"path": "id"})
            items = [g]
        elif q.get("prefix"):
            items = [g for k, g in idx.groups.items() if k.startswith(q["prefix"])]
        else:
            items = list(idx.groups.values())
        resp: dict = {"groups": items}
        if q.get("count") == "true" or self.version == 1:
            resp["count"] = len(items)
        self._json(resp)

    def _invitations_ep(self):
        idx, q = self.idx, self.q
        now = int(time.time() * 1000)
        if q.get("id"):
            i = idx.invitations.get(q["id"])
            if i is None:
                raise ApiError(404, "NotFoundError", f"Invitation Not Found: {q['id']}", {"path": "id"})
            items = [i]
        else:
            if q.get("ids"):
                # `ids=a,b` (openreview-py) or `ids=a&ids=b` (openreview-web's query-string)
                wanted = [i for v in self.q_all.get("ids", []) for i in v.split(",") if i]
                items = [idx.invitations[i] for i in wanted if i in idx.invitations]
            elif q.get("prefix") or q.get("regex"):
                import re
                pat = re.compile(q["regex"]) if q.get("regex") else None
                items = [i for k, i in idx.invitations.items()
                         if (pat.match(k) if pat else k.startswith(q["prefix"]))]
            else:
                items = list(idx.invitations.values())
            if q.get("expired") != "true":
                items = [i for i in items if not i.get("expdate") or i["expdate"] > now]
        resp: dict = {"invitations": items}
        if q.get("count") == "true" or self.version == 1:
            resp["count"] = len(items)
        self._json(resp)

    def _profiles(self):
        fx = self.state.fx
        pid = self.q.get("id") or fx.reader_id
        if pid not in (fx.reader_id, fx.username):
            raise ApiError(404, "NotFoundError", f"Profile Not Found: {pid}")
        self._json({"profiles": [{"id": fx.reader_id, "active": True, "password": True,
                                  "content": {"names": [{"fullname": "Replica Reader", "username": fx.reader_id,
                                                         "preferred": True}],
                                              "emails": [fx.username], "preferredEmail": fx.username}}]})
