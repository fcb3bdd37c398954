"""Assemble final ReviewBench rows per venue-year: parsed forums joined with their markdown by key."""
from __future__ import annotations

import json
from collections.abc import Iterator

import pyarrow as pa

from partitions.catalogue import VenueYear
from resources.store import Store, dumps_json, parquet_writer
from reviewbench_assets.domain.corpus_stats import StatsAccumulator, venue_year_key
from reviewbench_assets.domain.schema import PROVENANCE_SCHEMA, REVIEWBENCH_SCHEMA
from reviewbench_assets.io.upstream import Upstream

BATCH_ROWS = 256


ROW_COLUMNS = [f.name for f in REVIEWBENCH_SCHEMA if f.name not in ("markdown", "markdown_chars")]
STALE_MARKDOWN = "paper_markdown has no row for this forum (older than the crawl): re-materialize paper_markdown"


def assemble_rows(store: Store, venue: VenueYear, submissions: dict[str, dict]) -> Iterator[tuple[dict, dict]]:
    """Yield (row, provenance) pairs: each parsed forum (`parsed/<pk>.parquet`, crawl order) joined
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


def write_rows(store: Store, rows_path: str, prov_path: str, pairs: Iterator[tuple[dict, dict]],
               stats_path: str | None = None) -> dict:
    """Stream pairs into two Parquet files and, at `stats_path`, the venue-year's statistics (the
    card's figures: papers, reviews, pages, ratings and their moves, text rules), computed here once
    from the batches being written; the three are published together. Returns the numbers the
    checks need. Memory: at most BATCH_ROWS rows and provenance rows at a time."""
    stats = {"rows": 0, "forum_ids": set(), "duplicates": 0, "review_mismatch": 0, "chars_mismatch": 0,
             "empty_title": 0, "empty_markdown": 0, "reviews": 0, "stale_markdown": 0}
    figures = StatsAccumulator()

    def flush(writer, prov_writer, buf: list[dict], prov_buf: list[dict]) -> None:
        table = pa.Table.from_pylist(buf, schema=REVIEWBENCH_SCHEMA)
        writer.write_table(table)
        prov_writer.write_table(pa.Table.from_pylist(prov_buf, schema=PROVENANCE_SCHEMA))
        figures.add(table)
        for row, prov in zip(buf, prov_buf, strict=True):  # which revision each paper's text comes from
            vy = figures.venue_years[venue_year_key(row["conference"], row["year"], row["track"])]
            rule = prov.get("revision_rule") or "unavailable"
            vy.text_rules[rule] = vy.text_rules.get(rule, 0) + 1
        buf.clear()
        prov_buf.clear()

    with store.publish() as pub:  # rows, provenance and statistics move into place together
        with parquet_writer(store.fs, pub.target(rows_path), REVIEWBENCH_SCHEMA) as writer, \
                parquet_writer(store.fs, pub.target(prov_path), PROVENANCE_SCHEMA) as prov_writer:
            buf: list[dict] = []
            prov_buf: list[dict] = []
            for row, prov in pairs:
                _count(stats, row)
                stats["stale_markdown"] += prov.get("markdown_error") == STALE_MARKDOWN
                prov_buf.append(prov)
                buf.append(row)
                if len(buf) >= BATCH_ROWS:
                    flush(writer, prov_writer, buf, prov_buf)
            if buf or stats["rows"] == 0:
                flush(writer, prov_writer, buf, prov_buf)
        if stats_path is not None:
            with store.fs.open_output_stream(pub.target(stats_path)) as f:
                f.write(dumps_json({"venue_years": {k: v.to_dict() for k, v in sorted(figures.venue_years.items())}}))
    stats["forum_ids"] = len(stats["forum_ids"])
    return stats


def _count(stats: dict, row: dict) -> None:
    stats["rows"] += 1
    if row["forum_id"] in stats["forum_ids"]:
        stats["duplicates"] += 1
    stats["forum_ids"].add(row["forum_id"])
    n = len(json.loads(row["reviews_json"]))
    stats["reviews"] += n
    stats["review_mismatch"] += int(n != row["num_reviews"])
    stats["chars_mismatch"] += int(len(row["markdown"]) != row["markdown_chars"])
    stats["empty_title"] += int(not (row["title"] or "").strip())
    stats["empty_markdown"] += int(not row["markdown"])
