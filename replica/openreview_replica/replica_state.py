"""What the replica's servers share: lookup tables over the served fixtures, issued tokens, the
injected faults and the request log."""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from typing import NamedTuple
from urllib.parse import parse_qs

from .faults import FaultConfig, FaultCounters
from .fixture_model import Fixtures, VenueFixture

# The API's file downloads (openreview-py: get_pdf, get_attachment, the edits' and references' files,
# the zip of /attachment?ids=): the requests the real site meters on their own (docs/openreview-api.md).
ATTACHMENT_PATHS = frozenset({"/pdf", "/attachment", "/references/pdf", "/references/attachment",
                              "/notes/edits/pdf", "/notes/edits/attachment"})


def request_kind(r: LoggedRequest) -> str:
    if r.role == "web":
        page = r.path.strip("/").split("/", 1)[0] or "index"
        return f"web {page}"
    if r.path in ATTACHMENT_PATHS:
        return "attachment"
    return f"api {r.role} {r.path}"


class LoggedRequest(NamedTuple):
    method: str
    path: str
    query: str  # raw query string
    status: int  # 0 = connection dropped by a fault
    role: str = ""  # "v2" | "v1" | "web": which server answered
    t: float = 0.0  # when it was answered (epoch seconds)
    # the whole answer was written to the connection (False: the client was gone before its last
    # byte, so it never had the answer; http_base._send)
    delivered: bool = True

    @property
    def params(self) -> dict[str, str]:
        return {k: v[-1] for k, v in parse_qs(self.query, keep_blank_values=True).items()}


class ApiIndex:
    """Lookup tables over the venues served by one API version."""

    def __init__(self, fx: Fixtures, version: int):
        self.venues: list[VenueFixture] = fx.venues_for_api(version)
        self.note_venue: dict[str, VenueFixture] = {}
        self.notes: dict[str, dict] = {}
        self.by_inv: dict[str, list[dict]] = {}
        self.edits: dict[str, tuple[VenueFixture, dict]] = {}
        # edits by invitation, as OpenReview indexes them: a crawl asks one paper's review edits
        # per request, which must not cost a scan of every edit of the venue
        self.edits_by_inv: dict[str, list[dict]] = {}
        self.refs: dict[str, tuple[VenueFixture, dict]] = {}
        self.groups: dict[str, dict] = {}
        self.invitations: dict[str, dict] = {}
        self.all_notes: list[dict] = []
        for v in self.venues:
            for n in v.notes.values():
                self.notes[n["id"]] = n
                self.note_venue[n["id"]] = v
                self.all_notes.append(n)
                invs = n.get("invitations") or [n.get("invitation")]
                for i in invs:
                    self.by_inv.setdefault(i, []).append(n)
            for e in v.edits.values():
                self.edits[e["id"]] = (v, e)
                self.edits_by_inv.setdefault(e["invitation"], []).append(e)
            for r in v.references.values():
                self.refs[r["id"]] = (v, r)
            self.groups.update(v.groups)
            self.invitations.update(v.invitations)
        if version == 2:
            # API 2 reads the root group of an API 1 venue too, without `domain`: that is how a client
            # tells the APIs apart ("Use API 2 client to retrieve venue root group ... If `domain`
            # doesn't exist → API 1 venue", openreview/openreview-mcp docs/API_VERSION_GUIDE.md
            # @b0bae5f, its example asking api2 for ICLR.cc/2023/Conference, an API 1 venue)
            for v in fx.venues_for_api(1):
                if v.venue_id in v.groups:
                    self.groups.setdefault(v.venue_id, v.groups[v.venue_id])

    def venue_for_prefix(self, s: str) -> VenueFixture | None:
        for v in self.venues:
            if s == v.venue_id or s.startswith(v.venue_id + "/"):
                return v
        return None


def _b64(d: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(d).encode()).decode().rstrip("=")


class ReplicaState:
    def __init__(self, fx: Fixtures, max_page_size: int, web_delay_ms: int):
        self.fx = fx
        self.max_page_size = max_page_size
        self.web_delay_ms = web_delay_ms
        self.idx = {2: ApiIndex(fx, 2), 1: ApiIndex(fx, 1)}
        self.tokens: dict[str, tuple[str, float]] = {}  # token -> (username, expiry, epoch s)
        self.lock = threading.Lock()
        self.faults = FaultConfig()
        self.counters = {"rate": 0, "error": 0, "drop": 0}
        self.fault_counters = FaultCounters()
        self.request_log: list[LoggedRequest] = []
        self.urls: dict[str, str] = {}
        self.req_seq = 0

    def reindex(self):
        """Rebuild the lookup tables after fixtures changed at run time (Fixtures.add_forums ...)."""
        idx = {2: ApiIndex(self.fx, 2), 1: ApiIndex(self.fx, 1)}
        with self.lock:
            self.idx = idx

    def set_faults(self, cfg: FaultConfig):
        with self.lock:
            self.faults = cfg
            self.counters = {"rate": 0, "error": 0, "drop": 0}
            self.fault_counters = FaultCounters()

    def issue_token(self, username: str, expires_in: int | None = None) -> str:
        # As the real login: one hour unless `expiresIn` asks for longer, at most one week.
        ttl = min(int(expires_in or 3600), 7 * 86400)
        payload = {"user": {"id": username, "profile": {"id": self.fx.reader_id, "usernames": [self.fx.reader_id],
                                                        "preferredEmail": username}},
                   "iat": int(time.time()), "exp": int(time.time()) + ttl, "jti": secrets.token_hex(8)}
        token = f"{_b64({'alg': 'HS256', 'typ': 'JWT'})}.{_b64(payload)}.{secrets.token_urlsafe(16)}"
        with self.lock:
            self.tokens[token] = (username, time.time() + ttl)
        return token
