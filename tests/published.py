"""Files written the way the stages publish them, for tests that need their inputs on disk or race
a reader against a writer: a set of files published as one (`Store.publish`), and one JSON-lines
file written whole (`Store.write_with`), as the crawl writes its forums."""
from __future__ import annotations

from collections.abc import Iterable

from resources.store import dumps_json


def publish_set(store, files: dict[str, bytes]) -> None:
    """`files` (full store path -> bytes) published together: all of them or, on a fault, none."""
    with store.publish() as pub:
        for path, data in files.items():
            with store.fs.open_output_stream(pub.target(path)) as f:
                f.write(data)


def write_jsonl(store, path: str, rows: Iterable[dict]) -> int:
    """`rows` as JSON lines at `path` (full store path), the file replaced whole or not at all; the
    number of rows written."""
    count = 0

    def _write(target: str) -> None:
        nonlocal count
        with store.fs.open_output_stream(target) as f:
            for row in rows:
                f.write(dumps_json(row) + b"\n")
                count += 1

    store.write_with(path, _write)
    return count
