"""HTTP servers: API v2, API v1 (separate ports, as api2.openreview.net / api.openreview.net) and the web site."""

from __future__ import annotations

import base64
import io
import json
import secrets
import threading
import time
import zipfile
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import NamedTuple
from urllib.parse import parse_qs, urlsplit

from .faults import FaultConfig, FaultCounters, bad_pdf, mutate_notes
from .fixture_model import ANON_GROUPS, READER_GROUPS, Fixtures, VenueFixture, readable

GATED = ("/notes", "/references", "/pdf", "/attachment")


class LoggedRequest(NamedTuple):
    method: str
    path: str
    query: str  # raw query string
    status: int  # 0 = connection dropped by a fault
    role: str = ""  # "v2" | "v1" | "web": which server answered

    @property
    def params(self) -> dict[str, str]:
        return {k: v[-1] for k, v in parse_qs(self.query, keep_blank_values=True).items()}


class ApiError(Exception):
    def __init__(self, status: int, name: str, message: str, details: dict | None = None, headers=None):
        super().__init__(message)
        self.status, self.name, self.message = status, name, message
        self.details = details or {}
        self.headers = headers or {}


def _not_found(what: str) -> ApiError:
    return ApiError(404, "NotFoundError", f"{what} not found", {"path": "id"})


class _ApiIndex:
    """Lookup tables over the venues served by one API version."""

    def __init__(self, fx: Fixtures, version: int):
        self.venues: list[VenueFixture] = fx.venues_for_api(version)
        self.note_venue: dict[str, VenueFixture] = {}
        self.notes: dict[str, dict] = {}
        self.by_inv: dict[str, list[dict]] = {}
        self.edits: dict[str, tuple[VenueFixture, dict]] = {}
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
            for r in v.references.values():
                self.refs[r["id"]] = (v, r)
            self.groups.update(v.groups)
            self.invitations.update(v.invitations)

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
        self.idx = {2: _ApiIndex(fx, 2), 1: _ApiIndex(fx, 1)}
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
        idx = {2: _ApiIndex(self.fx, 2), 1: _ApiIndex(self.fx, 1)}
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


def _sort_key(field: str):
    def k(o):
        v = o.get(field)
        if v is None and field == "number":
            v = 0
        return (v is None, v if v is not None else 0, o.get("id", ""))
    return k


def _sort(items: list[dict], sort: str | None, default: str) -> list[dict]:
    sort = sort or default
    fieldname, _, direction = sort.partition(":")
    out = sorted(items, key=_sort_key(fieldname))
    if direction.lower() == "desc":
        out.reverse()
    return out


def _content_value(c: dict, k: str):
    v = c.get(k)
    if isinstance(v, dict) and "value" in v:
        return v["value"]
    return v


