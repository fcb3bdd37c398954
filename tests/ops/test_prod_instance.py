"""The production instance shape: deploy/dagster.prod.yaml on a real PostgreSQL server, S3 compute
logs and an s3:// storage root on moto_server, a partition run through the CLI."""
from __future__ import annotations

import json
import subprocess

import boto3
import pytest
import yaml

from openreview_replica import ReplicaServer, build_fixtures
from reviewbench_assets.io.layout import paths
from tests.ops.postgres import pg_bindir, postgres_server
from tests.ops.procs import BIN, ROOT, make_home, replica_env

pytestmark = [pytest.mark.slow, pytest.mark.postgres]
PK = "iclr-2020"


def prod_yaml(pg: dict, endpoint: str) -> str:
    """deploy/dagster.prod.yaml as shipped, with only the server's port and the S3 endpoint (moto) added."""
    cfg = yaml.safe_load((ROOT / "deploy" / "dagster.prod.yaml").read_text())
    cfg["storage"]["postgres"]["postgres_db"]["port"] = pg["port"]
    cfg["compute_logs"]["config"]["endpoint_url"] = endpoint
    cfg["compute_logs"]["config"]["region"] = "us-east-1"
    return yaml.safe_dump(cfg)


@pytest.mark.skipif(pg_bindir() is None, reason="needs Debian's postgresql-15 (the Makefile installs it)")
def test_cli_run_on_postgres_with_s3_logs_and_storage(s3_bucket, moto_endpoint, tmp_path):
    fx = build_fixtures([PK], seed=0, n_forums=6)
    with postgres_server() as pg, ReplicaServer(fx, port=0) as rep:
        home = make_home(tmp_path / "home", prod_yaml(pg, moto_endpoint))
        root = f"s3://{s3_bucket}/reviewbench"
        env = {**replica_env(rep, root, str(home)),
               "DAGSTER_PG_USERNAME": pg["user"], "DAGSTER_PG_PASSWORD": pg["password"],
               "DAGSTER_PG_HOST": pg["host"], "DAGSTER_PG_DB": pg["db"], "REVIEWBENCH_LOG_BUCKET": s3_bucket,
               "REVIEWBENCH_S3_ENDPOINT_URL": moto_endpoint, "AWS_REGION": "us-east-1"}
        info = subprocess.run([str(BIN / "dagster"), "instance", "info"], env=env, cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert info.returncode == 0, info.stderr[-3000:]
        assert "run_storage: PostgresRunStorage" in info.stdout, info.stdout
        assert "event_log_storage: PostgresEventLogStorage" in info.stdout, info.stdout
        done = subprocess.run([str(BIN / "dagster"), "asset", "materialize", "-m", "reviewbench_assets.definitions",
                               "--select", "openreview_forums,parsed_forums,rebuttal_dialogues", "--partition", PK],
                              env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-4000:]

        # run and event storage are in Postgres (the driver is extra `dev`'s: imported here so that
        # `make test-fast`, which installs extra `test` and deselects this test, can collect the module)
        import psycopg2

        con = psycopg2.connect(host=pg["host"], port=pg["port"], user=pg["user"], password=pg["password"],
                               dbname=pg["db"])
        with con, con.cursor() as cur:
            cur.execute("select run_id, status, run_body from runs")
            runs = cur.fetchall()
            assert len(runs) == 1 and runs[0][1] == "SUCCESS", runs
            assert json.loads(runs[0][2])["tags"]["dagster/partition"] == PK
            cur.execute("select asset_key, partition from event_logs where dagster_event_type = "
                        "'ASSET_MATERIALIZATION' and run_id = %s", (runs[0][0],))
            mats = {(json.loads(k)[0] if k.startswith("[") else k, p) for k, p in cur.fetchall()}
        con.close()
        assert mats == {("openreview_forums", PK), ("parsed_forums", PK), ("rebuttal_dialogues", PK)}, mats

        # compute logs and outputs are in S3
        s3 = boto3.client("s3", endpoint_url=moto_endpoint, region_name="us-east-1")
        keys = [o["Key"] for page in s3.get_paginator("list_objects_v2").paginate(Bucket=s3_bucket)
                for o in page.get("Contents", [])]
        logs = [k for k in keys if k.startswith("dagster-compute-logs/")]
        assert logs, keys
        assert f"reviewbench/{paths.raw_forums(PK)}" in keys, keys
        body = s3.get_object(Bucket=s3_bucket, Key=f"reviewbench/{paths.raw_forums(PK)}")["Body"].read().decode()
        assert {json.loads(line)["forum_id"] for line in body.splitlines()} == set(fx.venues[PK].forums)
