"""Shared fixtures: a real moto_server process for S3, offline Hugging Face settings; and the
markers of what a test needs beyond Python (`make test-fast` deselects them)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")


# What a test needs beyond the Python packages, by the fixture that provides it: a test that asks
# for one of these gets the marker, so `make test-fast` (`-m "not (browser or ray or ...)"`) leaves
# it out without anyone marking tests by hand. Needs that come through a helper rather than a
# fixture (an e2e module's `dg.materialize`, a CLI run) are declared by the module's `pytestmark`.
NEEDS_BY_FIXTURE = {
    "ray_session": "ray",  # tests/ocr/conftest.py: one local Ray for the session
    "ray_local": "ray",  # tests/stages/test_paper_text_stage.py
    "scraped": "browser",  # tests/pdfs/test_revision_paths.py: chromium reads the revision pages
    "llama_server": "llm",  # tests/llm/test_llama_server.py: llama.cpp's server, compiled by `make test`
}
# Registered in pyproject's [tool.pytest.ini_options] markers; `make test-fast` deselects them all.
NEED_MARKERS = ("browser", "ray", "postgres", "llm", "slow")


def pytest_collection_modifyitems(config, items):
    for item in items:
        for fixture in getattr(item, "fixturenames", ()):
            need = NEEDS_BY_FIXTURE.get(fixture)
            if need is not None:
                item.add_marker(need)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def moto_endpoint():
    """`moto_server` (pip moto[server]) as its own process on 127.0.0.1: S3 over real HTTP."""
    port = _free_port()
    exe = shutil.which("moto_server", path=os.path.dirname(sys.executable)) or "moto_server"
    proc = subprocess.Popen([exe, "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        raise RuntimeError("moto_server did not start")
    yield f"http://127.0.0.1:{port}"
    from tests.ops.procs import stop_server

    stop_server(proc)


@pytest.fixture
def s3_bucket(moto_endpoint, monkeypatch):
    import boto3

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing-key")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing-secret")
    name = f"rb-{time.time_ns()}"
    boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1").create_bucket(Bucket=name)
    return name


# ---- a test run leaves the tracked files as they are (issue 39 item 5) ----------------------------
# `make test` on a fresh clone once left docs/screenshots/*.png rewritten. A tracked file whose content
# a run changed fails the run at its end, named: tests write under tmp_path or test-artifacts/
# (untracked), never over the repository's files. `make screenshots` refreshes the docs' images on
# purpose (REVIEWBENCH_REFRESH_SCREENSHOTS=1): those are let through then.
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFRESHED_ON_PURPOSE = "docs/screenshots/"


def _tracked_changes() -> dict[str, str] | None:
    """Tracked files that differ from the index, with a digest of their content (None: no git checkout)."""
    import hashlib

    git = shutil.which("git")
    if git is None or not os.path.exists(os.path.join(REPO, ".git")):
        return None
    done = subprocess.run([git, "diff", "--name-only", "-z"], cwd=REPO, capture_output=True, timeout=120)
    if done.returncode != 0:
        return None
    out = {}
    for name in filter(None, done.stdout.decode("utf-8", "replace").split("\0")):
        path = os.path.join(REPO, name)
        out[name] = hashlib.sha256(open(path, "rb").read()).hexdigest() if os.path.isfile(path) else "gone"
    return out


def pytest_sessionstart(session):
    session.config.stash[_TRACKED] = _tracked_changes()


def pytest_sessionfinish(session, exitstatus):
    before = session.config.stash.get(_TRACKED, None)
    after = _tracked_changes()
    if before is None or after is None:
        return
    changed = sorted(n for n, digest in after.items() if before.get(n) != digest
                     and not (os.environ.get("REVIEWBENCH_REFRESH_SCREENSHOTS") == "1"
                              and n.startswith(REFRESHED_ON_PURPOSE)))
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"this test run changed tracked files (write under tmp_path instead): {changed}",
                                red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_TRACKED = pytest.StashKey[dict | None]()
