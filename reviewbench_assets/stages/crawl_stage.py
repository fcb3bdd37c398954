"""The `openreview_forums` stage: crawl or refresh one venue-year (`stages/refresh.py`
`refresh_venue`), with its OpenReview requests and waits, and the `quarantined_share` check
(blocking: a partition over the share does not reach the splits)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from partitions.catalogue import VenueYear
from resources.openreview_api import OpenReviewApi
from resources.store import Store
from reviewbench_assets.stages.figures import CRAWL, QUARANTINE
from reviewbench_assets.stages.progress import Progress
from reviewbench_assets.stages.refresh import refresh_venue
from reviewbench_assets.stages.result import Table
from reviewbench_assets.stages.stage import Stage

QUARANTINE_CHECK = QUARANTINE
QUARANTINE_CHECK_DESCRIPTION = "share of quarantined forums stays under the configured max_quarantined_share"
ODDITY_KINDS = ("oversized", "absurd", "duplicate")  # oddity_reasons' words (domain/routing.py)


def _reason_kind(reason: str) -> str:
    """The first word after "<forum id>: " ("malformed", "oversized", ...): what the metadata counts."""
    return reason.split(": ", 1)[-1].split(" ")[0] if ": " in reason else reason


class CrawlStage(Stage):
    """The `openreview_forums` stage: crawl or refresh one venue-year (`refresh_venue`), with its
    OpenReview requests and waits, and the `quarantined_share` check (blocking: a partition over
    the share does not reach the splits)."""

    name = CRAWL

    def __init__(self, venue: VenueYear, v2: OpenReviewApi, api: OpenReviewApi, *,
                 max_quarantined_share: float = 0.05, full_refresh: bool = False, review_edits: bool = True,
                 log: Callable[[str], None] = lambda _m: None,
                 progress: Callable[[str, int], Progress] | None = None, attempt_continues: bool | None = None):
        super().__init__(venue.key)
        self.attempt_continues = attempt_continues  # stages/attempt.py: the published pages' fate
        self.venue, self.v2, self.api, self.log, self.progress = venue, v2, api, log, progress
        self.max_quarantined_share, self.full_refresh, self.review_edits = (max_quarantined_share, full_refresh,
                                                                             review_edits)

    def run(self, store: Store) -> None:
        refresh_venue(self, store)
        s = self.api.stats
        self.stat("rate_limited", s["rate_limited"])
        self.stat("rate_limit_wait_s", round(s["rate_limit_wait_s"], 1))
        self.stat("retries", s["retries"])
        self.stat("retries_by_cause", {k[8:]: v for k, v in s.items() if k.startswith("retries_")})
        self.stat("server_errors_after_retries", s["server_errors"])

    def record_quarantine(self, quarantined: list[dict], forums: int) -> None:
        """The quarantine's figures and the `quarantined_share` check, over `forums` (usable and not)."""
        share = len(quarantined) / max(forums, 1)
        kinds = Counter(_reason_kind(x) for q in quarantined for x in q["reasons"])
        self.stat("quarantined_forums", len(quarantined))
        self.stat("quarantine_reasons", dict(kinds.most_common(10)))
        self.stat("oddities", dict(Counter(k for k in kinds.elements() if k in ODDITY_KINDS)))
        limit = self.max_quarantined_share
        self.check(QUARANTINE_CHECK, share <= limit, description=f"{self.key}: {QUARANTINE_CHECK_DESCRIPTION}", metadata={
            "partition": self.key, "share": round(share, 4), "threshold": f"<= {limit}", "quarantined": len(quarantined),
            "codes": dict(kinds.most_common()),
            "examples": Table([{"forum_id": q["forum_id"], "reason": q["reasons"][0][:200]} for q in quarantined[:10]],
                              ["forum_id", "reason"], what="quarantined forums")})
