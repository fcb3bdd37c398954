"""The client-side rendered /revisions page: plain HTTP sees a shell, a real browser renders the revisions."""

import os
import subprocess
import sys
import time

import pytest
import requests

from openreview_replica import FaultConfig
from resources.openreview_api import RateLimiter

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def test_plain_get_has_no_revision_data(rep, fx):
    f = fx.venues["iclr-2024"].forums_with("history_public")[0]
    html = requests.get(rep.web_url + "/revisions", params={"id": f.forum_id}).text
    assert 'id="content"' in html and "revisions.js" in html
    for r in f.revisions:
        assert r.revision_id not in html
    assert "<div class=\"references-list" not in html and "class=\"row\"" not in html


def _page_api_calls(rep) -> list[tuple[str, str, dict]]:
    """(server, path, params) of every API request the page made, in order."""
    return [(r.role, r.path, r.params) for r in rep.request_log
            if r.role in ("v1", "v2") and r.method == "GET"]


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium not installed")
def test_page_makes_openreview_webs_requests_and_renders_its_markup(rep, fx, c2):
    """The requests of openreview-web's app/revisions (getNoteById v2 then v1, then /notes/edits or
    /references + /invitations, parameters as lib/api-client.js sends them) and its markup
    (`.references-list` rows, "No revisions to display.", ChallengeRequiredError -> /challenge)."""
    from playwright.sync_api import sync_playwright

    v24, v20 = fx.venues["iclr-2024"], fx.venues["iclr-2020"]
    f24 = v24.forums_with("history_public")[0]
    f24_empty = v24.forums_with("no_revision")[0]  # every edit of it is hidden from the reader
    f20 = next(f for f in v20.forums.values() if f.post_deadline_markers)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context().new_page()  # no cookie: the API asks for a challenge
            page.goto(f"{rep.web_url}/revisions?id={f24.forum_id}")
            page.wait_for_url("**/challenge?redirect=*", timeout=10000)

            ctx = browser.new_context()
            ctx.add_cookies([{"name": "openreview.accessToken", "value": c2.token, "url": rep.web_url}])
            page = ctx.new_page()
            rep.reset_request_log()
            page.goto(f"{rep.web_url}/revisions?id={f24.forum_id}")
            page.wait_for_selector(".references-list", timeout=10000)
            assert _page_api_calls(rep) == [
                ("v2", "/notes", {"details": "writable,forumContent", "id": f24.forum_id, "trash": "true"}),
                ("v2", "/notes/edits", {"details": "writable,presentation,invitation", "note.id": f24.forum_id,
                                        "sort": "tcdate", "trash": "true"})]
            api_edits = c2.get_note_edits(note_id=f24.forum_id)
            assert page.locator(".references-list > .row").count() == len(api_edits) >= 2

            page.goto(f"{rep.web_url}/revisions?id={f24_empty.forum_id}")
            page.wait_for_selector(".references-list", timeout=10000)
            assert page.locator(".references-list > .row").count() == 0
            assert page.locator(".references-list .alert-danger").inner_text() == "No revisions to display."

            rep.reset_request_log()
            page.goto(f"{rep.web_url}/revisions?id={f20.forum_id}")
            page.wait_for_selector(".references-list", timeout=10000)
            refs = v20.refs_by_referent[f20.forum_id]
            assert page.locator(".references-list > .row").count() == len(refs)
            calls = _page_api_calls(rep)
            # V1Revisions.js: `reference.details?.original?.invitation || reference.invitation`
            invs = sorted({((r.get("details") or {}).get("original") or {}).get("invitation") or r["invitation"]
                           for r in refs})
            assert [c[:2] for c in calls] == [("v2", "/notes"), ("v1", "/notes"), ("v1", "/references"),
                                              ("v1", "/invitations")]
            assert calls[2][2] == {"original": "true", "referent": f20.forum_id, "trash": "true"}
            inv_log = [r for r in rep.request_log if r.path == "/invitations"][-1]
            assert sorted(__import__("urllib.parse").parse.parse_qs(inv_log.query)["ids"]) == invs

            rep.set_faults(FaultConfig(path_prefix="/notes/edits", error_first_n=10, error_status=500))
            page.goto(f"{rep.web_url}/revisions?id={f24.forum_id}")
            alert = page.wait_for_selector(".revisions > .alert-danger", timeout=10000)
            assert alert.inner_text().startswith("Error:") and "Injected replica fault" in alert.inner_text()
            assert page.locator(".references-list").count() == 0
        finally:
            browser.close()


