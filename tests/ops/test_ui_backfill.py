"""The web UI path: dagster-webserver + dagster-daemon on 127.0.0.1, driven by real Chromium.

A backfill of the two replica partitions is launched from the job's asset graph ("Materialize
all…" → Custom partitions → "Launch backfill"), the backfill daemon runs it, the outputs are
checked in storage, and screenshots go to test-artifacts/ui/. The nightly TMLR schedule is started
in the same instance and the daemon is shown to hold it (see test_schedule.py for the tick itself).
"""
from __future__ import annotations

import json
import subprocess
import time

import pyarrow.parquet as pq
import pytest

from openreview_replica import ReplicaServer, build_fixtures
from reviewbench_assets import paths
from tests.ops.procs import BIN, ROOT, Processes, free_port, graphql, make_home, replica_env, wait_http

pytestmark = pytest.mark.slow
PKS = ["iclr-2024", "iclr-2020"]
VENUE_ASSETS = {"openreview_forums", "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues",
                "reviewbench_split"}
ARTIFACTS = ROOT / "test-artifacts" / "ui"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

BACKFILLS = """{ partitionBackfillsOrError(limit: 10) { __typename
  ... on PartitionBackfills { results { id status partitionNames assetSelection { path } } } } }"""
RUNS = """{ runsOrError { ... on Runs { results { runId status tags { key value } } } } }"""
MATERIALIZED = """query($key: AssetKeyInput!) { assetNodeOrError(assetKey: $key) {
  ... on AssetNode { materializedPartitions: partitionStats { numMaterialized } } } }"""
SCHEDULE = """query($sel: ScheduleSelector!) { scheduleOrError(scheduleSelector: $sel) {
  ... on Schedule { name scheduleState { status } futureTicks(limit: 1) { results { timestamp } } } } }"""
START_SCHEDULE = """mutation($sel: ScheduleSelector!) { startSchedule(scheduleSelector: $sel) { __typename
  ... on ScheduleStateResult { scheduleState { status } } ... on PythonError { message } } }"""
DRY_RUN = """mutation($sel: ScheduleSelector!, $ts: Float) { scheduleDryRun(selectorData: $sel, timestamp: $ts) {
  __typename ... on DryRunInstigationTick { evaluationResult { runRequests { runKey tags { key value } } error { message } } }
  ... on PythonError { message } } }"""
DAEMONS = """{ instance { daemonHealth { allDaemonStatuses { daemonType healthy } } } }"""


def _skip_dialogs(page, wait_ms: int = 0):
    """Dismiss the "Join the Dagster community" dialog shown on a fresh instance (once per browser)."""
    skip = page.get_by_role("button", name="Skip")
    try:
        skip.first.wait_for(timeout=wait_ms) if wait_ms else None
    except Exception:  # playwright TimeoutError: the dialog did not show up
        return
    if skip.count():
        skip.first.click()
        skip.first.wait_for(state="hidden", timeout=10_000)


def _wait_backfill(base: str, timeout_s: float) -> dict:
    deadline = time.time() + timeout_s
    last = None
    while time.time() < deadline:
        res = graphql(base, BACKFILLS)["partitionBackfillsOrError"]["results"]
        if res:
            last = res[0]
            if last["status"] not in ("REQUESTED",):
                return last
        time.sleep(3)
    raise TimeoutError(f"backfill not finished after {timeout_s}s: {last}")


