"""Progress of a long step while it runs: forums done / total, rate, estimated end, and what it waits
for (an OpenReview rate-limit window)."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

# Forums done / total, rate, estimated end, and what it waits for (an OpenReview rate-limit window).
# A stage calls `advance()` per item and `waiting()` when it sleeps; every `every_s` seconds (and at
# the first item, at a wait and at the end) the reporter hands a `ProgressEvent` to its sink. The
# asset layer's sink (`reviewbench_assets/dagster_step.py`) turns it into an `AssetObservation` the
# UI shows live and a log line with a text bar the CLI prints. A step of days says where it is.

BAR_WIDTH = 30


@dataclass(frozen=True)
class ProgressEvent:
    stage: str  # what is counted, e.g. "forums (revision pages)"
    done: int
    total: int
    rate_per_s: float
    eta: datetime | None  # estimated end (UTC), None until something is done
    waiting_until: datetime | None = None  # a rate-limit window being waited out
    waiting_for: str = ""

    @property
    def share(self) -> float:
        return self.done / self.total if self.total else 1.0

    def line(self) -> str:
        """`[#######-------] 2,345/7,404 forums 32% 3.1/s, ETA 2026-11-27 14:05 UTC`."""
        filled = int(round(BAR_WIDTH * min(self.share, 1.0)))
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        eta = f", ETA {self.eta:%Y-%m-%d %H:%M} UTC" if self.eta and self.done < self.total else ""
        text = (f"[{bar}] {self.done:,}/{self.total:,} {self.stage} {self.share:.0%} "
                f"{self.rate_per_s:.2f}/s{eta}")
        if self.waiting_until and not (self.total or self.done):  # a reporter of waits only: no bar
            text = self.stage
        if self.waiting_until:
            text += (f"; waiting for the OpenReview rate-limit window until {self.waiting_until:%Y-%m-%d %H:%M:%S}"
                     f" UTC{f' ({self.waiting_for})' if self.waiting_for else ''}")
        return text

    def metadata(self) -> dict:
        return {"progress_stage": self.stage, "progress_done": self.done, "progress_total": self.total,
                "progress_share": round(self.share, 4), "progress_rate_per_s": round(self.rate_per_s, 3),
                "progress_eta": self.eta.isoformat(timespec="seconds") if self.eta else "",
                "progress_waiting_until": (self.waiting_until.isoformat(timespec="seconds")
                                           if self.waiting_until else ""),
                "progress": self.line()}


class Progress:
    """Thread-safe counter of one stage; reports through `sink` at most every `every_s` seconds."""

    def __init__(self, stage: str, total: int, sink: Callable[[ProgressEvent], None] | None,
                 every_s: float = 30.0, clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.stage, self.total, self.sink, self.every_s = stage, total, sink, every_s
        self.clock, self.now = clock, now
        self.done = 0
        self.started = clock()
        self._last_report: float | None = None
        self._lock = threading.Lock()

    def _event(self, waiting_until: datetime | None = None, waiting_for: str = "") -> ProgressEvent:
        elapsed = max(self.clock() - self.started, 1e-9)
        rate = self.done / elapsed
        eta = None
        if self.done and rate > 0:
            eta = datetime.fromtimestamp(self.now().timestamp() + (self.total - self.done) / rate, UTC)
        return ProgressEvent(self.stage, self.done, self.total, rate, eta, waiting_until, waiting_for)

    def _maybe_report(self, force: bool = False, **wait) -> None:
        if self.sink is None:
            return
        t = self.clock()
        if force or self._last_report is None or t - self._last_report >= self.every_s:
            self._last_report = t
            self.sink(self._event(**wait))

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self.done += n
            self._maybe_report(force=self.done >= self.total)

    def waiting(self, seconds: float, why: str = "") -> None:
        """The stage is about to sleep `seconds` (a 429 window): say so now, with the time it ends."""
        with self._lock:
            until = datetime.fromtimestamp(self.now().timestamp() + seconds, UTC)
            self._maybe_report(force=True, waiting_until=until, waiting_for=why)