class CountingLimiter(RateLimiter):
    def __init__(self):
        super().__init__(0.0)
        self.calls = 0

    def wait(self) -> None:
        self.calls += 1


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium not installed")
def test_reader_takes_the_pages_own_api_answers(rep, fx, c2):
    """BrowserResource reads what the page received: the same revisions as the API recipe, the
    "No revisions to display." state as an empty history, an error alert as an error; every API
    request of the page waited for the shared limiter and is counted per forum."""
    from resources import BrowserResource
    from resources.browser import RevisionPageError
    from resources.openreview_api import OpenReviewApi
    from reviewbench_assets.domain.revisions import revisions_from_page
    from reviewbench_assets.stages.revision_answers import api_revision_page

    v24, v20 = fx.venues["iclr-2024"], fx.venues["iclr-2020"]
    ids = [v24.forums_with("history_public")[0].forum_id, v24.forums_with("no_revision")[0].forum_id,
           v20.forums_with("aoe_boundary")[0].forum_id, v20.forums_with("grace_upload")[0].forum_id]
    limiter = CountingLimiter()
    rep.reset_request_log()
    got = BrowserResource(max_pages=2).scrape_revisions(rep.web_url, c2.token, ids, limiter=limiter,
                                                       api_urls={1: rep.api_v1_url, 2: rep.api_v2_url})
    api_calls = len(_page_api_calls(rep))
    documents = sum(1 for r in rep.request_log if r.role == "web" and r.path == "/revisions")
    assert documents == len(ids) and limiter.calls == api_calls  # every API request waited (pages: their own)
    assert sum(got.requests[f]["api"] for f in ids) == api_calls
    assert got.requests[ids[0]]["api"] == 2
    # The two v1 forums each send their note lookup and history; the venue's two invitation lookups
    # go with whichever page asks first, and two pages open at once may both send them (or one each):
    # only the pair's total is fixed by the run, between 6 (asked once) and 8 (asked by both).
    v1_pair = [got.requests[f]["api"] for f in ids[2:]]
    assert min(v1_pair) >= 2 and 6 <= sum(v1_pair) <= 8, v1_pair
    v2 = OpenReviewApi(rep.api_v2_url, "v2", None, None, token=c2.token)
    v1 = OpenReviewApi(rep.api_v1_url, "v1", None, None, token=c2.token)
    for fid, api in zip(ids, (v2, v2, v1, v1), strict=False):
        assert isinstance(got[fid], dict), got[fid]
        assert sorted(revisions_from_page(got[fid]), key=lambda r: r.revision_id) == sorted(
            revisions_from_page(api_revision_page(api, fid)), key=lambda r: r.revision_id)
    assert got[ids[1]]["items"] == []  # "No revisions to display." is an answer, not a failure

    # The run's own data answers the page's repeat lookups (issue 19.2): the submission notes from
    # the crawl, the v1 invitations learnt from an earlier forum; only the histories reach the API.
    notes = {}
    for fid, vf in ((ids[0], v24), (ids[1], v24), (ids[2], v20), (ids[3], v20)):
        sub = next(s for s in vf.submissions if s["id"] == fid)
        notes[fid] = ("v2" if vf is v24 else "v1", sub)
    rep.reset_request_log()
    local = BrowserResource(max_pages=1).scrape_revisions(rep.web_url, c2.token, ids, limiter=CountingLimiter(),
                                                         api_urls={1: rep.api_v1_url, 2: rep.api_v2_url},
                                                         notes=notes)
    reached = [(role, path) for role, path, _ in _page_api_calls(rep)]
    assert reached == [("v2", "/notes/edits"), ("v2", "/notes/edits"), ("v1", "/references"),
                       ("v1", "/invitations"), ("v1", "/references")], reached
    assert local.answered_locally == 4 + 2 + 1  # 4 notes, 2 "no such v2 note", 1 invitations
    for fid in ids:
        assert local[fid] == got[fid]  # the same answer as with every lookup sent

    rep.set_faults(FaultConfig(path_prefix="/notes/edits", error_first_n=100, error_status=500))
    bad = BrowserResource(max_pages=1, retries=0).scrape_revisions(rep.web_url, c2.token, ids[:1],
                                                                   api_urls={1: rep.api_v1_url, 2: rep.api_v2_url})
    assert isinstance(bad[ids[0]], RevisionPageError) and "Injected replica fault" in str(bad[ids[0]])


