"""The web UI path as a user meets it: `make ui` (scripts/ui.py: the replica + `dagster dev`, webserver
and daemon, on the demo's instance and storage), driven by real Chromium.

A backfill of the two replica partitions is launched from the job's asset graph ("Materialize
all…" → Custom partitions → "Launch backfill"), the daemon of `dagster dev` runs it, the outputs are
checked in storage, and the UI is checked to tell the truth: every asset has a description, the
column schema carries the card's column descriptions, the checks of reviewbench_split are recorded
per partition. Screenshots go to test-artifacts/ui/ (untracked); docs/running.md's (docs/screenshots/) are
replaced by them only on purpose, `make screenshots` (REVIEWBENCH_REFRESH_SCREENSHOTS=1): a test run
leaves the tracked files as they are. The
nightly TMLR schedule is started in the same instance and the daemon is shown to hold it (see
test_schedule.py for the tick itself and its run).
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import time

import pyarrow.parquet as pq
import pytest

from openreview_replica import build_fixtures
from reviewbench_assets.domain.schema import COLUMN_DESCRIPTIONS
from reviewbench_assets.io.layout import paths
from scripts.demo_env import PARTITIONS
from tests.ops.procs import ROOT, Processes, free_port, graphql, wait_http

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.ray]  # Playwright drives the UI
PKS = PARTITIONS  # the demo's partitions: what `make ui` serves
DOCS = ROOT / "docs" / "screenshots"  # docs/running.md's images
VENUE_ASSETS = {"openreview_forums", "parsed_forums", "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues",
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
ASSET_NODES = """{ assetNodes { assetKey { path } description } }"""
COLUMNS = """query($key: AssetKeyInput!, $pk: String!) { assetNodeOrError(assetKey: $key) {
  ... on AssetNode { assetMaterializations(partitions: [$pk], limit: 1) { metadataEntries { label __typename
    ... on TableSchemaMetadataEntry { schema { columns { name description } } }
    ... on MarkdownMetadataEntry { mdStr } } } } } }"""
CHECK_EXECUTIONS = """query($key: AssetKeyInput!, $name: String!) {
  assetCheckExecutions(assetKey: $key, checkName: $name, limit: 20) { partition status } }"""


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
    fx = build_fixtures(PKS, seed=0)  # the data `make ui`'s replica serves (same venues, same seed)
    demo_dir = tmp_path / "demo"
    storage = demo_dir / "storage"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    sel = {"repositoryLocationName": "reviewbench", "repositoryName": "__repository__",
           "scheduleName": "nightly_tmlr_refresh"}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENREVIEW_", "DAGSTER_HOME",
                                                                    "REVIEWBENCH_STORAGE_ROOT"))}
    env.update({"REVIEWBENCH_DEMO_DIR": str(demo_dir), "UI_PORT": str(port), "DAGSTER_DISABLE_TELEMETRY": "1",
                "REVIEWBENCH_BROWSER_PAGES": "4", "REVIEWBENCH_RAY_NUM_CPUS": "2"})
    with Processes() as ps:
        # exactly what `make ui` runs
        ui = ps.start([sys.executable, "-m", "scripts.ui"], tmp_path / "ui.log", env)
        daemon = ui  # `dagster dev` runs webserver and daemon; their output goes to the one log
        try:
            wait_http(f"{base}/server_info", timeout_s=300, proc=ui)
            assert f"DAGSTER_HOME={demo_dir / 'dagster_home'}" in ui.output()
            assert f"REVIEWBENCH_STORAGE_ROOT={storage}" in ui.output()
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
                    assert f"{len(VENUE_ASSETS)} assets" in dialog.inner_text()
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
                    page.get_by_text("unique_forum_id").first.wait_for(timeout=60_000)
                    _skip_dialogs(page)
                    page.wait_for_timeout(2500)
                    page.screenshot(path=str(ARTIFACTS / "asset_checks.png"), full_page=True)
                    # the description of a conference split and the column descriptions, as shown
                    page.goto(f"{base}/assets/iclr_split")
                    page.get_by_text("split of the corpus").first.wait_for(timeout=60_000)
                    page.goto(f"{base}/assets/reviewbench_split?view=partitions&partition=iclr-2024")
                    page.get_by_text("[Show Table Schema]").first.click()
                    page.get_by_text(COLUMN_DESCRIPTIONS["forum_id"]).first.wait_for(timeout=60_000)
                    page.wait_for_timeout(1500)
                    page.screenshot(path=str(ARTIFACTS / "columns.png"), full_page=True)
                finally:
                    browser.close()

            # 4. the UI tells the truth (GraphQL, the data the pages above render)
            nodes = graphql(base, ASSET_NODES)["assetNodes"]
            undescribed = ["/".join(n["assetKey"]["path"]) for n in nodes if not (n["description"] or "").strip()]
            assert len(nodes) >= 13 and not undescribed, undescribed
            key = {"path": ["reviewbench_split"]}
            mats = graphql(base, COLUMNS, {"key": key, "pk": "iclr-2024"})["assetNodeOrError"]["assetMaterializations"]
            schema = next(e["schema"] for e in mats[0]["metadataEntries"] if e["label"] == "dagster/column_schema")
            assert {c["name"]: c["description"] for c in schema["columns"]} == COLUMN_DESCRIPTIONS
            mats = graphql(base, COLUMNS, {"key": {"path": ["initial_submission_pdfs"]}, "pk": "iclr-2024"})
            entries = {e["label"]: e for e in mats["assetNodeOrError"]["assetMaterializations"][0]["metadataEntries"]}
            chosen = entries["chosen_revisions"]
            assert (chosen.get("mdStr") or "").startswith("20 of 32 forums"), chosen
            assert "| reason |" in chosen["mdStr"] and "|  |" not in chosen["mdStr"], chosen
            for check in ("unique_forum_id", "empty_markdown_share"):
                execs = graphql(base, CHECK_EXECUTIONS, {"key": key, "name": check})["assetCheckExecutions"]
                assert sorted(e["partition"] for e in execs) == sorted(PKS), (check, execs)
            # docs/running.md's screenshots, taken again on this run: refreshed on purpose only
            for src, dst in (("asset_graph.png", "asset_graph.png"), ("partitions.png", "partition_status.png"),
                             ("asset_metadata.png", "asset_metadata.png"), ("asset_checks.png", "asset_checks.png")):
                assert (ARTIFACTS / src).stat().st_size > 0, src
                if os.environ.get("REVIEWBENCH_REFRESH_SCREENSHOTS") == "1":
                    shutil.copyfile(ARTIFACTS / src, DOCS / dst)

            # 5. outputs in storage: every forum of both partitions, once
            for pk in PKS:
                rows = pq.read_table(storage / paths.rows(pk)).column("forum_id").to_pylist()
                assert sorted(rows) == sorted(fx.venues[pk].forums), pk
                assert (storage / paths.provenance(pk)).exists()

            # 6. the nightly schedule in the same instance: started, held by a healthy scheduler daemon
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
            (ARTIFACTS / "ui.log").write_text(ui.output()[-200_000:])
            raise
