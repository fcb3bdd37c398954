"""The `openreview_forums` stage's result in the one stage shape (stages/result.py): what the crawl
or refresh wrote, what changed against the stored file, its OpenReview requests and waits, and the
`quarantined_share` check (blocking: a partition over the share does not reach the splits)."""
from __future__ import annotations

from collections import Counter

from reviewbench_assets.stages.refresh import CrawlResult
from reviewbench_assets.stages.result import CheckOutcome, StageResult, Table, iso_utc

QUARANTINE_CHECK = "quarantined_share"
QUARANTINE_CHECK_DESCRIPTION = "share of quarantined forums stays under the configured max_quarantined_share"
ODDITY_KINDS = ("oversized", "absurd", "duplicate")  # oddity_reasons' words (domain/quarantine.py)


def _reason_kind(reason: str) -> str:
    """The first word after "<forum id>: " ("malformed", "oversized", ...): what the metadata counts."""
    return reason.split(": ", 1)[-1].split(" ")[0] if ": " in reason else reason


def crawl_stage_result(r: CrawlResult, api_stats: dict, max_share: float, partition_key: str) -> StageResult:
    share = r.quarantined_share
    kinds = Counter(_reason_kind(x) for q in r.quarantined for x in q["reasons"])
    check = CheckOutcome(
        QUARANTINE_CHECK, passed=share <= max_share, description=f"{partition_key}: {QUARANTINE_CHECK_DESCRIPTION}",
        metadata={"partition": partition_key, "share": round(share, 4), "threshold": f"<= {max_share}",
                  "quarantined": len(r.quarantined),
                  "examples": Table([{"forum_id": q["forum_id"], "reason": q["reasons"][0][:200]}
                                     for q in r.quarantined[:10]], ["forum_id", "reason"],
                                    what="quarantined forums")})
    counts = {
        "mode": r.mode,
        "forums_new": r.status["new"], "forums_changed": r.status["changed"],
        "forums_unchanged": r.status["unchanged"], "forums_removed": r.status["removed"],
        "touched_forums": r.touched[:50],
        # an incremental refresh: the cursor it read changes since, as a date (the stored value is epoch ms)
        **{k: v for k, v in r.refresh.items() if k != "cursor_ms"},
        **({"changes_since": iso_utc(r.refresh["cursor_ms"])} if r.refresh.get("cursor_ms") else {}),
        "forums_by_query": r.forums_by_query,
        "malformed_notes": len(r.errors),
        "quarantined_forums": len(r.quarantined), "quarantine_reasons": dict(kinds.most_common(10)),
        "oddities": dict(Counter(k for k in kinds.elements() if k in ODDITY_KINDS)),
        "requests": r.requests,
        # The cost goal is about the forum JSON; review edit histories are one request per
        # paper with edited reviews (no batch form is known to work on the real API) and shown apart.
        "requests_per_forum": round((r.requests - r.review_edit_requests) / max(r.forums, 1), 4),
        "review_edit_requests": r.review_edit_requests, "review_edits_resumed": r.review_edits_resumed,
        "rate_limited": api_stats["rate_limited"], "rate_limit_wait_s": round(api_stats["rate_limit_wait_s"], 1),
        "retries": api_stats["retries"],
        "retries_by_cause": {k[8:]: v for k, v in api_stats.items() if k.startswith("retries_")},
        "server_errors_after_retries": api_stats["server_errors"],
        "forums_per_s": round(r.forums / max(r.elapsed_s, 1e-6), 2),
        "preview": Table(r.previews, ["forum_id", "query", "title", "replies"], what="forums of this run"),
    }
    return StageResult(written={"path": r.raw_path, "quarantine_path": r.quarantine_path}, counts=counts,
                       checks=[check], row_count=r.forums)

