"""The ConfigurableResources: thin Dagster adapters over the client modules beside them, so the
clients stay Dagster-free (testable without Dagster, usable from scripts) and each asset takes what it
needs by resource. One module because each adapter is a few fields and a factory method:
- `OpenReviewResource`: base URLs, the crawl account (only through EnvVar), pacing; makes
  `openreview_api.OpenReviewApi` clients that share one login and two rate limiters;
- `BrowserResource`: Debian's chromium through Playwright (`browser.py`) reading `/revisions` pages;
- `StorageResource`: the storage root, a local folder or `s3://bucket/prefix` (`store.py`);
- `RayResource`: a local Ray or an existing cluster;
- `LLMResource`: the LLM behind the dialogue merge (`llm_client.py`): none (rule-based), an
  OpenAI-compatible endpoint, or vLLM offline batch inference in Ray (`ray.data.llm`, GPU machines,
  extra `gpu`; unverified here, only its configuration is unit-tested).
"""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Literal
from urllib.parse import urlparse

import dagster as dg
from dagster_aws.s3 import S3Resource
from pydantic import Field, PrivateAttr

from resources.browser import LocalAnswers, ScrapeResults, api_origin, scrape_all
from resources.llm_client import OpenAICompatibleClient, VLLMRayClient
from resources.openreview_api import CREDENTIAL_VARS, TOKEN_TTL_S, CredentialsError, OpenReviewApi, RateLimiter, login
from resources.store import Store, store_from_uri

__all__ = ["BrowserResource", "LLMResource", "OpenReviewResource", "RayResource", "StorageResource"]


# ---- OpenReview: base URLs, the crawl account (only through EnvVar) and request pacing ----------------
class OpenReviewResource(dg.ConfigurableResource):
    api_v1_url: str = Field(default="https://api.openreview.net")
    api_v2_url: str = Field(default="https://api2.openreview.net")
    web_url: str = Field(default="https://openreview.net", description="Site serving /revisions")
    username: str | None = Field(default=None, description="Set with EnvVar('OPENREVIEW_USERNAME')")
    password: str | None = Field(default=None, description="Set with EnvVar('OPENREVIEW_PASSWORD')")
    min_interval_s: float = Field(default=0.5, description="Pause between requests (API + browser)")
    max_rate_limit_wait_s: float = Field(default=3900.0, description="Longest 429 wait before failing")
    rate_limit_window_s: float | None = Field(default=None, description=(
        "Length of OpenReview's rate-limit window for API requests, when known (a 429 says the limit and "
        "the reset, not the window: resources/rate_limiter.py); unset, it is measured from the 429s"))
    attachment_window_s: float | None = Field(default=None, description="The same for file downloads")
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
            self._limiter = RateLimiter(self.min_interval_s, window_s=self.rate_limit_window_s)
        return self._limiter

    @property
    def attachment_limiter(self) -> RateLimiter:
        """PDF and file downloads: OpenReview's separate attachment budget (resources/openreview_api.py
        ATTACHMENT_PATHS), paced on its own from its own 429s."""
        if self._attachment_limiter is None:
            self._attachment_limiter = RateLimiter(self.min_interval_s, window_s=self.attachment_window_s)
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


class BrowserResource(dg.ConfigurableResource):
    executable_path: str = Field(default="/usr/bin/chromium", description="Debian chromium")
    max_pages: int = Field(default=8, description="Concurrent pages in the one browser")
    timeout_ms: int = 20_000
    retries: int = 2

    def scrape_revisions(self, web_url: str, token: str | None, forum_ids: list[str],
                         limiter: RateLimiter | None = None,
                         on_done: Callable[..., None] = lambda fid, answer=None, requests=None: None,
                         api_urls: dict[int, str] | None = None,
                         notes: dict[str, tuple[str, dict]] | None = None,
                         answers: LocalAnswers | None = None, kept=None) -> ScrapeResults:
        """forum id -> RevisionPage, or the exception that the page ended with; `.requests` per
        forum. `on_done(forum id, page or exception, requests)` as each forum ends. `api_urls`: API version -> the API host the page talks to (its requests are
        rate-limited); `notes`: forum id -> (API version, submission note) as the crawl holds them,
        so the page's note lookup is answered without a request (`LocalAnswers`). `answers`: the
        `LocalAnswers` of an earlier call of the same run, so a stage that reads its forums in
        rounds learns the venue's invitations and the site's scripts once, not once a round.
        `kept`: the run's attempt's AnswerCache: the invitations answers are kept there too, and
        taken from it, so a killed run's re-run does not ask them again."""
        api_urls = api_urls or {}
        versions = {api_origin(u): v for v, u in api_urls.items()}
        if answers is None or answers.api_versions != versions:
            answers = LocalAnswers(None, versions)
            answers.web_limiter = RateLimiter((limiter or RateLimiter()).min_interval_s)
        local = answers
        local.kept = kept
        local.notes = notes or {}  # this call's forums only
        local.lock = asyncio.Lock()  # a lock is bound to the event loop it first waited in: one per call
        results = asyncio.run(scrape_all(self, web_url.rstrip("/"), token, forum_ids,
                                          limiter or RateLimiter(), on_done, api_urls, local))
        local.notes = {}
        results.answers = local
        return results


