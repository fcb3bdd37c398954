"""Raw-JSON access to OpenReview through the real `openreview-py` clients.

We log in with the client (token, MFA, headers) and read through `client.session` so the JSON is
kept exactly as returned (`Note.to_json()` drops `number`, `tcdate`, `domain`, `details`).

Retries live in ONE place, `OpenReviewApi._request`: the client's own urllib3 retry (8 tries on
429/5xx, at most ~4 minutes, printed) is replaced on every GET by an adapter that retries nothing,
so a request is tried at most `max_attempts` times, never attempts x urllib3-retries. What a real
crawl needs (openreview-api.md §0.2) is done there: a rate limiter shared by every caller, sleeping
until the 429 body's `details.resetTime` (windows last up to an hour), exponential backoff with full
jitter on 5xx and dropped connections, and one new login when the token expired mid-run. Every
wait is reported through `on_event` so the asset can log it.
"""
from __future__ import annotations

import functools
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime

import openreview
import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import NewConnectionError

from resources.rate_limiter import RateLimiter  # noqa: F401 (the clients' limiter, imported from here)


class OpenReviewError(RuntimeError):
    """An API call failed for good; `name` is OpenReview's error name (e.g. NotFoundError)."""

    def __init__(self, name: str, message: str, status: int | None = None, path: str = ""):
        super().__init__(f"{name} ({status}) on {path}: {message}")
        self.name, self.status, self.path = name, status, path


CREDENTIAL_VARS = ("OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD")
# v2's login docstring: a token lives one hour unless asked for longer, at most one week. A crawl
# that waits out hour-long 429 windows outlives an hour, so we ask for the week (and log in again
# on TokenExpiredError anyway).
TOKEN_TTL_S = 7 * 24 * 3600


class CredentialsError(OpenReviewError):
    """Missing or wrong credentials: the message says which environment variables to set."""

    def __init__(self, name: str, message: str, status: int | None, path: str, logged_in: bool):
        hint = (f"Set {CREDENTIAL_VARS[0]} and {CREDENTIAL_VARS[1]} to the crawl account's OpenReview "
                "login (they reach OpenReviewResource.username/password as dagster.EnvVar)")
        if logged_in:
            hint = (f"the account in {CREDENTIAL_VARS[0]} / {CREDENTIAL_VARS[1]} was logged in and is still "
                    "refused: check it can read this venue")
        RuntimeError.__init__(self, f"{name} ({status}) on {path}: {message}. {hint}.")
        self.name, self.status, self.path, self.logged_in = name, status, path, logged_in


# The variable that sets each API's base URL (read where the resources are built from the environment).
URL_VARS = {"v1": "OPENREVIEW_API_V1_URL", "v2": "OPENREVIEW_API_V2_URL"}


class UnreachableError(OpenReviewError):
    """The host does not resolve or refuses connections: retrying for minutes cannot help, so the
    first such failure ends the run, naming the URL and the variable that sets it."""

    def __init__(self, url: str, api: str, cause: BaseException):
        var = URL_VARS.get(api, "OPENREVIEW_API_V2_URL")
        kind = "does not resolve" if "resolve" in str(cause).lower() else "refuses connections"
        RuntimeError.__init__(self, f"OpenReview API {api} at {url} {kind} ({cause}). Check the network, or "
                                    f"point {var} at a reachable server (e.g. the replica: `make ui`).")
        self.name, self.status, self.path, self.url = "UnreachableError", None, url, url


def unreachable_cause(exc: BaseException) -> BaseException | None:
    """The DNS failure or refused connection behind a requests ConnectionError, if that is what it is
    (a dropped connection or a timeout is not: those are retried)."""
    seen, todo = set(), [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, NewConnectionError):  # urllib3: NameResolutionError, ECONNREFUSED, ...
            return e
        todo += [getattr(e, "reason", None), e.__cause__, e.__context__,
                 *(a for a in getattr(e, "args", ()) if isinstance(a, BaseException))]
    return None


class RateLimitedError(OpenReviewError):
    """A 429 whose window lasts longer than the client waits: retrying now only meets it again."""

    def __init__(self, message: str, path: str, wait_s: float, max_wait_s: float):
        until = datetime.fromtimestamp(time.time() + wait_s).astimezone().isoformat(timespec="seconds")
        super().__init__("RateLimitError", f"{message} OpenReview's rate-limit window ends in {wait_s:.0f}s "
                         f"(at {until}), longer than the {max_wait_s:.0f}s this run waits "
                         "(OPENREVIEW_MAX_RATE_LIMIT_WAIT_S): re-run after that time, or set "
                         "OPENREVIEW_MAX_RATE_LIMIT_WAIT_S higher to wait it out", 429, path)
        self.wait_s, self.until = wait_s, until


