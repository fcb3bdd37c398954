"""The `reviewbench_split` stage: one venue-year's rows in the final schema, one typed row per review
(the `reviews` config), the provenance and the venue-year's statistics, published together, and the
row-level checks, two of them blocking (a duplicate forum_id or too many papers without text must not
reach the conference split).

- `RowsStage`: the stage and its checks.
- `assemble_rows` / `write_rows`: each parsed forum joined on `forum_id` with its markdown and its
  initial-submission record (read through the IO layer, streamed), written as the paper rows
  (`reviews_json` derived from the parsed table's typed reviews), the review rows and the provenance.
- the venue-year's statistics, computed over the rows just staged by `io/row_figures.py`
  (`venue_year_figures`, SQL over the stored row files)."""
from __future__ import annotations

from collections.abc import Callable, Iterator

import pyarrow as pa

from partitions.catalogue import VenueYear
from resources.store import dumps_json
from reviewbench_assets.domain.reviews import review_rows, reviews_json
from reviewbench_assets.domain.schema import (
    PROVENANCE_SCHEMA,
    REVIEWBENCH_SCHEMA,
    REVIEWS_CONFIG_SCHEMA,
)
from reviewbench_assets.io.row_figures import venue_year_figures
from reviewbench_assets.io.stage_io import Inputs, Outputs, Staging
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.figures import CHARS_MATCH, EMPTY_SHARE, REVIEWS_MATCH, ROW_COUNT, ROWS, TITLE, UNIQUE
from reviewbench_assets.stages.stage import Stage

# ---- the stage and its checks ----------------------------------------------------------------------------

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
    reads = ("parsed_rows", "pdf_records", "markdown")
    writes = ("rows", "rows_reviews", "provenance", "rows_stats")
    after = ("rebuttal_dialogues",)  # its blocking check (dialogue_coverage) guards the rows

    def __init__(self, venue: VenueYear, max_empty_markdown_share: float = 0.5, allow_failing_checks: bool = False):
        super().__init__(venue.key)
        self.venue, self.max_empty_share = venue, max_empty_markdown_share
        self.allow_failing_checks = allow_failing_checks

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        venue = self.venue
        subs = {r["forum_id"]: r for r in inputs.pdf_records()}
        out, prov = outputs.path("rows"), outputs.path("provenance")
        reviews, figures = outputs.path("rows_reviews"), outputs.path("rows_stats")

        def judged(pub: Staging, stats: dict) -> None:
            # the checks need only the counts, known before the files move into place: their verdict is
            # published with the rows (a replay after a kill brings back checked rows, issue 38.3)
            self.row_checks(stats)
            self.stage_verdict(pub)

        stats = write_rows(outputs, assemble_rows(inputs, venue, subs), before_commit=judged)
        self.stat("path", out)
        self.stat("provenance_path", prov)
        self.stat("reviews_path", reviews)
        self.stat("stats_path", figures)
        self.stat(ROW_COUNT, stats["rows"])
        self.stat("reviews", stats["reviews"])
        self.stat("empty_markdown", stats["empty_markdown"])
        self.stat("stale_markdown", stats["stale_markdown"])  # forums paper_markdown has not seen yet

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


# ---- the rows, assembled and written ---------------------------------------------------------------------

BATCH_ROWS = 256  # rows per batch written (io/row_figures.py streams its own batches into DuckDB)


# What a row takes from the parsed table: its columns but the text, the reviews typed (`reviews`).
ROW_COLUMNS = [("reviews" if f.name == "reviews_json" else f.name) for f in REVIEWBENCH_SCHEMA
               if f.name not in ("markdown", "markdown_chars")]
STALE_MARKDOWN = "paper_markdown has no row for this forum (older than the crawl): re-materialize paper_markdown"


