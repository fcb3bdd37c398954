"""The OpenReview client wrapper: one retry layer, one login per run, a new login when the token expires."""
from __future__ import annotations

import threading

import pytest

from openreview_replica import FaultConfig
from resources.openreview_api import CredentialsError, OpenReviewApi, OpenReviewError, backoff_s

from .conftest import openreview_resource

VENUE = "TMLR/-/Submission"


def _calls(rep, path: str, method: str = "GET") -> list:
    return [r for r in rep.request_log if r.path == path and r.method == method]


@pytest.fixture
def fast_backoff(monkeypatch):
    """Keep the backoff's shape but not its seconds."""
    import resources.openreview_api as mod

    monkeypatch.setattr(mod, "backoff_s", lambda attempt: backoff_s(attempt, base_s=0.01, cap_s=0.05))


def test_backoff_is_exponential_with_full_jitter():
    for attempt in range(1, 10):
        draws = [backoff_s(attempt, base_s=1.0, cap_s=60.0) for _ in range(200)]
        assert all(0.0 <= d <= min(60.0, 2.0 ** attempt) for d in draws)
        assert max(draws) > 0.5 * min(60.0, 2.0 ** attempt)  # spread over the whole window
        assert len(set(draws)) > 150  # jitter: parallel clients do not retry in lockstep


def test_5xx_burst_costs_one_request_per_attempt(replica, fast_backoff):
    """Before: urllib3 retried inside each of our attempts (8 x 6 requests at worst)."""
    rep = replica
    api = openreview_resource(rep).api("v2")
    rep.set_faults(FaultConfig(error_first_n=3, error_status=502, path_prefix="/notes"))
    rep.reset_request_log()
    assert api.get_json("/notes", {"invitation": VENUE, "limit": "1"})["notes"]
    statuses = [r.status for r in _calls(rep, "/notes")]
    assert statuses == [502, 502, 502, 200]
    assert api.stats["retries"] == 3 and api.stats["retries_HTTP 502"] == 3


def test_persistent_5xx_stops_after_max_attempts(replica, fast_backoff):
    rep = replica
    api = openreview_resource(rep, max_attempts=3).api("v2")
    rep.set_faults(FaultConfig(error_first_n=100, error_status=500, path_prefix="/notes"))
    rep.reset_request_log()
    with pytest.raises(OpenReviewError) as exc:
        api.get_json("/notes", {"invitation": VENUE})
    assert exc.value.status == 500 and "/notes" in str(exc.value)
    assert len(_calls(rep, "/notes")) == 3


def test_dropped_connections_are_retried_in_the_same_layer(replica, fast_backoff):
    rep = replica
    api = openreview_resource(rep).api("v2")
    rep.set_faults(FaultConfig(drop_first_n=2, path_prefix="/notes"))
    rep.reset_request_log()
    assert api.get_json("/notes", {"invitation": VENUE, "limit": "1"})["notes"]
    assert [r.status for r in _calls(rep, "/notes")] == [0, 0, 200]
    assert api.stats["connection_errors"] == 2 and api.stats["retries"] == 2


def test_one_login_serves_every_client_of_the_run(replica):
    rep = replica
    rep.reset_request_log()
    res = openreview_resource(rep)
    v2, v1, again = res.api("v2"), res.api("v1"), res.api("v2")
    assert v2.token == v1.token == again.token
    assert len(_calls(rep, "/login", "POST")) == 1
    assert v1.get_json("/notes", {"invitation": "ICLR.cc/2020/Conference/-/Blind_Submission", "limit": "1"})


def test_a_client_of_the_runs_login_asks_nothing_to_be_built(replica):
    """openreview-py reads the token's profile (`GET /profiles`) in its constructor, to sign writes;
    our clients only read, so building one costs no request (issue 29.3: a re-run repeated 3)."""
    rep = replica
    res = openreview_resource(rep)
    res.token()
    rep.reset_request_log()
    v2, v1 = res.api("v2"), res.api("v1")
    assert rep.request_log == []
    assert v2.client.profile is None and v1.client.token == v2.token
    assert v1.get_json("/notes", {"invitation": "ICLR.cc/2020/Conference/-/Blind_Submission", "limit": "1"})
    assert [r.path for r in rep.request_log] == ["/notes"]


