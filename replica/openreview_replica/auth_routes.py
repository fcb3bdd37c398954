"""Who is asking: the bearer token or the site's session cookie, the challenge gate on anonymous
reads, and POST /login."""

from __future__ import annotations

import json
import time

from .fixture_model import ANON_GROUPS, READER_GROUPS, VenueFixture
from .http_base import ApiError

GATED = ("/notes", "/references", "/pdf", "/attachment")


class AuthRoutes:
    """Authentication and the challenge gate: a mixin of server.ReplicaHandler, whose base
    (http_base.HandlerBase) holds the request plumbing these methods call."""

    def _cookie_token(self) -> str | None:
        from http.cookies import SimpleCookie

        jar = SimpleCookie()
        try:
            jar.load(self.headers.get("Cookie") or "")
        except Exception:  # a malformed Cookie header is no login
            return None
        morsel = jar.get("openreview.accessToken")
        return morsel.value if morsel else None

    def _groups(self) -> frozenset:
        auth = self.headers.get("Authorization") or ""
        if not auth and self._cookie_token():  # the website's requests: the session cookie
            auth = "Bearer " + self._cookie_token()
        if auth.startswith("Bearer "):
            token = auth[7:].strip()
            known = self.state.tokens.get(token)
            if token and known and known[1] > time.time():
                return READER_GROUPS
            if token:
                raise ApiError(401, "TokenExpiredError", "Token has expired or is invalid, please log in again")
        return ANON_GROUPS

    def _venue_of_request(self) -> VenueFixture | None:
        idx, q = self.idx, self.q
        for key in ("id", "forum", "note.id", "referent", "ids"):
            if key in q and q[key]:
                ident = q[key].split(",")[0]
                if ident in idx.note_venue:
                    return idx.note_venue[ident]
                if ident in idx.edits:
                    return idx.edits[ident][0]
                if ident in idx.refs:
                    return idx.refs[ident][0]
        for key in ("invitation", "content.venueid", "domain"):
            if q.get(key):
                v = idx.venue_for_prefix(q[key])
                if v:
                    return v
        return None

    def _check_gate(self, groups: frozenset):
        if groups is READER_GROUPS:
            return
        if not self._path.startswith(GATED):
            return
        v = self._venue_of_request()
        allowed = v.allow_anonymous if v else (bool(self.idx.venues) and all(x.allow_anonymous for x in self.idx.venues))
        if not allowed:
            raise ApiError(403, "ChallengeRequiredError",
                           "A challenge is required to access this resource. Please log in or complete the challenge.",
                           {"path": self._path})

    def _login(self):
        try:
            body = json.loads(self.body or b"{}")
        except ValueError:
            raise ApiError(400, "ValidationError", "Invalid JSON body") from None
        fx = self.state.fx
        if body.get("id") != fx.username or body.get("password") != fx.password:
            raise ApiError(400, "InvalidCredentialsError" if body.get("id") else "ValidationError",
                           "Invalid username or password")
        token = self.state.issue_token(body["id"], body.get("expiresIn"))
        self._json({"token": token, "user": {"id": body["id"], "profile": {"id": fx.reader_id,
                                                                           "usernames": [fx.reader_id],
                                                                           "preferredEmail": body["id"]}}})
