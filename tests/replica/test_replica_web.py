"""The client-side rendered /revisions page: plain HTTP sees a shell, a real browser renders the revisions."""

import os
import subprocess
import sys
import time

import pytest
import requests

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def test_plain_get_has_no_revision_data(rep, fx):
    f = fx.venues["iclr-2024"].forums_with("history_public")[0]
    html = requests.get(rep.web_url + "/revisions", params={"id": f.forum_id}).text
    assert 'id="revisions-list"' in html and "revisions.js" in html
    for r in f.revisions:
        assert r.revision_id not in html
    assert 'class="revision"' not in html


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium not installed")
def test_browser_renders_revisions(rep, fx, c2):
    from playwright.sync_api import sync_playwright

    v24, v20 = fx.venues["iclr-2024"], fx.venues["iclr-2020"]
    f24 = v24.forums_with("history_public")[0]
    f20 = next(f for f in v20.forums.values() if f.post_deadline_markers)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            # without the cookie: login prompt + error
            page = browser.new_context().new_page()
            page.goto(f"{rep.web_url}/revisions?id={f24.forum_id}")
            page.wait_for_selector('#revisions-list[data-loaded="true"]', state="attached", timeout=10000)
            assert "Login required" in page.get_attribute("#revisions-list", "data-error")
            assert page.locator(".revision").count() == 0

            ctx = browser.new_context()
            ctx.add_cookies([{"name": "openreview.accessToken", "value": c2.token, "url": rep.web_url}])
            page = ctx.new_page()
            for f, rows in ((f24, [r for r in f24.revisions if r.visible]),
                            (f20, None)):
                page.goto(f"{rep.web_url}/revisions?id={f.forum_id}")
                assert page.get_attribute("#revisions-list", "data-loaded") == "false"
                page.wait_for_selector('#revisions-list[data-loaded="true"]', state="attached", timeout=10000)
                lst = page.locator("#revisions-list")
                assert lst.get_attribute("data-error") is None
                assert lst.get_attribute("data-forum") == f.forum_id
                got = {d.get_attribute("data-revision-id"): d for d in page.locator(".revision").all()}
                if rows is not None:  # v2: exactly the edits visible to the reader
                    api = {e.id for e in c2.get_note_edits(note_id=f.forum_id)}
                    assert set(got) == api
                    assert {r.revision_id for r in rows} <= set(got)
                    pre = got[f.expected_revision_id]
                    href = pre.locator("a.pdf-link").get_attribute("href")
                    assert href == f"{rep.api_v2_url}/notes/edits/attachment?id={f.expected_revision_id}&name=pdf"
                    assert int(pre.get_attribute("data-tcdate")) <= v24.deadline_ms
                    assert pre.get_attribute("data-invitation") == "ICLR.cc/2024/Conference/-/Submission"
                else:  # v1: all references
                    assert set(got) == {r["id"] for r in v20.refs_by_referent[f.forum_id]}
                    el = got[f.expected_revision_id]
                    href = el.locator("a.pdf-link").get_attribute("href")
                    assert href == f"{rep.api_v1_url}/references/pdf?id={f.expected_revision_id}"
                    r = requests.get(href, headers={"Authorization": f"Bearer {c2.token}"})
                    assert r.status_code == 200 and r.content[:5] == b"%PDF-"
        finally:
            browser.close()


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
