"""Raw-JSON access to OpenReview through the real `openreview-py` clients.

We log in with the client (token, MFA, headers) and read through `client.session` so the JSON is
kept exactly as returned (`Note.to_json()` drops `number`, `tcdate`, `domain`, `details`). On top
of the client's own urllib3 retries (8 tries, honours `Retry-After`) we add what a real crawl needs
(openreview-api.md §0.2): a rate limiter shared by every caller, sleeping until the 429 body's
`details.resetTime`, and a bounded retry on dropped connections. Every wait is reported through
`on_event` so the asset can log it.
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime

import openreview
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry


class OpenReviewError(RuntimeError):
    """An API call failed for good; `name` is OpenReview's error name (e.g. NotFoundError)."""

    def __init__(self, name: str, message: str, status: int | None = None, path: str = ""):
        super().__init__(f"{name} ({status}) on {path}: {message}")
        self.name, self.status, self.path = name, status, path


CREDENTIAL_VARS = ("OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD")


class CredentialsError(OpenReviewError):
    """Missing or wrong credentials: the message says which environment variables to set."""

    def __init__(self, name: str, message: str, status: int | None, path: str, logged_in: bool):
        hint = (f"Set {CREDENTIAL_VARS[0]} and {CREDENTIAL_VARS[1]} to the crawl account's OpenReview "
                "login (they reach OpenReviewResource.username/password as dagster.EnvVar)")
        if logged_in:
            hint = (f"the account in {CREDENTIAL_VARS[0]} / {CREDENTIAL_VARS[1]} was logged in and is still "
                    "refused: check it can read this venue, or log in again (token expired)")
        RuntimeError.__init__(self, f"{name} ({status}) on {path}: {message}. {hint}.")
        self.name, self.status, self.path, self.logged_in = name, status, path, logged_in


class RateLimiter:
    """Minimum interval between requests, shared by threads (API client and browser)."""

    def __init__(self, min_interval_s: float = 0.0):
        self.min_interval_s = min_interval_s
        self._lock = threading.Lock()
        self._next = 0.0

    def wait(self) -> None:
        if self.min_interval_s <= 0:
            return
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.min_interval_s
        if start > now:
            time.sleep(start - now)


def _reset_wait_s(body: dict, response: requests.Response, default_s: float) -> float:
    reset = (body.get("details") or {}).get("resetTime")
    if reset:
        try:
            when = datetime.fromisoformat(reset.replace("Z", "+00:00"))
            return max(0.0, when.timestamp() - time.time())
        except ValueError:
            pass
    retry_after = response.headers.get("Retry-After")
    if retry_after and retry_after.isdigit():
        return float(retry_after)
    return default_s


