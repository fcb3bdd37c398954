"""Nightly refresh of every rolling venue of the catalogue (TMLR today): a rolling venue has one
partition, re-crawled every night, and everything downstream of it is rebuilt in the same run: the
venue-year chain for partition `tmlr`, then the unpartitioned `tmlr_split` and `dataset_card`.

One job holds both: Dagster 1.13 runs a partitioned job whose selection also has unpartitioned
assets (the run's partition key applies to the partitioned ones; `tmlr_split` depends on exactly the
`tmlr` partition through its SpecificPartitionsPartitionMapping). A single run keeps the order
(crawl -> ... -> split -> card) that two separate run requests would not, and needs no automation
daemon: the schedule is the only trigger.
"""
import dagster as dg

from partitions.catalogue import catalogue

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
        | dg.AssetSelection.assets("reviewbench_split", f"{split}_split", "dataset_card"),
        description=(f"Partition `{key}` from the crawl to reviewbench_split, then `{split}_split` and "
                     f"`dataset_card`: everything downstream of `{key}`, in one run."),
        tags={"dagster/max_retries": 1})


def nightly_refresh(key: str, job) -> dg.ScheduleDefinition:
    @dg.schedule(name=f"nightly_{_name(key)}_refresh", job=job, cron_schedule="0 3 * * *",
                 execution_timezone="UTC",
                 description=(f"Every night at 03:00 UTC, one run of `{job.name}` for partition `{key}` (a "
                              "rolling venue: new papers and reviews arrive every day). Incremental: only forums "
                              "modified since the last crawl are fetched; the split and the dataset card are "
                              "rebuilt after them."))
    def _schedule(context: dg.ScheduleEvaluationContext) -> dg.RunRequest:
        # A custom schedule: build_schedule_from_partitioned_job would request every static key.
        day = context.scheduled_execution_time.strftime("%Y-%m-%d")
        return dg.RunRequest(run_key=f"{key}-{day}", partition_key=key, tags={"reviewbench/refresh": "nightly"})

    return _schedule


# One job and one schedule per rolling venue of the catalogue (a new journal is a catalogue entry).
refresh_jobs = {v.key: refresh_job(v.key, v.split) for v in catalogue().venues if v.rolling}
refresh_schedules = {k: nightly_refresh(k, j) for k, j in refresh_jobs.items()}
