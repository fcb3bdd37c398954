"""Reading `parsed/<pk>.parquet` (stages/parse_stage.py) back, batch by batch, and looking up rows
of another per-venue-year Parquet file by `forum_id` with memory flat in the venue-year's size."""
from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa

from resources.store import CorruptFileError, Store, open_parquet
from reviewbench_assets import paths
from reviewbench_assets.domain.parsed_table import forum_of
from reviewbench_assets.domain.posts import ParsedForum
from reviewbench_assets.domain.routing import Routing
from reviewbench_assets.stages.parquet_io import iter_parquet_batches


class MissingStageOutputError(FileNotFoundError):
    pass


def _parsed_path(store: Store, pk: str) -> str:
    path = store.path(paths.parsed(pk))
    if not store.exists(path):
        raise MissingStageOutputError(f"{pk}: {path} does not exist: materialize parsed_forums for {pk} first")
    return path


def iter_parsed_rows(store: Store, pk: str, columns: list[str], batch_rows: int = 64) -> Iterator[dict]:
    """The chosen columns of the venue-year's parsed rows, in crawl order."""
    for batch in iter_parquet_batches(store.fs, _parsed_path(store, pk), batch_rows, columns=columns):
        yield from batch.to_pylist()


def iter_parsed_forums(store: Store, pk: str, batch_rows: int = 32) -> Iterator[tuple[ParsedForum, Routing]]:
    """Each parsed forum of the venue-year with its routing, in crawl order."""
    for row in iter_parsed_rows(store, pk, ["forum_json", "routing_json", "reviews"], batch_rows):
        yield forum_of(row)


class ParquetLookup:
    """Rows of one Parquet file fetched by key: an index of key -> (row group, row) is built from the
    key column alone, and one row group is held at a time. Two files written in the same order (each
    stage keeps the crawl's order) read every row group once; any other order is still right, at
    the cost of reading a row group again when the lookups come back to it."""

    def __init__(self, store: Store, path: str, key: str = "forum_id", columns: list[str] | None = None):
        self.store, self.path, self.columns = store, path, columns
        self._file = store.fs.open_input_file(path)
        self._pf = open_parquet(store.fs, path, self._file)
        self.index: dict[str, tuple[int, int]] = {}
        for g in range(self._pf.num_row_groups):
            keys = self._pf.read_row_group(g, columns=[key]).column(0).to_pylist()
            for i, k in enumerate(keys):
                self.index.setdefault(k, (g, i))  # a repeated key: the first row wins
        self._group, self._rows = -1, []
        self.row_group_reads = 0

    def get(self, key: str) -> dict | None:
        where = self.index.get(key)
        if where is None:
            return None
        group, i = where
        if group != self._group:
            try:
                self._rows = self._pf.read_row_group(group, columns=self.columns, use_threads=False).to_pylist()
            except (OSError, pa.ArrowException) as exc:
                raise CorruptFileError(self.path, f"row group {group} unreadable ({exc})") from exc
            self._group = group
            self.row_group_reads += 1
        return self._rows[i]

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ParquetLookup:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
