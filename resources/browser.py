"""Playwright on Debian's chromium: read `/revisions?id=<forum>` the way openreview.net serves it.

openreview.net renders the revision history client-side (public source openreview/openreview-web:
`app/revisions/page.js`, `Revisions.js`, `V1Revisions.js`, `RevisionsList.js`, `lib/api-client.js`).
The page itself asks the API, in this order:
  1. the note (`getNoteById`): v2 `GET /notes?id=<forum>&details=writable,forumContent&trash=true`,
     and the same on v1 when v2 answers NotFound or nothing;
  2. a v2 note (`version: 2`): `GET /notes/edits?note.id=<forum>&sort=tcdate&details=writable,presentation,invitation&trash=true`;
     a v1 note: `GET /references?referent=<forum>&original=true&trash=true`, then
     `GET /invitations?ids=<each reference's invitation>&expired=true`.
The reader takes the revisions from those API responses as the page received them (parsed by the
same functions as the API path, trashed edits left out as the API path never sees them), so no
selector of ours decides the answer. The DOM is used only to know the page has finished:
`.references-list` (its rows, or the "No revisions to display." alert), an error alert
(`.alert-danger` "Error: ..."), the page-level `.error-display`, or the redirect to `/challenge`
that a ChallengeRequiredError causes.

Every request the page sends to an API host, and its own navigation, waits for the shared
RateLimiter first (Playwright route interception), and every request the page makes is counted per
forum. One browser, a bounded pool of long-lived pages, per-page timeouts and retries. The reader
is the logged-in crawl account: its API token is set as the site's `openreview.accessToken` cookie.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import dagster as dg
from pydantic import Field

from resources.openreview_api import RateLimiter

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
# When has the page finished? (openreview-web: RevisionsList/V1RevisionsList render
# `.references-list`; ErrorAlert an `.alert-danger` in its place inside page.js's `.revisions`
# container; ErrorDisplay `.error-display`;
# api-client sends a ChallengeRequiredError to /challenge.)
_FINISHED_JS = """() => {
  if (location.pathname.startsWith('/challenge')) return {state: 'challenge'};
  const shown = document.querySelector('.error-display');
  if (shown) return {state: 'error', text: (shown.querySelector('.error-message') || shown).textContent.trim()};
  const list = document.querySelector('.references-list');
  if (list) return {state: 'list', rows: list.querySelectorAll(':scope > .row').length,
                    empty: /No revisions to display/.test(list.textContent)};
  const alert = document.querySelector('.revisions .alert-danger');  // ErrorAlert, in place of the list
  if (alert) return {state: 'error', text: alert.textContent.trim()};
  return null;
}"""


class RevisionPageError(RuntimeError):
    pass


class ScrapeResults(dict):
    """forum id -> RevisionPage or the exception its page ended with; `.requests`: forum id ->
    {"api": requests to the API hosts, "all": every request the page made} (tries included)."""

    def __init__(self):
        super().__init__()
        self.requests: dict[str, dict[str, int]] = {}


def _origin(url: str) -> str:
    p = urlsplit(url)
    return f"{p.scheme}://{p.netloc}"


def _query(url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(url).query).items()}


class _PageState:
    """What one tab saw for the forum it is showing: counted requests and captured API bodies."""

    def __init__(self):
        self.forum = ""
        self.counts = {"api": 0, "all": 0}
        self.bodies: list = []  # tasks -> (kind, status, body)

    def reset(self, forum: str) -> None:
        self.forum, self.counts, self.bodies = forum, {"api": 0, "all": 0}, []


async def _capture(resp, kind: str):
    try:
        return kind, resp.status, await resp.json()
    except Exception as exc:  # body gone (navigation) or not JSON
        return kind, resp.status, {"message": f"unreadable response body: {exc}"}


def _on_response(state: _PageState, is_api: Callable[[str], bool]):
    def handle(resp) -> None:
        url = resp.url
        if not is_api(url):
            return
        path, q = urlsplit(url).path, _query(url)
        kind = None
        if path.endswith("/notes/edits") and q.get("note.id") == state.forum:
            kind = "edits"
        elif path.endswith("/references") and q.get("referent") == state.forum:
            kind = "references"
        if kind:
            state.bodies.append(asyncio.ensure_future(_capture(resp, kind)))
    return handle


async def _install(page, state: _PageState, limiter: RateLimiter, is_api: Callable[[str], bool]) -> None:
    async def route(route) -> None:
        req = route.request
        api = is_api(req.url)
        if api or req.resource_type == "document":
            await asyncio.to_thread(limiter.wait)  # the same budget as the API client
        state.counts["all"] += 1
        if api:
            state.counts["api"] += 1
        await route.continue_()

    await page.route("**/*", route)
    page.on("response", _on_response(state, is_api))


class RevisionPage(dict):
    """What a revisions page received from the API: `{"kind": "edits" | "references", "items": [...]}`
    (deleted ones dropped), exactly as the page got it; turning it into revisions is the domain's
    (`domain.revisions.revisions_from_page` of the assets package), not the browser client's."""


