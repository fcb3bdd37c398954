"""`dagster asset materialize` as a user runs it, against the replica, in a subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reviewbench_assets.io.layout import paths

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.ray]  # the whole chain
ROOT = Path(__file__).resolve().parents[2]


def test_cli_materializes_a_partition(replica, fixtures, tmp_path):
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text((ROOT / "dagster.yaml").read_text())
    env = {**os.environ, "DAGSTER_HOME": str(home), "REVIEWBENCH_STORAGE_ROOT": str(tmp_path / "storage"),
           "OPENREVIEW_API_V1_URL": replica.api_v1_url, "OPENREVIEW_API_V2_URL": replica.api_v2_url,
           "OPENREVIEW_WEB_URL": replica.web_url, "OPENREVIEW_USERNAME": replica.username,
           "OPENREVIEW_PASSWORD": replica.password, "OPENREVIEW_MIN_INTERVAL_S": "0"}
    dagster = str(Path(sys.executable).parent / "dagster")
    cmd = [dagster, "asset", "materialize", "-m", "reviewbench_assets.definitions",
           "--select", "openreview_forums,parsed_forums,rebuttal_dialogues", "--partition", "iclr-2020"]
    done = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "RUN_SUCCESS" in done.stderr + done.stdout
    raw = tmp_path / "storage" / paths.raw_forums("iclr-2020")
    ids = {json.loads(line)["forum_id"] for line in raw.read_text().splitlines()}
    assert ids == set(fixtures.venues["iclr-2020"].forums)
    assert replica.password not in done.stderr + done.stdout  # secrets never logged
    # the run is recorded in the instance the CLI used
    assert any((home / "history").rglob("*.db")) or any(home.rglob("*.db"))


def test_two_cli_runs_at_once_on_a_new_instance(replica, tmp_path):
    """Issues 22 and 29.5: two `dagster asset materialize` started together on a new DAGSTER_HOME both
    succeed with no manual step: the first creates the instance's databases under the storage's lock
    (reviewbench_assets/instance_storage.py); `scripts.init_instance` stays idempotent."""
    from scripts.init_instance import init_instance

    home = tmp_path / "new_home"
    home.mkdir()
    (home / "dagster.yaml").write_text((ROOT / "dagster.yaml").read_text())  # as a user would; no init
    env = {**os.environ, "DAGSTER_HOME": str(home), "REVIEWBENCH_STORAGE_ROOT": str(tmp_path / "storage"),
           "OPENREVIEW_API_V1_URL": replica.api_v1_url, "OPENREVIEW_API_V2_URL": replica.api_v2_url,
           "OPENREVIEW_WEB_URL": replica.web_url, "OPENREVIEW_USERNAME": replica.username,
           "OPENREVIEW_PASSWORD": replica.password, "OPENREVIEW_MIN_INTERVAL_S": "0"}
    dagster = str(Path(sys.executable).parent / "dagster")
    runs = [subprocess.Popen([dagster, "asset", "materialize", "-m", "reviewbench_assets.definitions",
                              "--select", "openreview_forums", "--partition", pk], env=env, cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for pk in ("iclr-2020", "iclr-2024")]
    outs = [p.communicate(timeout=300)[0] for p in runs]
    for p, out in zip(runs, outs, strict=True):
        assert p.returncode == 0 and "RUN_SUCCESS" in out, out[-3000:]
        assert "alembic_version" not in out and "already exists" not in out
    assert (home / "history" / "runs.db").exists() and (home / "history" / "runs" / "index.db").exists()
    init_instance(home)  # idempotent on an instance the runs created