def stops_the_run(exc: BaseException) -> bool:
    """Errors that no forum can get past (credentials, a long rate-limit window, an unreachable host): the stage stops
    and says what to do, instead of recording them as every forum's answer."""
    return isinstance(exc, (CredentialsError, RateLimitedError, UnreachableError))


def is_retryable(exc: BaseException) -> bool:
    """Transient per request: 429, 5xx after retries, no answer. A later run may succeed."""
    if stops_the_run(exc):
        return True
    status = getattr(exc, "status", None)
    return isinstance(exc, OpenReviewError) and (status is None or status == 429 or status >= 500)


# Fail the step without Dagster retrying it: wrong or missing credentials, an unreachable host, a
# rate-limit window longer than this run waits (a retry would only meet it again).
NOT_RETRYABLE = (CredentialsError, UnreachableError, RateLimitedError)


# File downloads, which OpenReview meters in a budget of their own: a real 429 on
# `GET /attachment?name=pdf` says "surpassing the limit of 36 requests. Please try again in 60
# minutes" while API requests are allowed 98 per 30 minutes (docs/openreview-api.md §0.2). They get
# their own limiter, so a 429 on a PDF neither stops nor slows the API requests of other threads.
ATTACHMENT_PATHS = frozenset({"/pdf", "/attachment", "/references/pdf", "/references/attachment",
                              "/notes/edits/pdf", "/notes/edits/attachment"})


def backoff_s(attempt: int, base_s: float = 1.0, cap_s: float = 60.0) -> float:
    """Exponential backoff with full jitter (AWS architecture blog): uniform in [0, min(cap, base*2^n)],
    so parallel partitions that failed together do not retry together."""
    return random.uniform(0.0, min(cap_s, base_s * 2.0 ** attempt))


def reset_wait_s(body: dict, retry_after: str | None, default_s: float) -> float:
    """Seconds until a 429's window resets: `details.resetTime`, else Retry-After, else the default."""
    reset = (body.get("details") or {}).get("resetTime") if isinstance(body, dict) else None
    if reset:
        try:
            when = datetime.fromisoformat(reset.replace("Z", "+00:00"))
            return max(0.0, when.timestamp() - time.time())
        except ValueError:
            pass
    if retry_after and retry_after.isdigit():
        return float(retry_after)
    return default_s


def refusal_counts(body) -> tuple[int | None, int | None]:
    """A 429 body's `details.limit` (the window's budget) and `details.used` (the requests the server
    counted in the window with the refused one), when it says them (resources/rate_limiter.py)."""
    details = (body.get("details") or {}) if isinstance(body, dict) else {}
    limit, used = details.get("limit"), details.get("used")
    return (limit if isinstance(limit, int) else None), (used if isinstance(used, int) else None)


def _client_class(api: str):
    return openreview.api.OpenReviewClient if api == "v2" else openreview.Client


@functools.cache
def _reading_class(cls):
    """The client class, minus its profile lookup. openreview-py's constructor asks `GET /profiles?id=<user>`
    whenever it is given a token, for `client.profile`, which it uses only to sign what it writes. Ours
    only read (through `session`), so a client of an earlier login's token costs no request (one per
    client, three per run, asked again by every re-run of a killed run: issue 29.3)."""
    return type(f"Reading{cls.__name__}", (cls,), {"get_profile": lambda self, *args, **kwargs: None})


def login(baseurl: str, api: str, username: str, password: str, *, max_attempts: int = 6,
          token_ttl_s: int = TOKEN_TTL_S, on_event: Callable[[str], None] | None = None,
          max_wait_s: float = 3900.0) -> str:
    """One login (POST /login); returns the token."""
    return _logged_in_client(baseurl, api, username, password, max_attempts=max_attempts,
                             token_ttl_s=token_ttl_s, on_event=on_event, max_wait_s=max_wait_s).token


