"""The code location loads, its asset graph matches the snapshot, the nightly schedule asks for tmlr."""
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

from reviewbench_assets.definitions import defs
from reviewbench_assets.schedules import refresh_schedules

nightly_tmlr_refresh = refresh_schedules["tmlr"]

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
    ctx = dg.build_schedule_context(scheduled_execution_time=datetime(2026, 11, 23, 3, tzinfo=UTC))
    request = nightly_tmlr_refresh(ctx)
    assert request.partition_key == "tmlr" and request.run_key == "tmlr-2026-11-23"


def test_secrets_are_env_vars_not_values(monkeypatch):
    from reviewbench_assets.definitions import build_resources

    monkeypatch.setenv("OPENREVIEW_USERNAME", "someone@example.org")
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "hunter2-secret")
    res = build_resources()["openreview"]
    assert isinstance(res.password, dg.EnvVar) and isinstance(res.username, dg.EnvVar)


def test_every_asset_and_check_is_described():
    """The UI said "No description found" for the seven <conference>_split assets."""
    graph = defs.resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        assert node.description and node.description.strip(), key.to_user_string()
    from reviewbench_assets.definitions import ASSETS

    assert all(spec.description for a in ASSETS for spec in a.check_specs)
    assert "iclr-2024" in graph.get(dg.AssetKey("iclr_split")).description  # names its venue-years


def test_checks_of_partitioned_assets_are_partitioned():
    """Each check result is recorded for the partition it checked (the UI showed "Partition —")."""
    from reviewbench_assets.assets import openreview_forums, reviewbench_split

    for asset in (reviewbench_split, openreview_forums):
        specs = list(asset.check_specs)
        assert specs and all(s.partitions_def == asset.partitions_def for s in specs), asset.key


def test_column_schema_carries_the_cards_descriptions():
    from reviewbench_assets.dagster_step import column_schema
    from reviewbench_assets.domain.card import render_dataset_card
    from reviewbench_assets.domain.schema import COLUMN_DESCRIPTIONS, REVIEWBENCH_SCHEMA

    cols = column_schema(REVIEWBENCH_SCHEMA).columns
    assert [c.name for c in cols] == REVIEWBENCH_SCHEMA.names
    assert all(c.description == COLUMN_DESCRIPTIONS[c.name] for c in cols)
    card = render_dataset_card({}, None, "2026-11-23T00:00:00+00:00")
    for c in cols:  # the card's Schema table reads the same text
        assert f"| `{c.name}` |" in card and c.description in card, c.name


def test_preview_says_how_many_of_how_many():
    from reviewbench_assets.dagster_step import preview

    rows = [{"forum_id": f"f{i}", "rule": "unavailable", "revision_id": None} for i in range(32)]
    text = preview(rows, ["forum_id", "rule", "revision_id"], limit=20, what="forums").value
    assert text.startswith("20 of 32 forums")
    assert "| f0 | unavailable | – |" in text  # an empty cell is shown, not left blank


def test_nightly_schedule_refreshes_everything_downstream_of_tmlr():
    job = defs.resolve_job_def(nightly_tmlr_refresh.job_name)
    selected = {k.to_user_string() for k in job.asset_layer.selected_asset_keys}
    assert {"openreview_forums", "reviewbench_split", "resubmissions", "tmlr_split", "dataset_card"} <= selected
    assert not {"iclr_split", "neurips_split"} & selected
    assert job.partitions_def is not None and nightly_tmlr_refresh.description
