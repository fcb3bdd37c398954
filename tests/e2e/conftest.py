"""The platform against the OpenReview replica: real openreview-py, chromium, Ray, Dagster."""
from __future__ import annotations

import dagster as dg
import pytest

from openreview_replica import ReplicaServer, build_fixtures
from resources import BrowserResource, LLMResource, OpenReviewResource, RayResource, StorageResource
from reviewbench_assets.definitions import ASSETS

VENUES = ["iclr-2024", "iclr-2020"]


def replica_resources(rep: ReplicaServer, root: str, **openreview_kw) -> dict:
    return {
        "openreview": OpenReviewResource(api_v1_url=rep.api_v1_url, api_v2_url=rep.api_v2_url,
                                         web_url=rep.web_url, username=rep.username, password=rep.password,
                                         min_interval_s=0.0, **openreview_kw),
        "browser": BrowserResource(max_pages=4),
        "storage": StorageResource(root=root),
        "ray": RayResource(num_cpus=2),
        "llm": LLMResource(),  # rule-based merge; the LLM path is tested in tests/llm
    }


def materialize_partition(resources: dict, pk: str, run_config: dict | None = None,
                          selection: list | None = None) -> dg.ExecuteInProcessResult:
    assets = selection or [a for a in ASSETS if a.partitions_def is not None]
    return dg.materialize(assets, partition_key=pk, resources=resources, run_config=run_config or {},
                          raise_on_error=False)


def materialize_corpus(resources: dict) -> dg.ExecuteInProcessResult:
    return dg.materialize([a for a in ASSETS if a.partitions_def is None], resources=resources,
                          selection=None, raise_on_error=True)


@pytest.fixture(scope="session")
def fixtures():
    return build_fixtures(VENUES, seed=0)


@pytest.fixture(scope="session")
def replica(fixtures):
    with ReplicaServer(fixtures, port=0) as rep:
        yield rep
