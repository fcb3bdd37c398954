"""Playwright on Debian's chromium: read `/revisions?id=<forum>` pages the way a user sees them.

openreview.net renders the revision list client-side, so a plain HTTP GET does not see it. One
browser, a bounded pool of concurrent pages, per-page timeouts and retries, and the API's rate
limiter shared so browser and client together stay under OpenReview's limits. The reader is the
logged-in crawl account: its API token is set as the site's `openreview.accessToken` cookie.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from urllib.parse import urlsplit

import dagster as dg
from pydantic import Field

from resources.openreview_api import RateLimiter
from reviewbench_assets.domain.revisions import Revision

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
# The rendered page's contract (openreview_replica/ serves the same markup).
LIST_SELECTOR = '#revisions-list[data-loaded="true"]'
_EXTRACT_JS = """(list) => ({
  error: list.getAttribute('data-error'),
  revisions: Array.from(list.querySelectorAll('.revision')).map(el => ({
    revision_id: el.getAttribute('data-revision-id'),
    tcdate: Number(el.getAttribute('data-tcdate')),
    invitation: el.getAttribute('data-invitation') || '',
    pdf_url: (el.querySelector('a.pdf-link') || {}).href || null,
  })),
})"""


def _api_path(url: str | None) -> str | None:
    """The browser gives absolute links; keep path+query so the API client fetches them."""
    if not url:
        return None
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


class RevisionPageError(RuntimeError):
    pass


async def _read_page(page, web_url: str, forum_id: str, timeout_ms: int) -> list[Revision]:
    await page.goto(f"{web_url}/revisions?id={forum_id}", timeout=timeout_ms)
    handle = await page.wait_for_selector(LIST_SELECTOR, state="attached", timeout=timeout_ms)
    data = await handle.evaluate(_EXTRACT_JS)
    if data["error"]:
        raise RevisionPageError(f"revisions page for {forum_id} says: {data['error']}")
    return [Revision(**{**r, "pdf_url": _api_path(r["pdf_url"])}) for r in data["revisions"]]


async def _scrape_one(context, page, web_url: str, forum_id: str, timeout_ms: int, retries: int,
                      limiter: RateLimiter):
    """(revisions, page to reuse). A failed try closes its page: the retry gets a fresh one."""
    last: Exception | None = None
    for _ in range(retries + 1):
        if page is None:
            page = await context.new_page()
        try:
            await asyncio.to_thread(limiter.wait)
            return await _read_page(page, web_url, forum_id, timeout_ms), page
        except Exception as exc:  # timeouts, navigation errors, page-reported errors
            last = exc
            await page.close()
            page = None
    raise RevisionPageError(f"revisions page for {forum_id} failed after {retries + 1} tries: {last}")


async def _scrape_all(cfg: "BrowserResource", web_url: str, token: str | None, forum_ids: list[str],
                      limiter: RateLimiter, on_done: Callable[[str], None]) -> dict:
    """`max_pages` workers, each with one long-lived tab that navigates from forum to forum
    (opening a tab per forum costs chromium more CPU than the page itself on small machines)."""
    from playwright.async_api import async_playwright

    results: dict[str, list[Revision] | Exception] = {}
    queue: asyncio.Queue[str] = asyncio.Queue()
    for fid in forum_ids:
        queue.put_nowait(fid)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=cfg.executable_path, args=CHROMIUM_FLAGS,
                                           headless=True)
        try:
            context = await browser.new_context()
            if token:
                host = urlsplit(web_url).hostname
                await context.add_cookies([{"name": "openreview.accessToken", "value": token,
                                            "domain": host, "path": "/"}])

            async def worker() -> None:
                page = None
                try:
                    while not queue.empty():
                        fid = queue.get_nowait()
                        try:
                            results[fid], page = await _scrape_one(context, page, web_url, fid,
                                                                   cfg.timeout_ms, cfg.retries, limiter)
                        except Exception as exc:
                            results[fid], page = exc, None
                        on_done(fid)
                finally:
                    if page is not None:
                        await page.close()

            await asyncio.gather(*(worker() for _ in range(max(1, min(cfg.max_pages, len(forum_ids))))))
        finally:
            await browser.close()
    return results


class BrowserResource(dg.ConfigurableResource):
    executable_path: str = Field(default="/usr/bin/chromium", description="Debian chromium")
    max_pages: int = Field(default=8, description="Concurrent pages in the one browser")
    timeout_ms: int = 20_000
    retries: int = 2

    def scrape_revisions(self, web_url: str, token: str | None, forum_ids: list[str],
                         limiter: RateLimiter | None = None,
                         on_done: Callable[[str], None] = lambda fid: None) -> dict:
        """forum id -> list[Revision], or the exception that the page ended with."""
        return asyncio.run(_scrape_all(self, web_url.rstrip("/"), token, forum_ids,
                                       limiter or RateLimiter(), on_done))
