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
    for _ in range(99):  # a burst at 0.5 s: 98 requests in 49 s, the 99th is refused ...
        lim.wait()
    assert round(clock.t, 1) == 49.0
    # ... with "try again in 30 minutes" counted from the window's first request (t=0)
    reset_in = 1800.0 - clock.t
    interval = lim.learn(98, reset_in)
    assert abs(interval - 1.02 * 1800 / 97) < 1e-6  # 18.9 s: 97 per 30 min (room for a late one), measured: 2 %
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
    assert lim.learn(1000, 1.0) >= 2.0  # a generous limit does not speed the limiter up


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


def _fixed_window_server(limit: int, window_s: float):
    """OpenReview's windows as the replica keeps them (written here by hand from
    replica/openreview_replica/control_routes.py `_window`): a window opens at the first request
    after the last one closed and counts every request that arrives in it; past `limit`, a 429."""
    state = {"start": None, "used": 0}

    def arrive(t: float) -> float | None:
        """None when answered; the seconds to the window's reset when refused."""
        if state["start"] is None or t >= state["start"] + window_s:
            state["start"], state["used"] = t, 0
        state["used"] += 1
        return state["start"] + window_s - t if state["used"] > limit else None
    return arrive


def test_no_refusal_after_the_first_window_when_requests_arrive_late_by_varying_delays():
    """Issue 38.7: `make bench` measured rate_limit_utilisation 1.013 with a 429 in every window
    after the first (refused_after_first_window 4). A request reaches the server some time after
    the limiter let it go (a busy machine, chromium's own queue); when one request of a window
    arrives late and the request `limit` after it does not, the two arrive less than a window apart
    and the server counts `limit` + 1. The limiter's pace leaves room for that."""
    import random

    rng = random.Random(7)
    clock = _Clock()
    lim = RateLimiter(0.0, clock=clock, sleep=clock.sleep)
    limit, window = 20, 10.0
    arrive = _fixed_window_server(limit, window)
    refused, answered, first_refusal = [], 0, None
    while clock.t < 300:
        lim.wait()
        t = clock.t + rng.uniform(0.0, 0.4)  # its arrival at the server
        wait = arrive(t)
        if wait is None:
            answered += 1
            continue
        refused.append(t)
        first_refusal = t if first_refusal is None else first_refusal
        # the body's resetTime is an instant (t + wait), which the client reads against its clock
        lim.learn(limit, t + wait - clock.t)
    after_first = [t for t in refused if t > first_refusal + window]
    assert after_first == [], f"refused {len(after_first)} times after the first window"
    allowed = limit / window
    assert 0.9 <= answered / clock.t / allowed <= 1.0


def test_a_refusal_learnt_while_later_requests_are_already_out_measures_the_window_from_its_own():
    """Issue 38.7: the browser's pages (8 at a time) each have a request out when one of them is
    refused; the 429 is learnt after later requests left. Measuring the window from the newest
    requests made it short by theirs, and the pace stayed too fast: a 429 in every window
    (bench_rate_limit: 110 requests in 51.5 s against 2 per second, refused_after_first_window 7).
    The window is measured from the refused request's own time."""
    from collections import deque

    clock = _Clock()
    lim = RateLimiter(0.0, clock=clock, sleep=clock.sleep)
    limit, window, inflight = 20, 10.0, 7
    arrive = _fixed_window_server(limit, window)
    out: deque = deque()  # (sent at, the server's answer) of requests whose answers are not read yet
    refused, answered, first_refusal = [], 0, None
    while clock.t < 300:
        sent = lim.wait()
        out.append((sent, arrive(clock.t)))
        clock.t += 0.35  # the pages' own work between two requests (8 pages: ~2.9 requests a second)
        if len(out) > inflight:  # the answer of a request `inflight` requests back is read now
            sent_at, wait = out.popleft()
            if wait is None:
                answered += 1
                continue
            refused.append(sent_at)
            first_refusal = sent_at if first_refusal is None else first_refusal
            lim.learn(limit, wait - (clock.t - sent_at), sent_at=sent_at)
    after_first = [t for t in refused if t > first_refusal + window]
    assert after_first == [], f"refused {len(after_first)} times after the first window"
    assert 0.9 <= answered / clock.t / (limit / window) <= 1.0


def test_a_window_shared_with_an_earlier_steps_requests_is_not_measured_short():
    """Issue 38.7 (bench_rate_limit: three 429s in the second window): the crawl step's requests
    opened the server's window; the PDF step's limiter, a new one, saw only its own when it was
    refused and measured the window from its first request, two seconds short. A window that held
    requests it did not send leaves their share to them."""
    clock = _Clock()
    limit, window = 20, 10.0
    arrive = _fixed_window_server(limit, window)
    for t in (0.0, 0.05, 0.1, 0.15, 0.2):  # the earlier step's requests, by another limiter
        assert arrive(t) is None
    clock.t = 2.5  # the next step starts
    lim = RateLimiter(0.0, clock=clock, sleep=clock.sleep)
    refused, answered, first_refusal = [], 0, None
    while clock.t < 300:
        sent = lim.wait()
        wait = arrive(clock.t)
        clock.t += 0.3  # each request's own time
        if wait is None:
            answered += 1
            continue
        refused.append(sent)
        first_refusal = sent if first_refusal is None else first_refusal
        lim.learn(limit, wait - 0.3, sent_at=sent)
    after_first = [t for t in refused if t > first_refusal + window]
    assert after_first == [], f"refused {len(after_first)} times after the first window"
    assert 0.9 <= answered / (clock.t - 2.5) / (limit / window) <= 1.0


