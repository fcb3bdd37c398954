"""Two venue-years that need no code: a NeurIPS 2018 workshop (API v1, `.../-/PaperN/Official_Review`)
and a venue of a new conference family (API v2). Each is a catalogue entry plus the replica's own
venue data (a VenueSpec), nothing else.

`python -m tests.catalogue_ext.new_venues <storage root> <out.json>` runs with
REVIEWBENCH_CATALOGUE naming a catalogue that holds both entries (see test_new_venues.py): it
serves them from the replica and materializes every partitioned asset of both partitions."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from openreview_replica.venues import VENUE_SPECS, FieldSpec, _v1, _v2, _venue_strings

WORKSHOP_KEY, NEW_KEY = "neurips-2018-workshop-irasl", "uai-2024"

# The catalogue side: announced deadlines in local time, scales by name.
CATALOGUE_ENTRIES = [
    {"key": WORKSHOP_KEY, "conference": "neurips", "year": 2018, "api": "v1",
     "tracks": {"workshop": "NeurIPS.cc/2018/Workshop/IRASL"}, "scales": ["ten_point"],
     "deadline": {"date": "2018-10-19", "time": "23:59:59", "tz": "AoE", "confidence": "low",
                  "source": "test entry (workshop call for papers)"}},
    {"key": NEW_KEY, "conference": "uai", "year": 2024, "api": "v2",
     "tracks": {"main": "auai.org/UAI/2024/Conference"}, "scales": ["ten_point"],
     "deadline": {"date": "2024-02-09", "time": "23:59:59", "tz": "AoE", "confidence": "low",
                  "source": "test entry"}},
]


def build_test_catalogue(base: Path) -> dict:
    doc = yaml.safe_load(base.read_text())
    doc["families"]["uai"] = {"split": "uai", "name": "UAI"}
    doc["splits"].append("uai")
    doc["venues"] = [v for v in doc["venues"] if v["key"] == "iclr-2020"] + CATALOGUE_ENTRIES
    return doc


_RATING = ("3: Clear rejection", "5: Marginally below acceptance threshold", "7: Good paper, accept")
_CONF = ("3: The reviewer is fairly confident that the evaluation is correct",
         "4: The reviewer is confident but not absolutely certain that the evaluation is correct")

# The replica side: the deadline as the venue request form holds it (UTC), forms as the venues used.
REPLICA_SPECS = {
    WORKSHOP_KEY: _v1(
        WORKSHOP_KEY, "NeurIPS.cc/2018/Workshop/IRASL", "IRASL 2018", "2018-10-20T11:59:59Z", 2018,
        reviewer_style="anon_index", track="workshop",
        review_fields=(FieldSpec("title", "const", value="Review of Paper #{k}"), FieldSpec("review"),
                       FieldSpec("rating", "choice", _RATING), FieldSpec("confidence", "choice", _CONF)),
        decision_options=("Accept", "Reject"), **_venue_strings("IRASL 2018", {"Accept": "IRASL 2018"}),
        subtitle="NeurIPS 2018 Workshop on Imitation, Intent, and Interaction", t_decision=40),
    NEW_KEY: _v2(
        NEW_KEY, "auai.org/UAI/2024/Conference", "UAI 2024", "2024-02-10T11:59:59Z", 2024,
        review_fields=(FieldSpec("summary"), FieldSpec("strengths"), FieldSpec("weaknesses"),
                       FieldSpec("rating", "choice", _RATING), FieldSpec("confidence", "choice", _CONF)),
        meta_review_fields=(FieldSpec("metareview"),), decision_options=("Accept", "Reject"),
        **_venue_strings("UAI 2024", {"Accept": "UAI 2024"}),
        subtitle="Conference on Uncertainty in Artificial Intelligence", t_decision=90, primary_areas=("",)),
}


def main(root: str, out: str) -> None:
    import dagster as dg

    from openreview_replica import ReplicaServer, build_fixtures
    from partitions.catalogue import catalogue
    from reviewbench_assets.definitions import ASSETS
    from tests.e2e.conftest import replica_resources

    assert set(REPLICA_SPECS) <= set(catalogue().keys), catalogue().keys
    fx = build_fixtures(list(REPLICA_SPECS), seed=3, n_forums=14, specs={**VENUE_SPECS, **REPLICA_SPECS})
    report: dict = {"partitions": {}}
    with ReplicaServer(fx, port=0, web_delay_ms=50) as rep:
        resources = replica_resources(rep, root)
        assets = [a for a in ASSETS if a.partitions_def is not None]
        for pk in REPLICA_SPECS:
            result = dg.materialize(assets, partition_key=pk, resources=resources, raise_on_error=False)
            mats = {str(e.asset_key.to_user_string()): e.step_materialization_data.materialization.metadata
                    for e in result.get_asset_materialization_events()}
            checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
            report["partitions"][pk] = {
                "success": result.success,
                "assets": sorted(mats),
                "rules": mats.get("initial_submission_pdfs", {}).get("rules").value
                if "initial_submission_pdfs" in mats else None,
                "deadline_check": mats.get("initial_submission_pdfs", {}).get("deadline_check").value
                if "initial_submission_pdfs" in mats else None,
                "checks": checks,
                "truth": {fid: [f.stage_rule, f.stage_revision_id, f.num_reviews, f.track]
                          for fid, f in fx.venues[pk].forums.items()},
            }
    Path(out).write_text(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
