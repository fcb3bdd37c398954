"""Issue 29.5: no Chromium profile outlives its run. The browser run keeps Playwright's profile in a
folder of its own process (resources/browser.py, `browser_tmp_dir`), deleted when it ends; a run killed -9 leaves
it, and the next browser run removes the folders of dead processes first, never a live one's."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from resources.browser import PREFIX
from resources.store_publish import HOST_TAG

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
SCRAPE = """
import sys
from resources import BrowserResource
from resources.openreview_api import RateLimiter
web, v1, v2, token, *ids = sys.argv[1:]
BrowserResource(max_pages=1).scrape_revisions(web, token, ids, limiter=RateLimiter(),
                                              api_urls={1: v1, 2: v2})
print("done", flush=True)
"""


def _ours(tmp: Path) -> list[Path]:
    return sorted(p for p in tmp.iterdir() if p.name.startswith(PREFIX))


def _profiles(tmp: Path) -> list[Path]:
    return sorted(tmp.rglob("playwright_chromiumdev_profile-*"))


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium not installed")
def test_a_killed_browser_runs_profile_is_removed_by_the_next_run(rep, fx, c2):
    # a short TMPDIR, as /tmp is: Chromium's singleton socket must fit a unix socket path
    tmp_path = Path(tempfile.mkdtemp(prefix="rbt", dir="/tmp"))
    try:
        _killed_then_next(rep, fx, c2, tmp_path)
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def _killed_then_next(rep, fx, c2, tmp_path: Path) -> None:
    ids = [f.forum_id for f in fx.venues["iclr-2024"].forums_with("history_public")[:2]]
    env = {**os.environ, "TMPDIR": str(tmp_path),
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    live = tmp_path / f"{PREFIX}{HOST_TAG}.{os.getpid()}.0badc0de"  # a running process's: kept
    live.mkdir()
    args = [sys.executable, "-c", SCRAPE, rep.web_url, rep.api_v1_url, rep.api_v2_url, c2.token]
    killed = subprocess.Popen(args + ids * 20, env=env, cwd=ROOT, start_new_session=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while not _profiles(tmp_path):  # Chromium is up with its profile
        assert time.monotonic() < deadline and killed.poll() is None, killed.stdout.read()
        time.sleep(0.1)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait(30)
    assert len(_ours(tmp_path)) == 2 and _profiles(tmp_path)  # the kill left its folder and profile
    done = subprocess.run(args + ids, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "done" in done.stdout, done.stdout + done.stderr
    assert _ours(tmp_path) == [live]  # the dead run's folder went; the live one stays; its own is gone
    assert _profiles(tmp_path) == []
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("playwright")]  # nothing outside ours
