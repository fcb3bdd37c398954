"""Issue 10 point 5: a workshop (API v1, `.../-/PaperN/Official_Review`) and a venue of a new
conference family (API v2) enter through the catalogue and the replica's venue data only, and every
partitioned asset materializes for both."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml

from partitions.catalogue import CATALOGUE_PATH, parse_catalogue
from tests.catalogue_ext.new_venues import NEW_KEY, WORKSHOP_KEY, build_test_catalogue

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.ray]  # the whole chain
ROOT = Path(__file__).resolve().parents[2]


def test_the_test_catalogue_is_valid():
    c = parse_catalogue(build_test_catalogue(CATALOGUE_PATH))
    assert c.get(WORKSHOP_KEY).split == "neurips" and c.get(NEW_KEY).split == "uai"
    assert c.get(WORKSHOP_KEY).tracks == {"workshop": "NeurIPS.cc/2018/Workshop/IRASL"}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("newvenues")
    cat = tmp / "catalogue.yaml"
    cat.write_text(yaml.safe_dump(build_test_catalogue(CATALOGUE_PATH), sort_keys=False))
    env = {**os.environ, "REVIEWBENCH_CATALOGUE": str(cat), "PYTHONPATH": str(ROOT),
           "DAGSTER_HOME": str(tmp / "dh")}
    (tmp / "dh").mkdir()
    out = tmp / "report.json"
    proc = subprocess.run([sys.executable, "-m", "tests.catalogue_ext.new_venues", str(tmp / "storage"), str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1500)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(out.read_text()), tmp / "storage"


@pytest.mark.parametrize("pk", [WORKSHOP_KEY, NEW_KEY])
def test_materializes_from_catalogue_and_replica_data_only(run, pk):
    report, storage = run
    part = report["partitions"][pk]
    assert part["success"], part
    assert {"openreview_forums", "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues",
            "reviewbench_split"} <= set(part["assets"])
    assert part["deadline_check"] == "agree" and part["checks"]["deadline_agrees_with_invitation"]
    truth = part["truth"]
    rows = pq.read_table(storage / "rows" / f"{pk}.parquet").to_pylist()
    prov = {p["forum_id"]: p for p in pq.read_table(storage / "rows" / f"{pk}.provenance.parquet").to_pylist()}
    assert sorted(r["forum_id"] for r in rows) == sorted(truth)
    for r in rows:
        rule, rev_id, n_reviews, track = truth[r["forum_id"]]
        assert r["num_reviews"] == n_reviews and r["track"] == track
        assert (prov[r["forum_id"]]["revision_rule"], prov[r["forum_id"]]["revision_id"]) == (rule, rev_id)
        assert prov[r["forum_id"]]["cutoff_rule"] == "invitation_expdate"
        for review in json.loads(r["reviews_json"]):
            if review["rating"] is not None:
                assert review["extra_scores"]["rating_max"] == 10  # the catalogue's scale set
    if pk == WORKSHOP_KEY:
        assert {row["track"] for row in rows} == {"workshop"} and {row["conference"] for row in rows} == {"neurips"}
