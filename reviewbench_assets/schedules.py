"""Nightly refresh of every venue while it is open (issue 30): one rule for the rolling venues (TMLR,
always open) and for the venue-years whose catalogue entry states a discussion window (refreshed each
night inside it, never outside). Each is re-crawled (incrementally: only forums modified since the
last crawl are fetched) and everything downstream of it is rebuilt in the same run: the venue-year
chain for the partition, then the corpus-level `resubmissions` (the links the venue-year touches), its
unpartitioned split and `dataset_card`.

A schedule, not declarative automation: the trigger is the calendar (the announced window), not an
upstream change, and a schedule needs no asset daemon conditions to reason about; a tick outside the
window is skipped with the reason, which the UI shows on the schedule's page.

One job holds both: Dagster 1.13 runs a partitioned job whose selection also has unpartitioned
assets (the run's partition key applies to the partitioned ones; `tmlr_split` depends on exactly the
`tmlr` partition through its SpecificPartitionsPartitionMapping). A single run keeps the order
(crawl -> ... -> split -> card) that two separate run requests would not, and needs no automation
daemon: the schedule is the only trigger.
"""
from datetime import timedelta

import dagster as dg

from partitions.catalogue import VenueYear, catalogue

VENUE_GROUPS = ("crawl", "parse", "pdfs", "ocr", "dialogues")

venue_pipeline_job = dg.define_asset_job(
    "venue_pipeline", selection=dg.AssetSelection.groups(*VENUE_GROUPS)
    | dg.AssetSelection.assets("reviewbench_split"),
    description="Every per-venue-year asset of one partition, from the crawl to reviewbench_split.",
    tags={"dagster/max_retries": 1})


def _name(key: str) -> str:
    return key.replace("-", "_")  # Dagster names are [A-Za-z0-9_]


def refresh_job(key: str, split: str):
    return dg.define_asset_job(
        f"{_name(key)}_refresh", selection=dg.AssetSelection.groups(*VENUE_GROUPS)
        | dg.AssetSelection.assets("venue_changes", "reviewbench_split", "resubmissions", f"{split}_split",
                                   "dataset_card"),
        description=(f"Partition `{key}` from the crawl to reviewbench_split, with what changed since the last "
                     f"refresh (`venue_changes`), then `resubmissions` (only the links `{key}` touches are "
                     f"scored again), `{split}_split` and `dataset_card`: everything downstream of `{key}`, "
                     "in one run."),
        tags={"dagster/max_retries": 1})


def _when_open(venue: VenueYear) -> str:
    if venue.rolling:
        return "a rolling venue: new papers and reviews arrive every day"
    first, last = venue.discussion.bounds_utc()
    return (f"while its discussion is open, {first:%Y-%m-%d %H:%M} .. {last:%Y-%m-%d %H:%M} UTC "
            f"({venue.discussion.source})")


def nightly_refresh(venue: VenueYear, job) -> dg.ScheduleDefinition:
    key = venue.key

    @dg.schedule(name=f"nightly_{_name(key)}_refresh", job=job, cron_schedule="0 3 * * *",
                 execution_timezone="UTC",
                 description=(f"Every night at 03:00 UTC {_when_open(venue)}: one run of `{job.name}` for "
                              f"partition `{key}`. Incremental: only forums modified since the last crawl are "
                              "fetched; the split and the dataset card are rebuilt after them."))
    def _schedule(context: dg.ScheduleEvaluationContext) -> dg.RunRequest | dg.SkipReason:
        # A custom schedule: build_schedule_from_partitioned_job would request every static key.
        tick = context.scheduled_execution_time
        # The night after the window closes counts too: its last day's posts (up to 23:59 in the
        # venue's zone, hours after a 03:00 UTC tick) are read once, and the final state recorded.
        if not (venue.open_at(tick) or venue.open_at(tick - timedelta(days=1))):
            return dg.SkipReason(f"{key} is not open on {tick:%Y-%m-%d %H:%M} UTC: refreshed only "
                                 f"{_when_open(venue)}")
        full = full_listing_due(venue, tick)
        return dg.RunRequest(run_key=f"{key}-{tick:%Y-%m-%d}", partition_key=key,
                             tags={"reviewbench/refresh": "nightly-full-listing" if full else "nightly"},
                             run_config=FULL_LISTING if full else None)

    return _schedule


# A review made private (its readers changed) leaves the reader's view without anything the nightly
# `tmdate` cursor returns (it returns only notes the reader may read). A full listing of the venue's
# forums with their replies sees it gone: a few pages of 1,000 forums, so a handful of requests
# (edit histories are read only for forums that changed). Once a week while a venue is open, and on
# the last night of its window, the refresh lists everything (`full_refresh`), so such a removal is
# recorded within a week instead of waiting for another change in its forum.
FULL_LISTING = {"ops": {"openreview_forums": {"config": {"full_refresh": True}}}}


def full_listing_due(venue: VenueYear, tick) -> bool:
    if venue.rolling:
        return tick.weekday() == 6  # Sundays
    first, _last = venue.discussion.bounds_utc()
    closed = not venue.open_at(tick)  # the night after the window closed (the schedule runs it once)
    return closed or (tick - first).days % 7 == 6


# One job and one schedule per venue followed live (rolling, or with a discussion window): a new
# journal or a venue's announced discussion is a catalogue entry, not code.
_live = [v for v in catalogue().venues if v.followed_live]
refresh_jobs = {v.key: refresh_job(v.key, v.split) for v in _live}
refresh_schedules = {v.key: nightly_refresh(v, refresh_jobs[v.key]) for v in _live}