def _sha_from_value(v) -> str | None:
    if not isinstance(v, str):
        return None
    name = v.rsplit("/", 1)[-1]
    return name.split(".", 1)[0] or None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "OpenReviewReplica/1.0"
    role = "v2"  # "v2" | "v1" | "web"
    state: ReplicaState

    def log_message(self, format, *args):  # silence
        pass

    # -- plumbing
    def _log(self, status: int):
        with self.state.lock:
            self.state.request_log.append(LoggedRequest(self.command, self._path, self._query, status, self.role))

    def _send(self, status: int, body: bytes, ctype: str, headers: dict | None = None):
        # Logged before the answer leaves: a client that has its answer must find it in the log.
        self._log(status)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self._cors_origin()
        self.send_header("Access-Control-Expose-Headers", "Retry-After, Content-Type")
        for k, v in (headers or {}).items():
            self.send_header(k, str(v))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, obj, status=200, headers=None):
        self._send(status, json.dumps(obj).encode(), "application/json; charset=utf-8", headers)

    def _error(self, e: ApiError):
        with self.state.lock:
            self.state.req_seq += 1
            seq = self.state.req_seq
        details = dict(e.details)
        details.setdefault("reqId", f"{datetime.now(timezone.utc):%Y-%m-%d}-{seq}")
        self._json({"name": e.name, "message": e.message, "status": e.status, "details": details}, e.status,
                   e.headers)

    def _parse(self):
        u = urlsplit(self.path)
        self._path = u.path.rstrip("/") or "/"
        self._query = u.query
        self.q_all = parse_qs(u.query, keep_blank_values=True)  # repeated keys (`ids=a&ids=b`)
        self.q = {k: v[-1] for k, v in self.q_all.items()}

    def do_OPTIONS(self):
        self._parse()
        self.send_response(204)
        self._cors_origin()
        self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept")
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self._log(204)
        self.end_headers()

    def do_GET(self):
        self._dispatch()

    def do_HEAD(self):
        self._dispatch()

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        self.body = self.rfile.read(n) if n else b""
        self._dispatch()

    def _dispatch(self):
        self._parse()
        if not hasattr(self, "body"):
            self.body = b""
        try:
            if self.role == "web":
                return self._web()
            if self._path.startswith("/_replica"):
                return self._control()
            if self._apply_faults():
                return
            self._api()
        except ApiError as e:
            self._error(e)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as e:  # pragma: no cover - surfaced as a 500 like the real API
            self._error(ApiError(500, "InternalServerError", f"{type(e).__name__}: {e}"))
        finally:
            self.body = b""

    # -- faults
    def _apply_faults(self) -> bool:
        st = self.state
        with st.lock:
            f = st.faults
            if not f.matches(self._path):
                return False
            action, storm_left = st.fault_counters.decide(f, st.counters)
        if f.slow_ms:
            time.sleep(f.slow_ms / 1000)
        if action == "drop":
            self.close_connection = True
            self._log(0)
            return True
        if action == "storm":
            wait = f.retry_after_s  # what a real storm says: "try again in N s", and refuses again
            reset = datetime.now(timezone.utc) + timedelta(seconds=wait)
            raise ApiError(429, "RateLimitError", f"Too many requests. Please try again in {wait} seconds",
                           {"limit": 36, "remaining": 0,
                            "resetTime": reset.isoformat(timespec="milliseconds").replace("+00:00", "Z")},
                           {"Retry-After": wait})
        if action == "rate":
            reset = datetime.now(timezone.utc) + timedelta(seconds=f.retry_after_s)
            used = 37
            raise ApiError(429, "RateLimitError",
                           f"Too many requests: You have made {used} requests, surpassing the limit of 36 requests. "
                           f"Please try again in {f.retry_after_s} seconds ({reset.isoformat(timespec='milliseconds').replace('+00:00', 'Z')})",
                           {"limit": 36, "remaining": 0,
                            "resetTime": reset.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                            "used": used, "current": used},
                           {"Retry-After": f.retry_after_s})
        if action == "error":
            names = {500: "InternalServerError", 502: "BadGatewayError", 503: "ServiceUnavailableError",
                     504: "GatewayTimeoutError"}
            raise ApiError(f.error_status, names.get(f.error_status, "Error"), "Injected replica fault")
        return False

    # -- control
    def _control(self):
        st = self.state
        if self._path == "/_replica/faults":
            if self.command == "POST":
                try:
                    cfg = FaultConfig.from_dict(json.loads(self.body or b"{}"))
                except (ValueError, TypeError) as e:
                    raise ApiError(400, "ValidationError", str(e))
                st.set_faults(cfg)
            return self._json(st.faults.to_dict())
        if self._path == "/_replica/requests":
            if self.command == "POST":
                with st.lock:
                    st.request_log.clear()
            with st.lock:
                log = [r._asdict() for r in st.request_log]
            return self._json({"requests": log})
        raise _not_found("Replica control path")

    # -- API
    @property
    def version(self) -> int:
        return 2 if self.role == "v2" else 1

    @property
    def idx(self) -> _ApiIndex:
        return self.state.idx[self.version]

    def _cors_origin(self) -> None:
        """The site's own requests carry its cookie (`credentials: 'include'` in openreview-web's
        api-client), which CORS allows only with the caller's origin echoed, never `*`."""
        origin = self.headers.get("Origin")
        if origin:
            self.send_header("Access-Control-Allow-Origin", origin)
            self.send_header("Access-Control-Allow-Credentials", "true")
            self.send_header("Vary", "Origin")
        else:
            self.send_header("Access-Control-Allow-Origin", "*")

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

    def _api(self):
        p = self._path
        if p == "/login" and self.command == "POST":
            return self._login()
        if self.command == "POST":
            raise ApiError(403, "ForbiddenError", "The replica is read-only")
        groups = self._groups()
        self._check_gate(groups)
        self.groups = groups
        routes = {
            "/notes": self._notes, "/notes/edits": self._edits, "/notes/edits/attachment": self._edit_attachment,
            "/notes/edits/pdf": self._edit_attachment, "/pdf": self._pdf, "/attachment": self._attachment,
            "/groups": self._groups_ep, "/invitations": self._invitations_ep, "/profiles": self._profiles,
            "/references": self._references, "/references/pdf": self._reference_pdf,
            "/references/attachment": self._reference_pdf,
        }
        if self.version == 2:
            routes.pop("/references")
            routes.pop("/references/attachment")
        else:
            for k in ("/notes/edits", "/notes/edits/attachment", "/notes/edits/pdf"):
                routes.pop(k)
        h = routes.get(p)
        if not h:
            raise ApiError(404, "NotFoundError", f"Route {self.command} {p} not found")
        h()

    def _login(self):
        try:
            body = json.loads(self.body or b"{}")
        except ValueError:
            raise ApiError(400, "ValidationError", "Invalid JSON body")
        fx = self.state.fx
        if body.get("id") != fx.username or body.get("password") != fx.password:
            raise ApiError(400, "InvalidCredentialsError" if body.get("id") else "ValidationError",
                           "Invalid username or password")
        token = self.state.issue_token(body["id"], body.get("expiresIn"))
        self._json({"token": token, "user": {"id": body["id"], "profile": {"id": fx.reader_id,
                                                                           "usernames": [fx.reader_id],
                                                                           "preferredEmail": body["id"]}}})

    def _limit_offset(self) -> tuple[int, int]:
        try:
            limit = int(self.q.get("limit") or 1000)
            offset = int(self.q.get("offset") or 0)
        except ValueError:
            raise ApiError(400, "ValidationError", "limit/offset must be integers")
        if limit > 1000:
            raise ApiError(400, "ValidationError", "limit must be <= 1000", {"path": "limit"})
        return min(limit, self.state.max_page_size), offset

    def _page(self, items: list[dict], default_sort: str) -> tuple[list[dict], int]:
        items = _sort(items, self.q.get("sort"), default_sort)
        total = len(items)
        after = self.q.get("after")
        if after:
            pos = next((i for i, o in enumerate(items) if o["id"] == after), None)
            items = items[pos + 1:] if pos is not None else []
        limit, offset = self._limit_offset()
        if self.state.faults.page_size:  # fault: short pages whatever `limit` asked
            limit = min(limit, self.state.faults.page_size)
        return items[offset:offset + limit], total

    def _visible(self, o: dict) -> bool:
        return readable(o.get("readers"), self.groups)

    def _filter_content(self, items: list[dict]) -> list[dict]:
        for k, v in self.q.items():
            if k.startswith("content."):
                key = k[len("content."):]
                items = [n for n in items if str(_content_value(n.get("content") or {}, key)) == v]
        return items

    # /notes
    def _notes(self):
        idx, q = self.idx, self.q
        if q.get("id"):
            n = idx.notes.get(q["id"])
            if n is None:
                raise _not_found(f"The Note {q['id']} was")
            if not self._visible(n):
                raise ApiError(403, "ForbiddenError", f"User does not have permission to read Note {q['id']}")
            items = [n]
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
            if hit is None:
                raise _not_found(f"The Edit {q['id']} was")
            if not self._visible(hit[1]):
                raise ApiError(403, "ForbiddenError", f"User does not have permission to read Edit {q['id']}")
            items = [hit[1]]
        elif q.get("note.id"):
            v = idx.note_venue.get(q["note.id"])
            items = list(v.edits_by_note.get(q["note.id"], [])) if v else []
        elif q.get("invitation"):
            items = [e for _, e in idx.edits.values() if e["invitation"] == q["invitation"]]
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

    # PDFs
    def _send_pdf(self, forum_id: str, value, name: str = "pdf"):
        f = self.state.faults
        if forum_id in f.missing_pdfs:
            raise _not_found("PDF")
        sha = _sha_from_value(value)
        data = self.state.fx.pdf_bytes(sha) if sha else None
        if data is None:
            raise _not_found(f"Attachment {name}")
        if forum_id in f.corrupt_pdfs:
            data = data[: max(64, len(data) // 3)]
        if forum_id in f.bad_pdfs:
            data = bad_pdf(f.bad_pdfs[forum_id], data)
        ctype = "application/pdf" if str(value).endswith(".pdf") else "application/octet-stream"
        self._send(200, data, ctype, {"Content-Disposition": f'attachment; filename="{forum_id}.pdf"'})

    def _note_for_file(self, note_id: str) -> dict:
        n = self.idx.notes.get(note_id)
        if n is None:
            raise _not_found(f"The Note {note_id} was")
        if not self._visible(n):
            raise ApiError(403, "ForbiddenError", f"User does not have permission to read Note {note_id}")
        return n

    def _pdf(self):
        nid = self.q.get("id")
        if not nid:
            raise ApiError(400, "ValidationError", "id is required")
        n = self._note_for_file(nid)
        val = _content_value(n.get("content") or {}, "pdf")
        if not val:
            raise _not_found("PDF")
        self._send_pdf(n["forum"], val)

    def _attachment(self):
        name = self.q.get("name") or "pdf"
        if self.q.get("ids"):
            ids = [i for i in self.q["ids"].split(",") if i]
            if len(ids) > 50:
                raise ApiError(400, "ValidationError", "ids must contain at most 50 ids", {"path": "ids"})
            if len(ids) == 1:
                self.q["id"] = ids[0]
            else:
                buf = io.BytesIO()
                f = self.state.faults
                with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
                    for i in ids:
                        n = self._note_for_file(i)
                        val = _content_value(n.get("content") or {}, name)
                        sha = _sha_from_value(val)
                        data = self.state.fx.pdf_bytes(sha) if sha else None
                        if data is None or n["forum"] in f.missing_pdfs:
                            continue
                        if n["forum"] in f.corrupt_pdfs:
                            data = data[: max(64, len(data) // 3)]
                        if n["forum"] in f.bad_pdfs:
                            data = bad_pdf(f.bad_pdfs[n["forum"]], data)
                        ext = str(val).rsplit(".", 1)[-1]
                        z.writestr(f"{i}.{ext}", data)
                return self._send(200, buf.getvalue(), "application/zip",
                                  {"Content-Disposition": f'attachment; filename="{name}.zip"'})
        nid = self.q.get("id")
        if not nid:
            raise ApiError(400, "ValidationError", "id or ids is required")
        n = self._note_for_file(nid)
        val = _content_value(n.get("content") or {}, name)
        if not val:
            raise _not_found(f"Attachment {name}")
        self._send_pdf(n["forum"], val, name)

    def _edit_attachment(self):
        eid = self.q.get("id")
        hit = self.idx.edits.get(eid or "")
        if hit is None:
            raise _not_found(f"The Edit {eid} was")
        _, e = hit
        if not self._visible(e):
            raise ApiError(403, "ForbiddenError", f"User does not have permission to read Edit {eid}")
        name = self.q.get("name") or "pdf"
        val = _content_value(e["note"].get("content") or {}, name)
        if not val:
            raise _not_found(f"Attachment {name}")
        self._send_pdf(e["note"]["id"], val, name)

    # v1 references
    def _references(self):
        idx, q = self.idx, self.q
        if q.get("id"):
            hit = idx.refs.get(q["id"])
            if hit is None:
                raise _not_found(f"The Reference {q['id']} was")
            items = [hit[1]]
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

    def _reference_pdf(self):
        rid = self.q.get("id")
        hit = self.idx.refs.get(rid or "")
        if hit is None:
            raise _not_found(f"The Reference {rid} was")
        _, r = hit
        name = self.q.get("name") or "pdf"
        val = (r.get("content") or {}).get(name)
        if not val:
            raise _not_found(f"Attachment {name}")
        self._send_pdf(r["referent"], val, name)

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

    # -- web
    def _web(self):
        p = self._path
        if p == "/revisions":
            return self._send(200, _revisions_html(self.state).encode(), "text/html; charset=utf-8")
        if p == "/challenge":  # where openreview-web sends a ChallengeRequiredError
            body = ("<!doctype html><html><head><title>Challenge | OpenReview</title></head><body>"
                    "<main id=\"content\"><h1>Verify you are human</h1><p>Please log in or complete "
                    "the challenge.</p></main></body></html>")
            return self._send(200, body.encode(), "text/html; charset=utf-8")
        if p.startswith("/static/"):
            name = p[len("/static/"):]
            if "/" in name or name not in ("revisions.js",):
                return self._send(404, b"not found", "text/plain")
            data = resources.files("openreview_replica").joinpath("static", name).read_bytes()
            return self._send(200, data, "application/javascript; charset=utf-8")
        if p == "/":
            body = (f"<!doctype html><html><head><title>OpenReview replica</title></head><body>"
                    f"<h1>OpenReview replica</h1><p>API v2: {self.state.urls.get('v2')}<br>"
                    f"API v1: {self.state.urls.get('v1')}</p></body></html>")
            return self._send(200, body.encode(), "text/html; charset=utf-8")
        if p == "/favicon.ico":
            return self._send(204, b"", "image/x-icon")
        return self._send(404, b"<!doctype html><title>Not found</title><h1>404</h1>", "text/html; charset=utf-8")


def _revisions_html(state: ReplicaState) -> str:
    """The page shell: no revision data, a loading spinner, the client-side script (as openreview.net)."""
    cfg = json.dumps({"apiV2": state.urls.get("v2"), "apiV1": state.urls.get("v1"),
                      "delayMs": state.web_delay_ms, "cookieName": "openreview.accessToken"})
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Revision History | OpenReview</title>
<style>body{{font-family:sans-serif;margin:2em}} .references-list .row{{border-bottom:1px solid #ddd;padding:.5em 0}}
.alert-danger{{color:#a00}}</style></head>
<body><main id="content"><div class="spinner-container">Loading</div></main>
<script>window.REPLICA_CONFIG = {cfg};</script>
<script src="/static/revisions.js"></script>
</body></html>"""


class ReplicaServer:
    """Runs API v2, API v1 and web servers on 127.0.0.1 (three ports) in background threads.

    port: API v2 port (0 = pick free ports for all three). When port != 0 and port_v1/port_web are
    None they default to port-1 and port+1 (e.g. 8802 → v1 8801, web 8803).
    max_page_size: server-side cap on `limit` (the real API caps at 1000); set small to exercise paging.
    """

    def __init__(self, fixtures: Fixtures, host: str = "127.0.0.1", port: int = 0, port_v1: int | None = None,
                 port_web: int | None = None, max_page_size: int = 1000, web_delay_ms: int = 300):
        self.fixtures = fixtures
        self.host = host
        self.ports = {"v2": port,
                      "v1": port_v1 if port_v1 is not None else (port - 1 if port else 0),
                      "web": port_web if port_web is not None else (port + 1 if port else 0)}
        self.state = ReplicaState(fixtures, max_page_size, web_delay_ms)
        self._servers: dict[str, ThreadingHTTPServer] = {}
        self._threads: list[threading.Thread] = []

    # lifecycle
    def start(self) -> "ReplicaServer":
        if self._servers:
            return self
        for role in ("v2", "v1", "web"):
            handler = type(f"Handler_{role}", (_Handler,), {"role": role, "state": self.state})
            srv = ThreadingHTTPServer((self.host, self.ports[role]), handler)
            srv.daemon_threads = True
            self._servers[role] = srv
            self.state.urls[role] = f"http://{self.host}:{srv.server_address[1]}"
        for role, srv in self._servers.items():
            t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1},
                                 name=f"replica-{role}", daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def stop(self):
        for srv in self._servers.values():
            srv.shutdown()
            srv.server_close()
        self._servers.clear()
        self._threads.clear()

    def __enter__(self) -> "ReplicaServer":
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # URLs and credentials
    @property
    def api_v2_url(self) -> str:
        return self.state.urls["v2"]

    @property
    def api_v1_url(self) -> str:
        return self.state.urls["v1"]

    @property
    def web_url(self) -> str:
        return self.state.urls["web"]

    @property
    def username(self) -> str:
        return self.fixtures.username

    @property
    def password(self) -> str:
        return self.fixtures.password

    # faults and request log
    def set_faults(self, cfg: FaultConfig | dict | None = None, **kwargs):
        if cfg is None:
            cfg = FaultConfig(**kwargs)
        elif isinstance(cfg, dict):
            cfg = FaultConfig.from_dict(cfg)
        self.state.set_faults(cfg)

    def clear_faults(self):
        self.state.set_faults(FaultConfig())

    @property
    def faults(self) -> FaultConfig:
        return self.state.faults

    @property
    def request_log(self) -> list[LoggedRequest]:
        with self.state.lock:
            return list(self.state.request_log)

    def expire_tokens(self):
        """Make every issued token expired, as an hour (or a week) passing would."""
        with self.state.lock:
            self.state.tokens = {t: (user, 0.0) for t, (user, _) in self.state.tokens.items()}

    def reindex(self):
        """Serve run-time fixture changes (Fixtures.add_forums / add_reply / delete_forum)."""
        self.state.reindex()

    def reset_request_log(self):
        with self.state.lock:
            self.state.request_log.clear()