def assemble_rows(upstream: Inputs | Upstream, venue: VenueYear,
                  submissions: dict[str, dict]) -> Iterator[tuple[dict, dict]]:
    """Yield (row, provenance) pairs (a row with its typed `reviews` where the card has `reviews_json`,
    which write_rows derives): each parsed forum (`parsed/<pk>.parquet`, crawl order) joined
    on `forum_id` with its markdown and its initial-submission record. Memory: one batch of parsed
    rows and one row group of markdown at a time, whatever order each stage wrote its file in.
    `upstream`: the stage's inputs (or the IO layer's `Upstream` of the venue-year)."""
    with upstream.markdown() as markdown:
        for parsed in upstream.parsed_rows([*ROW_COLUMNS, "status", "crawled_at", "license", "review_licenses"],
                                           BATCH_ROWS):
            md = markdown.get(parsed["forum_id"]) or {"error": STALE_MARKDOWN}
            row = {c: parsed[c] for c in ROW_COLUMNS}
            row["markdown"] = md.get("markdown") or ""
            row["markdown_chars"] = len(row["markdown"])
            sub = submissions.get(row["forum_id"], {})
            prov = {"forum_id": row["forum_id"], "conference": row["conference"], "year": row["year"],
                    "track": row["track"], "venue_id": row["venue_id"], "status": parsed["status"],
                    "revision_rule": sub.get("rule"), "revision_reason": sub.get("reason"),
                    "revision_id": sub.get("revision_id"), "revision_tcdate": sub.get("revision_tcdate"),
                    "deadline_ms": sub.get("deadline_ms"), "cutoff_ms": sub.get("cutoff_ms"),
                    "cutoff_rule": sub.get("cutoff_rule"), "revision_source": sub.get("revision_source"),
                    "pdf_sha256": sub.get("pdf_sha256"), "pdf_size": sub.get("pdf_size"),
                    "pdf_pages": sub.get("pdf_pages"), "ocr_engine": md.get("engine"),
                    "ocr_model": md.get("model"), "markdown_error": md.get("error"),
                    "crawled_at": parsed["crawled_at"], "license": parsed["license"] or "unknown",
                    "review_licenses": list(parsed["review_licenses"] or [])}
            yield row, prov


def write_rows(outputs: Outputs, pairs: Iterator[tuple[dict, dict]], with_stats: bool = True,
               before_commit: Callable[[Staging, dict], None] | None = None) -> dict:
    """Stream pairs into the rows stage's three Parquet files (`outputs`: the stage's, `RowsStage.writes`):
    the paper rows (`reviews_json` made from each row's typed `reviews`), one row per review, and the
    provenance; and (`with_stats`) the venue-year's statistics (`rows_stats`: the card's figures:
    papers, reviews, pages, ratings and their moves, text rules), computed once by SQL over the three
    staged files; the four are published together. Returns the numbers the checks need;
    `before_commit(pub, numbers)` is called with them before the set moves into place (to stage what
    judges it into the same publication). Memory: at most BATCH_ROWS rows (and their reviews) at a time."""
    stats = {"rows": 0, "forum_ids": set(), "duplicates": 0, "review_mismatch": 0, "chars_mismatch": 0,
             "empty_title": 0, "empty_markdown": 0, "reviews": 0, "stale_markdown": 0}

    with outputs.publish() as pub:  # rows, reviews, provenance and statistics move into place together
        with pub.parquet("rows", REVIEWBENCH_SCHEMA) as writer, \
                pub.parquet("rows_reviews", REVIEWS_CONFIG_SCHEMA) as review_writer, \
                pub.parquet("provenance", PROVENANCE_SCHEMA) as prov_writer:
            bufs: tuple[list[dict], list[dict], list[dict]] = ([], [], [])

            def flush() -> None:
                for w, buf, schema in zip((writer, review_writer, prov_writer), bufs,
                                          (REVIEWBENCH_SCHEMA, REVIEWS_CONFIG_SCHEMA, PROVENANCE_SCHEMA), strict=True):
                    if buf:  # a paper without reviews adds none; an empty file is still a valid one
                        w.write_table(pa.Table.from_pylist(buf, schema=schema))
                    buf.clear()

            for paper, prov in pairs:
                reviews = paper["reviews"] or []
                row = {k: v for k, v in paper.items() if k != "reviews"}
                row["reviews_json"] = reviews_json(reviews)
                _count(stats, row, len(reviews))
                stats["stale_markdown"] += prov.get("markdown_error") == STALE_MARKDOWN
                bufs[0].append(row)
                bufs[1].extend(review_rows(row, reviews, prov.pop("review_licenses", None)))
                bufs[2].append(prov)
                if len(bufs[0]) >= BATCH_ROWS:
                    flush()
            flush()
        if with_stats:
            figures = pub.read_staged(venue_year_figures, "rows", "rows_reviews", "provenance")
            pub.put("rows_stats", dumps_json({"venue_years": {k: v.to_dict() for k, v in sorted(figures.items())}}))
        if before_commit is not None:
            before_commit(pub, {**stats, "forum_ids": len(stats["forum_ids"])})
    stats["forum_ids"] = len(stats["forum_ids"])
    return stats


def _count(stats: dict, row: dict, n: int) -> None:
    stats["rows"] += 1
    if row["forum_id"] in stats["forum_ids"]:
        stats["duplicates"] += 1
    stats["forum_ids"].add(row["forum_id"])
    stats["reviews"] += n
    stats["review_mismatch"] += int(n != row["num_reviews"])
    stats["chars_mismatch"] += int(len(row["markdown"]) != row["markdown_chars"])
    stats["empty_title"] += int(not (row["title"] or "").strip())
    stats["empty_markdown"] += int(not row["markdown"])
