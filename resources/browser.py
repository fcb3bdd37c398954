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

Every request the page sends to an API host waits for the shared RateLimiter first (Playwright
route interception), the page's own navigation for a limiter at the configured minimum interval
(openreview.net's pages are not the API whose 429s teach the shared one its pace), and every
request the page makes is counted per forum. The page's repeat lookups are answered in the browser
from what the run already holds (`LocalAnswers`): the submission note from the crawl (step 1, both
APIs) and the invitations received for an earlier forum (step 2 on v1), so only the revision history
reaches OpenReview. One browser, a bounded pool of long-lived pages, per-page timeouts and retries.
The reader is the logged-in crawl account: its API token is the site's `openreview.accessToken` cookie.
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import asynccontextmanager, contextmanager, nullcontext, suppress
from urllib.parse import parse_qs, urlsplit

from resources.openreview_api import RateLimiter, refusal_counts, reset_wait_s
from resources.store_publish import new_token, token_is_dead

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
# When has the page finished? (openreview-web: RevisionsList/V1RevisionsList render `.references-list`;
# ErrorAlert an `.alert-danger` in its place inside page.js's `.revisions` container; ErrorDisplay
# `.error-display`; api-client sends a ChallengeRequiredError to /challenge.)
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
    """A revisions page that did not give its forum's history (its error, a timeout, a failed request)."""


_ASSET_TYPES = frozenset({"script", "stylesheet", "font", "image"})


class LocalAnswers:
    """What the page asks and the run already knows, answered without a request.

    `notes`: forum id -> (API version, the submission note as the crawl fetched it). The page's
    `getNoteById` asks v2 first, then v1 when v2 has no such note: each gets what that API would
    answer (the note, or no note). `api_versions`: API origin -> 1 or 2. Invitations are learnt
    from the page's own `/invitations?ids=` answers, per id, for the whole run (a venue's forums
    ask for the same few); a query with an id never seen goes to OpenReview. `kept` (the attempt's
    answers) keeps those and each page's revisions answer as they arrive: a page killed between its
    revisions' arrival and its forum's checkpoint gets them back in the re-run without a request."""

    def __init__(self, notes: dict[str, tuple[str, dict]] | None, api_versions: dict[str, int]):
        self.notes, self.api_versions = notes or {}, api_versions
        self.invitations: dict[str, dict] = {}  # id -> invitation, for every id the API returned
        # the run's attempt's AnswerCache (reviewbench_assets/io/attempt.py), or None: the invitations
        # answers a killed run of the same attempt received are not asked again (issue 29.3)
        self.kept = None
        self.asked: set[str] = set()  # ids of queries answered (found or not: the API omits unknown ids)
        self.answered = 0
        self.lock = asyncio.Lock()  # invitations queries, one at a time (made lazily in the loop)
        # The page loads themselves go to openreview.net, not to the API whose 429s teach the shared
        # limiter its pace: they keep the configured minimum interval only.
        self.web_limiter = RateLimiter()
        # Playwright turns the HTTP cache off when requests are routed: the site's cacheable
        # scripts (openreview.net serves them `max-age=31536000, immutable`) are kept here instead.
        self.assets: dict[str, tuple[int, dict, bytes]] = {}

    def is_invitations(self, url: str) -> bool:
        return urlsplit(url).path.endswith("/invitations") and self.api_versions.get(api_origin(url)) == 1

    def answer(self, url: str, forum: str) -> dict | None:
        path, q = urlsplit(url).path, parse_qs(urlsplit(url).query)
        version = self.api_versions.get(api_origin(url))
        if path.endswith("/notes") and q.get("id") == [forum] and forum in self.notes and version:
            api, note = self.notes[forum]
            if int(api.lstrip("v")) != version:
                return {"notes": [], "count": 0}
            shown = {k: v for k, v in note.items() if k != "details"}
            shown["details"] = {"writable": False, "forumContent": note.get("content")}
            if version == 2:
                shown.setdefault("version", 2)
            return {"notes": [shown], "count": 1}
        if kind := _revisions_kind(url, forum):
            return self._kept("v2" if kind == "edits" else "v1", path, q)
        if path.endswith("/invitations") and version == 1 and q.get("expired") == ["true"]:
            ids = [i for v in q.get("ids", []) for i in v.split(",") if i]
            if ids and all(i in self.asked for i in ids):
                found = [self.invitations[i] for i in ids if i in self.invitations]
                return {"invitations": found, "count": len(found)}
            body = self._kept("v1", "/invitations", q)
            if body is not None:
                self.learn(url, body, keep=False)
            return body
        return None

    def _kept(self, api: str, path: str, q: dict[str, list[str]]):
        got = self.kept.get(api, path, _params(q)) if self.kept is not None else None
        return json.loads(got[0]) if got is not None else None  # kept whole (AnswerCache checks it)

    def learn(self, url: str, body, keep: bool = True, forum: str = "") -> None:
        """A 200 answer the page received: invitations learnt; they and the forum's revisions kept."""
        kind = _revisions_kind(url, forum)  # v1 pages ask /references, v2 pages /notes/edits
        if kind and isinstance(body, dict) and keep and self.kept is not None:
            self.kept.put("v2" if kind == "edits" else "v1", urlsplit(url).path, _query(url), json.dumps(body).encode(), 1)
        elif not kind and urlsplit(url).path.endswith("/invitations") and isinstance(body, dict):
            q = parse_qs(urlsplit(url).query)
            if keep and self.kept is not None:
                self.kept.put("v1", "/invitations", _params(q), json.dumps(body).encode(), 1)
            self.asked.update(i for v in q.get("ids", []) for i in v.split(",") if i)
            for inv in body.get("invitations") or []:
                if isinstance(inv, dict) and inv.get("id"):
                    self.invitations[inv["id"]] = inv


class ScrapeResults(dict):
    """forum id -> RevisionPage or the exception its page ended with; `.requests`: forum id ->
    {"api": requests to the API hosts, "all": every request the page made} (tries included)."""

    def __init__(self):
        super().__init__()
        self.requests: dict[str, dict[str, int]] = {}
        self.answered_locally = 0  # the page's lookups answered from the run's own data
        self.answers: LocalAnswers | None = None  # to pass to the next call of the same run


def _params(q: dict[str, list[str]]) -> dict[str, str]:
    return {k: v[-1] for k, v in q.items()}


def api_origin(url: str) -> str:
    return "{0.scheme}://{0.netloc}".format(urlsplit(url))


def _query(url: str) -> dict[str, str]:
    return _params(parse_qs(urlsplit(url).query))


def _revisions_kind(url: str, forum: str) -> str | None:
    """"edits" / "references" for the revisions page's own API request about `forum`, else None."""
    path, q = urlsplit(url).path, _query(url)
    if path.endswith("/notes/edits") and forum and q.get("note.id") == forum:
        return "edits"
    if path.endswith("/references") and forum and q.get("referent") == forum:
        return "references"
    return None


class _PageState:
    """What one tab saw for the forum it is showing: counted requests and captured API bodies."""

    def __init__(self):
        self.forum = ""
        self.counts = {"api": 0, "all": 0}
        self.bodies: list = []  # tasks -> (kind, status, body), or None (a 429 the limiter learnt from)
        self.sent_at: dict[str, float] = {}  # API url -> when the limiter let it go (learn's sent_at)

    def reset(self, forum: str) -> None:
        self.forum, self.counts, self.bodies, self.sent_at = forum, {"api": 0, "all": 0}, [], {}


async def _capture(resp, kind: str):
    try:
        return kind, resp.status, await resp.json()
    except Exception as exc:  # body gone (navigation) or not JSON
        return kind, resp.status, {"message": f"unreadable response body: {exc}"}


async def _learn_from_429(resp, limiter: RateLimiter, sent_at: float | None) -> None:
    """A page's API request (sent at `sent_at`) refused: the shared limiter learns, as the API client's."""
    try:
        body = await resp.json()
    except Exception:  # not JSON: the Retry-After header, else a minute
        body = {}
    limit, used = refusal_counts(body)
    limiter.learn(limit, reset_wait_s(body, (resp.headers or {}).get("retry-after"), 60.0), sent_at, used)


def _on_response(state: _PageState, is_api: Callable[[str], bool], limiter: RateLimiter):
    def handle(resp) -> None:
        if not is_api(url := resp.url):
            return
        if resp.status == 429:
            state.bodies.append(asyncio.ensure_future(_learn_from_429(resp, limiter, state.sent_at.get(url))))
        kind = _revisions_kind(url, state.forum)
        if kind:
            state.bodies.append(asyncio.ensure_future(_capture(resp, kind)))
    return handle


async def _install(page, state: _PageState, limiter: RateLimiter, is_api: Callable[[str], bool],
                   local: LocalAnswers) -> None:
    async def fulfil_known(route, known: dict) -> None:
        local.answered += 1  # answered here: no request, no rate-limit slot
        origin = route.request.headers.get("origin") or "*"
        await route.fulfill(status=200, json=known, headers={
            "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Credentials": "true", "Vary": "Origin"})

    async def send(route, api: bool, learn: bool = False) -> None:
        req = route.request
        if api:  # the same budget as the API client
            state.sent_at[req.url] = await asyncio.to_thread(limiter.wait)
        elif req.resource_type == "document":  # the site's own page: polite, but not the API's budget
            await asyncio.to_thread(local.web_limiter.wait)
        state.counts["all"] += 1
        if api:
            state.counts["api"] += 1
        cacheable = not api and req.method == "GET" and req.resource_type in _ASSET_TYPES
        if not (learn or cacheable):
            return await route.continue_()
        resp = await route.fetch()  # a reset or refused connection raises: `route` below aborts
        if learn:
            try:
                if resp.status == 200:  # an error (a 429, a 5xx) is no answer to keep or learn from
                    local.learn(req.url, await resp.json(), forum=state.forum)
            except Exception:  # not JSON: nothing learnt, the page gets the answer as it is
                pass
        elif "max-age" in (resp.headers.get("cache-control") or "") and resp.ok:
            local.assets[req.url] = (resp.status, resp.headers, await resp.body())
        await route.fulfill(response=resp)

    async def route(route) -> None:
        try:  # nothing left raised in a handler: Playwright raised it again in a later await (a
            await answer(route)  # dropped connection then read as no revisions): it fails as unrouted
        except Exception:
            with suppress(Exception):
                await route.abort("connectionreset")

    async def answer(route) -> None:
        req = route.request
        api = is_api(req.url)
        if not api and req.url in local.assets:  # what the browser's own cache would serve
            status, headers, body = local.assets[req.url]
            return await route.fulfill(status=status, headers=headers, body=body)
        if not api or req.method != "GET":
            return await send(route, api)
        invitations = local.is_invitations(req.url)  # one query at a time: the others wait for its answer
        learn = invitations or (local.kept is not None and _revisions_kind(req.url, state.forum) is not None)
        async with (local.lock if invitations else nullcontext()):
            known = local.answer(req.url, state.forum)
            await (fulfil_known(route, known) if known is not None else send(route, api, learn=learn))

    await page.route("**/*", route)
    page.on("response", _on_response(state, is_api, limiter))


class RevisionPage(dict):
    """What a revisions page received from the API: `{"kind": "edits" | "references", "items": [...]}`
    (deleted ones dropped), exactly as the page got it; turning it into revisions is the domain's
    (`domain.revisions.revisions_from_page` of the assets package), not the browser client's."""


async def _read_page(page, state: _PageState, web_url: str, forum_id: str, timeout_ms: int) -> RevisionPage:
    state.reset(forum_id)
    await page.goto(f"{web_url}/revisions?id={forum_id}", timeout=timeout_ms)
    handle = await page.wait_for_function(_FINISHED_JS, timeout=timeout_ms, polling=100)
    done = await handle.json_value()
    captured = [c for c in await asyncio.gather(*state.bodies) if c is not None]  # None: a 429 learnt
    if done["state"] == "challenge":
        raise RevisionPageError(f"revisions page for {forum_id}: redirected to /challenge "
                                "(ChallengeRequiredError: the crawl account is not logged in)")
    if done["state"] == "error":
        raise RevisionPageError(f"revisions page for {forum_id} says: {done['text'][:300]}")
    return page_answer(forum_id, captured, done)


def page_answer(forum_id: str, captured: list[tuple[str, int, dict]], done=None) -> RevisionPage:
    """The revisions in the page's last revisions answer, `(kind, status, body)` as captured. One
    refused, or without its list (unreadable, cut off), is an error: read again, never "no revisions"."""
    for kind, status, body in reversed(captured):  # the page's last answer is what it shows
        message = body.get("message", "") if isinstance(body, dict) else ""
        if status >= 400:
            raise RevisionPageError(f"revisions page for {forum_id}: {kind} answered {status}: {message}"[:300])
        items = body.get("edits" if kind == "edits" else "references") if isinstance(body, dict) else None
        if not isinstance(items, list):
            raise RevisionPageError(f"revisions page for {forum_id}: {kind} answer without its list "
                                    f"({message or type(body).__name__})"[:300])
        return RevisionPage(kind=kind, items=[x for x in items if not x.get("ddate")])
    raise RevisionPageError(f"revisions page for {forum_id} finished ({done}) without a revisions API "
                            "response (did openreview.net start rendering it on the server?)")


async def _scrape_one(context, page, state: _PageState, web_url: str, forum_id: str, cfg,
                      limiter: RateLimiter, is_api: Callable[[str], bool], totals: dict, local: LocalAnswers):
    """(revisions, page to reuse). A failed try closes its page: the retry gets a fresh one.
    `totals` accumulates the requests of every try."""
    last: Exception | None = None
    for _ in range(cfg.retries + 1):
        if page is None:
            page = await context.new_page()
            await _install(page, state, limiter, is_api, local)
        try:
            return await _read_page(page, state, web_url, forum_id, cfg.timeout_ms), page
        except Exception as exc:  # timeouts, navigation errors, page-reported errors
            last = exc
            await page.close()
            page = None
        finally:
            for k, v in state.counts.items():
                totals[k] = totals.get(k, 0) + v
            state.counts = {"api": 0, "all": 0}
    raise RevisionPageError(f"revisions page for {forum_id} failed after {cfg.retries + 1} tries: {last}")


@asynccontextmanager
async def _playwright():
    """Playwright whose driver keeps Chromium's profile in a folder of this run, deleted when the run
    ends and, after a kill -9, by the next browser run (`browser_tmp_dir` below)."""
    from playwright.async_api import async_playwright

    with browser_tmp_dir() as run_tmp:
        manager = async_playwright()
        with tmpdir_env(run_tmp):  # the driver makes the profile in its TMPDIR
            pw = await manager.__aenter__()
        try:
            yield pw
        except BaseException as exc:
            await manager.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        else:
            await manager.__aexit__(None, None, None)


async def scrape_all(cfg, web_url: str, token: str | None, forum_ids: list[str],
                      limiter: RateLimiter, on_done: Callable[..., None], api_urls: dict[int, str],
                      local: LocalAnswers) -> ScrapeResults:
    """`max_pages` workers, each with one long-lived tab that navigates from forum to forum
    (opening a tab per forum costs chromium more CPU than the page itself on small machines)."""
    web = api_origin(web_url)
    apis = {api_origin(u) for u in api_urls.values()}

    def is_api(url: str) -> bool:  # given API hosts, else anything the site fetches from elsewhere
        o = api_origin(url)
        return o in apis if apis else (o != web and url.startswith("http"))

    results = ScrapeResults()
    answered_before = local.answered  # `local` may carry on from an earlier call of the same run
    queue: asyncio.Queue[str] = asyncio.Queue()
    for fid in forum_ids:
        queue.put_nowait(fid)
    async with _playwright() as pw:
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
                                                                   limiter, is_api, totals, local)
                        except Exception as exc:
                            results[fid], page = exc, None
                        results.requests[fid] = totals
                        on_done(fid, results[fid], totals)  # the caller may checkpoint this answer now
                finally:
                    if page is not None:
                        await page.close()

            await asyncio.gather(*(worker() for _ in range(max(1, min(cfg.max_pages, len(forum_ids))))))
        finally:
            await browser.close()
    results.answered_locally = local.answered - answered_before
    return results