def test_login_asks_for_a_long_lived_token(replica):
    import base64
    import json

    rep = replica
    token = openreview_resource(rep, token_ttl_s=86400).token()
    payload = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
    assert payload["exp"] - payload["iat"] == 86400  # not the one-hour default


def test_expired_token_logs_in_once_more_and_repeats_the_request(replica):
    rep = replica
    res = openreview_resource(rep)
    v2, v1 = res.api("v2", on_event=(events := []).append), res.api("v1")
    first = v2.token
    rep.expire_tokens()  # an hour-long 429 window later ...
    rep.reset_request_log()
    assert v2.get_json("/notes", {"invitation": VENUE, "limit": "1"})["notes"]
    assert v2.token != first and v2.stats["relogins"] == 1
    assert any("token expired" in e for e in events)
    # the other client of the run reuses the new login instead of logging in again
    assert v1.get_json("/notes", {"invitation": "ICLR.cc/2020/Conference/-/Blind_Submission", "limit": "1"})
    assert v1.token == v2.token
    assert len(_calls(rep, "/login", "POST")) == 1


def test_concurrent_expiry_logs_in_once(replica):
    rep = replica
    res = openreview_resource(rep)
    clients = [res.api("v2") for _ in range(6)]
    rep.expire_tokens()
    rep.reset_request_log()
    errors: list[Exception] = []

    def fetch(api):
        try:
            api.get_json("/notes", {"invitation": VENUE, "limit": "1"})
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=fetch, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(_calls(rep, "/login", "POST")) == 1


def test_expired_token_without_credentials_names_the_variables(replica):
    rep = replica
    token = openreview_resource(rep).token()
    api = OpenReviewApi(rep.api_v2_url, "v2", None, None, token=token)  # no way to log in again
    rep.expire_tokens()
    with pytest.raises(CredentialsError) as exc:
        api.get_json("/notes", {"invitation": VENUE})
    assert "TokenExpiredError" in str(exc.value) and "OPENREVIEW_USERNAME" in str(exc.value)


@pytest.fixture
def bodies():
    """A local HTTP server answering every GET 200 with the body set in `answer["body"]`."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    answer = {"body": b"{}"}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the stdlib's name)
            self.send_response(200)
            self.send_header("Content-Length", str(len(answer["body"])))
            self.end_headers()
            self.wfile.write(answer["body"])

        def log_message(self, *_a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", answer
    server.shutdown()


def test_a_200_that_is_no_json_object_is_a_transient_error_not_a_crash(bodies):
    """A 200 whose body is not a JSON object (a proxy's maintenance page, a list) raised
    requests' JSONDecodeError (or an AttributeError further on) out of the stage, which failed the
    partition; and a revisions answer without its list was read as a history with no revisions.
    Both are now an OpenReviewError a later run retries; the forum's record says so."""
    from resources.openreview_api import is_retryable
    from reviewbench_assets.stages.revision_answers import api_revision_page

    url, answer = bodies
    api = OpenReviewApi(url, "v2", None, None, token="t", max_attempts=1)
    for body in (b"<html><body>Service temporarily unavailable</body></html>", b"[1, 2]", b'{"edits": '):
        answer["body"] = body
        with pytest.raises(OpenReviewError, match="BadBody") as err:
            api.get_json("/notes/edits", {"note.id": "F"})
        assert is_retryable(err.value)
    answer["body"] = b'{"count": 0}'  # JSON, but no `edits`
    with pytest.raises(OpenReviewError, match="no edits list"):
        api_revision_page(api, "F")
    answer["body"] = b'{"edits": [], "count": 0}'  # a history with no revisions is an answer
    assert api_revision_page(api, "F") == {"kind": "edits", "items": []}
