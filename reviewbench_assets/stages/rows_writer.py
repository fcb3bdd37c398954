"""Assemble final ReviewBench rows per venue-year: parsed forums joined with their markdown by key;
the paper rows (the default config, `reviews_json` derived from the parsed table's typed reviews),
one row per review (the `reviews` config) and the provenance, with the venue-year's statistics
computed by SQL over them (stages/corpus_figures.py)."""
from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa

from partitions.catalogue import VenueYear
from resources.store import Store, dumps_json, parquet_writer
from reviewbench_assets.domain.schema import (
    PROVENANCE_SCHEMA,
    REVIEWBENCH_SCHEMA,
    REVIEWS_CONFIG_SCHEMA,
    review_rows,
    reviews_json,
)
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.corpus_figures import venue_year_figures

BATCH_ROWS = 256


# What a row takes from the parsed table: its columns but the text, the reviews typed (`reviews`).
ROW_COLUMNS = [("reviews" if f.name == "reviews_json" else f.name) for f in REVIEWBENCH_SCHEMA
               if f.name not in ("markdown", "markdown_chars")]
STALE_MARKDOWN = "paper_markdown has no row for this forum (older than the crawl): re-materialize paper_markdown"


def assemble_rows(store: Store, venue: VenueYear, submissions: dict[str, dict]) -> Iterator[tuple[dict, dict]]:
    """Yield (row, provenance) pairs (a row with its typed `reviews` where the card has `reviews_json`,
    which write_rows derives): each parsed forum (`parsed/<pk>.parquet`, crawl order) joined
    on `forum_id` with its markdown and its initial-submission record. Memory: one batch of parsed
    rows and one row group of markdown at a time, whatever order each stage wrote its file in."""
    upstream = Upstream(store, venue.key)
    with upstream.markdown() as markdown:
        for parsed in upstream.parsed_rows([*ROW_COLUMNS, "status", "crawled_at"], BATCH_ROWS):
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
                    "crawled_at": parsed["crawled_at"]}
            yield row, prov


def write_rows(store: Store, rows_path: str, prov_path: str, reviews_path: str,
               pairs: Iterator[tuple[dict, dict]], stats_path: str | None = None) -> dict:
    """Stream pairs into three Parquet files: the paper rows (`reviews_json` made from each row's typed
    `reviews`), one row per review, and the provenance; and, at `stats_path`, the venue-year's
    statistics (the card's figures: papers, reviews, pages, ratings and their moves, text rules),
    computed once by SQL over the three staged files; the four are published together. Returns the
    numbers the checks need. Memory: at most BATCH_ROWS rows (and their reviews) at a time."""
    stats = {"rows": 0, "forum_ids": set(), "duplicates": 0, "review_mismatch": 0, "chars_mismatch": 0,
             "empty_title": 0, "empty_markdown": 0, "reviews": 0, "stale_markdown": 0}

    with store.publish() as pub:  # rows, reviews, provenance and statistics move into place together
        targets = [pub.target(p) for p in (rows_path, reviews_path, prov_path)]
        with parquet_writer(store.fs, targets[0], REVIEWBENCH_SCHEMA) as writer, \
                parquet_writer(store.fs, targets[1], REVIEWS_CONFIG_SCHEMA) as review_writer, \
                parquet_writer(store.fs, targets[2], PROVENANCE_SCHEMA) as prov_writer:
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
                bufs[1].extend(review_rows(row, reviews))
                bufs[2].append(prov)
                if len(bufs[0]) >= BATCH_ROWS:
                    flush()
            flush()
        if stats_path is not None:
            figures = venue_year_figures(store.fs, [targets[0]], [targets[1]], [targets[2]])
            with store.fs.open_output_stream(pub.target(stats_path)) as f:
                f.write(dumps_json({"venue_years": {k: v.to_dict() for k, v in sorted(figures.items())}}))
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