# ---- a temporary folder per browser run, owned by its process (issue 29.5) ------------------------------
# Playwright's driver makes Chromium's profile (`playwright_chromiumdev_profile-*`) in its temporary
# directory and deletes it when the browser closes; a run killed with -9 left one in `$TMPDIR` per kill.
# The driver starts with `TMPDIR` at our own `rb-chromium-<owner token>` (resources/store_publish.py),
# removed when the run ends; every browser run first removes dead runs' folders.

PREFIX = "rb-chromium-"  # short: Chromium puts a unix socket (108 bytes at most) under it
_ENV_LOCK = __import__("threading").Lock()  # TMPDIR is process-wide: one driver start at a time


def remove_stale(parent: str | None = None) -> int:
    """Delete the browser folders of dead runs under `parent` (default: the temporary directory)."""
    removed = 0
    with suppress(OSError), os.scandir(parent or tempfile.gettempdir()) as entries:
        for e in entries:
            with suppress(OSError):  # gone meanwhile, or not ours to read
                if e.name.startswith(PREFIX) and e.is_dir(follow_symlinks=False) and token_is_dead(
                        e.name[len(PREFIX):], time.time() - e.stat(follow_symlinks=False).st_mtime):
                    shutil.rmtree(e.path, ignore_errors=True)
                    removed += 1
    return removed


@contextmanager
def browser_tmp_dir(parent: str | None = None) -> Iterator[str]:
    """This run's folder (dead runs' folders removed first); deleted when the block ends."""
    parent = parent or tempfile.gettempdir()
    remove_stale(parent)
    path = os.path.join(parent, PREFIX + new_token())
    os.makedirs(path)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextmanager
def tmpdir_env(path: str) -> Iterator[None]:
    """`TMPDIR=path` for a child process started inside the block (the Playwright driver)."""
    with _ENV_LOCK:
        old = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = path
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("TMPDIR", None)
            else:
                os.environ["TMPDIR"] = old
