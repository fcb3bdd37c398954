"""The replica's request log says an answer was received only when its whole body was written: the
kill -9 figure `kill_resume_repeated_requests` counts a re-run's request as repeated when the killed
run had received its answer, and a client killed while the body was on its way never had it."""
from __future__ import annotations

import threading
from types import SimpleNamespace

from openreview_replica.http_base import HandlerBase


class _Connection:
    """A client connection that takes the headers, then is gone (a killed process's socket)."""

    def __init__(self):
        self.writes = 0

    def write(self, data: bytes) -> int:
        self.writes += 1
        if self.writes > 1:
            raise BrokenPipeError(32, "Broken pipe")
        return len(data)

    def flush(self) -> None:
        pass


def _handler(wfile) -> HandlerBase:
    h = HandlerBase.__new__(HandlerBase)  # no socket: the plumbing only
    h.state = SimpleNamespace(lock=threading.Lock(), request_log=[])
    h.command, h.request_version, h.requestline = "GET", "HTTP/1.1", "GET /pdf?id=a HTTP/1.1"
    h._path, h._query, h.headers, h.wfile, h.close_connection = "/pdf", "id=a", {}, wfile, False
    return h


def test_an_answer_cut_short_is_logged_as_not_delivered():
    h = _handler(_Connection())
    h._send(200, b"%PDF-1.4 " + b"x" * 100_000, "application/pdf")
    (entry,) = h.state.request_log
    assert entry.status == 200 and entry.delivered is False
    assert h.close_connection


def test_an_answer_written_whole_is_delivered():
    import io

    out = io.BytesIO()
    h = _handler(out)
    h._send(200, b"{}", "application/json")
    (entry,) = h.state.request_log
    assert entry.delivered is True and out.getvalue().endswith(b"\r\n\r\n{}")


def test_an_answer_to_a_client_that_died_while_it_waited_is_not_delivered():
    """A client killed during the answer's latency (here a 300 ms fault) has closed its connection
    when the answer leaves: the write still succeeds once, but the client never had it."""
    import socket
    import time
    from urllib.parse import urlsplit

    from openreview_replica import FaultConfig, ReplicaServer, build_fixtures

    with ReplicaServer(build_fixtures(["iclr-2020"], seed=0, n_forums=2), port=0) as rep:
        rep.set_faults(FaultConfig(slow_ms=300))
        u = urlsplit(rep.api_v1_url)
        with socket.create_connection((u.hostname, u.port)) as s:
            s.sendall(b"GET /invitations?id=x HTTP/1.1\r\nHost: replica\r\n\r\n")
        time.sleep(0.8)  # closed before the answer; the server answers after its latency
        rep.set_faults(FaultConfig())
        (entry,) = [r for r in rep.request_log if r.path == "/invitations"]
        assert entry.delivered is False
        with socket.create_connection((u.hostname, u.port)) as s:  # a client that reads its answer
            s.sendall(b"GET /invitations?id=x HTTP/1.1\r\nHost: replica\r\nConnection: close\r\n\r\n")
            while s.recv(65536):
                pass
        assert [r.delivered for r in rep.request_log if r.path == "/invitations"] == [False, True]


def test_an_answer_left_unread_by_a_killed_client_is_not_delivered():
    """The answer reached the client's machine, but its process died before reading it: the
    kernel resets the connection (closed with unread data), and the replica marks that answer
    undelivered; an answer read before the client closed stays delivered."""
    import socket
    import time
    from urllib.parse import urlsplit

    from openreview_replica import ReplicaServer, build_fixtures

    def ask(u, read: bool) -> None:
        s = socket.create_connection((u.hostname, u.port))
        s.sendall(b"GET /invitations?id=x HTTP/1.1\r\nHost: replica\r\n\r\n")  # keep-alive
        time.sleep(0.3)  # the answer is in this socket's receive buffer
        if read:
            s.recv(1 << 20)
        s.close()  # unread data: the kernel resets the connection, as it does for a killed process

    with ReplicaServer(build_fixtures(["iclr-2020"], seed=0, n_forums=2), port=0) as rep:
        u = urlsplit(rep.api_v1_url)
        ask(u, read=False)
        ask(u, read=True)
        time.sleep(0.3)
        assert [r.delivered for r in rep.request_log if r.path == "/invitations"] == [False, True]
