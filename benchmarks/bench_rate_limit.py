"""rate_limit_utilisation: how much of OpenReview's allowed rate a run uses under windowed limits.

The replica refuses as openreview.net does (`FaultConfig.window_limit` per `window_s`, 429 bodies with
`details.limit` and `details.resetTime`), on a time scale (LIMIT requests per WINDOW_S seconds stands
for 98 per 30 minutes). One venue-year (iclr-2024, FORUMS forums) goes through `openreview_forums`
(with review edit histories) and `initial_submission_pdfs` (the default: revision pages in chromium,
sharing the API client's limiter) with no configured interval (`min_interval_s=0`): the client
starts too fast, meets the wall once, learns the limit from the 429 and paces itself.

Figure: `rate_limit_utilisation` = achieved API request rate (answered requests / the time each step
spent from its first request to its last) over the allowed rate (LIMIT / WINDOW_S); goal >= 0.9,
with 0 forums lost and 0 requests refused after the first refusal's window. The second step starts
at the pace the first learned (`.locks/openreview-pace.json`, reviewbench_assets/dagster_step.py).

File downloads have their own, smaller budget, as on openreview.net (36 per 60 minutes for
`/attachment` against 98 API requests per 30 minutes, docs/openreview-api.md §0.2):
FILE_LIMIT per WINDOW_S here. The client paces them with a limiter of their own, so the figure's
extra fields `attachment_utilisation` (answered downloads / their span, over FILE_LIMIT / WINDOW_S)
and `attachment_refused_after_first_window` say whether that budget is used without hammering it,
and the API figure is measured over the API requests alone.

Where the time went (`limiters`, one entry per RateLimiter of the run, most calls first): its calls,
the interval it ended at, `slept_s` (time callers waited for their turn: the pace holding the client
back) and `late_s` (time the callers came after their turn was already due: the client's own work,
the browser's pages, a loaded machine, holding the pace back). A figure under the goal with a large
`late_s` and a small `slept_s` is the client's slowness, not the limiter's room; `load_average` is the
machine's (1 min) at the start and the end.
"""
from __future__ import annotations

import tempfile

FORUMS = 120
LIMIT, WINDOW_S = 20, 10.0  # 2 requests/s: slower than the platform works, as 98 per 30 minutes is
FILE_LIMIT = 8  # downloads per window: 0.8/s, slower than the API budget, as openreview.net's is


class _Watch:
    """Each RateLimiter's turns as the run takes them (see the module docstring)."""

    def __init__(self):
        self.by_limiter: dict[int, dict] = {}

    def __enter__(self):
        from resources.openreview_api import RateLimiter

        self.real, watch = RateLimiter.wait, self

        def wait(lim):
            due, now = lim._next, lim._clock()
            start = watch.real(lim)
            entry = watch.by_limiter.setdefault(id(lim), {"calls": 0, "slept_s": 0.0, "late_s": 0.0, "lim": lim})
            entry["calls"] += 1
            entry["slept_s"] += max(0.0, start - now)
            if lim.interval_s > 0 and due > 0:
                entry["late_s"] += max(0.0, now - due)
            return start

        RateLimiter.wait = wait
        return self

    def __exit__(self, *exc):
        from resources.openreview_api import RateLimiter

        RateLimiter.wait = self.real

    def summary(self) -> list[dict]:
        return sorted(({"calls": e["calls"], "interval_s": round(e["lim"].interval_s, 3),
                        "slept_s": round(e["slept_s"], 1), "late_s": round(e["late_s"], 1)}
                       for e in self.by_limiter.values()), key=lambda e: -e["calls"])


