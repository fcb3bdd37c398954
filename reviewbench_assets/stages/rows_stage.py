"""The `reviewbench_split` stage: one venue-year's rows in the final schema, plus one typed row per
review and the provenance, and
the row-level checks, two of them blocking (a duplicate forum_id or too many papers without text
must not reach the conference split)."""
from __future__ import annotations

from partitions.catalogue import VenueYear
from resources.store import Store
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.rows_writer import assemble_rows, write_rows
from reviewbench_assets.stages.stage import (
    CHARS_MATCH,
    EMPTY_SHARE,
    REVIEWS_MATCH,
    ROW_COUNT,
    ROWS,
    TITLE,
    UNIQUE,
    Stage,
)

ROW_CHECKS = {
    UNIQUE: "forum_id is the primary key: no duplicates",
    REVIEWS_MATCH: "num_reviews == the paper's reviews (in reviews_json and the reviews config)",
    CHARS_MATCH: "markdown_chars == len(markdown)",
    TITLE: "every paper has a title",
    EMPTY_SHARE: "share of papers without markdown stays under the configured threshold",
}


class RowsStage(Stage):
    """Join the venue-year's parsed forums, chosen PDFs, markdown and dialogues on forum_id into
    `rows/<pk>.parquet`, one row per review `rows/<pk>.reviews.parquet`, `rows/<pk>.provenance.parquet`
    and the venue-year's statistics `rows/<pk>.stats.json` (published together; the splits and the
    card merge these statistics)."""

    name = ROWS

    def __init__(self, venue: VenueYear, max_empty_markdown_share: float = 0.5):
        super().__init__(venue.key)
        self.venue, self.max_empty_share = venue, max_empty_markdown_share

    def run(self, store: Store) -> None:
        venue = self.venue
        subs = {r["forum_id"]: r for r in Upstream(store, venue.key).pdf_records()}
        out, prov = store.path(paths.rows(venue.key)), store.path(paths.provenance(venue.key))
        reviews, figures = store.path(paths.rows_reviews(venue.key)), store.path(paths.rows_stats(venue.key))
        stats = write_rows(store, out, prov, reviews, assemble_rows(store, venue, subs), figures)
        self.stat("path", out)
        self.stat("provenance_path", prov)
        self.stat("reviews_path", reviews)
        self.stat("stats_path", figures)
        self.stat(ROW_COUNT, stats["rows"])
        self.stat("reviews", stats["reviews"])
        self.stat("empty_markdown", stats["empty_markdown"])
        self.stat("stale_markdown", stats["stale_markdown"])  # forums paper_markdown has not seen yet
        self.row_checks(stats)

    def row_checks(self, stats: dict) -> None:
        pk, limit = self.key, self.max_empty_share
        share = stats["empty_markdown"] / max(stats["rows"], 1)

        def outcome(name: str, passed: bool, metadata: dict) -> None:
            self.check(name, passed, {"partition": pk, **metadata}, description=f"{pk}: {ROW_CHECKS[name]}")

        outcome(UNIQUE, stats["duplicates"] == 0, {"duplicates": stats["duplicates"]})
        outcome(REVIEWS_MATCH, stats["review_mismatch"] == 0, {"mismatches": stats["review_mismatch"]})
        outcome(CHARS_MATCH, stats["chars_mismatch"] == 0, {"mismatches": stats["chars_mismatch"]})
        outcome(TITLE, stats["empty_title"] == 0, {"empty_titles": stats["empty_title"]})
        outcome(EMPTY_SHARE, share <= limit,
                {"share": round(share, 4), "threshold": f"<= {limit}", "empty": stats["empty_markdown"]})