def test_ui_backfill_of_two_partitions(tmp_path):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    fx = build_fixtures(PKS, seed=0)
    storage = tmp_path / "storage"
    home = make_home(tmp_path / "dagster_home")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    sel = {"repositoryLocationName": "reviewbench", "repositoryName": "__repository__",
           "scheduleName": "nightly_tmlr_refresh"}
    with ReplicaServer(fx, port=0) as rep, Processes() as ps:
        env = replica_env(rep, str(storage), str(home))
        # create the SQLite storages once: webserver and daemon migrating a fresh instance at the same
        # time leave two alembic heads ("Version table 'alembic_version' has more than one head")
        subprocess.run([str(BIN / "dagster"), "instance", "migrate"], env=env, cwd=ROOT, check=True,
                       capture_output=True, timeout=120)
        web = ps.start([str(BIN / "dagster-webserver"), "-w", "workspace.yaml", "-h", "127.0.0.1", "-p", str(port)],
                       tmp_path / "webserver.log", env)
        daemon = ps.start([str(BIN / "dagster-daemon"), "run", "-w", "workspace.yaml"], tmp_path / "daemon.log", env)
        try:
            wait_http(f"{base}/server_info", proc=web)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                try:
                    page = browser.new_page(viewport={"width": 1500, "height": 950})
                    # 1. the asset graph of the venue pipeline, then the materialize dialog
                    page.goto(f"{base}/locations/reviewbench/jobs/venue_pipeline")
                    page.get_by_role("button", name="Materialize all").first.wait_for(timeout=60_000)
                    _skip_dialogs(page, wait_ms=8000)
                    page.wait_for_timeout(1500)
                    page.screenshot(path=str(ARTIFACTS / "job_graph.png"))
                    page.get_by_role("button", name="Materialize all").first.click()
                    dialog = page.get_by_role("dialog").filter(has_text="Launch runs to materialize")
                    dialog.wait_for(timeout=30_000)
                    assert "5 assets" in dialog.inner_text()
                    dialog.get_by_text("Select a partition or create one").click()
                    flt = page.get_by_placeholder("Filter partitions")
                    for pk in PKS:
                        flt.fill(pk)
                        item = page.get_by_role("menuitem").filter(has_text=pk)
                        item.first.wait_for(timeout=10_000)
                        assert item.count() == 1, item.all_inner_texts()
                        item.first.click()
                    page.keyboard.press("Escape")
                    page.wait_for_timeout(500)
                    assert "2 partitions" in dialog.inner_text()
                    page.screenshot(path=str(ARTIFACTS / "backfill_dialog.png"))
                    dialog.get_by_role("button", name="Launch backfill").click()

                    # 2. the daemon runs it
                    backfill = _wait_backfill(base, timeout_s=600)
                    assert backfill["status"] == "COMPLETED_SUCCESS", (backfill, daemon.output()[-4000:])
                    assert sorted(backfill["partitionNames"]) == sorted(PKS)
                    assert {"/".join(a["path"]) for a in backfill["assetSelection"]} == VENUE_ASSETS
                    runs = graphql(base, RUNS)["runsOrError"]["results"]
                    backfill_runs = [r for r in runs if any(t["key"] == "dagster/backfill" and t["value"] == backfill["id"]
                                                            for t in r["tags"])]
                    assert backfill_runs and all(r["status"] == "SUCCESS" for r in backfill_runs), backfill_runs

                    # 3. screenshots: the whole asset graph with its status, the partition status
                    # view and an asset's metadata
                    # the lineage of reviewbench_split (3 hops each way) is the whole graph, expanded
                    page.goto(f"{base}/assets/reviewbench_split?view=lineage&lineageScope=neighbors&lineageDepth=3")
                    page.get_by_text("openreview_forums").first.wait_for(timeout=60_000)
                    _skip_dialogs(page)
                    page.wait_for_timeout(2500)
                    page.screenshot(path=str(ARTIFACTS / "asset_graph.png"))
                    page.goto(f"{base}/assets/reviewbench_split?view=partitions")
                    page.get_by_text("Materialized (2)").first.wait_for(timeout=60_000)
                    _skip_dialogs(page)
                    page.get_by_text("iclr-2024").first.click()
                    page.wait_for_timeout(2500)
                    page.screenshot(path=str(ARTIFACTS / "partitions.png"), full_page=True)
                    page.goto(f"{base}/assets/initial_submission_pdfs?view=partitions&partition=iclr-2024")
                    page.get_by_text("Metadata").first.wait_for(timeout=60_000)
                    _skip_dialogs(page)
                    page.wait_for_timeout(2500)
                    page.screenshot(path=str(ARTIFACTS / "asset_metadata.png"), full_page=True)
                    page.goto(f"{base}/assets/reviewbench_split?view=checks")
                    page.wait_for_timeout(4000)
                    _skip_dialogs(page)
                    page.screenshot(path=str(ARTIFACTS / "asset_checks.png"), full_page=True)
                finally:
                    browser.close()

            # 4. outputs in storage: every forum of both partitions, once
            for pk in PKS:
                rows = pq.read_table(storage / paths.rows(pk)).column("forum_id").to_pylist()
                assert sorted(rows) == sorted(fx.venues[pk].forums), pk
                assert (storage / paths.provenance(pk)).exists()

            # 5. the nightly schedule in the same instance: started, held by a healthy scheduler daemon
            started = graphql(base, START_SCHEDULE, {"sel": sel})["startSchedule"]
            assert started["__typename"] == "ScheduleStateResult", started
            sched = graphql(base, SCHEDULE, {"sel": sel})["scheduleOrError"]
            assert sched["scheduleState"]["status"] == "RUNNING" and sched["futureTicks"]["results"]
            dry = graphql(base, DRY_RUN, {"sel": sel, "ts": time.time()})["scheduleDryRun"]
            reqs = dry["evaluationResult"]["runRequests"]
            assert len(reqs) == 1 and {"key": "dagster/partition", "value": "tmlr"} in reqs[0]["tags"], dry
            deadline = time.time() + 90
            while time.time() < deadline:
                statuses = {d["daemonType"]: d["healthy"]
                            for d in graphql(base, DAEMONS)["instance"]["daemonHealth"]["allDaemonStatuses"]}
                if statuses.get("SCHEDULER") and statuses.get("BACKFILL"):
                    break
                time.sleep(3)
            assert statuses.get("SCHEDULER") and statuses.get("BACKFILL"), statuses
            (ARTIFACTS / "backfill.json").write_text(json.dumps({"backfill": backfill, "runs": backfill_runs}, indent=1))
        except BaseException:
            for proc, name in ((web, "webserver"), (daemon, "daemon")):
                (ARTIFACTS / f"{name}.log").write_text(proc.output()[-200_000:])
            raise
