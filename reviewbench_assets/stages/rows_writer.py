"""Assemble final ReviewBench rows per venue-year, streaming raw forums beside their markdown."""
from __future__ import annotations

import json
from collections.abc import Iterator

import pyarrow as pa

from partitions.catalogue import VenueYear
from resources.store import Store, parquet_writer
from reviewbench_assets.domain.forum import MalformedForumError, parse_forum, row_fields
from reviewbench_assets.domain.schema import PROVENANCE_SCHEMA, REVIEWBENCH_SCHEMA

BATCH_ROWS = 256


def iter_markdown(store: Store, path: str) -> Iterator[dict]:
    """The venue-year's markdown records in file order, one row group at a time (a single
    `iter_batches` over the whole file keeps memory of the row groups already read until the
    file is closed, so memory would grow with the venue-year)."""
    from reviewbench_assets.stages.parquet_io import iter_parquet_batches

    for batch in iter_parquet_batches(store.fs, path, BATCH_ROWS):
        yield from batch.to_pylist()


def assemble_rows(raw_forums: Iterator[dict], markdown: Iterator[dict], submissions: dict[str, dict],
                  venue: VenueYear, errors: list[dict]) -> Iterator[tuple[dict, dict]]:
    """Yield (row, provenance) pairs. Both inputs are in raw-forum order (each stage keeps it),
    so they are zipped without holding the venue's markdown in memory."""
    for record, md in zip(raw_forums, markdown, strict=True):
        if md["forum_id"] != record["forum_id"]:
            raise ValueError(f"{venue.key}: markdown out of order at forum {record['forum_id']} "
                             f"(got {md['forum_id']}); re-materialize paper_markdown")
        try:
            parsed = parse_forum(record["note"], venue, review_edits=record.get("review_edits"))
        except MalformedForumError as exc:
            errors.append({"forum_id": record["forum_id"], "error": str(exc)})
            continue
        row = row_fields(parsed, venue.conference, venue.year)
        row["markdown"] = md["markdown"] or ""
        row["markdown_chars"] = len(row["markdown"])
        sub = submissions.get(record["forum_id"], {})
        prov = {"forum_id": row["forum_id"], "conference": row["conference"], "year": row["year"],
                "track": row["track"], "venue_id": row["venue_id"], "status": parsed.status,
                "revision_rule": sub.get("rule"), "revision_reason": sub.get("reason"),
                "revision_id": sub.get("revision_id"), "revision_tcdate": sub.get("revision_tcdate"),
                "deadline_ms": sub.get("deadline_ms"), "cutoff_ms": sub.get("cutoff_ms"),
                "cutoff_rule": sub.get("cutoff_rule"), "revision_source": sub.get("revision_source"),
                "pdf_sha256": sub.get("pdf_sha256"), "pdf_size": sub.get("pdf_size"),
                "pdf_pages": sub.get("pdf_pages"), "ocr_engine": md.get("engine"),
                "ocr_model": md.get("model"), "markdown_error": md.get("error"),
                "crawled_at": record.get("fetched_at")}
        yield row, prov


def write_rows(store: Store, rows_path: str, prov_path: str, pairs: Iterator[tuple[dict, dict]]) -> dict:
    """Stream pairs into two Parquet files (each published atomically) and return the numbers the
    checks need. Memory: at most BATCH_ROWS rows and provenance rows at a time."""
    stats = {"rows": 0, "forum_ids": set(), "duplicates": 0, "review_mismatch": 0, "chars_mismatch": 0,
             "empty_title": 0, "empty_markdown": 0, "reviews": 0}

    with store.publish() as pub:  # rows and provenance move into place together
        with parquet_writer(store.fs, pub.target(rows_path), REVIEWBENCH_SCHEMA) as writer, \
                parquet_writer(store.fs, pub.target(prov_path), PROVENANCE_SCHEMA) as prov_writer:
            buf: list[dict] = []
            prov_buf: list[dict] = []
            for row, prov in pairs:
                _count(stats, row)
                prov_buf.append(prov)
                buf.append(row)
                if len(buf) >= BATCH_ROWS:
                    writer.write_table(pa.Table.from_pylist(buf, schema=REVIEWBENCH_SCHEMA))
                    prov_writer.write_table(pa.Table.from_pylist(prov_buf, schema=PROVENANCE_SCHEMA))
                    buf.clear()
                    prov_buf.clear()
            if buf or stats["rows"] == 0:
                writer.write_table(pa.Table.from_pylist(buf, schema=REVIEWBENCH_SCHEMA))
                prov_writer.write_table(pa.Table.from_pylist(prov_buf, schema=PROVENANCE_SCHEMA))
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
