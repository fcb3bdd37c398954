"""OpenReview access: base URLs, the crawl account (only through EnvVar) and request pacing."""
from __future__ import annotations

import threading
from collections.abc import Callable
from urllib.parse import urlparse

import dagster as dg
from pydantic import Field, PrivateAttr

from resources.openreview_api import CREDENTIAL_VARS, TOKEN_TTL_S, CredentialsError, OpenReviewApi, RateLimiter, login


class OpenReviewResource(dg.ConfigurableResource):
    api_v1_url: str = Field(default="https://api.openreview.net")
    api_v2_url: str = Field(default="https://api2.openreview.net")
    web_url: str = Field(default="https://openreview.net", description="Site serving /revisions")
    username: str | None = Field(default=None, description="Set with EnvVar('OPENREVIEW_USERNAME')")
    password: str | None = Field(default=None, description="Set with EnvVar('OPENREVIEW_PASSWORD')")
    min_interval_s: float = Field(default=0.5, description="Pause between requests (API + browser)")
    max_rate_limit_wait_s: float = Field(default=3900.0, description="Longest 429 wait before failing")
    max_attempts: int = Field(default=8, description="Tries per request (5xx, dropped connections, 429)")
    token_ttl_s: int = Field(default=TOKEN_TTL_S, description="Token lifetime asked for at login "
                             "(OpenReview's default is one hour; an expired token triggers one new login)")
    _limiter: RateLimiter | None = PrivateAttr(default=None)
    _attachment_limiter: RateLimiter | None = PrivateAttr(default=None)
    _token: str | None = PrivateAttr(default=None)
    _login_lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def limiter(self) -> RateLimiter:
        if self._limiter is None:
            self._limiter = RateLimiter(self.min_interval_s)
        return self._limiter

    @property
    def attachment_limiter(self) -> RateLimiter:
        """PDF and file downloads: OpenReview's separate attachment budget (resources/openreview_api.py
        ATTACHMENT_PATHS), paced on its own from its own 429s."""
        if self._attachment_limiter is None:
            self._attachment_limiter = RateLimiter(self.min_interval_s)
        return self._attachment_limiter

    def token(self, expired: str | None = None) -> str | None:
        """The run's one login, shared by every client and thread; a new one only when the current
        token is the one that expired (another thread may already have replaced it)."""
        if not self.username:
            return None
        with self._login_lock:
            if self._token is None or self._token == expired:
                self.limiter.wait()  # POST /login counts in the API budget too
                # v2 serves the login for both APIs (openreview-py's v1 client logs in there too).
                self._token = login(self.api_v2_url, "v2", self.username, self.password or "",
                                    max_attempts=self.max_attempts, token_ttl_s=self.token_ttl_s,
                                    max_wait_s=self.max_rate_limit_wait_s)
            return self._token

    def check_credentials(self) -> None:
        """Before any request: the real OpenReview answers anonymous crawls with 403 (after the
        crawl has started), so missing credentials for it are reported here, naming the variables."""
        real = [u for u in (self.api_v1_url, self.api_v2_url) if urlparse(u).hostname and
                (urlparse(u).hostname == "openreview.net" or urlparse(u).hostname.endswith(".openreview.net"))]
        missing = [var for var, value in zip(CREDENTIAL_VARS, (self.username, self.password), strict=False) if not value]
        if real and missing:
            raise CredentialsError("MissingCredentials", f"no {' / '.join(missing)} set for {real[0]}", None,
                                   "(before any request)", logged_in=False)

    def api(self, version: str, on_event: Callable[[str], None] | None = None, answers=None) -> OpenReviewApi:
        """A client for API `v1` or `v2`; all clients share the two rate limiters and one login.
        `answers`: the run's attempt's AnswerCache (JSON answers kept and resumed, issue 29.3)."""
        self.check_credentials()
        url = self.api_v2_url if version == "v2" else self.api_v1_url
        return OpenReviewApi(url, version, None, None, token=self.token(),
                             relogin=self.token if self.username else None, limiter=self.limiter,
                             attachment_limiter=self.attachment_limiter,
                             max_wait_s=self.max_rate_limit_wait_s, max_attempts=self.max_attempts,
                             on_event=on_event, answers=answers)
