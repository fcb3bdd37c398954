"""Nightly TMLR refresh: TMLR is rolling, so its one partition is re-crawled every night, and
everything downstream of it is rebuilt in the same run: the venue-year chain for partition `tmlr`,
then the unpartitioned `tmlr_split` and `dataset_card`.

One job holds both: Dagster 1.13 runs a partitioned job whose selection also has unpartitioned
assets (the run's partition key applies to the partitioned ones; `tmlr_split` depends on exactly the
`tmlr` partition through its SpecificPartitionsPartitionMapping). A single run keeps the order
(crawl -> ... -> split -> card) that two separate run requests would not, and needs no automation
daemon: the schedule is the only trigger.
"""
import dagster as dg

from partitions.catalogue import catalogue

ROLLING_PARTITION = "tmlr"
VENUE_GROUPS = ("crawl", "pdfs", "ocr", "dialogues")

venue_pipeline_job = dg.define_asset_job(
    "venue_pipeline", selection=dg.AssetSelection.groups(*VENUE_GROUPS)
    | dg.AssetSelection.assets("reviewbench_split"),
    description="Every per-venue-year asset of one partition, from the crawl to reviewbench_split.",
    tags={"dagster/max_retries": 1})

tmlr_refresh_job = dg.define_asset_job(
    "tmlr_refresh", selection=dg.AssetSelection.groups(*VENUE_GROUPS)
    | dg.AssetSelection.assets("reviewbench_split", f"{catalogue().get(ROLLING_PARTITION).split}_split",
                               "dataset_card"),
    description=(f"Partition `{ROLLING_PARTITION}` from the crawl to reviewbench_split, then "
                 f"`{catalogue().get(ROLLING_PARTITION).split}_split` and `dataset_card`: everything "
                 f"downstream of `{ROLLING_PARTITION}`, in one run."),
    tags={"dagster/max_retries": 1})


@dg.schedule(job=tmlr_refresh_job, cron_schedule="0 3 * * *", execution_timezone="UTC",
             description=(f"Every night at 03:00 UTC, one run of `tmlr_refresh` for partition "
                          f"`{ROLLING_PARTITION}` (TMLR is rolling: new papers and reviews arrive every day). "
                          "Incremental: only forums modified since the last crawl are fetched; the split and "
                          "the dataset card are rebuilt after them."))
def nightly_tmlr_refresh(context: dg.ScheduleEvaluationContext) -> dg.RunRequest:
    # A custom schedule: build_schedule_from_partitioned_job would request every static key.
    day = context.scheduled_execution_time.strftime("%Y-%m-%d")
    return dg.RunRequest(run_key=f"{ROLLING_PARTITION}-{day}", partition_key=ROLLING_PARTITION,
                         tags={"reviewbench/refresh": "nightly"})
