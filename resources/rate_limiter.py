"""Pacing to OpenReview's windowed limits, shared by the API client's threads and the browser's pages.

What openreview.net tells a client about its limit is a 429 body and nothing else we know of
(docs/openreview-api.md §0.2; the real bodies, quoted from openreview-py's printout:
mireklzicar/openreview_downloader issue #4, 2026-08-31, on `GET /attachment?name=pdf`:
`{"name": "RateLimitError", "message": "Too many requests: You have made 37 requests, surpassing the
limit of 36 requests. Please try again in 60 minutes and 13 seconds (2026-08-31-4689127)", "status":
429, "details": {"limit": 36, "remaining": 0, "resetTime": "2026-08-31T08:59:25.212Z", "used": 37,
"current": 37, "reqId": "2026-08-31-4689127"}}`; openreview/openreview issue #437, 2026-08-05: "You
have made 102 requests, surpassing the limit of 98 requests. Please try again in 30 minutes and 8
seconds", and later "165 requests, surpassing the limit of 144": refused requests count in `used`).
So the server says the limit (`details.limit`), how many of the window's requests it counted with
the refused one (`details.used`) and when the window resets (`details.resetTime`); no source shows a
Retry-After or X-RateLimit header (honoured when a server sends one, resources/openreview_api.py
reset_wait_s), and none says the window's length.

The rule (`learn`):
- nothing goes out before the refused window resets (`resetTime`);
- `limit` requests per window are spread one every window / (limit - 1): a request may then reach
  the server up to one interval late and no window counts more than `limit`;
- the window's length is the server's when known (`window_s`: set by whoever knows it, e.g.
  OPENREVIEW_RATE_LIMIT_WINDOW_S; openreview.net's were 30 minutes for API requests and 60 for file
  downloads in the sources above, but they are not announced and have changed), else a conservative
  measure: the refused request is the window's `used`-th, so the window began no later than the
  sending of our request `used - 1` before it, and reset - that time is an upper bound of the window.
  A request reaches the server after we send it, so the bound is long (slow) by that delay, never
  short, unless a request we counted never reached the server (a page closed under it), so the pace
  takes it 2 % longer. Only a window's first refusal (`used` = limit + 1) is measured: the later ones
  of the same window (requests already out) add nothing (unless nothing was measured yet: then as
  without `used`). Each later window's first 429 gives another bound and the shortest is kept.
  Without `used` the refused
  request is taken as the (limit + 1)-th, which another refusal counted before it makes wrong (short):
  then no measure makes the pace faster than an earlier one.
"""
from __future__ import annotations

import threading
import time
from collections import deque