def _logged_in_client(baseurl: str, api: str, username: str, password: str, *, max_attempts: int,
                      token_ttl_s: int, on_event: Callable[[str], None] | None, max_wait_s: float = 3900.0):
    """A client logged in by its own constructor (MFA, headers).

    The client's own adapter already retries 429 and 5xx on POST /login (8 tries, Retry-After
    honoured), so only dropped connections are retried here; an answer about the credentials
    themselves is a CredentialsError naming the variables to set.
    """
    on_event = on_event or (lambda msg: None)
    for attempt in range(1, max_attempts + 1):
        try:
            return _client_class(api)(baseurl=baseurl, username=username, password=password,
                                      tokenExpiresIn=token_ttl_s)
        except requests.ConnectionError as exc:
            if (cause := unreachable_cause(exc)) is not None:
                raise UnreachableError(baseurl, api, cause) from exc
            if attempt == max_attempts:
                raise OpenReviewError("ConnectionError", str(exc), None, "/login") from exc
            wait = backoff_s(attempt)
            on_event(f"login to {baseurl} failed (no answer); retry {attempt} in {wait:.1f}s")
            time.sleep(wait)
        except openreview.OpenReviewException as exc:
            body = exc.args[0] if exc.args and isinstance(exc.args[0], dict) else {"message": str(exc)}
            status = body.get("status")
            if status == 429:  # the client's adapter already retried: wait out the window or stop
                wait = reset_wait_s(body, None, default_s=60.0)
                if wait > max_wait_s or attempt == max_attempts:
                    raise RateLimitedError(body.get("message", ""), "/login", wait, max_wait_s) from exc
                on_event(f"429 on /login: waiting {wait:.1f}s until resetTime")
                time.sleep(wait + 0.05)
                continue
            if (status or 0) >= 500:
                raise OpenReviewError(body.get("name", "LoginError"), body.get("message", ""),
                                      status, "/login") from exc
            raise CredentialsError(body.get("name", "LoginError"),
                                   f"login as {username!r} failed: {body.get('message', '')}",
                                   status, "/login", logged_in=False) from exc
    raise AssertionError("unreachable")