# ---- the Dagster resource: a storage root, a local folder by default, `s3://bucket/prefix` in production.
# Credentials and endpoint come from dagster-aws's `S3Resource` (configured with `EnvVar`s), the
# bytes move through `pyarrow.fs`, so the local and the S3 path run the same code.
class StorageResource(dg.ConfigurableResource):
    root: str = Field(description="Local directory or s3://bucket/prefix holding every artefact")
    s3: S3Resource = Field(default_factory=S3Resource, description="Used only for s3:// roots")

    def s3_options(self) -> dict:
        s3 = self.s3
        opts: dict = {}
        if s3.region_name:
            opts["region"] = s3.region_name
        if s3.endpoint_url:
            scheme, _, rest = s3.endpoint_url.partition("://")
            opts["endpoint_override"] = rest or scheme
            opts["scheme"] = scheme if rest else "https"
        if s3.aws_access_key_id:
            opts["access_key"] = s3.aws_access_key_id
            opts["secret_key"] = s3.aws_secret_access_key
            if s3.aws_session_token:
                opts["session_token"] = s3.aws_session_token
        return opts

    def store(self) -> Store:
        """The storage root, with the file sets of runs killed while publishing made whole first
        (resources/store_publish.py), so what any asset reads is one run's set."""
        if not self.root.startswith("s3://"):
            return store_from_uri(self.root)  # recovers before returning
        # boto3 (through dagster-aws) only for the S3 lock object's conditional puts
        return store_from_uri(self.root, self.s3_options(), s3_client_factory=self.s3.get_client)


# ---- Ray: a local cluster by default, or an existing one at `address` (`auto`, `ray://head:10001`)
class RayResource(dg.ConfigurableResource):
    address: str | None = Field(default=None, description="None starts a local Ray")
    num_cpus: int | None = Field(default=None, description="CPUs for a local Ray (None: all)")


# ---- the LLM behind the dialogue merge ---------------------------------------------------------------
class LLMResource(dg.ConfigurableResource):
    backend: Literal["none", "openai", "vllm_ray"] = Field(
        default="none", description="none: rule-based merge only; openai: HTTP endpoint; vllm_ray: Ray Data + vLLM")
    model: str = Field(default="", description="model name sent to the endpoint / vLLM model source (HF id or path)")
    base_url: str = Field(default="", description="openai backend: e.g. http://127.0.0.1:8000/v1")
    api_key: str | None = Field(default=None, description="openai backend: bearer token (EnvVar)")
    timeout_s: float = Field(default=120.0, description="openai backend: per request")
    structured_output: Literal["json_schema", "json_object"] = Field(
        default="json_schema", description="openai backend: response_format shape; json_object for "
        "llama-cpp-python's server, json_schema for vllm serve / OpenAI")
    concurrency: int = Field(default=4, description="openai: parallel requests; vllm_ray: engine replicas")
    batch_size: int = Field(default=64, description="requests per LLM batch (both back ends)")
    max_merge_tokens: int = Field(default=4096, description="answer budget of one merge")
    max_input_chars: int = Field(default=24_000, description="longer turns are not sent (rule-based merge kept)")
    tensor_parallel_size: int = Field(default=1, description="vllm_ray: GPUs per engine")
    max_model_len: int = Field(default=16384, description="vllm_ray: context length")
    accelerator_type: str | None = Field(default=None, description="vllm_ray: e.g. H100")

    @classmethod
    def from_env(cls) -> LLMResource:
        """REVIEWBENCH_LLM_BACKEND [none], REVIEWBENCH_LLM_MODEL, REVIEWBENCH_LLM_BASE_URL,
        REVIEWBENCH_LLM_CONCURRENCY; REVIEWBENCH_LLM_API_KEY only as an EnvVar (never shown)."""
        import os

        env = os.environ.get
        return cls(backend=env("REVIEWBENCH_LLM_BACKEND", "none"), model=env("REVIEWBENCH_LLM_MODEL", ""),
                   base_url=env("REVIEWBENCH_LLM_BASE_URL", ""),
                   concurrency=int(env("REVIEWBENCH_LLM_CONCURRENCY", "4")),
                   structured_output=env("REVIEWBENCH_LLM_STRUCTURED_OUTPUT", "json_schema"),
                   api_key=dg.EnvVar("REVIEWBENCH_LLM_API_KEY") if env("REVIEWBENCH_LLM_API_KEY") else None)

    def client(self):
        """The `domain.llm.LLMClient` for this configuration, or None (backend `none`)."""
        if self.backend == "none":
            return None
        if not self.model:
            raise ValueError("LLMResource: `model` is required for backend " + self.backend)
        if self.backend == "openai":
            if not self.base_url:
                raise ValueError("LLMResource: `base_url` is required for backend openai")
            return OpenAICompatibleClient(base_url=self.base_url, model=self.model, api_key=self.api_key,
                                          timeout_s=self.timeout_s, concurrency=self.concurrency,
                                          structured_output=self.structured_output)
        return VLLMRayClient(self)

    # ---- vLLM in Ray ------------------------------------------------------------------------
    def vllm_processor_config(self) -> dict:
        """Keyword arguments of `ray.data.llm.vLLMEngineProcessorConfig` (plain data, testable
        without vLLM)."""
        cfg = {
            "model_source": self.model,
            "engine_kwargs": {"tensor_parallel_size": self.tensor_parallel_size,
                              "max_model_len": self.max_model_len,
                              "enable_prefix_caching": True},
            "batch_size": self.batch_size,
            "concurrency": self.concurrency,
        }
        if self.accelerator_type:
            cfg["accelerator_type"] = self.accelerator_type
        return cfg
