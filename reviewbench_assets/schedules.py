"""Nightly TMLR refresh: TMLR is rolling, so its one partition is re-crawled every night."""
import dagster as dg

venue_pipeline_job = dg.define_asset_job(
    "venue_pipeline", selection=dg.AssetSelection.groups("crawl", "pdfs", "ocr", "dialogues")
    | dg.AssetSelection.assets("reviewbench_split"),
    tags={"dagster/max_retries": 1})


@dg.schedule(job=venue_pipeline_job, cron_schedule="0 3 * * *", execution_timezone="UTC")
def nightly_tmlr_refresh(context: dg.ScheduleEvaluationContext) -> dg.RunRequest:
    # A custom schedule: build_schedule_from_partitioned_job would request every static key.
    day = context.scheduled_execution_time.strftime("%Y-%m-%d")
    return dg.RunRequest(run_key=f"tmlr-{day}", partition_key="tmlr", tags={"reviewbench/refresh": "nightly"})