class RateLimiter:
    """Minimum interval between requests, shared by threads (API client and browser), which learns
    the account's budget from 429 answers (module docstring). One limiter per budget (API requests;
    file downloads, resources/openreview_api.py ATTACHMENT_PATHS)."""

    HISTORY = 5000  # request times kept to measure a window (limits seen: 36 to 144)
    # A measured window is taken 2 % longer: the bound can come out short when a request we counted
    # never reached the server (a page closed under it): bench_rate_limit measured 9.86 s of 10
    MEASURE_MARGIN = 1.02

    def __init__(self, min_interval_s: float = 0.0, clock=time.monotonic, sleep=time.sleep,
                 window_s: float | None = None):
        self.min_interval_s = min_interval_s
        self.window_s = window_s or None  # the server's window length, when known
        self.measured_window_s: float | None = None  # the shortest upper bound measured from 429s
        self.limit: int | None = None  # the last limit a 429 announced
        self.learned_interval_s = 0.0
        self._clock, self._sleep = clock, sleep
        self._lock = threading.Lock()
        self._next = 0.0
        self._times: deque[float] = deque(maxlen=self.HISTORY)
        # told (interval_s, next request's epoch seconds) after each 429, to share the pace with the
        # next process on the same storage root (reviewbench_assets/dagster_step.py: openreview_slot)
        self.on_learn = None

    def seed(self, interval_s: float, not_before_epoch: float) -> None:
        """Start from a pace learned earlier (another process, an earlier run): never faster, and
        nothing before the window that other process was refused in has reset."""
        with self._lock:
            self.learned_interval_s = max(self.learned_interval_s, interval_s)
            self._next = max(self._next, self._clock() + max(0.0, not_before_epoch - time.time()))

    def seed_times(self, epochs: list[float]) -> None:
        """Requests an earlier step sent (epoch seconds, `sent_epochs`), kept as if this limiter had
        sent them: a window they opened is then measured from its first request."""
        with self._lock:
            offset = self._clock() - time.time()
            ours = list(self._times)
            self._times.clear()
            self._times.extend(sorted([t + offset for t in epochs] + ours)[-self.HISTORY:])

    def sent_epochs(self, within_s: float = 3600.0) -> list[float]:
        """This limiter's requests of the last `within_s` seconds (OpenReview's windows are an hour at
        most), as epoch seconds, for the next step (`seed_times`)."""
        with self._lock:
            offset, now = time.time() - self._clock(), self._clock()
            return [round(t + offset, 3) for t in self._times if now - within_s <= t <= now]

    @property
    def interval_s(self) -> float:
        return max(self.min_interval_s, self.learned_interval_s)

    def wait(self) -> float:
        """Wait for this caller's turn; returns its time (the clock's), which `learn` takes back."""
        with self._lock:
            now = self._clock()
            start = max(now, self._next) if self.interval_s > 0 else now
            self._next = start + self.interval_s
            self._times.append(start)
        if start > now:
            self._sleep(start - now)
        return start

    def learn(self, limit: int | None, reset_in_s: float, sent_at: float | None = None,
              used: int | None = None) -> float:
        """A 429 said: at most `limit` requests per window (`details.limit`), the refused request was
        the window's `used`-th (`details.used`), the window resets in `reset_in_s` (`resetTime`).
        `sent_at`: the refused request's time (`wait`'s; requests sent after it are not of its
        window). Returns the interval."""
        with self._lock:
            now = self._clock()
            reset_at = now + reset_in_s
            self._next = max(self._next, reset_at)  # nothing before the reset (other threads too)
            if not limit or limit <= 1:
                return self.interval_s
            self.limit = limit
            bound = self._window_bound(limit, reset_at, now if sent_at is None else sent_at, used)
            if bound is not None and self.measured_window_s is not None:
                # with `used`, each 429's measure is an upper bound and the shortest is kept; without,
                # the refused request may be later than the window's (limit + 1)-th (another refused
                # one counted before it), so its measure may be short: never faster than before
                keep = min if used == limit + 1 else max
                bound = keep(self.measured_window_s, bound)
            self.measured_window_s = bound or self.measured_window_s
            window = self.window_s or (self.measured_window_s or 0.0) * self.MEASURE_MARGIN
            if window:
                self.learned_interval_s = window / (limit - 1)
            shared = (self.learned_interval_s, time.time() + (self._next - now))
        if self.on_learn is not None:
            self.on_learn(*shared)
        return self.interval_s

    def _window_bound(self, limit: int, reset_at: float, sent_at: float, used: int | None) -> float | None:
        """An upper bound of the window's length from one 429 (module docstring), or None."""
        if used and used > limit + 1 and self.measured_window_s is not None:
            # a later refusal of a window (requests that were already out): it says nothing new, and
            # bench_rate_limit saw such refusals of concurrent downloads measure 6.9 s of 10
            return None
        times = sorted(t for t in self._times if t <= sent_at)
        used = limit + 1
        if len(times) >= used:  # the window's first request was ours: `used - 1` before the refused one
            return max(reset_at - times[-used], 0.0) or None
        if len(times) < 2:
            return None
        # The window also held requests we did not send (an earlier step, another process): it began
        # before our first, so no bound. Ours keep their share: one interval of theirs in the window
        # less one (the window length that gives that interval over `limit - 1`).
        return (reset_at - times[0]) * (limit - 1) / max(len(times) - 2, 1)
