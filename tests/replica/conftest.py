import pytest

from openreview_replica import FaultConfig, ReplicaServer, build_fixtures


@pytest.fixture(scope="session")
def fx():
    return build_fixtures(["iclr-2024", "iclr-2020"], seed=0, n_forums=32)


@pytest.fixture(scope="session")
def replica(fx):
    # max_page_size=7 forces several `after` pages through efficient_iterget
    with ReplicaServer(fx, port=0, max_page_size=7, web_delay_ms=200) as rep:
        yield rep


@pytest.fixture
def rep(replica, monkeypatch):
    import openreview.tools

    # the v1 client logs in through the v2 API (tools.LOCAL_API_V2 for non-prod hosts)
    monkeypatch.setattr(openreview.tools, "LOCAL_API_V2", replica.api_v2_url)
    replica.set_faults(FaultConfig())
    replica.reset_request_log()
    yield replica
    replica.set_faults(FaultConfig())


@pytest.fixture
def c2(rep):
    import openreview.api

    return openreview.api.OpenReviewClient(baseurl=rep.api_v2_url, username=rep.username, password=rep.password)


@pytest.fixture
def c1(rep):
    import openreview

    return openreview.Client(baseurl=rep.api_v1_url, username=rep.username, password=rep.password)