async def _read_page(page, state: _PageState, web_url: str, forum_id: str, timeout_ms: int) -> RevisionPage:
    state.reset(forum_id)
    await page.goto(f"{web_url}/revisions?id={forum_id}", timeout=timeout_ms)
    handle = await page.wait_for_function(_FINISHED_JS, timeout=timeout_ms, polling=100)
    done = await handle.json_value()
    captured = await asyncio.gather(*state.bodies)
    if done["state"] == "challenge":
        raise RevisionPageError(f"revisions page for {forum_id}: redirected to /challenge "
                                "(ChallengeRequiredError: the crawl account is not logged in)")
    if done["state"] == "error":
        raise RevisionPageError(f"revisions page for {forum_id} says: {done['text'][:300]}")
    for kind, status, body in reversed(captured):  # the page's last answer is what it shows
        if status >= 400:
            raise RevisionPageError(f"revisions page for {forum_id}: {kind} answered {status}: "
                                    f"{body.get('message', '')}"[:300])
        items = body.get("edits" if kind == "edits" else "references") or []
        return RevisionPage(kind=kind, items=[x for x in items if not x.get("ddate")])
    raise RevisionPageError(f"revisions page for {forum_id} finished ({done}) without a revisions API "
                            "response (did openreview.net start rendering it on the server?)")


async def _scrape_one(context, page, state: _PageState, web_url: str, forum_id: str, cfg: BrowserResource,
                      limiter: RateLimiter, is_api: Callable[[str], bool], totals: dict):
    """(revisions, page to reuse). A failed try closes its page: the retry gets a fresh one.
    `totals` accumulates the requests of every try."""
    last: Exception | None = None
    for _ in range(cfg.retries + 1):
        if page is None:
            page = await context.new_page()
            await _install(page, state, limiter, is_api)
        try:
            revs = await _read_page(page, state, web_url, forum_id, cfg.timeout_ms)
            return revs, page
        except Exception as exc:  # timeouts, navigation errors, page-reported errors
            last = exc
            await page.close()
            page = None
        finally:
            for k, v in state.counts.items():
                totals[k] = totals.get(k, 0) + v
            state.counts = {"api": 0, "all": 0}
    raise RevisionPageError(f"revisions page for {forum_id} failed after {cfg.retries + 1} tries: {last}")


async def _scrape_all(cfg: BrowserResource, web_url: str, token: str | None, forum_ids: list[str],
                      limiter: RateLimiter, on_done: Callable[[str], None], api_urls: list[str]) -> ScrapeResults:
    """`max_pages` workers, each with one long-lived tab that navigates from forum to forum
    (opening a tab per forum costs chromium more CPU than the page itself on small machines)."""
    from playwright.async_api import async_playwright

    web = _origin(web_url)
    apis = {_origin(u) for u in api_urls}

    def is_api(url: str) -> bool:  # given API hosts, else anything the site fetches from elsewhere
        o = _origin(url)
        return o in apis if apis else (o != web and url.startswith("http"))

    results = ScrapeResults()
    queue: asyncio.Queue[str] = asyncio.Queue()
    for fid in forum_ids:
        queue.put_nowait(fid)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=cfg.executable_path, args=CHROMIUM_FLAGS,
                                           headless=True)
        try:
            context = await browser.new_context()
            if token:  # the site's session cookie; the page's API requests send it (credentials: include)
                host = urlsplit(web_url).hostname or ""
                domain = host if host.replace(".", "").isdigit() or host == "localhost" else "." + host
                await context.add_cookies([{"name": "openreview.accessToken", "value": token,
                                            "domain": domain, "path": "/"}])

            async def worker() -> None:
                page, state = None, _PageState()
                try:
                    while not queue.empty():
                        fid = queue.get_nowait()
                        totals: dict[str, int] = {}
                        try:
                            results[fid], page = await _scrape_one(context, page, state, web_url, fid, cfg,
                                                                   limiter, is_api, totals)
                        except Exception as exc:
                            results[fid], page = exc, None
                        results.requests[fid] = totals
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
                         on_done: Callable[[str], None] = lambda fid: None,
                         api_urls: list[str] | tuple[str, ...] = ()) -> ScrapeResults:
        """forum id -> RevisionPage, or the exception that the page ended with; `.requests` per
        forum. `api_urls`: the API hosts the page talks to (their requests are rate-limited)."""
        return asyncio.run(_scrape_all(self, web_url.rstrip("/"), token, forum_ids,
                                       limiter or RateLimiter(), on_done, list(api_urls)))
