"""Writing the Re^2 outputs: one venue-year's dialogues and `review`/`rebuttal` records (three files,
and the stage's exclusions, published together through the store). The records themselves are built
in `reviewbench_assets.domain.re2`; the split reads them back through `stages.config_split`."""
from __future__ import annotations

from collections.abc import Callable, Iterable

import pyarrow as pa

from resources.store import dumps_json, parquet_writer
from reviewbench_assets.domain.schema import REBUTTAL_RECORD_SCHEMA, REVIEW_RECORD_SCHEMA

# ---------------------------------------------------------------------------------------------
# writing one venue-year's dialogues and records (three files, each published atomically)


def write_venue_outputs(store, dialogues_path: str, review_path: str, rebuttal_path: str,
                        items: Iterable[tuple[list[dict], dict, list[dict]]], rows: int = 128,
                        also: Callable[[], dict[str, Iterable[dict]]] | None = None) -> dict:
    """`items`: per forum (dialogue rows, review record, rebuttal records). Streams: at most
    `rows` records of each kind are buffered. `also()`, called once `items` is exhausted: more
    JSONL files (path -> rows) that move into place with the three (the stage's exclusions)."""
    counts = {"dialogues": 0, "review_records": 0, "rebuttal_records": 0}

    with store.publish() as pub:  # the files move into place together
        with store.fs.open_output_stream(pub.target(dialogues_path)) as fj, \
                parquet_writer(store.fs, pub.target(review_path), REVIEW_RECORD_SCHEMA) as wrev, \
                parquet_writer(store.fs, pub.target(rebuttal_path), REBUTTAL_RECORD_SCHEMA) as wreb:
            revs: list[dict] = []
            rebs: list[dict] = []
            for drows, rev, reb in items:
                for row in drows:
                    fj.write(dumps_json(row) + b"\n")
                counts["dialogues"] += len(drows)
                revs.append(rev)
                rebs.extend(reb)
                if len(revs) >= rows:
                    wrev.write_table(pa.Table.from_pylist(revs, schema=REVIEW_RECORD_SCHEMA))
                    counts["review_records"] += len(revs)
                    revs = []
                if len(rebs) >= rows:
                    wreb.write_table(pa.Table.from_pylist(rebs, schema=REBUTTAL_RECORD_SCHEMA))
                    counts["rebuttal_records"] += len(rebs)
                    rebs = []
            wrev.write_table(pa.Table.from_pylist(revs, schema=REVIEW_RECORD_SCHEMA))
            wreb.write_table(pa.Table.from_pylist(rebs, schema=REBUTTAL_RECORD_SCHEMA))
            counts["review_records"] += len(revs)
            counts["rebuttal_records"] += len(rebs)
        for path, more in (also() if also else {}).items():
            with store.fs.open_output_stream(pub.target(path)) as f:
                for row in more:
                    f.write(dumps_json(row) + b"\n")
    return counts
