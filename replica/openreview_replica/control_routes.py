"""Injected faults (rate limits, storms, errors, dropped connections) and the replica's control
endpoints: /_replica/faults and /_replica/requests (the request log)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

from .faults import FaultConfig
from .http_base import ApiError, not_found
from .replica_state import ATTACHMENT_PATHS


def _minutes_and_seconds(wait: int) -> str:
    """As openreview.net words a wait: "60 minutes and 13 seconds", "54 seconds" (issue #254's guest
    search limit: "Please try again in yy seconds")."""
    return f"{wait // 60} minutes and {wait % 60} seconds" if wait >= 60 else f"{wait} seconds"


class ControlRoutes:
    """Faults and control endpoints: a mixin of server.ReplicaHandler, whose base
    (http_base.HandlerBase) holds the request plumbing these methods call."""

    # -- faults
    def _window(self, f: FaultConfig) -> tuple[int, float, int] | None:
        """(limit, reset time, requests made) when this request passes the window's limit; call
        under the state lock."""
        kind = "attachment" if self._path in ATTACHMENT_PATHS and f.attachment_window_limit else "api"
        limit = f.attachment_window_limit if kind == "attachment" else f.window_limit
        if not limit or not f.window_s:
            return None
        windows = self.state.counters.setdefault("windows", {})
        now = time.time()
        window = windows.get(kind)
        if window is None or now >= window["start"] + f.window_s:
            # a window opens at the first request after the last one closed; the history is the
            # replica's own count per window (ReplicaServer.rate_windows, bench_rate_limit's figure)
            window = windows[kind] = {"kind": kind, "start": now, "used": 0, "limit": limit}
            self.state.counters.setdefault("window_history", []).append(window)
        window["used"] += 1
        return (limit, window["start"] + f.window_s, window["used"]) if window["used"] > limit else None

    def _apply_faults(self) -> bool:
        st = self.state
        with st.lock:
            f = st.faults
            if not f.matches(self._path):
                return False
            refused = self._window(f)
            action, storm_left = (None, 0.0) if refused else st.fault_counters.decide(f, st.counters)
        if refused:
            # openreview.net's answer, field for field (mireklzicar/openreview_downloader issue #4,
            # 2026-08-31; docs/openreview-api.md §0.2): the message's wait in minutes and seconds and
            # the request id in brackets, `details` with limit/remaining/resetTime/used/current/reqId.
            # No Retry-After header: no source shows one (resources/rate_limiter.py).
            limit, reset_s, used = refused
            wait = max(1, int(reset_s - time.time() + 0.999))
            reset = datetime.fromtimestamp(reset_s, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
            self.state.counters["window_refused"] = self.state.counters.get("window_refused", 0) + 1
            req_id = f"{datetime.now(UTC):%Y-%m-%d}-{self.state.counters['window_refused']}"
            raise ApiError(429, "RateLimitError",
                           f"Too many requests: You have made {used} requests, surpassing the limit of {limit} "
                           f"requests. Please try again in {_minutes_and_seconds(wait)} ({req_id})",
                           {"limit": limit, "remaining": 0, "resetTime": reset, "used": used, "current": used,
                            "reqId": req_id})
        if f.slow_ms:
            time.sleep(f.slow_ms / 1000)
        if action == "drop":
            self.close_connection = True
            self._log(0)
            return True
        if action == "storm":
            wait = f.retry_after_s  # what a real storm says: "try again in N s", and refuses again
            reset = datetime.now(UTC) + timedelta(seconds=wait)
            raise ApiError(429, "RateLimitError", f"Too many requests. Please try again in {wait} seconds",
                           {"limit": 36, "remaining": 0,
                            "resetTime": reset.isoformat(timespec="milliseconds").replace("+00:00", "Z")},
                           {"Retry-After": wait})
        if action == "rate":
            reset = datetime.now(UTC) + timedelta(seconds=f.retry_after_s)
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
                    raise ApiError(400, "ValidationError", str(e)) from e
                st.set_faults(cfg)
            return self._json(st.faults.to_dict())
        if self._path == "/_replica/requests":
            if self.command == "POST":
                with st.lock:
                    st.request_log.clear()
            with st.lock:
                log = [r._asdict() for r in st.request_log]
            return self._json({"requests": log})
        raise not_found("Replica control path")