class OpenReviewApi:
    """A (logged-in) v1 or v2 client plus the limiter; `get_json` returns raw JSON.

    `token` reuses an earlier login; `relogin(expired_token) -> new token` is called once per request
    on TokenExpiredError (the resource shares one login among all its clients and threads).
    """

    def __init__(self, baseurl: str, api: str, username: str | None, password: str | None,
                 limiter: RateLimiter | None = None, max_wait_s: float = 3900.0,
                 attachment_limiter: RateLimiter | None = None,
                 max_attempts: int = 8, on_event: Callable[[str], None] | None = None,
                 timeout_s: float = 60.0, token: str | None = None,
                 relogin: Callable[[str | None], str] | None = None, token_ttl_s: int = TOKEN_TTL_S,
                 answers=None):
        self.api, self.baseurl = api, baseurl.rstrip("/")
        self.answers = answers  # reviewbench_assets.io.attempt.AnswerCache of the run's attempt, or None
        self.limiter = limiter or RateLimiter()
        # None: files share the API's limiter (a bare client); the resource passes its own
        self.attachment_limiter = attachment_limiter or self.limiter
        self.max_wait_s, self.max_attempts, self.timeout_s = max_wait_s, max_attempts, timeout_s
        self.on_event = on_event or (lambda msg: None)
        self.stats: Counter = Counter()
        self._local = threading.local()  # requests made by the calling thread (per-forum accounting)
        cls = _client_class(api)
        # A login is one request of the same budget, so it waits its turn like any other (a token
        # costs nothing: _reading_class).
        if username and not token:
            self.limiter.wait()
            self.client = _logged_in_client(self.baseurl, api, username, password or "",
                                            max_attempts=max_attempts, token_ttl_s=token_ttl_s,
                                            on_event=self.on_event, max_wait_s=max_wait_s)
            relogin = relogin or (lambda _expired: login(  # noqa: E731
                self.baseurl, api, username, password or "", max_attempts=max_attempts,
                token_ttl_s=token_ttl_s, on_event=self.on_event))
        elif token:  # an earlier login: no login request, and no profile request (_reading_class)
            self.client = _reading_class(cls)(baseurl=self.baseurl, token=token)
        else:  # anonymous, unless OPENREVIEW_USERNAME/PASSWORD are set (the client reads them)
            self.client = cls(baseurl=self.baseurl)
        self.relogin = relogin
        # The single retry layer: the adapter retries nothing (connection errors raise, 5xx and
        # 429 come back as responses) and `_request` decides.
        adapter = HTTPAdapter(max_retries=0, pool_maxsize=64)
        for prefix in list(self.client.session.adapters):  # incl. the client's /notes/edits mount
            self.client.session.mount(prefix, adapter)

    @property
    def token(self) -> str | None:
        return self.client.token

    def _set_token(self, token: str) -> None:
        self.client.token = token
        self.client.headers["Authorization"] = "Bearer " + token

    def _retry(self, cause: str, path: str, attempt: int, wait: float) -> None:
        self.stats["retries"] += 1
        self.stats[f"retries_{cause}"] += 1
        self.on_event(f"retrying GET {path} after {cause} (attempt {attempt + 1} of "
                      f"{self.max_attempts} in {wait:.1f}s)")
        time.sleep(wait)

    def _request(self, path: str, params: dict | None, stream: bool = False) -> requests.Response:
        url = self.baseurl + path
        relogged = False
        limiter = self.attachment_limiter if path in ATTACHMENT_PATHS else self.limiter
        for attempt in range(1, self.max_attempts + 1):
            sent_at = limiter.wait()
            self.stats["requests"] += 1
            self._local.requests = getattr(self._local, "requests", 0) + 1
            try:
                resp = self.client.session.get(url, params=params, headers=self.client.headers,
                                               timeout=self.timeout_s, stream=stream)
            except (requests.ConnectionError, requests.Timeout) as exc:
                self.stats["connection_errors"] += 1
                if (cause := unreachable_cause(exc)) is not None:  # fail fast: no retry can help
                    raise UnreachableError(self.baseurl, self.api, cause) from exc
                if attempt == self.max_attempts:
                    raise OpenReviewError(type(exc).__name__, str(exc), None, path) from exc
                self._retry(type(exc).__name__, path, attempt, backoff_s(attempt))
                continue
            if resp.status_code == 429:
                self.stats["rate_limited"] += 1
                body = _json_or_text(resp)
                wait = reset_wait_s(body, resp.headers.get("Retry-After"), default_s=60.0)
                if wait > self.max_wait_s:
                    raise RateLimitedError(body.get("message", ""), path, wait, self.max_wait_s)
                if attempt == self.max_attempts:
                    raise OpenReviewError("RateLimitError", body.get("message", ""), 429, path)
                self.stats["rate_limit_wait_s"] += wait
                limit, used = refusal_counts(body)
                interval = limiter.learn(limit, wait, sent_at, used)
                self.on_event(f"429 on {path}: waiting {wait:.1f}s until resetTime"
                              + (" (the attachment budget; API requests go on)"
                                 if limiter is not self.limiter else "")
                              + (f"; pacing to {limit} requests per window: one every {interval:.1f}s"
                                 if isinstance(limit, int) else ""))
                time.sleep(wait + 0.05)
                continue
            if resp.status_code >= 500:
                self.stats["server_errors"] += 1
                if attempt == self.max_attempts:
                    raise OpenReviewError("ServerError", resp.text[:200], resp.status_code, path)
                self._retry(f"HTTP {resp.status_code}", path, attempt, backoff_s(attempt))
                continue
            if resp.status_code in (401, 403):
                body = _json_or_text(resp)
                name = body.get("name", "Error")
                if name == "TokenExpiredError" and self.relogin and not relogged:
                    # Tokens expire (one hour by default): log in once more and repeat the request.
                    relogged = True
                    self.stats["relogins"] += 1
                    self.on_event(f"token expired on {path}: logging in again")
                    self._set_token(self.relogin(self.client.token))
                    continue
                if name in ("ChallengeRequiredError", "TokenExpiredError", "UnauthorizedError") or (
                        resp.status_code == 401):
                    raise CredentialsError(name, body.get("message", ""), resp.status_code, path,
                                           logged_in=bool(self.client.token))
            if resp.status_code >= 400:
                body = _json_or_text(resp)
                raise OpenReviewError(body.get("name", "Error"), body.get("message", ""),
                                      resp.status_code, path)
            return resp
        raise OpenReviewError("RetryError", f"no answer after {self.max_attempts} attempts", None, path)

    def thread_requests(self) -> int:
        """Requests (tries included) this client has made from the calling thread so far."""
        return getattr(self._local, "requests", 0)

    def get_json(self, path: str, params: dict | None = None) -> dict:
        """The JSON answer to `GET path?params`. With `answers` (a reviewbench_assets.io.attempt.AnswerCache
        of the run's attempt), an answer a killed run of the same attempt received is taken from it
        without a request (counted for the calling thread at what it cost, so per-forum figures
        equal an uninterrupted run's), and each new answer is kept there as it arrives."""
        if self.answers is not None:
            got = self.answers.get(self.api, path, params)
            if got is not None:
                self.stats["answers_resumed"] += 1
                self._local.requests = getattr(self._local, "requests", 0) + got[1]
                return json.loads(got[0])
        before = self.thread_requests()
        resp = self._request(path, params)
        try:  # a 200 that is no JSON object (a proxy's page): transient, not the caller's crash
            body = resp.json()
            if not isinstance(body, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            raise OpenReviewError("BadBody", f"{exc}: {resp.text[:120]!r}", None, path) from exc
        if self.answers is not None:
            self.answers.put(self.api, path, params, resp.content, self.thread_requests() - before)
        return body

    def get_stream(self, path: str, params: dict | None = None) -> requests.Response:
        """The answer with its body not yet read (`iter_content`; close it, e.g. `with`)."""
        return self._request(path, params, stream=True)

    def get_bytes(self, path: str, params: dict | None = None) -> bytes:
        return self._request(path, params).content


def _json_or_text(resp: requests.Response) -> dict:
    try:
        body = resp.json()
        return body if isinstance(body, dict) else {"message": str(body)}
    except ValueError:
        return {"name": "Error", "message": resp.text[:200]}
