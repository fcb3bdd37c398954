"""Crawl cost: batched `details=replies` crawl vs a per-forum crawl of a generated 5,000-forum
TMLR-shaped replica venue with 100 ms latency per request; then a no-change refresh.

- requests_per_forum: forum-JSON requests per forum (value = batched crawl through the
  `openreview_forums` code path, baseline = list submissions then one `GET /notes?forum=<id>`
  per forum). The per-forum crawl is timed on a sample of forums and extrapolated (field
  `baseline_extrapolated_from`); its request count is exact (listing pages + one per forum).
- crawl_speedup: forums/s batched over forums/s per-forum.
- noop_refresh_request_ratio_crawl_only: OpenReview requests of `openreview_forums` re-materialized with no
  change / those of its first full run (the crawl stage only: no PDFs or page loads are counted,
  which would only make the first run, and so the ratio's denominator, larger).
Review edit fetching is off here: the figures are about the forum JSON.
"""
from __future__ import annotations

import dataclasses
import tempfile
import time

import dagster as dg

from benchmarks.common import figure

N_FORUMS = 5000
SAMPLE = 150
SLOW_MS = 100


def run() -> list[dict]:
    import openreview.tools

    from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
    from openreview_replica.venues import VENUE_SPECS
    from resources import OpenReviewResource, StorageResource
    from reviewbench_assets.assets import openreview_forums

    spec = dataclasses.replace(VENUE_SPECS["tmlr"], rolling_gap_days=0.15, special_forums=())
    fx = build_fixtures(["tmlr"], seed=11, n_forums=N_FORUMS, eager_pdfs=False, specs={"tmlr": spec})
    with ReplicaServer(fx, port=0) as rep, tempfile.TemporaryDirectory() as root:
        openreview.tools.LOCAL_API_V2 = rep.api_v2_url
        res = {"openreview": OpenReviewResource(api_v1_url=rep.api_v1_url, api_v2_url=rep.api_v2_url,
                                                username=rep.username, password=rep.password, min_interval_s=0.0),
               "storage": StorageResource(root=root)}
        cfg = {"ops": {"openreview_forums": {"config": {"review_edits": False}}}}
        rep.set_faults(FaultConfig(slow_ms=SLOW_MS))

        def materialize():
            rep.reset_request_log()
            t = time.perf_counter()
            r = dg.materialize([openreview_forums], partition_key="tmlr", resources=res, run_config=cfg)
            return time.perf_counter() - t, list(rep.request_log), r

        t_batched, log_full, r = materialize()
        n = r.get_asset_materialization_events()[0].materialization.metadata["dagster/row_count"].value
        forum_json = [x for x in log_full if x.path == "/notes"]
        t_noop, log_noop, _ = materialize()

        # per-forum baseline: list the submissions (ids only), then one request per forum
        api = res["openreview"].api("v2")
        rep.reset_request_log()
        t0 = time.perf_counter()
        ids, offset = [], 0
        while True:
            notes = api.get_json("/notes", {"invitation": "TMLR/-/Submission", "limit": "1000",
                                            "offset": str(offset)}).get("notes") or []
            ids += [x["id"] for x in notes]
            if len(notes) < 1000:
                break
            offset += 1000
        t_list = time.perf_counter() - t0
        list_requests = len(rep.request_log)
        t1 = time.perf_counter()
        for fid in ids[:SAMPLE]:
            api.get_json("/notes", {"forum": fid})
        per_forum_s = (time.perf_counter() - t1) / SAMPLE
        t_per_forum = t_list + per_forum_s * len(ids)
        per_forum_requests = list_requests + len(ids)
        rep.clear_faults()

    rate_batched, rate_pf = n / t_batched, len(ids) / t_per_forum
    common = {"forums": n, "latency_ms": SLOW_MS}
    return [
        figure("requests_per_forum", round(len(forum_json) / n, 5), "requests/forum",
               round(per_forum_requests / len(ids), 5), batched_requests=len(forum_json),
               per_forum_requests=per_forum_requests, **common),
        # value = batched forums/s, baseline = per-forum forums/s: ratio is the speedup
        figure("crawl_speedup", round(rate_batched, 2), "forums/s", round(rate_pf, 3),
               batched_forums_per_s=round(rate_batched, 1), per_forum_forums_per_s=round(rate_pf, 2),
               batched_wall_s=round(t_batched, 1), per_forum_wall_s_extrapolated=round(t_per_forum, 1),
               baseline_extrapolated_from=f"{SAMPLE} of {len(ids)} forums timed", **common),
        # value = requests of a no-change refresh, baseline = requests of the first full run
        figure("noop_refresh_request_ratio_crawl_only", len(log_noop), "requests", len(log_full),
               first_run_requests=len(log_full), noop_requests=len(log_noop), noop_wall_s=round(t_noop, 1),
               scope="openreview_forums only (no PDFs / page loads in either run)", **common),
    ]
