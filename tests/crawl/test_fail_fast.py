"""Talking to the real OpenReview: an unreachable host fails at once, naming the URL and the variable
to change; missing credentials for openreview.net are reported before any request is made."""
from __future__ import annotations

import socket
import time

import dagster as dg
import pytest
import requests

from resources import OpenReviewResource
from resources.openreview_api import CredentialsError, OpenReviewApi, UnreachableError


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens once the socket is closed: connections are refused


@pytest.fixture(autouse=True)
def _no_credentials_in_env(monkeypatch):
    for var in ("OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD"):
        monkeypatch.delenv(var, raising=False)


def test_refused_connection_fails_on_the_first_attempt():
    url = f"http://127.0.0.1:{_closed_port()}"
    api = OpenReviewApi(url, "v2", None, None, max_attempts=8)
    started = time.monotonic()
    with pytest.raises(UnreachableError) as exc:
        api.get_json("/groups", {"id": "ICLR.cc"})
    assert time.monotonic() - started < 5
    assert api.stats["requests"] == 1 and api.stats["retries"] == 0  # no 8 attempts with backoff
    assert url in str(exc.value) and "OPENREVIEW_API_V2_URL" in str(exc.value)
    assert "refuses connections" in str(exc.value)


def test_v1_names_its_own_variable():
    url = f"http://127.0.0.1:{_closed_port()}"
    with pytest.raises(UnreachableError, match="OPENREVIEW_API_V1_URL"):
        OpenReviewApi(url, "v1", None, None).get_json("/notes", {"limit": "1"})


def test_unresolvable_host_fails_on_the_first_attempt():
    url = "http://api2.openreview.invalid"  # RFC 2606: .invalid never resolves
    api = OpenReviewApi(url, "v2", None, None, max_attempts=8)
    started = time.monotonic()
    with pytest.raises(UnreachableError) as exc:
        api.get_json("/groups", {"id": "ICLR.cc"})
    assert time.monotonic() - started < 30  # one DNS lookup, not 8 plus backoff
    assert api.stats["requests"] == 1
    assert "does not resolve" in str(exc.value) and url in str(exc.value) and "OPENREVIEW_API_V2_URL" in str(exc.value)


def test_login_to_a_refused_host_fails_without_retrying():
    url = f"http://127.0.0.1:{_closed_port()}"
    res = OpenReviewResource(api_v1_url=url, api_v2_url=url, web_url=url, username="me@example.org",
                             password="pw", min_interval_s=0)
    started = time.monotonic()
    with pytest.raises(UnreachableError, match="OPENREVIEW_API_V2_URL"):
        res.api("v2")
    assert time.monotonic() - started < 5


def test_missing_credentials_for_openreview_net_are_reported_before_any_request(monkeypatch):
    def no_request(*_a, **_k):
        raise AssertionError("a request was made before the credentials check")

    monkeypatch.setattr(requests.Session, "request", no_request)
    res = OpenReviewResource()  # the production URLs, no EnvVar set
    with pytest.raises(CredentialsError) as exc:
        res.api("v2")
    assert "OPENREVIEW_USERNAME" in str(exc.value) and "OPENREVIEW_PASSWORD" in str(exc.value)
    assert "api2.openreview.net" in str(exc.value) or "api.openreview.net" in str(exc.value)
    # a password without a user (or the reverse) is reported the same way
    with pytest.raises(CredentialsError, match="OPENREVIEW_PASSWORD"):
        OpenReviewResource(username="me@example.org").api("v1")


def test_the_crawl_step_fails_fast_and_is_not_retried(tmp_path):
    """The asset's RetryPolicy (2 retries, 30 s apart) must not apply: the run ends in seconds."""
    from resources import StorageResource
    from reviewbench_assets.assets import openreview_forums

    url = f"http://127.0.0.1:{_closed_port()}"
    res = {"openreview": OpenReviewResource(api_v1_url=url, api_v2_url=url, web_url=url, min_interval_s=0),
           "storage": StorageResource(root=str(tmp_path))}
    started = time.monotonic()
    with dg.instance_for_test() as instance:
        result = dg.materialize([openreview_forums], partition_key="iclr-2024", resources=res, instance=instance,
                                raise_on_error=False)
        assert not result.success
        failures = [e for e in result.all_events if e.event_type_value == "STEP_FAILURE"]
        restarts = [e for e in result.all_events if e.event_type_value == "STEP_UP_FOR_RETRY"]
    assert time.monotonic() - started < 60 and not restarts
    message = failures[0].step_failure_data.error.message + str(failures[0].step_failure_data.user_failure_data)
    assert url in message and "OPENREVIEW_API_V2_URL" in message
