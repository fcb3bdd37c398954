"""Reading Parquet through a `pyarrow.fs` filesystem (local or S3), one row group at a time: streamed
in file order, or rows looked up by key (shared by the stages and the IO layer, reviewbench_assets/io)."""
from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pyarrow.fs as pafs

from resources.store import CorruptFileError, Store, open_parquet


def iter_parquet_batches(
    fs: pafs.FileSystem, path: str, batch_rows: int, columns: list[str] | None = None
) -> Iterator[pa.RecordBatch]:
    """Non-empty batches of one Parquet file, in file order, read one row group at a time.

    Memory: a single ``ParquetFile.iter_batches()`` over a whole file keeps memory it allocated
    for earlier row groups until the file is closed (resident memory grew by ~30 MB per 1,000
    rows of ~90 KB markdown, i.e. with the size of the venue-year); a reader per row group
    frees it after each one, so memory stays at about one row group."""
    with fs.open_input_file(path) as f:
        pf = open_parquet(fs, path, f)  # page checksums verified; errors name the file
        for i in range(pf.num_row_groups):
            try:
                batches = list(pf.iter_batches(batch_size=batch_rows, row_groups=[i], columns=columns,
                                               use_threads=False))
            except (OSError, pa.ArrowException) as exc:
                raise CorruptFileError(path, f"row group {i} unreadable ({exc})") from exc
            for batch in batches:
                if batch.num_rows:
                    yield batch


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
