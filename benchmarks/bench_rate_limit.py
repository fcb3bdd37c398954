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
"""
from __future__ import annotations

import tempfile

FORUMS = 120
LIMIT, WINDOW_S = 20, 10.0  # 2 requests/s: slower than the platform works, as 98 per 30 minutes is
FILE_LIMIT = 8  # downloads per window: 0.8/s, slower than the API budget, as openreview.net's is


def run() -> list[dict]:
    import dagster as dg

    from benchmarks.common import figure
    from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
    from resources.openreview_api import ATTACHMENT_PATHS
    from reviewbench_assets.definitions import ASSETS
    from tests.e2e.conftest import replica_resources

    fx = build_fixtures(["iclr-2024"], seed=0, n_forums=FORUMS)
    by_key = {a.key.to_user_string(): a for a in ASSETS}
    with ReplicaServer(fx, port=0) as rep, tempfile.TemporaryDirectory() as root:
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
                   per_step=[{"requests": len(g), "seconds": round(max(r.t for r in g) - min(r.t for r in g), 1)}
                             for g in logs if g])]


if __name__ == "__main__":
    import json

    for f in run():
        print(json.dumps(f, indent=1))
