"""The `dg` forms of the CLI (Dagster 1.13's successor of `dagster asset materialize` / `dagster dev`)
work from the repository root through pyproject's [tool.dg] project config, against the replica."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reviewbench_assets.io.layout import paths
from tests.ops.procs import Processes, free_port, graphql, wait_http

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.ray]  # the whole chain
ROOT = Path(__file__).resolve().parents[2]
DG = str(Path(sys.executable).parent / "dg")


def _env(replica, tmp_path) -> dict:
    home = tmp_path / "dagster_home"
    home.mkdir(exist_ok=True)
    (home / "dagster.yaml").write_text((ROOT / "dagster.yaml").read_text())
    return {**os.environ, "DAGSTER_HOME": str(home), "REVIEWBENCH_STORAGE_ROOT": str(tmp_path / "storage"),
            "OPENREVIEW_API_V1_URL": replica.api_v1_url, "OPENREVIEW_API_V2_URL": replica.api_v2_url,
            "OPENREVIEW_WEB_URL": replica.web_url, "OPENREVIEW_USERNAME": replica.username,
            "OPENREVIEW_PASSWORD": replica.password, "OPENREVIEW_MIN_INTERVAL_S": "0",
            "DAGSTER_DISABLE_TELEMETRY": "1"}


def test_dg_launch_materializes_a_partition(replica, fixtures, tmp_path):
    # docs/running.md's `dg launch` form: no -m, the code location comes from [tool.dg.project]
    cmd = [DG, "launch", "--assets", "openreview_forums,parsed_forums,rebuttal_dialogues", "--partition", "iclr-2020"]
    done = subprocess.run(cmd, env=_env(replica, tmp_path), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert "RUN_SUCCESS" in done.stderr + done.stdout
    raw = tmp_path / "storage" / paths.raw_forums("iclr-2020")
    ids = {json.loads(line)["forum_id"] for line in raw.read_text().splitlines()}
    assert ids == set(fixtures.venues["iclr-2020"].forums)
    assert replica.password not in done.stderr + done.stdout


def test_dg_dev_serves_the_code_location(replica, tmp_path):
    port = free_port()
    with Processes() as ps:
        dev = ps.start([DG, "dev", "-h", "127.0.0.1", "-p", str(port)], tmp_path / "dg_dev.log",
                       _env(replica, tmp_path))
        wait_http(f"http://127.0.0.1:{port}/server_info", timeout_s=240, proc=dev)
        nodes = graphql(f"http://127.0.0.1:{port}", "{ assetNodes { assetKey { path } } }")["assetNodes"]
        keys = {"/".join(n["assetKey"]["path"]) for n in nodes}
        assert {"openreview_forums", "reviewbench_split", "iclr_split", "dataset_card"} <= keys, dev.output()[-3000:]
