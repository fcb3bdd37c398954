"""The nightly TMLR refresh: one tick of the schedule, and the run it requests executed on the replica:
it refreshes everything downstream of `tmlr`, the venue chain, `tmlr_split` and the dataset card."""
from __future__ import annotations

from datetime import UTC, datetime

import dagster as dg
import pyarrow.parquet as pq
import pytest

from openreview_replica import ReplicaServer, build_fixtures
from reviewbench_assets.definitions import ASSETS, build_resources
from reviewbench_assets.io.layout import paths
from reviewbench_assets.schedules import refresh_jobs, refresh_schedules, venue_pipeline_job

tmlr_refresh_job, nightly_tmlr_refresh = refresh_jobs["tmlr"], refresh_schedules["tmlr"]
from tests.ops.procs import replica_env

pytestmark = pytest.mark.slow


def test_schedule_tick_requests_only_tmlr():
    tick = datetime(2026, 3, 14, 3, 0, tzinfo=UTC)
    with dg.instance_for_test() as instance:
        ctx = dg.build_schedule_context(instance=instance, scheduled_execution_time=tick)
        req = nightly_tmlr_refresh(ctx)
    reqs = req if isinstance(req, list) else [req]
    assert len(reqs) == 1
    assert reqs[0].partition_key == "tmlr"
    assert reqs[0].run_key == "tmlr-2026-03-14"  # one run per night, idempotent across daemon restarts
    assert nightly_tmlr_refresh.cron_schedule == "0 3 * * *" and nightly_tmlr_refresh.description
    assert nightly_tmlr_refresh.job_name == "tmlr_refresh"
    assert nightly_tmlr_refresh.execution_timezone == "UTC"


def test_the_requested_run_refreshes_tmlr_on_the_replica(tmp_path, monkeypatch):
    try:
        fx = build_fixtures(["tmlr"], seed=0, n_forums=6)
    except (KeyError, ValueError) as e:  # pragma: no cover - the tmlr fixture is another engineer's work
        pytest.fail(f"the replica has no tmlr fixture: {e}")
    tick = datetime(2026, 3, 14, 3, 0, tzinfo=UTC)
    with ReplicaServer(fx, port=0) as rep, dg.instance_for_test() as instance:
        for k, v in replica_env(rep, str(tmp_path), str(tmp_path / "home")).items():
            monkeypatch.setenv(k, v)
        # the resources exactly as the code location builds them, pointed at the replica by env vars
        defs = dg.Definitions(assets=ASSETS, jobs=[venue_pipeline_job, tmlr_refresh_job], schedules=[nightly_tmlr_refresh],
                              resources=build_resources())
        schedule = defs.resolve_schedule_def("nightly_tmlr_refresh")
        data = schedule.evaluate_tick(dg.build_schedule_context(instance=instance, scheduled_execution_time=tick,
                                                                repository_def=defs.get_repository_def()))
        assert data.skip_message is None and len(data.run_requests) == 1
        req = data.run_requests[0]
        job = defs.resolve_job_def(schedule.job_name)
        result = job.execute_in_process(partition_key=req.partition_key, tags=req.tags, instance=instance,
                                        raise_on_error=False)
        assert result.success
        run = instance.get_run_by_id(result.run_id)
        assert run.tags["dagster/partition"] == "tmlr" and run.tags["reviewbench/refresh"] == "nightly"
        mats = {m.asset_key.to_user_string() for m in result.get_asset_materialization_events()}
        # everything downstream of tmlr, and nothing of the other conferences' splits
        assert mats == {"openreview_forums", "parsed_forums", "venue_changes", "initial_submission_pdfs", "paper_markdown",
                        "rebuttal_dialogues", "reviewbench_split", "resubmissions", "tmlr_split", "dataset_card"}, mats
        partitions = {m.asset_key.to_user_string(): m.materialization.partition for m in result.get_asset_materialization_events()}
        assert partitions["reviewbench_split"] == "tmlr" and partitions["tmlr_split"] is None
        rows = pq.read_table(tmp_path / paths.rows("tmlr")).to_pylist()
        assert sorted(r["forum_id"] for r in rows) == sorted(fx.venues["tmlr"].forums)
        # the published split and the card carry the refreshed rows
        shards = sorted((tmp_path / paths.CORPUS_DIR / "data").glob("tmlr-*.parquet"))
        assert shards and sum(pq.ParquetFile(p).metadata.num_rows for p in shards) == len(rows)
        card = (tmp_path / paths.CORPUS_DIR / "README.md").read_text()
        assert "| tmlr | tmlr |" in card and "tmlr-20" not in card  # the partition, not a made-up year
        assert "1 conference**" in card and "only contain accepted" not in card
