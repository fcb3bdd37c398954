"""A venue followed through a simulated discussion (issue 30 item 4), shared by the bench and its test.

The replica simulates the discussion (`openreview_replica.live.LiveDiscussion`: day by day, with the
ground truth of every change); after each day the platform refreshes the venue-year as the nightly
rule does (crawl, parse, `venue_changes`), and what it recorded is compared with the truth:

* recall / precision of the recorded changes (change kind, target, new rating) against the truth;
* requests per changed forum (the replica's request log of each refresh), with and without the
  review edit histories the changes require (`/notes/edits`);
* the requests of a day without changes, as a share of a full crawl's;
* the trajectories: for every review, the ratings from day 0 on equal the truth's sequence.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import dagster as dg
import duckdb

DEFAULT_VENUE = "iclr-2024"


def live_resources(rep, root: Path) -> dict:
    from resources import BrowserResource, OpenReviewResource, StorageResource

    return {"openreview": OpenReviewResource(api_v1_url=rep.api_v1_url, api_v2_url=rep.api_v2_url,
                                             web_url=rep.web_url, username=rep.username, password=rep.password,
                                             min_interval_s=0.0),
            "browser": BrowserResource(max_pages=4), "storage": StorageResource(root=str(root))}


def build_whole(resources: dict, pk: str) -> None:
    """Day 0 as a new user builds the venue-year: the crawl and the initial-submission PDFs (revision
    histories read in the browser, PDFs downloaded) - what a full crawl of the venue costs."""
    from reviewbench_assets.assets import initial_submission_pdfs, openreview_forums, parsed_forums
    from reviewbench_assets.changes import venue_changes

    result = dg.materialize([openreview_forums, parsed_forums, venue_changes, initial_submission_pdfs],
                            partition_key=pk, resources=resources, raise_on_error=False)
    if not result.success:
        raise RuntimeError(f"the first build of {pk} failed")


def refresh(resources: dict, pk: str, full_listing: bool = False) -> None:
    from reviewbench_assets.assets import openreview_forums, parsed_forums
    from reviewbench_assets.changes import venue_changes
    from reviewbench_assets.schedules import FULL_LISTING

    result = dg.materialize([openreview_forums, parsed_forums, venue_changes], partition_key=pk,
                            resources=resources, raise_on_error=False,
                            run_config=FULL_LISTING if full_listing else None)
    if not result.success:
        raise RuntimeError(f"the refresh of {pk} failed")


def recorded(root: Path, pk: str) -> list[tuple]:
    """Every change recorded so far, with its refresh, oldest refresh first."""
    return duckdb.sql(
        f"SELECT refresh, change, target_id, new_rating FROM read_parquet("
        f"'{root}/changes/{pk}/log/*/*.parquet', hive_partitioning=true) ORDER BY refresh").fetchall()


def _ratings_from(points: list[tuple], since_ms: int) -> list[float]:
    """The rating sequence of a trajectory from `since_ms` on: the state then, and every later move."""
    before = [r for t, r in points if t <= since_ms and r is not None]
    seq = before[-1:] + [r for t, r in points if t > since_ms and r is not None]
    return [r for i, r in enumerate(seq) if i == 0 or r != seq[i - 1]]


def run(days: int = 14, n_forums: int = 40, seed: int = 0, venue: str = DEFAULT_VENUE, root: Path | None = None) -> dict:
    import openreview.tools

    from openreview_replica import ReplicaServer, build_fixtures
    from openreview_replica.live import LiveDiscussion, rating_of_note

    fx = build_fixtures([venue], seed=seed, n_forums=n_forums, eager_pdfs=False)
    sim = LiveDiscussion(fx, venue, days=days, seed=seed)
    tmp = None if root is not None else tempfile.TemporaryDirectory()
    root = Path(root or tmp.name)
    try:
        with ReplicaServer(fx, port=0) as rep:
            old = openreview.tools.LOCAL_API_V2
            openreview.tools.LOCAL_API_V2 = rep.api_v2_url  # the v1 client logs in through API v2
            try:
                return _follow(sim, rep, root, venue, days, rating_of_note)
            finally:
                openreview.tools.LOCAL_API_V2 = old
    finally:
        if tmp is not None:
            tmp.cleanup()


def _follow(sim, rep, root: Path, pk: str, days: int, rating_of) -> dict:
    import time

    resources = live_resources(rep, root)
    rep.reindex()
    rep.reset_request_log()
    build_whole(resources, pk)  # day 0: the first crawl (its baseline recorded, no changes) and the PDFs
    full_crawl_requests = len(rep.request_log)
    forum_crawl_requests = sum(1 for r in rep.request_log if r.role != "web" and r.path in ("/notes", "/login",
                                                                                          "/profiles", "/groups"))
    day0_ms = int(time.time() * 1000)
    initial = {n["id"]: rating_of(n) for fid in sim.v.forums for n in sim._reviews(fid) if "everyone" in n["readers"]}
    seen = len(recorded(root, pk))
    truth_all, hits, recorded_all = [], 0, 0
    requests, edit_requests, changed_forums, per_day = 0, 0, 0, []
    for _ in range(days):
        today = sim.advance()
        rep.reindex()
        rep.reset_request_log()
        refresh(resources, pk)
        log = list(rep.request_log)
        rows = recorded(root, pk)[seen:]
        seen += len(rows)
        got = {(c, t, r if c == "review_edited" else None) for _, c, t, r in rows}
        want = {(c.change, c.target_id, c.new_rating if c.change == "review_edited" else None) for c in today}
        hits += len(got & want)
        recorded_all += len(got)
        truth_all += today
        forums = {c.forum_id for c in today}
        changed_forums += len(forums)
        requests += len(log)
        edit_requests += sum(1 for r in log if r.path == "/notes/edits")
        per_day.append({"day": sim.day, "truth": len(want), "recorded": len(got), "matched": len(got & want),
                        "requests": len(log), "forums_changed": len(forums),
                        "missed": sorted(want - got, key=str)[:5], "extra": sorted(got - want, key=str)[:5]})
    # a day without changes
    sim.quiet_day()
    rep.reset_request_log()
    refresh(resources, pk)
    noop_requests = len(rep.request_log)
    noop_kinds = sorted(f"{r.method} {r.path}" for r in rep.request_log)
    noop_rows = len(recorded(root, pk)) - seen
    # trajectories against the truth: the rating at day 0, then each simulated edit
    truth_seq = {rid: [r] for rid, r in initial.items() if r is not None}
    for c in truth_all:
        if c.change == "review_edited" and c.target_id in truth_seq:
            truth_seq[c.target_id].append(c.new_rating)
    ours: dict[str, list] = {}
    for rid, t, r in duckdb.sql(f"SELECT review_id, epoch_ms(time), rating FROM '{root}/changes/{pk}/trajectories.parquet' "
                                "ORDER BY review_id, time").fetchall():
        ours.setdefault(rid, []).append((t, r))
    removed = {c.target_id for c in truth_all if c.change == "review_removed"}
    compared = [rid for rid in truth_seq if rid not in removed]
    equal = sum(1 for rid in compared if _ratings_from(ours.get(rid, []), day0_ms) == truth_seq[rid])
    return {"days": days, "forums": len(sim.v.forums), "truth_changes": len(truth_all), "recorded_changes": recorded_all,
            "matched": hits, "recall": round(hits / len(truth_all), 4) if truth_all else None,
            "precision": round(hits / recorded_all, 4) if recorded_all else None,
            "requests": requests, "edit_requests": edit_requests, "changed_forums": changed_forums,
            "requests_per_changed_forum": round(requests / changed_forums, 3) if changed_forums else None,
            "requests_per_changed_forum_without_edits": round((requests - edit_requests) / changed_forums, 3)
            if changed_forums else None,
            "full_crawl_requests": full_crawl_requests, "noop_requests": noop_requests, "noop_changes": noop_rows, "noop_request_kinds": noop_kinds,
            "noop_request_ratio": round(noop_requests / full_crawl_requests, 4),
            "forum_crawl_requests": forum_crawl_requests,
            "trajectories_compared": len(compared), "trajectories_equal": equal, "per_day": per_day}
