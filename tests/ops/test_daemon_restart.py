"""Issue 22: the Dagster daemon restarted during a run, as a deploy or a reboot does it.

A run of the venue pipeline is queued with `dagster job launch` on a new instance (the repository's
dagster.yaml); the daemon dequeues it and its code server starts the run worker. While the PDF stage
is storing PDFs, the daemon's whole process group is killed with SIGKILL (daemon, code server and
run worker: what `systemctl restart` with its default KillMode, a container restart or a reboot
does), and a new daemon is started on the same instance. The restarted daemon's run monitoring must
see that the run's worker is gone (reviewbench_assets/run_launcher.py: with Dagster's default
launcher it would stay STARTED for ever and hold the `openreview_api` pool), mark it failed, and
`run_retries` must re-launch it (the job's `dagster/max_retries`); the retry resumes from the
checkpoints: every forum gets its row once, and no PDF is downloaded twice.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from urllib.parse import parse_qs

import pyarrow.parquet as pq
import pytest
from dagster import DagsterInstance, DagsterRunStatus, RunsFilter

from openreview_replica import ReplicaServer, build_fixtures
from reviewbench_assets.io.layout import paths
from reviewbench_assets.run_launcher import run_worker, worker_alive
from tests.ops.procs import BIN, ROOT, Processes, make_home, replica_env

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]
PK, N_FORUMS = "iclr-2020", 24
IN_PROCESS = {"execution": {"config": {"in_process": {}}}}  # one worker process per run: what is killed
POLL_S = 3  # run monitoring's poll interval here (120 s by default)
FILE_PATHS = ("/pdf", "/attachment", "/references/pdf", "/references/attachment")


def _instance(home) -> DagsterInstance:
    """The test's instance (DAGSTER_HOME set by the test: its dagster.yaml names the locking SQLite
    storage, which finds its folder through DAGSTER_HOME, as every dagster process has it)."""
    return DagsterInstance.from_config(str(home))


def _runs(home) -> list:
    with _instance(home) as instance:
        return list(instance.get_runs(RunsFilter(job_name="venue_pipeline")))


def _wait(what: str, cond, timeout_s: float, daemon) -> None:
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if cond():
            return
        if daemon is not None and not daemon.alive():
            raise AssertionError(f"daemon exited while waiting for {what}:\n{daemon.output()[-4000:]}")
        time.sleep(1)
    raise AssertionError(f"timed out waiting for {what}:\n{daemon.output()[-6000:] if daemon else ''}")


def _stored_pdfs(storage) -> set[str]:
    return {p.stem for p in (storage / "pdfs").rglob("*.pdf")} if (storage / "pdfs").exists() else set()


def _redownloads(rep, storage, stored: set[str], since: float) -> list[str]:
    """Files requested after `since` whose PDF (sha256, through the final submissions table: forum
    or revision id -> sha) was already stored then: downloaded twice."""
    sha_of = {}
    for r in pq.read_table(storage / paths.submissions(PK)).to_pylist():
        if r["pdf_sha256"]:
            sha_of[r["forum_id"]] = r["pdf_sha256"]
            if r["revision_id"]:
                sha_of.setdefault(r["revision_id"], r["pdf_sha256"])
    again = []
    for r in rep.request_log:
        if r.t > since and r.status == 200 and r.path.startswith(FILE_PATHS):
            ids = [i for v in parse_qs(r.query).get("ids", []) for i in v.split(",")] + parse_qs(r.query).get("id", [])
            again += [f"{r.path}?{r.query}" for i in ids if sha_of.get(i) in stored]
    return again


def test_daemon_killed_with_its_run_then_restarted_fails_and_retries_the_run(tmp_path, monkeypatch):
    fx = build_fixtures([PK], seed=0, n_forums=N_FORUMS)
    storage = tmp_path / "storage"
    yaml_text = (ROOT / "dagster.yaml").read_text().replace(
        "run_monitoring:\n  enabled: true", f"run_monitoring:\n  enabled: true\n  poll_interval_seconds: {POLL_S}")
    assert "LocalRunLauncher" in yaml_text and f"poll_interval_seconds: {POLL_S}" in yaml_text
    home = make_home(tmp_path / "home", yaml_text)
    monkeypatch.setenv("DAGSTER_HOME", str(home))  # (reviewbench_assets/instance_storage.py reads it)
    with ReplicaServer(fx, port=0) as rep, Processes() as ps:
        rep.set_faults(slow_ms=300)  # the crawl and PDF stages last long enough to be hit
        env = replica_env(rep, str(storage), str(home))
        subprocess.run([str(BIN / "python"), "-m", "scripts.init_instance", str(home)], env=env, cwd=ROOT, check=True)
        daemon = ps.start([str(BIN / "dagster-daemon"), "run", "-w", "workspace.yaml"], tmp_path / "daemon1.log", env)
        launch = subprocess.run(
            [str(BIN / "dagster"), "job", "launch", "-w", "workspace.yaml", "-j", "venue_pipeline",
             "--tags", json.dumps({"dagster/partition": PK}), "--config-json", json.dumps(IN_PROCESS)],
            env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert launch.returncode == 0, launch.stdout + launch.stderr
        [first] = _runs(home)
        assert first.tags.get("dagster/max_retries") == "1"

        # the daemon dequeues it and the run reaches the PDF stage
        _wait("the run storing PDFs", lambda: len(_stored_pdfs(storage)) >= 2, 600, daemon)
        with _instance(home) as instance:
            worker = run_worker(instance, first.run_id)
            assert worker is not None and worker_alive(*worker)
            assert instance.get_run_by_id(first.run_id).status == DagsterRunStatus.STARTED
        # the restart: the daemon's whole process group dies (its code server and the run worker too)
        os.killpg(daemon.p.pid, signal.SIGKILL)
        _wait("the run worker to die", lambda: not worker_alive(*worker), 30, None)
        killed_at, stored_at_kill = time.time(), _stored_pdfs(storage)
        with _instance(home) as instance:  # nobody is left to say it failed
            assert instance.get_run_by_id(first.run_id).status == DagsterRunStatus.STARTED
        daemon2 = ps.start([str(BIN / "dagster-daemon"), "run", "-w", "workspace.yaml"], tmp_path / "daemon2.log", env)

        def retried_and_done() -> bool:
            runs = {r.run_id: r for r in _runs(home)}
            retries = [r for r in runs.values() if r.tags.get("dagster/parent_run_id") == first.run_id]
            return (runs[first.run_id].status == DagsterRunStatus.FAILURE and len(retries) == 1
                    and retries[0].status in (DagsterRunStatus.SUCCESS, DagsterRunStatus.FAILURE))

        try:
            _wait("run monitoring to fail the dead run and run_retries to finish its retry", retried_and_done, 900,
                  daemon2)
        except AssertionError as exc:
            with _instance(home) as instance:
                said = [(r.status, r.tags, [e.user_message for e in instance.all_logs(r.run_id)
                                            if e.dagster_event_type is None or "ENGINE" in str(e.dagster_event_type)][-5:])
                        for r in instance.get_runs()]
            raise AssertionError(f"{exc}\nruns: {said}") from None
        runs = {r.run_id: r for r in _runs(home)}
        [retry] = [r for r in runs.values() if r.tags.get("dagster/parent_run_id") == first.run_id]
        assert retry.status == DagsterRunStatus.SUCCESS, daemon2.output()[-6000:]
        with _instance(home) as instance:
            failure = [e.dagster_event.message for e in instance.all_logs(first.run_id)
                       if e.dagster_event is not None and "is gone" in (e.dagster_event.message or "")]
        assert failure, "the run was not failed by the worker health check"

    # the retry resumed: every forum once, and no file downloaded twice (the first run stored some)
    rows = pq.read_table(storage / paths.rows(PK)).to_pylist()
    assert sorted(r["forum_id"] for r in rows) == sorted(fx.venues[PK].forums)
    assert len(stored_at_kill) >= 2
    assert _redownloads(rep, storage, stored_at_kill, killed_at) == []
