"""Long-lived processes for the operations tests: started in their own session, always reaped.

Dagster's webserver and daemon ignore SIGINT when started in the background from a script
(docs/dagster-notes.md), so they are started with default signal handlers restored and stopped by
signalling their own process group (SIGTERM, then SIGKILL), never by name.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVER_GRACE_S = 10.0  # a helper server's time to exit after SIGTERM before it is killed


def stop_server(proc: subprocess.Popen, grace_s: float | None = None) -> int | None:
    """Stop a helper server (moto_server, a replica): SIGTERM, then SIGKILL once `grace_s` (default
    SERVER_GRACE_S) has passed. Never raises for a server slow to exit: a teardown must not throw
    away what the test or bench measured (issue 38.5: bench_crash_points ran 321 trials and recorded
    nothing because moto_server did not exit within 10 s under load). Returns its exit code (None
    when even SIGKILL did not reap it within the grace)."""
    grace = SERVER_GRACE_S if grace_s is None else grace_s
    if proc.poll() is not None:
        return proc.returncode
    proc.terminate()
    try:
        return proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
    try:
        return proc.wait(grace)
    except subprocess.TimeoutExpired:
        return None


def _restore_signals():  # runs in the child before exec
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)


class Proc:
    """A subprocess in its own session, with output captured to a log file."""

    def __init__(self, cmd: list[str], log: Path, env: dict | None = None, cwd: Path = ROOT):
        self.cmd, self.log_path = cmd, log
        self._log = open(log, "wb")
        self.p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=self._log, stderr=subprocess.STDOUT,
                                  start_new_session=True, preexec_fn=_restore_signals)

    def alive(self) -> bool:
        return self.p.poll() is None

    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self, grace_s: float = 15):
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.p.wait(grace_s)
            except subprocess.TimeoutExpired:
                pass
        # the group may hold children (run workers, code servers) even after the leader exited
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self._log.close()


class Processes(ExitStack):
    """`with Processes() as ps: ps.start(...)`: every process is stopped on exit, failure or not."""

    def start(self, cmd: list[str], log: Path, env: dict | None = None) -> Proc:
        proc = Proc(cmd, log, env)
        self.callback(proc.stop)
        return proc


def wait_http(url: str, timeout_s: float = 120, proc: Proc | None = None) -> None:
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if proc is not None and not proc.alive():
            raise RuntimeError(f"{proc.cmd[0]} exited:\n{proc.output()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise TimeoutError(f"{url} not up after {timeout_s}s")


def graphql(base: str, query: str, variables: dict | None = None, timeout_s: float = 60) -> dict:
    req = urllib.request.Request(f"{base}/graphql", data=json.dumps({"query": query, "variables": variables or {}}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout_s) as r:
        out = json.loads(r.read())
    if out.get("errors"):
        raise RuntimeError(out["errors"])
    return out["data"]


def replica_env(rep, storage_root: str, dagster_home: str) -> dict:
    """The environment that points `build_resources()` at a replica (as tests/e2e/test_cli.py does)."""
    return {**os.environ, "DAGSTER_HOME": dagster_home, "REVIEWBENCH_STORAGE_ROOT": storage_root,
            "OPENREVIEW_API_V1_URL": rep.api_v1_url, "OPENREVIEW_API_V2_URL": rep.api_v2_url,
            "OPENREVIEW_WEB_URL": rep.web_url, "OPENREVIEW_USERNAME": rep.username,
            "OPENREVIEW_PASSWORD": rep.password, "OPENREVIEW_MIN_INTERVAL_S": "0",
            "REVIEWBENCH_BROWSER_PAGES": "4", "REVIEWBENCH_RAY_NUM_CPUS": "2",
            "DAGSTER_DISABLE_TELEMETRY": "1"}


def make_home(path: Path, yaml_text: str | None = None) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "dagster.yaml").write_text(yaml_text or (ROOT / "dagster.yaml").read_text())
    return path