def test_an_answer_without_its_list_is_an_error_never_an_empty_history():
    """A revisions answer whose body could not be read (Playwright gave `_capture` an exception, the
    body was cut off) was taken as a history with no revisions: the PDF stage then chose the note's
    current PDF as "earliest_public" (tests/ops/test_fault_suite.py, 1 run in 8 under drops)."""
    from resources.browser import RevisionPageError, page_answer

    edit = {"id": "e1", "tcdate": 1, "ddate": None}
    assert page_answer("F", [("edits", 200, {"edits": [edit]})])["items"] == [edit]
    assert page_answer("F", [("edits", 200, {"edits": []})])["items"] == []  # "No revisions to display."
    unreadable = {"message": "unreadable response body: Route.fetch: socket hang up (ECONNRESET)"}
    for body in (unreadable, {"edits": None}, {}, ["not", "a", "dict"]):
        with pytest.raises(RevisionPageError, match="without its list"):
            page_answer("F", [("edits", 200, body)])
    with pytest.raises(RevisionPageError, match="answered 502"):
        page_answer("F", [("references", 502, {"message": "Bad Gateway"})])


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium not installed")
def test_a_dropped_connection_is_a_failed_try_of_that_page_only(rep, fx, c2, tmp_path):
    """A connection dropped under the page's kept revisions request (`route.fetch` in the route
    handler) made the handler raise; Playwright raised it again in a later await of that or another
    page: the forum's result was the bare `Route.fetch: socket hang up`, or a later answer's body
    read as unreadable. Now the request is aborted as a failed fetch: the page shows its error, is
    read again, and every forum gets its history."""
    import pyarrow.fs as pafs

    from resources import BrowserResource
    from resources.store import Store
    from reviewbench_assets.io.attempt import AnswerCache

    v24 = fx.venues["iclr-2024"]
    ids = sorted(v24.forums)[:4]  # v2 pages: each asks /notes/edits once
    urls = {1: rep.api_v1_url, 2: rep.api_v2_url}
    clean = BrowserResource(max_pages=1).scrape_revisions(rep.web_url, c2.token, ids, api_urls=urls)
    # every 2nd history request dropped: one page at a time, each forum after the first loses its
    # first try and gets its second (the kept answers make the page's request go through route.fetch)
    rep.set_faults(FaultConfig(path_prefix="/notes/edits", drop_every_n=2))
    rep.reset_request_log()
    kept = AnswerCache(Store(pafs.LocalFileSystem(), str(tmp_path)), "answers")
    got = BrowserResource(max_pages=1).scrape_revisions(rep.web_url, c2.token, ids, api_urls=urls, kept=kept)
    assert [r.status for r in rep.request_log if r.path == "/notes/edits"].count(0) >= 2  # drops happened
    for fid in ids:
        assert isinstance(got[fid], dict), got[fid]
        assert got[fid] == clean[fid]
    # what the page shows for it, as openreview-web's api-client.js formatError words a failed fetch
    rep.set_faults(FaultConfig(path_prefix="/notes/edits", drop_first_n=1))
    fresh = AnswerCache(kept.store, "answers-2")  # nothing kept yet: the request goes out
    once = BrowserResource(max_pages=1, retries=0).scrape_revisions(rep.web_url, c2.token, ids[:1], api_urls=urls,
                                                                    kept=fresh)
    assert "The OpenReview API is currently unavailable" in str(once[ids[0]]), once[ids[0]]


@pytest.mark.slow
def test_cli_serve(tmp_path):
    import socket

    ports = []
    for _ in range(3):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        ports.append(s.getsockname()[1])
        s.close()
    proc = subprocess.Popen([sys.executable, "-m", "openreview_replica", "serve", "--venues", "iclr-2024",
                             "--n-forums", "6", "--port-v2", str(ports[0]), "--port-v1", str(ports[1]),
                             "--port-web", str(ports[2])], stdout=subprocess.PIPE, text=True)
    try:
        lines = [proc.stdout.readline().strip() for _ in range(5)]
        env = dict(line.split("=", 1) for line in lines)
        # the names build_resources() reads, so `export` of the banner points the platform at it
        assert env["OPENREVIEW_API_V2_URL"] == f"http://127.0.0.1:{ports[0]}"
        assert env["OPENREVIEW_API_V1_URL"] == f"http://127.0.0.1:{ports[1]}"
        assert env["OPENREVIEW_WEB_URL"] == f"http://127.0.0.1:{ports[2]}"
        r = requests.post(env["OPENREVIEW_API_V2_URL"] + "/login",
                          json={"id": env["OPENREVIEW_USERNAME"], "password": env["OPENREVIEW_PASSWORD"]})
        assert r.status_code == 200 and r.json()["token"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    _ = time
