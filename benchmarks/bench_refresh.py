"""No-change nightly refresh of the whole chain on a generated 5,000-forum TMLR-shaped venue.

noop_refresh_request_ratio: every OpenReview request (API calls, page loads, PDF downloads) of
re-materializing every venue asset with nothing changed on OpenReview (value), over those of the
first full run (baseline), in the same run; goal <= 0.01. Also checked: no PDF downloaded and no
page OCR'd on the refresh. Revision discovery uses the API recipe here (use_browser=False): 5,000
browser page loads would dominate the benchmark's time without changing what is measured (the
refresh makes no page load either way: unchanged forums are resumed from their checkpoints).
"""
from __future__ import annotations

import dataclasses
import tempfile
import time

import dagster as dg

from benchmarks.common import figure

N_FORUMS = 5000


def run() -> list[dict]:
    import openreview.tools

    from openreview_replica import ReplicaServer, build_fixtures
    from openreview_replica.venues import VENUE_SPECS
    from resources import BrowserResource, LLMResource, OpenReviewResource, RayResource, StorageResource
    from reviewbench_assets.definitions import ASSETS

    spec = dataclasses.replace(VENUE_SPECS["tmlr"], rolling_gap_days=0.15, special_forums=())
    fx = build_fixtures(["tmlr"], seed=11, n_forums=N_FORUMS, eager_pdfs=False, specs={"tmlr": spec})
    venue_assets = [a for a in ASSETS if a.partitions_def is not None]
    cfg = {"ops": {"initial_submission_pdfs": {"config": {"use_browser": False}},
                   "openreview_forums": {"config": {"review_edits": False}}}}
    with ReplicaServer(fx, port=0) as rep, tempfile.TemporaryDirectory() as root:
        openreview.tools.LOCAL_API_V2 = rep.api_v2_url
        res = {"openreview": OpenReviewResource(api_v1_url=rep.api_v1_url, api_v2_url=rep.api_v2_url,
                                                web_url=rep.web_url, username=rep.username,
                                                password=rep.password, min_interval_s=0.0),
               "browser": BrowserResource(), "storage": StorageResource(root=root),
               "ray": RayResource(num_cpus=2), "llm": LLMResource()}

        def materialize():
            rep.reset_request_log()
            t = time.perf_counter()
            r = dg.materialize(venue_assets, partition_key="tmlr", resources=res, run_config=cfg)
            log = [x for x in rep.request_log if not x.path.startswith("/_replica")]
            meta = {m.asset_key.to_user_string(): {k: v.value for k, v in m.materialization.metadata.items()}
                    for m in r.get_asset_materialization_events()}
            return time.perf_counter() - t, log, meta

        t_full, log_full, _ = materialize()
        t_noop, log_noop, meta = materialize()

    pdf = lambda log: sum(1 for x in log if "pdf" in x.path or "attachment" in x.path)  # noqa: E731
    md = meta["paper_markdown"]
    return [figure("noop_refresh_request_ratio", len(log_noop), "requests", len(log_full),
                   forums=N_FORUMS, full_run_s=round(t_full, 1), noop_run_s=round(t_noop, 1),
                   pdf_downloads_full=pdf(log_full), pdf_downloads_noop=pdf(log_noop),
                   pages_ocrd_noop=md.get("pages_ocrd"), papers_ocrd_noop=md.get("papers_ocrd"),
                   revision_discovery="api recipe (use_browser=False)")]


if __name__ == "__main__":
    from benchmarks.common import record

    record(run())
