"""HTTP servers: API v2, API v1 (separate ports, as api2.openreview.net / api.openreview.net) and the web site.

One handler class serves all three; its routes live in modules by concern (notes, files, references,
groups, auth, control, web) and are mixed in here, where requests are dispatched."""

from __future__ import annotations

import threading
from collections import Counter
from http.server import ThreadingHTTPServer

from .auth_routes import AuthRoutes
from .control_routes import ControlRoutes
from .faults import FaultConfig
from .file_routes import FileRoutes
from .fixture_model import Fixtures
from .group_routes import GroupRoutes
from .http_base import ApiError, HandlerBase
from .listing import Listing
from .note_routes import NoteRoutes
from .reference_routes import ReferenceRoutes
from .replica_state import LoggedRequest, ReplicaState, request_kind
from .web_routes import WebRoutes

__all__ = ["ReplicaServer", "LoggedRequest", "ApiError"]


class ReplicaHandler(AuthRoutes, ControlRoutes, NoteRoutes, FileRoutes, ReferenceRoutes, GroupRoutes, WebRoutes,
                     Listing, HandlerBase):
    """Every route of the three servers; `role` (set per server in ReplicaServer.start) picks which answer."""

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
    def start(self) -> ReplicaServer:
        if self._servers:
            return self
        for role in ("v2", "v1", "web"):
            handler = type(f"Handler_{role}", (ReplicaHandler,), {"role": role, "state": self.state})
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

    def __enter__(self) -> ReplicaServer:
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

    def request_counts(self) -> dict[str, int]:
        """Requests served so far per kind: `attachment` (PDF and other file downloads, the requests
        openreview.net limits hardest), `api <v1|v2> <endpoint>` for every other API request, and
        `web <page>` for what the web server served (pages, scripts, styles)."""
        return dict(Counter(request_kind(r) for r in self.request_log))

    def rate_windows(self) -> list[dict]:
        """The windowed limit's windows so far (FaultConfig.window_limit), oldest first, as the replica
        counted them: `kind` (api or attachment), `start` (epoch s), `used` (requests it counted,
        refused ones too), `limit`."""
        with self.state.lock:
            return [dict(w) for w in self.state.counters.get("window_history", [])]

    def reset_request_log(self):
        with self.state.lock:
            self.state.request_log.clear()
