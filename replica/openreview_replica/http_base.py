"""Request plumbing of the replica's handlers: parsing, answering (JSON, errors in the API's shape,
CORS) and logging each request before its answer leaves."""

from __future__ import annotations

import json
import socket
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from .replica_state import ApiIndex, LoggedRequest, ReplicaState


class ApiError(Exception):
    def __init__(self, status: int, name: str, message: str, details: dict | None = None, headers=None):
        super().__init__(message)
        self.status, self.name, self.message = status, name, message
        self.details = details or {}
        self.headers = headers or {}


def not_found(what: str) -> ApiError:
    return ApiError(404, "NotFoundError", f"{what} not found", {"path": "id"})


class HandlerBase(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "OpenReviewReplica/1.0"
    role = "v2"  # "v2" | "v1" | "web"
    state: ReplicaState

    def log_message(self, format, *args):  # silence
        pass

    # -- plumbing
    def _log(self, status: int, delivered: bool = True) -> LoggedRequest:
        entry = LoggedRequest(self.command, self._path, self._query, status, self.role, time.time(), delivered)
        with self.state.lock:
            self.state.request_log.append(entry)
        return entry

    def _undelivered(self, entry: LoggedRequest) -> None:
        """The client went away before the answer's last byte: it never had the answer, so the log
        must not say it did (kill -9 figures count answers a killed run had received)."""
        with self.state.lock:
            log = self.state.request_log
            for i in range(len(log) - 1, -1, -1):  # it is near the end (unless the log was reset)
                if log[i] is entry:
                    log[i] = entry._replace(delivered=False)
                    break
        self.close_connection = True

    def _client_gone(self) -> bool:
        """The client closed the connection (its process was killed: the kernel closed its socket)
        before the answer left. The first write to such a socket can still succeed (a body sent in
        that one write would be logged delivered); this looks first. An HTTP client does not
        half-close, so end-of-stream from it means it is gone; unread bytes (a pipelined request)
        mean it is not."""
        sock = getattr(self, "connection", None)
        if sock is None:
            return False
        try:
            return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except (BlockingIOError, InterruptedError):
            return False  # nothing to read: the client is waiting for its answer
        except OSError:
            return True  # reset by the peer

    def handle_one_request(self):
        """A connection reset while the next request is awaited says the client closed it with our
        last answer still unread in its receive buffer (a kernel resets, instead of closing
        cleanly, a socket closed with unread data: the client process was killed before reading
        it). That answer was never received: its entry is marked undelivered."""
        try:
            super().handle_one_request()
        except ConnectionResetError:
            last = getattr(self, "_last_answer", None)
            if last is not None:
                self._undelivered(last)
            self.close_connection = True
        self._last_answer = getattr(self, "_answer_now", None)
        self._answer_now = None

    def _send(self, status: int, body: bytes, ctype: str, headers: dict | None = None):
        # Logged before the answer leaves: a client that has its answer must find it in the log.
        # An answer cut short (the client closed the connection, or was killed) is marked
        # undelivered once the write fails.
        entry = self._log(status)
        if self._client_gone():  # closed while its answer was prepared (or slowed by a fault)
            self._undelivered(entry)
            return
        try:
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
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self._undelivered(entry)
            return
        self._answer_now = entry  # judged when the connection's next request (or its end) comes

    def _json(self, obj, status=200, headers=None):
        self._send(status, json.dumps(obj).encode(), "application/json; charset=utf-8", headers)

    def _error(self, e: ApiError):
        with self.state.lock:
            self.state.req_seq += 1
            seq = self.state.req_seq
        details = dict(e.details)
        details.setdefault("reqId", f"{datetime.now(UTC):%Y-%m-%d}-{seq}")
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

    @property
    def version(self) -> int:
        return 2 if self.role == "v2" else 1

    @property
    def idx(self) -> ApiIndex:
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