# openreview.net's 429, as openreview-py printed it (mireklzicar/openreview_downloader issue #4,
# 2026-08-31, `GET /attachment?name=pdf`; docs/openreview-api.md §0.2)
REAL_429 = {"name": "RateLimitError",
            "message": "Too many requests: You have made 37 requests, surpassing the limit of 36 requests. "
                       "Please try again in 60 minutes and 13 seconds (2026-08-31-4689127)",
            "status": 429, "details": {"limit": 36, "remaining": 0, "resetTime": "2026-08-31T08:59:25.212Z",
                                       "used": 37, "current": 37, "reqId": "2026-08-31-4689127"}}
REAL_MESSAGE = (r"Too many requests: You have made (\d+) requests, surpassing the limit of (\d+) requests\. "
                r"Please try again in (?:(\d+) minutes and )?(\d+) seconds \(\d{4}-\d\d-\d\d-\d+\)")


def _refused_36_downloads(lim: RateLimiter, clock: _Clock) -> float:
    """The issue's run by hand: 36 downloads in 45 s (its log: '36/5351 [00:46]'), one every 1.25 s
    from t=0, the 37th sent at 45.0 and refused, its answer read at 46.0. The message's "try again in
    60 minutes and 13 seconds" is the server's wait from the refusal: the reset is 3613 s away.
    Returns the interval the limiter learns from the real body."""
    import re
    from datetime import datetime

    from resources.openreview_api import refusal_counts

    for k in range(36):
        clock.t = 1.25 * k
        lim.wait()
    clock.t = 45.0
    sent = lim.wait()
    clock.t = 46.0
    minutes, seconds = re.fullmatch(REAL_MESSAGE, REAL_429["message"]).group(3, 4)
    reset = datetime.fromisoformat(REAL_429["details"]["resetTime"].replace("Z", "+00:00"))
    refused_at = reset.timestamp() - 60 * int(minutes) - int(seconds)
    assert datetime.fromtimestamp(refused_at).second == 12  # 08:59:25.212 - 60:13 = 07:59:12.212
    limit, used = refusal_counts(REAL_429)
    assert (limit, used) == (36, 37)
    return lim.learn(limit, reset.timestamp() - refused_at - (clock.t - sent), sent_at=sent, used=used)


def test_the_real_429_with_the_window_known_paces_the_limit_over_it():
    """The limit from the server (36), the window from whoever knows it (60 minutes for downloads in
    the same sources): 36 requests per 3600 s, one interval of room for a late one: 3600/35 s."""
    clock = _Clock()
    lim = RateLimiter(0.0, clock=clock, sleep=clock.sleep, window_s=3600.0)
    assert abs(_refused_36_downloads(lim, clock) - 3600 / 35) < 1e-9
    assert lim.wait() == 45.0 + 3613.0  # nothing before the reset the server gave
    assert abs(lim.wait() - (3658.0 + 3600 / 35)) < 1e-9


def test_the_real_429_without_the_window_bounds_it_from_the_windows_first_request():
    """No window known: the refused request was the window's 37th (`used`), so the window began no
    later than our first request (t=0) and resets at 3658 (45 + 3613): at most 3658 s; paced as 2 % longer
    (RateLimiter.MEASURE_MARGIN), 1.02 x 3658/35 s apart."""
    clock = _Clock()
    lim = RateLimiter(0.0, clock=clock, sleep=clock.sleep)
    assert abs(_refused_36_downloads(lim, clock) - 1.02 * 3658 / 35) < 1e-9
    assert lim.measured_window_s == 3658.0


def test_a_later_429_bounds_the_window_again_and_only_a_shorter_bound_is_kept():
    """Three requests per 10 s window, by hand. First window: sent at 0 (it reached the server at
    0.4, opening the window: reset at 10.4), 1, 2; the 4th (used 4) sent at 3 is refused, answered at
    3.1: the window is at most 10.4 s. Second window, paced at 1.02 x 10.4/2 = 5.304: ours at 10.4 (opens
    it: reset 20.4), another process's two at 11 and 12, ours at 15.704 the 4th: refused (used 4),
    answered at 15.7 + 0.1. Its bound goes back to our request at 2.0 (18.4 s): longer, not kept."""
    clock = _Clock()
    lim = RateLimiter(0.0, clock=clock, sleep=clock.sleep)
    for t in (0.0, 1.0, 2.0, 3.0):
        clock.t = t
        lim.wait()
    clock.t = 3.1
    assert abs(lim.learn(3, 10.4 - 3.1, sent_at=3.0, used=4) - 1.02 * 10.4 / 2) < 1e-9
    assert lim.wait() == 10.4
    second = lim.wait()
    assert abs(second - (10.4 + 5.304)) < 1e-9
    clock.t = 15.8
    lim.learn(3, 20.4 - 15.8, sent_at=second, used=4)
    assert lim.measured_window_s == 10.4 and abs(lim.interval_s - 5.304) < 1e-9


