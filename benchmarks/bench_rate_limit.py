"""rate_limit_utilisation: how much of OpenReview's allowed rate a run uses once it has learnt the limit.

The replica refuses as openreview.net does (`FaultConfig.window_limit` per `window_s`: a window opens
at the first request after the last one closed, refused requests count, and the 429 body is the real
one: `details.limit`, `used`, `resetTime`, `reqId`, "Please try again in M minutes and S seconds";
resources/rate_limiter.py cites it), on a time scale (LIMIT requests per WINDOW_S seconds stands for
98 per 30 minutes). One venue-year (iclr-2024, FORUMS forums) goes through `openreview_forums` (with
review edit histories) and `initial_submission_pdfs` (the default: revision pages in chromium,
sharing the API client's limiter) with no configured interval (`min_interval_s=0`): the client
starts too fast, meets the wall once (the learning burst), learns the limit from the 429 and paces
itself. By default the client measures the window's length from the 429s, as production does when
OPENREVIEW_RATE_LIMIT_WINDOW_S is unset (a 429 does not say it; resources/rate_limiter.py), `window:
measured` (docs/benchmarks.md: 0.93 once the steps hand their requests on).
REVIEWBENCH_BENCH_WINDOW=known tells it the window (`rate_limit_window_s`, as the variable does),
`window: known` (0.95).

Figure, from the server's side (the replica's request log and its own windows, not the client's
schedule): `rate_limit_utilisation` = the steady-state rate over the allowed one (LIMIT / WINDOW_S):
the requests the replica answered after the learning window (the window of the first refusal) closed,
one interval per request after the first, over the time from the first to the last of them, each
step apart (the seconds between two steps, Dagster's start-up and the browser's launch, are magnified
by the time scale). Goal 0.9 to 1.0, with `refused_after_first_window` 0 (refusals after the learning
window) and 0 forums lost. `learning` reports the burst apart (its requests, answered, refused, seconds
up to the reset); `windows` the replica's count of requests per window after it (none above LIMIT).

File downloads have their own, smaller budget, as on openreview.net (36 per 60 minutes for
`/attachment` against 98 API requests per 30 minutes, docs/openreview-api.md §0.2):
FILE_LIMIT per WINDOW_S here, paced by a limiter of their own; `attachment_utilisation` and
`attachment_refused_after_first_window` are the same figures for them.

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


def steady_state(logs: list[list], windows: list[dict], kind: str, limit: int, window_s: float) -> dict:
    """The figure for one budget (`kind`: api or attachment) from the replica's request log (`logs`,
    one list per step, server times) and its windows (ReplicaServer.rate_windows)."""
    reqs = [r for g in logs for r in g]
    refused = sorted(r.t for r in reqs if r.status == 429)
    mine = [w for w in windows if w["kind"] == kind]
    # the learning window: the replica's window the first refusal fell in; it closes at its reset
    learnt_at = next((w["start"] + window_s for w in mine
                      if refused and w["start"] <= refused[0] < w["start"] + window_s),
                     min((r.t for r in reqs), default=0.0))
    answered, seconds = 0, 0.0
    for g in logs:
        paced = [r.t for r in g if r.t >= learnt_at and r.status != 429]
        if len(paced) > 1:
            answered, seconds = answered + len(paced) - 1, seconds + max(paced) - min(paced)
    before = [r for r in reqs if r.t < learnt_at]
    after = [w for w in mine if w["start"] >= learnt_at]
    return {"utilisation": round(answered / seconds / (limit / window_s), 3) if seconds else None,
            "refused": len(refused), "refused_after_first_window": sum(1 for t in refused if t >= learnt_at),
            "paced_intervals": answered, "paced_seconds": round(seconds, 1),
            "learning": {"requests": len(before), "refused": sum(1 for r in before if r.status == 429),
                         "seconds": round(learnt_at - min((r.t for r in reqs), default=learnt_at), 1)},
            "windows": [w["used"] for w in after], "max_in_a_window": max((w["used"] for w in after), default=0)}


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
    known = os.environ.get("REVIEWBENCH_BENCH_WINDOW", "measured") == "known"
    load_start = os.getloadavg()[0]
    with ReplicaServer(fx, port=0) as rep, tempfile.TemporaryDirectory() as root, _Watch() as watch:
        rep.set_faults(FaultConfig(window_limit=LIMIT, window_s=WINDOW_S, attachment_window_limit=FILE_LIMIT))
        resources = replica_resources(rep, root, max_rate_limit_wait_s=120.0,
                                      rate_limit_window_s=WINDOW_S if known else None,
                                      attachment_window_s=WINDOW_S if known else None)
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
        windows = rep.rate_windows()
        pdfs = resources["storage"].store().read_parquet(
            resources["storage"].store().path("submissions/iclr-2024.parquet")).to_pylist()
    api = steady_state(logs, windows, "api", LIMIT, WINDOW_S)
    files = steady_state(file_logs, windows, "attachment", FILE_LIMIT, WINDOW_S)
    lost = sum(1 for r in pdfs if r.get("error") and not r.get("error_final"))
    log = [r for g in logs for r in g]
    return [figure("rate_limit_utilisation", api.pop("utilisation"), "steady-state rate / allowed rate", 1.0,
                   goal=0.9, window="known" if known else "measured", **api, forums=FORUMS, forums_lost=lost,
                   records=len(pdfs), limit=LIMIT, window_s=WINDOW_S,
                   refused_at=[[round(r.t - min(x.t for x in log), 2), r.path] for r in log if r.status == 429],
                   file_limit=FILE_LIMIT, attachment_utilisation=files.pop("utilisation"),
                   attachment_refused_after_first_window=files.pop("refused_after_first_window"),
                   attachments={k: files[k] for k in ("refused", "learning", "max_in_a_window")},
                   limiters=watch.summary(), load_average=[round(load_start, 2), round(os.getloadavg()[0], 2)],
                   per_step=[{"requests": len(g), "seconds": round(max(r.t for r in g) - min(r.t for r in g), 1)}
                             for g in logs if g])]


if __name__ == "__main__":
    import json

    for f in run():
        print(json.dumps(f, indent=1))
