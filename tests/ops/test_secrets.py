"""Credentials set in the environment never reach Dagster's logs, metadata or any output file."""
from __future__ import annotations

import dataclasses
import subprocess
import uuid

import pytest

from openreview_replica import ReplicaServer, build_fixtures
from tests.ops.procs import BIN, ROOT, make_home, replica_env

pytestmark = [pytest.mark.slow, pytest.mark.browser]  # the PDF stage reads revision pages
PK = "iclr-2020"


def _files_containing(root, secrets: dict) -> list[str]:
    hits = []
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            hits += [f"{name} in {path}" for name, value in secrets.items() if value.encode() in data]
    return hits


def test_credentials_never_logged_or_stored(tmp_path):
    password = f"pw-{uuid.uuid4().hex}"
    fx = build_fixtures([PK], seed=0, n_forums=6)
    if dataclasses.is_dataclass(fx) and not fx.__dataclass_params__.frozen:
        fx.password = password
    else:
        fx = dataclasses.replace(fx, password=password)
    with ReplicaServer(fx, port=0) as rep:
        assert rep.password == password
        home = make_home(tmp_path / "home")
        storage = tmp_path / "storage"
        secrets = {"OPENREVIEW_PASSWORD": password, "AWS_ACCESS_KEY_ID": f"AKIA{uuid.uuid4().hex[:16].upper()}",
                   "AWS_SECRET_ACCESS_KEY": f"sk-{uuid.uuid4().hex}"}
        env = {**replica_env(rep, str(storage), str(home)), **secrets}
        done = subprocess.run([str(BIN / "dagster"), "asset", "materialize", "-m", "reviewbench_assets.definitions",
                               "--select", "openreview_forums,parsed_forums,initial_submission_pdfs,rebuttal_dialogues",
                               "--partition", PK], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        assert any(r.path == "/login" and r.status == 200 for r in rep.request_log)  # the password was used
    out = done.stdout + done.stderr
    assert not [n for n, v in secrets.items() if v in out], "secret in the CLI's output"
    # the instance: run and event-log databases (logs, metadata), compute logs, run config snapshots
    assert not _files_containing(home, secrets)
    # every output file under the storage root
    assert any(storage.rglob("*.parquet"))
    assert not _files_containing(storage, secrets)
