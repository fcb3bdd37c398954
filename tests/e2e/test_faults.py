"""Faults from the replica: 429 storms, 5xx, dropped connections, missing and corrupt PDFs."""
from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
from reviewbench_assets.definitions import ASSETS
from reviewbench_assets.io.layout import paths
from tests.e2e.conftest import materialize_partition, replica_resources

pytestmark = pytest.mark.slow
PK = "iclr-2024"


@pytest.fixture(scope="module")
def small_replica():
    fx = build_fixtures([PK], seed=1, n_forums=14)
    with ReplicaServer(fx, port=0) as rep:
        yield fx, rep


def _meta(result, asset):
    mats = {m.asset_key.to_user_string(): m for m in result.get_asset_materialization_events()}
    return {k: v.value for k, v in mats[asset].materialization.metadata.items()}


def test_429_and_5xx_and_dropped_connections_are_survived_and_recorded(small_replica, tmp_path):
    fx, rep = small_replica
    rep.set_faults(FaultConfig(rate_limit_first_n=3, retry_after_s=1, error_first_n=2, error_status=500,
                               drop_first_n=1, path_prefix="/notes"))
    try:
        forums = [a for a in ASSETS if a.key.to_user_string() == "openreview_forums"]
        result = materialize_partition(replica_resources(rep, str(tmp_path)), PK, selection=forums)
    finally:
        rep.clear_faults()
    assert result.success
    meta = _meta(result, "openreview_forums")
    assert meta["dagster/row_count"] == len(fx.venues[PK].forums)  # nothing lost
    assert meta["rate_limited"] == 3 and meta["rate_limit_wait_s"] > 0
    assert meta["retries"] >= 3  # two 500s and one dropped connection, retried by urllib3
    statuses = [r.status for r in rep.request_log if r.path == "/notes"]
    assert statuses.count(429) == 3 and statuses.count(500) == 2


def test_missing_and_corrupt_pdfs_give_empty_markdown_with_a_reason(small_replica, tmp_path):
    fx, rep = small_replica
    with_marker = [f for f in fx.venues[PK].forums.values() if f.expected_marker]
    missing, corrupt = with_marker[0].forum_id, with_marker[1].forum_id
    rep.set_faults(FaultConfig(missing_pdfs=[missing], corrupt_pdfs=[corrupt]))
    try:
        result = materialize_partition(replica_resources(rep, str(tmp_path)), PK)
    finally:
        rep.clear_faults()
    assert result.success
    rows = {r["forum_id"]: r for r in pq.read_table(f"{tmp_path}/{paths.rows(PK)}").to_pylist()}
    prov = {r["forum_id"]: r for r in pq.read_table(f"{tmp_path}/{paths.provenance(PK)}").to_pylist()}
    assert set(rows) == set(fx.venues[PK].forums)
    for fid, needle in [(missing, "NotFoundError"), (corrupt, "pdf")]:
        assert rows[fid]["markdown"] == "" and rows[fid]["markdown_chars"] == 0
        assert needle in (prov[fid]["markdown_error"] or ""), prov[fid]
    others = [f for f in with_marker[2:]]
    assert all(f.expected_marker in rows[f.forum_id]["markdown"] for f in others)
    assert _meta(result, "initial_submission_pdfs")["errors"]