def run() -> list[dict]:
    import os

    import dagster as dg

    from benchmarks.common import figure
    from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
    from resources.openreview_api import ATTACHMENT_PATHS
    from reviewbench_assets.definitions import ASSETS
    from tests.e2e.conftest import replica_resources

    fx = build_fixtures(["iclr-2024"], seed=0, n_forums=FORUMS)
    by_key = {a.key.to_user_string(): a for a in ASSETS}
    load_start = os.getloadavg()[0]
    with ReplicaServer(fx, port=0) as rep, tempfile.TemporaryDirectory() as root, _Watch() as watch:
        rep.set_faults(FaultConfig(window_limit=LIMIT, window_s=WINDOW_S, attachment_window_limit=FILE_LIMIT))
        resources = replica_resources(rep, root, max_rate_limit_wait_s=120.0)
        logs, file_logs = [], []
        for stage in ("openreview_forums", "parsed_forums", "initial_submission_pdfs"):
            rep.reset_request_log()
            result = dg.materialize([by_key[stage]], partition_key="iclr-2024", resources=resources,
                                    raise_on_error=False)
            if not result.success:
                raise RuntimeError(f"{stage} failed under the emulated limits")
            served = [r for r in rep.request_log if r.role in ("v1", "v2")]
            logs.append([r for r in served if r.path not in ATTACHMENT_PATHS])
            file_logs.append([r for r in served if r.path in ATTACHMENT_PATHS])
        log = [r for stage_log in logs for r in stage_log]
        files = [r for stage_log in file_logs for r in stage_log]
        pdfs = resources["storage"].store().read_parquet(
            resources["storage"].store().path("submissions/iclr-2024.parquet")).to_pylist()
    refused = [r for r in log if r.status == 429]
    answered = [r for r in log if r.status != 429]
    # Each step's requests from its first to its last: the seconds between two steps (Dagster's
    # start-up, the browser's launch) are magnified by the time scale (a 10 s window stands for
    # 30 minutes, so 5 s of start-up would count as 15 minutes); the whole span is reported too.
    busy = sum(max(r.t for r in g) - min(r.t for r in g) for g in logs if g)
    span = max(r.t for r in log) - min(r.t for r in log)
    achieved, allowed = len(answered) / busy, LIMIT / WINDOW_S
    after_first = [r for r in refused if refused and r.t > refused[0].t + WINDOW_S]
    lost = sum(1 for r in pdfs if r.get("error") and not r.get("error_final"))
    files_refused = [r for r in files if r.status == 429]
    files_answered = [r for r in files if r.status != 429]
    files_span = (max(r.t for r in files) - min(r.t for r in files)) if len(files) > 1 else 0.0
    files_after_first = [r for r in files_refused if r.t > files_refused[0].t + WINDOW_S]
    return [figure("rate_limit_utilisation", round(achieved / allowed, 3), "achieved/allowed rate", 1.0, goal=0.9,
                   achieved_per_s=round(achieved, 3), allowed_per_s=round(allowed, 3), answered=len(answered),
                   refused=len(refused), refused_after_first_window=len(after_first), forums=FORUMS,
                   forums_lost=lost, records=len(pdfs), limit=LIMIT, window_s=WINDOW_S, busy_seconds=round(busy, 1),
                   whole_span_seconds=round(span, 1),
                   refused_at=[[round(r.t - min(x.t for x in log), 2), r.path] for r in refused],
                   file_limit=FILE_LIMIT, attachments_answered=len(files_answered),
                   attachments_refused=len(files_refused),
                   attachment_refused_after_first_window=len(files_after_first),
                   attachment_utilisation=round(len(files_answered) / files_span / (FILE_LIMIT / WINDOW_S), 3)
                   if files_span else None,
                   utilisation_whole_span=round(len(answered) / span / allowed, 3),
                   limiters=watch.summary(), load_average=[round(load_start, 2), round(os.getloadavg()[0], 2)],
                   per_step=[{"requests": len(g), "seconds": round(max(r.t for r in g) - min(r.t for r in g), 1)}
                             for g in logs if g])]


if __name__ == "__main__":
    import json

    for f in run():
        print(json.dumps(f, indent=1))
