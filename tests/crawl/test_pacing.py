"""Pacing to what a 429 taught (issue 19): the limiter spreads the account's `limit` requests over
the window the 429 revealed instead of bursting into it at the configured interval. Fake clock."""
from __future__ import annotations

from resources.openreview_api import RateLimiter


class _Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.t += s


def test_a_429_teaches_the_window_and_requests_are_spread_over_it():
    clock = _Clock()
    lim = RateLimiter(0.5, clock=clock, sleep=clock.sleep)
    for _ in range(98):  # a burst at 0.5 s: 98 requests in 49 s, the 99th is refused ...
        lim.wait()
    assert round(clock.t, 1) == 48.5
    # ... with "try again in 30 minutes" counted from the window's first request (t=0)
    reset_in = 1800.0 - clock.t
    interval = lim.learn(98, reset_in)
    assert abs(interval - 1.02 * 1800 / 98) < 1e-6  # 18.7 s: 98 per 30 min, 2 % margin
    lim.wait()  # nothing before the reset
    assert clock.t >= 1800.0
    start = clock.t
    for _ in range(98):
        lim.wait()
    # the next window's 98 requests take the whole window: no second 429
    assert clock.t - start >= 97 * 1800 / 98


def test_a_429_without_a_limit_changes_nothing_but_the_wait():
    clock = _Clock()
    lim = RateLimiter(0.5, clock=clock, sleep=clock.sleep)
    lim.wait()
    assert lim.learn(None, 60.0) == 0.5
    lim.wait()
    assert clock.t >= 60.0


def test_never_faster_than_configured_or_already_learned():
    clock = _Clock()
    lim = RateLimiter(2.0, clock=clock, sleep=clock.sleep)
    for _ in range(10):
        lim.wait()
    assert lim.learn(1000, 1.0) == 2.0  # a generous limit does not speed the limiter up


def test_the_replica_refuses_as_openreview_does_and_the_pace_is_shared(tmp_path):
    """The replica's windowed limit answers 429 with details.limit / resetTime once the window's
    budget is spent; the limiter learns from it and the next step on the same storage root starts
    at that pace (reviewbench_assets/dagster_step.py: openreview_slot), not at full speed."""
    import time as _time

    from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
    from resources import StorageResource
    from resources.openreview_api import OpenReviewApi, RateLimiter
    from reviewbench_assets.dagster_step import PACE_FILE, openreview_slot

    fx = build_fixtures(["iclr-2024"], seed=0, n_forums=4, eager_pdfs=False, allow_anonymous=True)
    with ReplicaServer(fx, port=0) as rep:
        rep.set_faults(FaultConfig(window_limit=3, window_s=2.0))
        storage = StorageResource(root=str(tmp_path))
        first = RateLimiter(0.0)
        with openreview_slot(storage, print, first):
            api = OpenReviewApi(rep.api_v2_url, "v2", None, None, limiter=first, max_wait_s=10)
            t0 = _time.monotonic()
            for _ in range(5):
                api.get_json("/notes", {"invitation": "ICLR.cc/2024/Conference/-/Submission", "limit": "1"})
        refused = [r for r in rep.request_log if r.status == 429]
        assert len(refused) == 1 and _time.monotonic() - t0 >= 1.0  # waited out the window once
        assert first.learned_interval_s >= 2.0 / 3
        assert (tmp_path / PACE_FILE).exists()
        second = RateLimiter(0.0)
        with openreview_slot(storage, print, second):
            assert second.learned_interval_s == first.learned_interval_s  # not full speed again


def test_a_429_on_a_pdf_paces_file_downloads_only(tmp_path):
    """OpenReview meters file downloads in a budget of their own (36 per hour against 98 API
    requests per 30 minutes): a 429 on /pdf teaches the attachment limiter alone, so the API
    requests of the same run go on at their own pace, and the pace is shared with the next step."""
    from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
    from resources import StorageResource
    from resources.openreview_api import OpenReviewApi, RateLimiter
    from reviewbench_assets.dagster_step import ATTACHMENT_PACE_FILE, PACE_FILE, openreview_slot

    fx = build_fixtures(["iclr-2024"], seed=0, n_forums=4, eager_pdfs=False, allow_anonymous=True)
    forum = next(iter(fx.venues["iclr-2024"].forums))
    with ReplicaServer(fx, port=0) as rep:
        rep.set_faults(FaultConfig(window_limit=100, attachment_window_limit=2, window_s=2.0))
        storage = StorageResource(root=str(tmp_path))
        api_lim, file_lim = RateLimiter(0.0), RateLimiter(0.0)
        with openreview_slot(storage, print, api_lim, file_lim):
            api = OpenReviewApi(rep.api_v2_url, "v2", None, None, limiter=api_lim, attachment_limiter=file_lim,
                                max_wait_s=10)
            for _ in range(3):
                assert api.get_bytes("/pdf", {"id": forum}).startswith(b"%PDF")
            for _ in range(5):
                api.get_json("/notes", {"id": forum})
        refused = [r for r in rep.request_log if r.status == 429]
        assert [r.path for r in refused] == ["/pdf"]
        assert file_lim.learned_interval_s >= 2.0 / 2 and api_lim.learned_interval_s == 0.0
        assert (tmp_path / ATTACHMENT_PACE_FILE).exists() and not (tmp_path / PACE_FILE).exists()
        later = RateLimiter(0.0)
        with openreview_slot(storage, print, RateLimiter(0.0), later):
            assert later.learned_interval_s == file_lim.learned_interval_s


def test_a_bare_client_keeps_one_limiter_for_both():
    from resources.openreview_api import OpenReviewApi

    api = OpenReviewApi("http://127.0.0.1:9", "v2", None, None)
    assert api.attachment_limiter is api.limiter
