"""Row-level checks on every venue-year split, emitted with its materialization.

Emitting results from inside the asset keeps them partition-aware without loading every
partition (an unpartitioned @asset_check would; see design/dagster-notes.md §2.6).
"""
from __future__ import annotations

import dagster as dg

ROW_CHECKS = {
    "unique_forum_id": "forum_id is the primary key: no duplicates",
    "num_reviews_matches_reviews_json": "num_reviews == len(json.loads(reviews_json))",
    "markdown_chars_matches_markdown": "markdown_chars == len(markdown)",
    "no_empty_title": "every paper has a title",
    "empty_markdown_share": "share of papers without markdown stays under the configured threshold",
}


def row_check_results(stats: dict, max_empty_share: float) -> list[dg.AssetCheckResult]:
    n = max(stats["rows"], 1)
    share = stats["empty_markdown"] / n
    return [
        dg.AssetCheckResult(check_name="unique_forum_id", passed=stats["duplicates"] == 0,
                            metadata={"duplicates": stats["duplicates"]}),
        dg.AssetCheckResult(check_name="num_reviews_matches_reviews_json", passed=stats["review_mismatch"] == 0,
                            metadata={"mismatches": stats["review_mismatch"]}),
        dg.AssetCheckResult(check_name="markdown_chars_matches_markdown", passed=stats["chars_mismatch"] == 0,
                            metadata={"mismatches": stats["chars_mismatch"]}),
        dg.AssetCheckResult(check_name="no_empty_title", passed=stats["empty_title"] == 0,
                            metadata={"empty_titles": stats["empty_title"]}),
        dg.AssetCheckResult(check_name="empty_markdown_share", passed=share <= max_empty_share,
                            severity=dg.AssetCheckSeverity.WARN,
                            metadata={"share": round(share, 4), "threshold": max_empty_share,
                                      "empty": stats["empty_markdown"]}),
    ]
