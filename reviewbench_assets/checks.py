"""Row-level checks on every venue-year split, emitted with its materialization.

Emitting results from inside the asset keeps them partition-aware without loading every
partition (an unpartitioned @asset_check would; see design/dagster-notes.md §2.6). The check specs
carry the asset's partitions (Dagster 1.13's partitioned asset checks, a preview feature), so each
result is recorded for the partition it checked; the partition is in its description and metadata
too. Thresholds are text, so the UI does not plot a constant as a series.
"""
from __future__ import annotations

import warnings

import dagster as dg

ROW_CHECKS = {
    "unique_forum_id": "forum_id is the primary key: no duplicates",
    "num_reviews_matches_reviews_json": "num_reviews == len(json.loads(reviews_json))",
    "markdown_chars_matches_markdown": "markdown_chars == len(markdown)",
    "no_empty_title": "every paper has a title",
    "empty_markdown_share": "share of papers without markdown stays under the configured threshold",
}


def partitioned_check_specs(asset: str, checks: dict[str, str],
                            partitions_def: dg.PartitionsDefinition) -> list[dg.AssetCheckSpec]:
    """Check specs partitioned like their asset (results are attributed to the run's partition)."""
    with warnings.catch_warnings():  # "Specifying a partitions_def on an AssetCheckSpec" is a preview
        warnings.simplefilter("ignore")
        return [dg.AssetCheckSpec(name, asset=asset, description=desc, partitions_def=partitions_def)
                for name, desc in checks.items()]


def partition_metadata(partition_key: str) -> dict:
    return {"partition": dg.MetadataValue.text(partition_key)}


def row_check_results(stats: dict, max_empty_share: float, partition_key: str) -> list[dg.AssetCheckResult]:
    n = max(stats["rows"], 1)
    share = stats["empty_markdown"] / n
    pm = partition_metadata(partition_key)

    def result(name: str, passed: bool, metadata: dict, **kw) -> dg.AssetCheckResult:
        return dg.AssetCheckResult(check_name=name, passed=passed, metadata={**pm, **metadata},
                                   description=f"{partition_key}: {ROW_CHECKS[name]}", **kw)

    return [
        result("unique_forum_id", stats["duplicates"] == 0, {"duplicates": stats["duplicates"]}),
        result("num_reviews_matches_reviews_json", stats["review_mismatch"] == 0,
               {"mismatches": stats["review_mismatch"]}),
        result("markdown_chars_matches_markdown", stats["chars_mismatch"] == 0,
               {"mismatches": stats["chars_mismatch"]}),
        result("no_empty_title", stats["empty_title"] == 0, {"empty_titles": stats["empty_title"]}),
        result("empty_markdown_share", share <= max_empty_share,
               {"share": round(share, 4), "threshold": dg.MetadataValue.text(f"<= {max_empty_share}"),
                "empty": stats["empty_markdown"]}, severity=dg.AssetCheckSeverity.WARN),
    ]
