"""A venue followed through a simulated 14-day discussion (issue 30 item 4), against the replica's
ground truth (benchmarks/live_discussion.py):

* `live_change_recall`, `live_change_precision`: recorded changes (kind, target, new rating) against
  the simulation's list (goal 1.0 both); no baseline (nothing else records changes).
* `live_requests_per_changed_forum`: requests of the 14 daily refreshes per forum changed that day,
  the review edit histories the changes require included (`without_edits` beside it; goal <= 1.5
  plus those histories); baseline = a full crawl's requests per forum of the same venue.
* `live_noop_request_ratio`: requests of a day without changes / requests of the full crawl of the
  venue-year on day 0 (forums, revision histories, PDFs: what a new user's build asks; goal <= 0.01);
  the absolute count, its kinds and the forum pages' share of the day-0 crawl are recorded beside
  it: the no-op costs the session (login, profile, venue group) and one cursor page whatever the
  venue's size, so the ratio falls as the venue grows.
* `live_trajectories_equal`: share of reviews whose recorded rating sequence from day 0 on equals
  the truth (goal 1.0).
"""
from __future__ import annotations

import os

from benchmarks.common import figure
from benchmarks.live_discussion import run as follow

DAYS = int(os.environ.get("BENCH_LIVE_DAYS", "14"))
FORUMS = int(os.environ.get("BENCH_LIVE_FORUMS", "256"))


def run() -> list[dict]:
    r = follow(days=DAYS, n_forums=FORUMS, seed=0)
    setting = {"days": r["days"], "forums": r["forums"], "venue": "iclr-2024 (replica, API v2)",
               "truth_changes": r["truth_changes"], "recorded_changes": r["recorded_changes"]}
    full_per_forum = r["full_crawl_requests"] / r["forums"]
    return [
        # value = matched / truth; no baseline
        figure("live_change_recall", r["recall"], "share of true changes recorded", None, goal=1.0, **setting),
        # value = matched / recorded; no baseline
        figure("live_change_precision", r["precision"], "share of recorded changes true", None, goal=1.0, **setting),
        # value = requests per changed forum; baseline = a full crawl's requests per forum
        figure("live_requests_per_changed_forum", r["requests_per_changed_forum"], "requests/forum",
               round(full_per_forum, 4), without_edits=r["requests_per_changed_forum_without_edits"],
               edit_requests=r["edit_requests"], changed_forums=r["changed_forums"],
               goal="<= 1.5 plus the edit histories the changes require", **setting),
        # value = no-op refresh requests / the day-0 build's requests; baseline = 1.0 (that build)
        figure("live_noop_request_ratio", r["noop_request_ratio"], "share of a full crawl", 1.0,
               noop_requests=r["noop_requests"], noop_request_kinds=r["noop_request_kinds"],
               full_crawl_requests=r["full_crawl_requests"], forum_crawl_requests=r["forum_crawl_requests"],
               noop_changes=r["noop_changes"], goal="<= 0.01",
               **setting),
        # value = reviews whose trajectory equals the truth / reviews compared; no baseline
        figure("live_trajectories_equal", round(r["trajectories_equal"] / r["trajectories_compared"], 4),
               "share of reviews", None, compared=r["trajectories_compared"], goal=1.0, **setting),
    ]