def test_without_used_a_second_refusal_of_one_window_does_not_make_the_pace_faster():
    """A body with `limit` and no `used`: the refused request is taken as the window's (limit + 1)-th.
    Two refused in one window (the 4th and 5th counted of limit 3, sent at 3 and 4, reset at 10.4):
    the first measures 10.4 s from our request at 0; the second, taken as the 4th, would measure from
    the request at 1 (9.4 s, short): the pace stays. With `used` 5 the body says it is the window's
    second refusal: it is not measured (the window's first was)."""
    clock = _Clock()
    lim = RateLimiter(0.0, clock=clock, sleep=clock.sleep)
    for t in (0.0, 1.0, 2.0, 3.0, 4.0):
        clock.t = t
        lim.wait()
    clock.t = 4.5
    lim.learn(3, 10.4 - 4.5, sent_at=3.0)
    lim.learn(3, 10.4 - 4.5, sent_at=4.0)
    assert lim.measured_window_s == 10.4
    exact = RateLimiter(0.0, clock=clock, sleep=clock.sleep)
    for t in (0.0, 1.0, 2.0, 3.0, 4.0):
        exact._times.append(t)
    exact.learn(3, 10.4 - 4.5, sent_at=3.0, used=4)
    exact.learn(3, 10.4 - 4.5, sent_at=4.0, used=5)
    assert exact.measured_window_s == 10.4


def test_the_replica_answers_a_window_refusal_as_openreview_net_does():
    """The replica's 429 for its windowed limit: the real body's fields (REAL_429), its message's words
    (the real message matches the same pattern), refused requests counted in `used` (issue #437:
    "You have made 165 requests, surpassing the limit of 144"), and no Retry-After header (no source
    shows one)."""
    import re

    import requests

    from openreview_replica import FaultConfig, ReplicaServer, build_fixtures

    assert re.fullmatch(REAL_MESSAGE, REAL_429["message"])
    fx = build_fixtures(["iclr-2024"], seed=0, n_forums=2, eager_pdfs=False, allow_anonymous=True)
    with ReplicaServer(fx, port=0) as rep:
        rep.set_faults(FaultConfig(window_limit=2, window_s=75.0))
        answers = [requests.get(rep.api_v2_url + "/notes", params={"id": "x"}, timeout=10) for _ in range(4)]
        assert [r.status_code for r in answers[2:]] == [429, 429]
        bodies = [r.json() for r in answers[2:]]
        assert all(set(b["details"]) == set(REAL_429["details"]) for b in bodies)
        assert [b["details"]["used"] for b in bodies] == [3, 4] and bodies[0]["details"]["limit"] == 2
        made, limit, minutes, _seconds = re.fullmatch(REAL_MESSAGE, bodies[1]["message"]).groups()
        assert (made, limit, minutes) == ("4", "2", "1")  # 75 s: "1 minutes and 15 seconds" or less
        assert "Retry-After" not in answers[2].headers
        assert [(w["kind"], w["used"], w["limit"]) for w in rep.rate_windows()] == [("api", 4, 2)]


def test_a_window_opened_by_the_previous_steps_requests_is_measured_from_its_first(tmp_path):
    """bench_rate_limit (window measured): the crawl step's 5 requests opened the window, the PDF
    step's limiter (a new one) sent 15 more and its 16th was refused (used 21): it had not seen the
    window's first request and measured the window long (0.786 of the allowed rate). The step hands
    its requests to the next (openreview_slot, `.locks/openreview-pace-recent.json`); by hand: the
    crawl at 0.0-0.4 s, the PDF step from 2.0 every 0.5 s, refused at 9.5 s, reset at 10.0: the window
    is at most 10.0 s (from 0.0), not 8.0 (from 2.0) stretched over 16 requests."""
    from resources import StorageResource
    from reviewbench_assets.dagster_step import openreview_slot

    storage = StorageResource(root=str(tmp_path))
    clock = _Clock()
    crawl = RateLimiter(0.0, clock=clock, sleep=clock.sleep)
    with openreview_slot(storage, print, crawl):
        for k in range(5):
            clock.t = 1000.0 + 0.1 * k
            crawl.wait()
    pdfs = RateLimiter(0.0, clock=clock, sleep=clock.sleep)  # the next step, its slot taken at once
    with openreview_slot(storage, print, pdfs):
        for k in range(16):
            clock.t = 1002.0 + 0.5 * k
            pdfs.wait()
        pdfs.learn(20, 0.5, sent_at=clock.t, used=21)
    assert abs(pdfs.measured_window_s - 10.0) < 0.01
