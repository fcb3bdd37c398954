"""OpenReview requests per paper, end to end, counted where they arrive (the replica's request log,
`ReplicaServer.request_counts`): one v1 partition (iclr-2020) and one v2 partition (iclr-2024),
every stage that talks to OpenReview materialized in order through Dagster, once with the default
configuration (revision discovery in chromium) and once with the API recipe (`use_browser: false`),
each on a fresh storage root (`parsed_forums` runs between them: the PDF stage reads its table; it
makes no request). The stages after `initial_submission_pdfs` read only the store
(tests/e2e/test_pipeline.py: re-deriving from `parsed_forums` makes no request), so they are not run here.

Figures: `openreview_requests_per_paper_v1` / `_v2` (value: default, baseline: API recipe), with
the per-stage and per-kind counts (`attachment`, `api <v> <endpoint>`, `web <page>`) as extra
fields. Goal of issue 19: <= 2.0 on v1 and <= 1.5 on v2 (API and attachment requests; the web page's
own HTML and scripts are counted apart, as `web_per_paper`).

    .venv/bin/python -m benchmarks.run_all bench_requests_per_paper
"""
from __future__ import annotations

import os
import tempfile
from collections import Counter

PARTITIONS = {"v1": "iclr-2020", "v2": "iclr-2024"}
# Papers per partition: enough that the requests a venue-year makes once (sign-in, groups,
# invitations, listing pages) weigh what they weigh at real size (7,404 papers: nothing), so the
# value is the per-paper cost itself; `per_paper_without_per_venue` stays as the check.
FORUMS = int(os.environ.get("BENCH_REQUESTS_FORUMS", "256"))
STAGES = ("openreview_forums", "parsed_forums", "initial_submission_pdfs")  # parsing makes no request
PER_VENUE_ENDPOINTS = ("/login", "/groups", "/profiles", "/invitations")


def _count(rep, fx, pk: str, use_browser: bool) -> dict:
    import dagster as dg

    from reviewbench_assets.definitions import ASSETS
    from tests.e2e.conftest import replica_resources

    by_key = {a.key.to_user_string(): a for a in ASSETS}
    papers = len(fx.venues[pk].forums)
    per_stage: dict[str, Counter] = {}
    with tempfile.TemporaryDirectory(prefix="bench_requests_") as root:
        resources = replica_resources(rep, root)
        config = {"ops": {"initial_submission_pdfs": {"config": {"use_browser": use_browser}}}}
        for stage in STAGES:
            rep.reset_request_log()
            result = dg.materialize([by_key[stage]], partition_key=pk, resources=resources,
                                    run_config={"ops": {k: v for k, v in config["ops"].items() if k == stage}},
                                    raise_on_error=False)
            if not result.success:
                raise RuntimeError(f"{pk} {stage} failed")
            per_stage[stage] = Counter(rep.request_counts())
    total = sum(per_stage.values(), Counter())
    metered = sum(n for k, n in total.items() if not k.startswith("web "))
    # Requests made once per venue-year whatever its size (sign-in, venue group, invitations, the
    # crawl's pages of 1,000 notes): 9-13 of them weigh 0.3-0.4 per paper on 32 papers and nothing
    # on 7,404, so the per-paper cost a real partition pays is given apart.
    per_venue = sum(n for k, n in total.items() if k.split(" ")[-1] in PER_VENUE_ENDPOINTS)
    per_venue += sum(n for k, n in per_stage["openreview_forums"].items() if k.endswith(" /notes"))
    return {"papers": papers, "per_paper": metered / papers, "per_venue_requests": per_venue,
            "per_paper_without_per_venue": (metered - per_venue) / papers,
            "web_per_paper": sum(n for k, n in total.items() if k.startswith("web ")) / papers,
            "per_stage_per_paper": {s: round(sum(n for k, n in c.items() if not k.startswith("web ")) / papers, 3)
                                    for s, c in per_stage.items()},
            "by_kind": dict(sorted(total.items()))}


def run() -> list[dict]:
    from benchmarks.common import figure
    from openreview_replica import ReplicaServer, build_fixtures

    fx = build_fixtures(list(PARTITIONS.values()), seed=0, n_forums=FORUMS)
    figs = []
    with ReplicaServer(fx, port=0) as rep:
        for api, pk in PARTITIONS.items():
            default = _count(rep, fx, pk, use_browser=True)
            recipe = _count(rep, fx, pk, use_browser=False)
            figs.append(figure(f"openreview_requests_per_paper_{api}", round(default["per_paper"], 3), "requests/paper",
                               round(recipe["per_paper"], 3), partition=pk, papers=default["papers"],
                               goal=2.0 if api == "v1" else 1.5,
                               default_per_stage=default["per_stage_per_paper"],
                               api_recipe_per_stage=recipe["per_stage_per_paper"],
                               default_web_per_paper=round(default["web_per_paper"], 3),
                               default_per_venue_requests=default["per_venue_requests"],
                               default_per_paper_without_per_venue=round(default["per_paper_without_per_venue"], 3),
                               api_recipe_per_paper_without_per_venue=round(recipe["per_paper_without_per_venue"], 3),
                               default_by_kind=default["by_kind"], api_recipe_by_kind=recipe["by_kind"],
                               note="value: default (browser revision discovery); baseline: API recipe"))
    return figs


if __name__ == "__main__":
    import json

    for f in run():
        print(json.dumps(f, indent=1))
