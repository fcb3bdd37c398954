"""The code location loads, its asset graph matches the snapshot, the nightly schedule asks for tmlr."""
import json
import os
from datetime import datetime, timezone
from pathlib import Path

import dagster as dg

from reviewbench_assets.definitions import defs
from reviewbench_assets.schedules import nightly_tmlr_refresh

SNAPSHOT = Path(__file__).parent / "snapshots" / "asset_specs.json"


def asset_specs() -> dict:
    graph = defs.resolve_asset_graph()
    out = {}
    for key in sorted(graph.get_all_asset_keys(), key=lambda k: k.to_user_string()):
        node = graph.get(key)
        out[key.to_user_string()] = {
            "group": node.group_name,
            "partitioned": node.partitions_def is not None,
            "deps": sorted(k.to_user_string() for k in node.parent_keys),
            "kinds": sorted(node.kinds),
            "checks": sorted(c.name for c in node.check_keys),
            "code_version": node.code_version,
            "pools": sorted(node.pools or []),
        }
    return out


def test_definitions_load():
    dg.Definitions.validate_loadable(defs)
    assert defs.resolve_job_def("venue_pipeline").partitions_def is not None


def test_asset_specs_snapshot():
    current = asset_specs()
    if os.environ.get("UPDATE_SNAPSHOTS") or not SNAPSHOT.exists():
        SNAPSHOT.write_text(json.dumps(current, indent=2, sort_keys=True) + "\n")
    assert current == json.loads(SNAPSHOT.read_text()), "asset graph changed: UPDATE_SNAPSHOTS=1 pytest"


def test_nightly_schedule_requests_only_tmlr():
    ctx = dg.build_schedule_context(scheduled_execution_time=datetime(2026, 11, 23, 3, tzinfo=timezone.utc))
    request = nightly_tmlr_refresh(ctx)
    assert request.partition_key == "tmlr" and request.run_key == "tmlr-2026-11-23"


def test_secrets_are_env_vars_not_values(monkeypatch):
    from reviewbench_assets.definitions import build_resources

    monkeypatch.setenv("OPENREVIEW_USERNAME", "someone@example.org")
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "hunter2-secret")
    res = build_resources()["openreview"]
    assert isinstance(res.password, dg.EnvVar) and isinstance(res.username, dg.EnvVar)
