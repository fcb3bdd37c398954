"""OpenReview access: base URLs, the crawl account (only through EnvVar) and request pacing."""
from __future__ import annotations

from collections.abc import Callable

import dagster as dg
from pydantic import Field, PrivateAttr

from reviewbench_assets.domain.openreview_api import OpenReviewApi, RateLimiter


class OpenReviewResource(dg.ConfigurableResource):
    api_v1_url: str = Field(default="https://api.openreview.net")
    api_v2_url: str = Field(default="https://api2.openreview.net")
    web_url: str = Field(default="https://openreview.net", description="Site serving /revisions")
    username: str | None = Field(default=None, description="Set with EnvVar('OPENREVIEW_USERNAME')")
    password: str | None = Field(default=None, description="Set with EnvVar('OPENREVIEW_PASSWORD')")
    min_interval_s: float = Field(default=0.5, description="Pause between requests (API + browser)")
    max_rate_limit_wait_s: float = Field(default=3900.0, description="Longest 429 wait before failing")
    allow_earliest_public: bool = Field(default=False, description="Initial-PDF fallback policy")
    _limiter: RateLimiter | None = PrivateAttr(default=None)

    @property
    def limiter(self) -> RateLimiter:
        if self._limiter is None:
            self._limiter = RateLimiter(self.min_interval_s)
        return self._limiter

    def api(self, version: str, on_event: Callable[[str], None] | None = None) -> OpenReviewApi:
        """A logged-in client for API `v1` or `v2`; all clients share one rate limiter."""
        kw = dict(limiter=self.limiter, max_wait_s=self.max_rate_limit_wait_s, on_event=on_event)
        if version == "v2":
            return OpenReviewApi(self.api_v2_url, "v2", self.username, self.password, **kw)
        # One login (on API v2, as openreview-py's v1 client does itself) serves both hosts.
        token = self.api("v2").token if self.username else None
        return OpenReviewApi(self.api_v1_url, "v1", None, None, token=token, **kw)
