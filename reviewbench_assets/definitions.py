"""The one Definitions object loaded by `dagster dev`, the webserver and `dagster asset materialize`."""
import os

import dagster as dg
from dagster_aws.s3 import S3Resource

from resources import BrowserResource, LLMResource, OpenReviewResource, RayResource, StorageResource
from reviewbench_assets.assets import (
    dataset_card,
    initial_submission_pdfs,
    openreview_forums,
    paper_markdown,
    parsed_forums,
    rebuttal_dialogues,
    resubmissions,
    reviewbench_split,
    split_assets,
)
from reviewbench_assets.changes import venue_changes
from reviewbench_assets.schedules import refresh_jobs, refresh_schedules, venue_pipeline_job
from reviewbench_assets.verify_job import verify_storage

ASSETS = [openreview_forums, parsed_forums, venue_changes, initial_submission_pdfs, paper_markdown,
          rebuttal_dialogues, resubmissions, reviewbench_split, *split_assets, dataset_card]


def _secret(name: str):
    """An EnvVar (resolved at run time, never shown in the UI or logs) when the variable is set."""
    return dg.EnvVar(name) if os.environ.get(name) else None


def build_resources() -> dict:
    """Plain settings from the environment with production defaults; secrets only as EnvVar."""
    env = os.environ.get
    s3 = S3Resource(endpoint_url=env("REVIEWBENCH_S3_ENDPOINT_URL"), region_name=env("AWS_REGION", "us-east-1"),
                    aws_access_key_id=_secret("AWS_ACCESS_KEY_ID"),
                    aws_secret_access_key=_secret("AWS_SECRET_ACCESS_KEY"))
    return {
        "llm": LLMResource.from_env(),
        "openreview": OpenReviewResource(
            api_v1_url=env("OPENREVIEW_API_V1_URL", "https://api.openreview.net"),
            api_v2_url=env("OPENREVIEW_API_V2_URL", "https://api2.openreview.net"),
            web_url=env("OPENREVIEW_WEB_URL", "https://openreview.net"),
            username=_secret("OPENREVIEW_USERNAME"), password=_secret("OPENREVIEW_PASSWORD"),
            min_interval_s=float(env("OPENREVIEW_MIN_INTERVAL_S", "0.5")),
            max_rate_limit_wait_s=float(env("OPENREVIEW_MAX_RATE_LIMIT_WAIT_S", "3900")),
            # the windows' lengths when known (a 429 does not say them: resources/rate_limiter.py)
            rate_limit_window_s=float(env("OPENREVIEW_RATE_LIMIT_WINDOW_S") or 0) or None,
            attachment_window_s=float(env("OPENREVIEW_ATTACHMENT_WINDOW_S") or 0) or None),
        "browser": BrowserResource(executable_path=env("REVIEWBENCH_CHROMIUM", "/usr/bin/chromium"),
                                   max_pages=int(env("REVIEWBENCH_BROWSER_PAGES", "8"))),
        "storage": StorageResource(root=env("REVIEWBENCH_STORAGE_ROOT", os.path.abspath("var/storage")), s3=s3),
        "ray": RayResource(address=env("REVIEWBENCH_RAY_ADDRESS") or None,
                           num_cpus=int(env("REVIEWBENCH_RAY_NUM_CPUS")) if env("REVIEWBENCH_RAY_NUM_CPUS") else None),
    }


defs = dg.Definitions(assets=ASSETS, jobs=[venue_pipeline_job, *refresh_jobs.values(), verify_storage],
                      schedules=list(refresh_schedules.values()),
                      resources=build_resources())
