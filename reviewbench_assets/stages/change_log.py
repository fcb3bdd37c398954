"""Recording what changed in a venue-year at each refresh (issue 30 item 2): the parsed forums of this
refresh are compared with the snapshots the previous refresh left (domain/changes.py), the changes are
appended as one Parquet file per refresh under `changes/<pk>/log/refresh=<time>/`, and the snapshots
replaced, both in one publish: a run killed before it records nothing and its re-run finds the same
changes; one killed after it finds none left to record (nothing lost, nothing counted twice).

Query the history with DuckDB:
`SELECT refresh, change, count(*) FROM read_parquet('changes/<pk>/log/*/*.parquet', hive_partitioning=true) GROUP BY ALL`.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime

import pyarrow as pa

from resources.store import Store, parquet_writer
from reviewbench_assets import paths
from reviewbench_assets.domain.changes import Change, snapshot, summary, venue_changes
from reviewbench_assets.domain.posts import ParsedForum
from reviewbench_assets.stages.parquet_io import iter_parquet_batches
from reviewbench_assets.stages.result import StageResult

STATE_SCHEMA = pa.schema([("forum_id", pa.string()), ("snapshot_json", pa.string())])
CHANGE_SCHEMA = pa.schema([
    ("refreshed_at", pa.timestamp("ms", tz="UTC")), ("forum_id", pa.string()), ("change", pa.string()),
    ("target_id", pa.string()), ("old_value", pa.string()), ("new_value", pa.string()),
    ("old_rating", pa.float64()), ("new_rating", pa.float64()), ("old_confidence", pa.float64()),
    ("new_confidence", pa.float64()), ("role", pa.string()), ("at_ms", pa.int64()),
])
BATCH = 1024


def previous_snapshots(store: Store, pk: str) -> dict[str, dict]:
    path = store.path(paths.change_state(pk))
    if not store.exists(path):
        return {}
    out = {}
    for batch in iter_parquet_batches(store.fs, path, BATCH):
        for fid, js in zip(batch.column("forum_id").to_pylist(), batch.column("snapshot_json").to_pylist(), strict=True):
            out[fid] = json.loads(js)
    return out


def record_changes(store: Store, pk: str, forums: Iterable[ParsedForum],
                   now: datetime | None = None) -> StageResult:
    now = (now or datetime.now(UTC)).astimezone(UTC)
    # One writer per venue-year: the snapshot read here and the one published below must be the same
    # generation, so two refreshes of one venue-year (a schedule tick and a manual run, two CLI
    # runs) take turns instead of both recording the same changes.
    with store.lock(f"changes-{pk}"):
        changes, current, stamp, first = _diff_and_publish(store, pk, forums, now)
    figures = summary(changes)
    figures["first_refresh"] = first
    figures["forums"] = len(current)
    moves = [c.model_dump() for c in changes if c.change == "review_edited"][:10]
    return StageResult(written={"changes": paths.change_log(pk, stamp), "state": paths.change_state(pk)},
                        counts={"refreshed_at": now.isoformat(timespec="seconds"), **figures},
                        samples=moves or [c.model_dump() for c in changes[:10]],
                        sample_columns=["forum_id", "change", "target_id", "old_rating", "new_rating"],
                        row_count=len(changes))


def _diff_and_publish(store: Store, pk: str, forums: Iterable[ParsedForum], now: datetime):
    stamp = now.strftime("%Y-%m-%dT%H%M%S.%fZ")
    previous = previous_snapshots(store, pk)
    current = {p.forum_id: snapshot(p) for p in forums}
    changes: list[Change] = list(venue_changes(previous, current))
    log_path, state_path = store.path(paths.change_log(pk, stamp)), store.path(paths.change_state(pk))
    with store.publish() as pub:  # the log and the new snapshots move into place together
        with parquet_writer(store.fs, pub.target(log_path), CHANGE_SCHEMA) as w:
            for i in range(0, len(changes), BATCH):
                rows = [{"refreshed_at": now, **c.model_dump()} for c in changes[i:i + BATCH]]
                w.write_table(pa.Table.from_pylist(rows, schema=CHANGE_SCHEMA))
        with parquet_writer(store.fs, pub.target(state_path), STATE_SCHEMA) as w:
            items = list(current.items())
            for i in range(0, len(items), BATCH):
                w.write_table(pa.Table.from_pylist(
                    [{"forum_id": f, "snapshot_json": json.dumps(s, sort_keys=True)} for f, s in items[i:i + BATCH]],
                    schema=STATE_SCHEMA))
    return changes, current, stamp, not previous