class _ReportingRetry(Retry):
    """urllib3 retries for 5xx and dropped connections, counted and reported instead of printed."""

    def __init__(self, *args, reporter: Callable[[str, str], None] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.reporter = reporter

    def new(self, **kw):
        new = super().new(**kw)
        new.reporter = self.reporter
        return new

    def increment(self, method=None, url=None, response=None, error=None, _pool=None, _stacktrace=None):
        if self.reporter:
            what = f"HTTP {response.status}" if response is not None else type(error).__name__
            self.reporter(what, f"retrying {method} {url.split('?')[0] if url else ''} after {what}")
        return super().increment(method=method, url=url, response=response, error=error, _pool=_pool,
                                 _stacktrace=_stacktrace)


class OpenReviewApi:
    """A logged-in v1 or v2 client plus the limiter; `get_json` returns raw JSON."""

    def __init__(self, baseurl: str, api: str, username: str | None, password: str | None,
                 limiter: RateLimiter | None = None, max_wait_s: float = 3900.0,
                 max_attempts: int = 6, on_event: Callable[[str], None] | None = None,
                 timeout_s: float = 60.0, token: str | None = None):
        self.api, self.baseurl = api, baseurl.rstrip("/")
        self.limiter = limiter or RateLimiter()
        self.max_wait_s, self.max_attempts, self.timeout_s = max_wait_s, max_attempts, timeout_s
        self.on_event = on_event or (lambda msg: None)
        self.stats: Counter = Counter()
        cls = openreview.api.OpenReviewClient if api == "v2" else openreview.Client
        # A token from an earlier login is reused: the v1 client logs in through API v2 anyway.
        # The client does not retry POST /login, so 5xx, 429 and dropped connections are retried
        # here; only an answer about the credentials themselves becomes a CredentialsError.
        for attempt in range(1, max_attempts + 1):
            try:
                self.client = (cls(baseurl=self.baseurl, token=token) if token
                               else cls(baseurl=self.baseurl, username=username, password=password))
                break
            except (openreview.OpenReviewException, requests.ConnectionError) as exc:
                body = (exc.args[0] if isinstance(exc, openreview.OpenReviewException) and exc.args
                        and isinstance(exc.args[0], dict) else {"message": str(exc)})
                status = body.get("status")
                transient = isinstance(exc, requests.ConnectionError) or (status or 0) >= 500 or status == 429
                if not transient:
                    raise CredentialsError(body.get("name", "LoginError"),
                                           f"login as {username!r} failed: {body.get('message', '')}",
                                           status, "/login", logged_in=False) from exc
                if attempt == max_attempts:
                    raise OpenReviewError(body.get("name", "LoginError"), body.get("message", ""),
                                          status, "/login") from exc
                wait = min(2.0 ** attempt, 60.0)
                self.stats["retries"] += 1
                self.on_event(f"login to {self.baseurl} failed transiently ({status or 'no answer'}); "
                              f"retry {attempt} in {wait:.0f}s")
                time.sleep(wait)
        # Replace the client's retry (which also retries 429 for at most ~4 min and prints) with
        # one that reports: 5xx/connection retries stay in urllib3, 429s come back to `_request`,
        # which sleeps until the body's resetTime (OpenReview windows last up to an hour).
        # (respect_retry_after_header=False, else urllib3 would retry 429s with a Retry-After.)
        retry = _ReportingRetry(total=8, connect=3, read=3, backoff_factor=0.5, backoff_max=60,
                                status_forcelist=[500, 502, 503, 504], raise_on_status=False,
                                respect_retry_after_header=False, reporter=self._report_retry)
        adapter = HTTPAdapter(max_retries=retry, pool_maxsize=64)
        for prefix in list(self.client.session.adapters):  # incl. the client's /notes/edits mount
            self.client.session.mount(prefix, adapter)

    def _report_retry(self, what: str, message: str) -> None:
        self.stats["retries"] += 1
        self.stats[f"retries_{what}"] += 1
        self.on_event(message)

    @property
    def token(self) -> str | None:
        return self.client.token

    def _request(self, path: str, params: dict | None, stream: bool = False) -> requests.Response:
        url = self.baseurl + path
        for attempt in range(1, self.max_attempts + 1):
            self.limiter.wait()
            self.stats["requests"] += 1
            try:
                resp = self.client.session.get(url, params=params, headers=self.client.headers,
                                               timeout=self.timeout_s, stream=stream)
            except requests.ConnectionError as exc:
                self.stats["connection_errors"] += 1
                if attempt == self.max_attempts:
                    raise OpenReviewError("ConnectionError", str(exc), None, path) from exc
                wait = min(2.0 ** attempt, 30.0)
                self.on_event(f"connection dropped on {path}; retry {attempt} in {wait:.0f}s")
                time.sleep(wait)
                continue
            if resp.status_code == 429:
                self.stats["rate_limited"] += 1
                body = _json_or_text(resp)
                wait = _reset_wait_s(body, resp, default_s=60.0)
                if attempt == self.max_attempts or wait > self.max_wait_s:
                    raise OpenReviewError("RateLimitError", body.get("message", ""), 429, path)
                self.stats["rate_limit_wait_s"] += wait
                self.on_event(f"429 on {path}: waiting {wait:.1f}s until resetTime")
                time.sleep(wait + 0.05)
                continue
            if resp.status_code >= 500:
                self.stats["server_errors"] += 1
                if attempt == self.max_attempts:
                    raise OpenReviewError("ServerError", resp.text[:200], resp.status_code, path)
                self.on_event(f"{resp.status_code} on {path}; retry {attempt}")
                time.sleep(min(2.0 ** attempt, 30.0))
                continue
            if resp.status_code in (401, 403):
                body = _json_or_text(resp)
                name = body.get("name", "Error")
                if name in ("ChallengeRequiredError", "TokenExpiredError", "UnauthorizedError") or (
                        resp.status_code == 401):
                    raise CredentialsError(name, body.get("message", ""), resp.status_code, path,
                                           logged_in=bool(self.client.token))
            if resp.status_code >= 400:
                body = _json_or_text(resp)
                raise OpenReviewError(body.get("name", "Error"), body.get("message", ""),
                                      resp.status_code, path)
            return resp
        raise AssertionError("unreachable")

    def get_json(self, path: str, params: dict | None = None) -> dict:
        return self._request(path, params).json()

    def get_bytes(self, path: str, params: dict | None = None) -> bytes:
        return self._request(path, params).content


def _json_or_text(resp: requests.Response) -> dict:
    try:
        body = resp.json()
        return body if isinstance(body, dict) else {"message": str(body)}
    except ValueError:
        return {"name": "Error", "message": resp.text[:200]}
