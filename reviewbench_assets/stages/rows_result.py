"""The `reviewbench_split` stage (one venue-year's rows in the final schema, plus provenance) as the
one stage shape: its entry function and the row-level checks, two of them blocking (a duplicate
forum_id or too many papers without text must not reach the conference split)."""
from __future__ import annotations

from partitions.catalogue import VenueYear
from resources.store import Store
from reviewbench_assets import paths
from reviewbench_assets.stages.result import CheckOutcome, StageResult
from reviewbench_assets.stages.rows_writer import assemble_rows, write_rows

ROW_CHECKS = {
    "unique_forum_id": "forum_id is the primary key: no duplicates",
    "num_reviews_matches_reviews_json": "num_reviews == the paper's reviews (in reviews_json and the reviews config)",
    "markdown_chars_matches_markdown": "markdown_chars == len(markdown)",
    "no_empty_title": "every paper has a title",
    "empty_markdown_share": "share of papers without markdown stays under the configured threshold",
}


def build_rows(venue: VenueYear, store: Store, max_empty_share: float) -> StageResult:
    """Join the venue-year's parsed forums, chosen PDFs, markdown and dialogues on forum_id into
    `rows/<pk>.parquet`, one row per review `rows/<pk>.reviews.parquet`, `rows/<pk>.provenance.parquet`
    and the venue-year's statistics `rows/<pk>.stats.json` (published together; the splits and the
    card merge these statistics)."""
    subs = {r["forum_id"]: r for r in store.read_parquet(store.path(paths.submissions(venue.key))).to_pylist()}
    out, prov = store.path(paths.rows(venue.key)), store.path(paths.provenance(venue.key))
    reviews, figures = store.path(paths.rows_reviews(venue.key)), store.path(paths.rows_stats(venue.key))
    stats = write_rows(store, out, prov, reviews, assemble_rows(store, venue, subs), figures)
    return StageResult(
        written={"path": out, "provenance_path": prov, "reviews_path": reviews, "stats_path": figures}, row_count=stats["rows"],
        counts={"reviews": stats["reviews"], "empty_markdown": stats["empty_markdown"],
                "stale_markdown": stats["stale_markdown"]},  # forums paper_markdown has not seen yet
        checks=row_checks(stats, max_empty_share, venue.key))


def row_checks(stats: dict, max_empty_share: float, partition_key: str) -> list[CheckOutcome]:
    share = stats["empty_markdown"] / max(stats["rows"], 1)

    def outcome(name: str, passed: bool, metadata: dict) -> CheckOutcome:
        return CheckOutcome(name, passed, {"partition": partition_key, **metadata},
                            description=f"{partition_key}: {ROW_CHECKS[name]}")

    return [
        outcome("unique_forum_id", stats["duplicates"] == 0, {"duplicates": stats["duplicates"]}),
        outcome("num_reviews_matches_reviews_json", stats["review_mismatch"] == 0,
                {"mismatches": stats["review_mismatch"]}),
        outcome("markdown_chars_matches_markdown", stats["chars_mismatch"] == 0,
                {"mismatches": stats["chars_mismatch"]}),
        outcome("no_empty_title", stats["empty_title"] == 0, {"empty_titles": stats["empty_title"]}),
        outcome("empty_markdown_share", share <= max_empty_share,
                {"share": round(share, 4), "threshold": f"<= {max_empty_share}", "empty": stats["empty_markdown"]}),
    ]
