"""Revision discovery + initial-PDF download: the project's concurrent path vs one page at a time.

Replica with realistic latency (every API request +100 ms, the JS-rendered /revisions page +300 ms
before it asks the API), a few hundred ICLR 2020 forums (API v1: a browser page, a references call
and a PDF download per forum). Both paths run in the same process against the same replica:

* concurrent: `BrowserResource.scrape_revisions` (one chromium, `max_pages` pages in flight) then
  `initial_submission_records` (thread pool of `workers`, sharing the RateLimiter);
* sequential baseline: one browser page at a time (`max_pages=1`), then `initial_submission_record`
  per forum, one request at a time. It runs on the first `BASELINE_FORUMS` forums only (it is
  ~10x slower); forums/s is a rate, so the two are comparable.

The rate limiter interval is 0 here (the replica has no limit); against openreview.net the
configured interval (0.5 s) caps both paths alike, and this speedup is what latency hiding buys.
"""
from __future__ import annotations

import os
import tempfile
import time

import pyarrow.fs as pafs

from benchmarks.common import figure
from benchmarks.revision_baseline import catalogue_cutoff, initial_submission_record
from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
from partitions.catalogue import catalogue
from resources import BrowserResource
from resources.openreview_api import OpenReviewApi, RateLimiter
from resources.store import Store
from reviewbench_assets.domain.revisions import forum_meta
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.io.stage_io import Folder
from reviewbench_assets.stages.crawl import crawl_forums
from reviewbench_assets.stages.pdf_stage import initial_submission_records

PK = "iclr-2020"
N_FORUMS = int(os.environ.get("BENCH_REVISIONS_FORUMS", "240"))
BASELINE_FORUMS = int(os.environ.get("BENCH_REVISIONS_BASELINE_FORUMS", "40"))
MAX_PAGES = int(os.environ.get("BENCH_REVISIONS_PAGES", "16"))
WORKERS = int(os.environ.get("BENCH_REVISIONS_WORKERS", "16"))
SLOW_MS, WEB_DELAY_MS = 100, 300


def _check(records: list[dict], truth: dict) -> int:
    """Forums whose chosen revision differs from the replica's ground truth (must be 0)."""
    return sum((r["rule"], r.get("revision_id")) != (truth[r["forum_id"]].stage_rule,
                                                     truth[r["forum_id"]].stage_revision_id)
               for r in records)


def run() -> list[dict]:
    fx = build_fixtures([PK], seed=11, n_forums=N_FORUMS)
    venue, truth = catalogue().get(PK), fx.venues[PK].forums
    with ReplicaServer(fx, port=0, web_delay_ms=WEB_DELAY_MS) as rep, tempfile.TemporaryDirectory() as tmp:
        token = OpenReviewApi(rep.api_v2_url, "v2", rep.username, rep.password).token  # one login
        api = OpenReviewApi(rep.api_v1_url, "v1", None, None, token=token)
        store = Store(pafs.LocalFileSystem(), tmp)
        metas = [forum_meta(r["note"]) for r in crawl_forums(api, venue, Folder(store, "ck"))]
        rep.set_faults(FaultConfig(slow_ms=SLOW_MS))
        limiter = RateLimiter(0.0)
        ids = [m["forum_id"] for m in metas]

        t0 = time.perf_counter()
        scraped = BrowserResource(max_pages=MAX_PAGES).scrape_revisions(rep.web_url, api.token, ids, limiter)
        t1 = time.perf_counter()
        conc = initial_submission_records(api, PdfFiles(Store(pafs.LocalFileSystem(), f"{tmp}/conc")), metas,
                                          catalogue_cutoff(venue), scraped, max_workers=WORKERS)
        t2 = time.perf_counter()

        base_metas = metas[:BASELINE_FORUMS]
        seq_scraped = BrowserResource(max_pages=1).scrape_revisions(
            rep.web_url, api.token, [m["forum_id"] for m in base_metas], limiter)
        t3 = time.perf_counter()
        seq_store = Store(pafs.LocalFileSystem(), f"{tmp}/seq")
        seq = [initial_submission_record(api, seq_store, m, catalogue_cutoff(venue), seq_scraped[m["forum_id"]],
                                         False, True) for m in base_metas]
        t4 = time.perf_counter()

    browser_fail = sum(not isinstance(v, dict) for v in scraped.values())
    conc_rate, seq_rate = len(metas) / (t2 - t0), len(base_metas) / (t4 - t2)
    common = {"forums": len(metas), "baseline_forums": len(base_metas), "max_pages": MAX_PAGES,
              "workers": WORKERS, "slow_ms": SLOW_MS, "web_delay_ms": WEB_DELAY_MS, "venue": PK,
              "wrong_choices": _check(conc, truth) + _check(seq, truth), "browser_failures": browser_fail,
              "pdfs": sum(1 for r in conc if r.get("pdf_sha256")),
              "concurrent_browser_s": round(t1 - t0, 2), "concurrent_download_s": round(t2 - t1, 2),
              "sequential_browser_s": round(t3 - t2, 2), "sequential_download_s": round(t4 - t3, 2)}
    return [
        # value = concurrent forums/s, baseline = sequential one-page-at-a-time forums/s (same run);
        # ratio is the speedup (goal >= 8)
        figure("revision_discovery_speedup", round(conc_rate, 3), "forums/s", round(seq_rate, 3), **common),
    ]


if __name__ == "__main__":
    import json
    for fig in run():
        print(json.dumps(fig))
