"""One-off migration of a storage root written before reviews were typed (issue 28.3), so that no
stage carries a branch for that layout (issue 28.5); run by `python -m scripts.migrate_storage`.

- `parsed/<pk>.parquet` with the `reviews_json` string column: rewritten with the typed `reviews`
  column (schema.PARSED_SCHEMA), each paper's reviews decoded from that JSON (the parser's dicts,
  checked by the same model as the parse stage's, domain/schema.py); its other columns as they were.
- `rows/<pk>.parquet` without `rows/<pk>.reviews.parquet` or `rows/<pk>.stats.json` beside it (rows
  written before the `reviews` config, or before statistics were recorded): the rows step's set
  written again by its own writer from the rows and provenance there, so the `reviews_json` strings
  stay as they were and the statistics are the SQL's.

A check verdict that judged the old files (io/verdicts.py) is carried over to the rewritten
ones, since they hold the same data; a verdict that did not judge them stays as it was.
"""
from __future__ import annotations

import json
from collections.abc import Iterator

import pyarrow as pa

from resources.store import Store, open_parquet, parquet_writer
from reviewbench_assets.domain.reviews import typed_reviews
from reviewbench_assets.domain.schema import PARSED_SCHEMA
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.parquet_batches import iter_parquet_batches
from reviewbench_assets.io.verdicts import judged_data, write_verdict
from reviewbench_assets.stages.rows_stage import RowsStage, write_rows


def _columns(store: Store, path: str) -> list[str]:
    with store.fs.open_input_file(path) as f:
        return open_parquet(store.fs, path, f).schema_arrow.names


def _typed(batch: pa.RecordBatch) -> Iterator[dict]:
    for row in batch.to_pylist():
        row["reviews"] = typed_reviews(json.loads(row.pop("reviews_json") or "[]"))
        yield row


def _keeping_verdict(store: Store, pk: str, asset: str, rewrite) -> None:
    """Run `rewrite` and carry the asset's verdict over when it judged the files rewritten."""
    record = store.read_json_or_none(store.path(paths.check_record(pk, asset)))
    current = isinstance(record, dict) and record.get("judged") == judged_data(store, pk, asset)
    rewrite()
    if current:
        write_verdict(store, pk, asset, record.get("failed") or {}, bool(record.get("overridden")))


def migrate_parsed(store: Store, pk: str, dry_run: bool = False) -> bool:
    """Rewrite the venue-year's parsed table if it has the JSON column; True when it had."""
    path = store.path(paths.parsed(pk))
    if not store.exists(path) or "reviews_json" not in _columns(store, path):
        return False

    # the columns it had, the reviews typed: a column it lacks (a later addition, e.g. submission_json)
    # cannot be made from it, and its reader asks for parsed_forums to be re-materialized instead
    had = {("reviews" if n == "reviews_json" else n) for n in _columns(store, path)}
    schema = pa.schema([f for f in PARSED_SCHEMA if f.name in had])

    def rewrite() -> None:
        with store.publish() as pub, parquet_writer(store.fs, pub.target(path), schema) as w:
            for batch in iter_parquet_batches(store.fs, path, 64):
                w.write_table(pa.Table.from_pylist(list(_typed(batch)), schema=schema))

    if not dry_run:
        _keeping_verdict(store, pk, "parsed_forums", rewrite)
    return True


def migrate_rows(store: Store, pk: str, dry_run: bool = False) -> bool:
    """Write the venue-year's rows set again if a member is missing; True when one was."""
    rows, prov = store.path(paths.rows(pk)), store.path(paths.provenance(pk))
    reviews, stats = store.path(paths.rows_reviews(pk)), store.path(paths.rows_stats(pk))
    if not (store.exists(rows) and store.exists(prov)) or (store.exists(reviews) and store.exists(stats)):
        return False

    def pairs() -> Iterator[tuple[dict, dict]]:
        papers = (p for b in iter_parquet_batches(store.fs, rows, 256) for p in _typed(b))
        provenance = (r for b in iter_parquet_batches(store.fs, prov, 1024) for r in b.to_pylist())
        yield from zip(papers, provenance, strict=True)  # one step wrote both, row for row

    if not dry_run:
        _keeping_verdict(store, pk, "reviewbench_split",
                         lambda: write_rows(RowsStage.outputs_in(store, pk), pairs()))
    return True


def migrate_typed_reviews(store: Store, keys: list[str], dry_run: bool = False) -> list[str]:
    """The files of the layout before typed reviews (rewritten unless `dry_run`)."""
    found = []
    for pk in keys:
        if migrate_parsed(store, pk, dry_run):
            found.append(store.path(paths.parsed(pk)))
        if migrate_rows(store, pk, dry_run):
            found.append(store.path(paths.rows(pk)))
    return found
