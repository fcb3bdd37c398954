"""Every venue family served by the replica, crawled with the project's code and openreview-py."""
from __future__ import annotations

import pytest

from openreview_replica import VENUE_SPECS, FaultConfig, ReplicaServer, build_fixtures
from resources import OpenReviewResource, StorageResource

N_FORUMS = 24


@pytest.fixture(scope="session")
def all_fx():
    return build_fixtures(list(VENUE_SPECS), seed=3, n_forums=N_FORUMS, eager_pdfs=False)


@pytest.fixture(scope="session")
def all_replica(all_fx):
    import openreview.tools

    with ReplicaServer(all_fx, port=0, max_page_size=1000) as rep:
        old = openreview.tools.LOCAL_API_V2
        openreview.tools.LOCAL_API_V2 = rep.api_v2_url  # the v1 client logs in through API v2
        yield rep
        openreview.tools.LOCAL_API_V2 = old


@pytest.fixture
def replica(all_replica):
    all_replica.set_faults(FaultConfig())
    all_replica.reset_request_log()
    yield all_replica
    all_replica.set_faults(FaultConfig())


def openreview_resource(rep: ReplicaServer, **kw) -> OpenReviewResource:
    return OpenReviewResource(api_v1_url=rep.api_v1_url, api_v2_url=rep.api_v2_url, web_url=rep.web_url,
                              username=kw.pop("username", rep.username), password=kw.pop("password", rep.password),
                              min_interval_s=0.0, **kw)


def storage_resource(root) -> StorageResource:
    return StorageResource(root=str(root))
