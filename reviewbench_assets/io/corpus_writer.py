"""Write the final per-conference splits (and extra configs) of the ReviewBench-shaped dataset, and check
that an input Parquet file has exactly the ReviewBench schema (`validate_parquet_schema`).

No Dagster. Storage is any ``pyarrow.fs.FileSystem`` plus a root path string
(a local folder, a ``SubTreeFileSystem`` root, or an S3 ``bucket/prefix``); every read and write
goes through that filesystem (``filesystem=`` / ``open_*_stream``), never ``open()``/``os.path``.

Layout under ``out_dir`` (what ``datasets.load_dataset(out_dir)`` reads through ``README.md``)::

    data/<split>-00000-of-0000n.parquet        default config, exactly REVIEWBENCH_SCHEMA
    <config>/<split>-00000-of-00001.parquet    extra configs (provenance, review, rebuttal, ...)
Atomicity: every file is published through the store's one primitive (``Store.publish``): shards
are written under hidden staging names unique to this run (``.<name>.tmp-<token>-<i>`` in their
final folder) and moved to their final names once complete (a rename locally; on S3 a server-side
copy, each object appears whole), so a final name never holds a partial file; a failure removes
only this run's staging files. Stale shards of the same split (e.g. a previous run with more
shards) are deleted after the new ones are in place. A caller publishing several files as one set
(stages/split_stage.py: a venue-year's shards of every config and its part record) passes its own
``pub``, a publication of the storage ROOT, so the set shares one journal where ``Store.recover()``
looks and a kill between the moves is finished by the next reader. Concurrent writers of the same
split are serialised by the caller (``Store.lock``, see ``reviewbench_assets/assets.py``).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from resources.store import CorruptFileError, Store, open_parquet, parquet_writer
from resources.store_publish import Publication
from reviewbench_assets.domain.corpus_stats import ConfigFileStats, SplitStats
from reviewbench_assets.domain.schema import REVIEWBENCH_SCHEMA
from reviewbench_assets.io.parquet_batches import iter_parquet_batches
from reviewbench_assets.io.shards import (
    check_name,
    check_prefix,
    file_size,
    join_path,
    list_files,
    list_split_shards,
    shard_name,
    shard_pattern,
)

DEFAULT_TARGET_SHARD_BYTES = 300_000_000
DEFAULT_ROW_GROUP_ROWS = 100
DEFAULT_COMPRESSION = "zstd"

class DuplicateForumError(ValueError):
    """The same forum_id occurs twice in one split."""


@contextmanager
def _publication(fs: pafs.FileSystem, out_dir: str, pub: Publication | None) -> Iterator[Publication]:
    """The caller's publication (it commits), or one of our own with ``out_dir`` as its root (for a
    caller whose storage root IS ``out_dir``)."""
    if pub is not None:
        yield pub
    else:
        with Store(fs, out_dir).publish() as own:
            yield own


# --------------------------------------------------------------------------------------------
# Row-group streaming
# --------------------------------------------------------------------------------------------


class FileReader:
    """The inputs read from their Parquet files through ``fs`` (what a writer reads unless handed
    another reader: io/memory_inputs.py `TableReader` reads tables held in memory)."""

    def __init__(self, fs: pafs.FileSystem):
        self.fs = fs

    def schema(self, path: str) -> pa.Schema:
        with self.fs.open_input_file(path) as f:
            return open_parquet(self.fs, path, f).schema_arrow

    def batches(self, path: str, batch_rows: int, columns: list[str] | None = None) -> Iterator[pa.RecordBatch]:
        return iter_parquet_batches(self.fs, path, batch_rows, columns=columns)


def _iter_input_batches(
    reader, inputs: list[str], batch_rows: int
) -> Iterator[tuple[str, pa.RecordBatch]]:
    """(path, batch) in input order and file order, each batch cast to REVIEWBENCH_SCHEMA."""
    # Validate every input up front: fail before writing anything.
    for path in inputs:
        validate_parquet_schema(reader.schema(path), path)
    for path in inputs:
        for batch in reader.batches(path, batch_rows):
            try:  # a flipped byte that passed the page CRC still cannot reach the corpus
                batch.validate(full=True)
            except pa.ArrowException as exc:
                raise CorruptFileError(path, f"invalid data ({exc})") from exc
            yield path, batch.cast(REVIEWBENCH_SCHEMA)


def _row_groups(batches: Iterable[pa.RecordBatch], rows: int, schema: pa.Schema = REVIEWBENCH_SCHEMA,
                cast: bool = False) -> Iterator[pa.Table]:
    """Re-chunk a batch stream into tables of exactly ``rows`` rows (the last may be shorter),
    with contiguous buffers, so that row groups do not depend on the input batch sizes. `cast`:
    a batch of another schema is cast to `schema` (else it is refused by `pa.Table.from_batches`)."""
    pending: list[pa.RecordBatch] = []
    n = 0
    for batch in batches:
        if cast and batch.schema != schema:
            batch = batch.cast(schema)
        offset = 0
        while offset < batch.num_rows:
            take = min(rows - n, batch.num_rows - offset)
            pending.append(batch.slice(offset, take))
            n += take
            offset += take
            if n == rows:
                yield pa.Table.from_batches(pending, schema=schema).combine_chunks()
                pending, n = [], 0
    if n:
        yield pa.Table.from_batches(pending, schema=schema).combine_chunks()


def _column_bytes(arr: pa.Array | pa.ChunkedArray) -> int:
    """Content-based Arrow size of a column (values + offsets, validity bitmaps ignored), so
    that the estimate does not depend on how the rows are chunked."""
    t = arr.type
    n = len(arr)
    if pa.types.is_string(t) or pa.types.is_binary(t):
        return 4 * n + int(pc.sum(pc.binary_length(arr)).as_py() or 0)
    if pa.types.is_large_string(t) or pa.types.is_large_binary(t):
        return 8 * n + int(pc.sum(pc.binary_length(arr)).as_py() or 0)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        width = 8 if pa.types.is_large_list(t) else 4
        return width * n + _column_bytes(pc.list_flatten(arr))
    try:
        return n * t.bit_width // 8
    except ValueError:  # not fixed width (structs, ...): fall back to buffer sizes
        return int(arr.nbytes)


def _estimate_bytes(table: pa.Table) -> int:
    """Uncompressed (Arrow) size estimate of a table, independent of its chunking."""
    return sum(_column_bytes(col) for col in table.columns)


def _open_writer(
    fs: pafs.FileSystem, path: str, schema: pa.Schema, compression: str
) -> pq.ParquetWriter:
    return parquet_writer(fs, path, schema, compression=compression, write_statistics=True,
                          write_page_index=True)


# --------------------------------------------------------------------------------------------
# The default config: one split per conference
# --------------------------------------------------------------------------------------------


def write_conference_split(
    fs: pafs.FileSystem,
    inputs: list[str],
    out_dir: str,
    split: str,
    target_shard_bytes: int = DEFAULT_TARGET_SHARD_BYTES,
    row_group_rows: int = DEFAULT_ROW_GROUP_ROWS,
    *,
    compression: str = DEFAULT_COMPRESSION,
    check_unique_forum_ids: bool = True,
    shard_prefix: str | None = None,
    venue_years: dict | None = None,
    pub: Publication | None = None,
    reader=None,
) -> SplitStats:
    """Stream the venue-year Parquet files ``inputs`` into ``out_dir/data/<split>-i-of-n.parquet``.

    - Every input must be in REVIEWBENCH_SCHEMA (checked before anything is written;
      ``SchemaMismatchError`` names the file and column). Rows keep input order, then file order.
    - Rows are regrouped into row groups of ``row_group_rows`` rows; a shard is closed before a
      row group that would take its uncompressed estimate past ``target_shard_bytes`` (a shard
      always holds at least one row group, so one huge row group may exceed the target).
    - Memory: at most one input batch plus one row group at a time.
    - Shards are staged under names unique to this run and moved to their final names once the
      shard count is known; stale shards of this split (other names) are then deleted.
    - An empty split (no rows) ends with no shards at all (and no split in the card).
    - Same inputs + same pyarrow version -> byte-identical shards.
    - ``shard_prefix`` (default: the split) names the shards ``<prefix>-i-of-n``: one venue-year's
      shards of a split (``iclr-iclr-2024-...``, stages/split_stage.py) replace only each other.
    - ``pub``: stage into the caller's publication (moved into place when the caller's block ends).
    - ``reader``: what reads ``inputs`` (default: their files through ``fs``, `FileReader`).
    - ``venue_years``: the rows' statistics, computed when they were written (stages/rows_stage.py);
      this writer copies bytes and counts rows, it computes no statistics itself.
    """
    check_name("split", split)
    prefix = check_prefix(shard_prefix or split)
    if target_shard_bytes <= 0:
        raise ValueError("target_shard_bytes must be positive")
    if row_group_rows <= 0:
        raise ValueError("row_group_rows must be positive")

    data_dir = join_path(out_dir, "data")

    seen: dict[str, str] = {}
    temp_paths: list[str] = []
    num_examples = 0
    dataset_bytes = 0
    writer: pq.ParquetWriter | None = None
    shard_bytes = 0

    def batches() -> Iterator[pa.RecordBatch]:
        for path, batch in _iter_input_batches(reader or FileReader(fs), inputs, row_group_rows):
            if check_unique_forum_ids:
                for fid in batch.column("forum_id").to_pylist():
                    prev = seen.get(fid)
                    if prev is not None:
                        raise DuplicateForumError(
                            f"forum_id {fid!r} occurs in {prev} and again in {path} "
                            f"(split {split!r})"
                        )
                    seen[fid] = path
            yield batch

    with _publication(fs, out_dir, pub) as pub:
        try:
            for rg in _row_groups(batches(), row_group_rows):
                size = _estimate_bytes(rg)
                if writer is not None and shard_bytes > 0 and shard_bytes + size > target_shard_bytes:
                    writer.close()
                    writer = None
                if writer is None:
                    temp_paths.append(pub.target(join_path(data_dir, f"{prefix}-part-{len(temp_paths):05d}")))
                    writer = _open_writer(fs, temp_paths[-1], REVIEWBENCH_SCHEMA, compression)
                    shard_bytes = 0
                writer.write_table(rg, row_group_size=row_group_rows)
                shard_bytes += size
                dataset_bytes += size
                num_examples += rg.num_rows
        finally:
            if writer is not None:
                writer.close()
        # Publish: staged -> final names (now that n is known), then drop stale shards of this split.
        n = len(temp_paths)
        final_paths = [join_path(data_dir, shard_name(prefix, i, n)) for i in range(n)]
        for tmp, final in zip(temp_paths, final_paths, strict=False):
            pub.set_final(tmp, final)
        pub.remove_after(sorted(set(list_split_shards(fs, out_dir, prefix)) - set(final_paths)))
        num_bytes = sum(file_size(fs, p) for p in temp_paths)  # staged: the same bytes as published

    return SplitStats(
        split=split,
        num_examples=num_examples,
        num_bytes=num_bytes,
        files=final_paths,
        venue_years=dict(sorted((venue_years or {}).items())),
        dataset_bytes=dataset_bytes,
    )


# --------------------------------------------------------------------------------------------
# Extra configs (provenance, review, rebuttal, ...)
# --------------------------------------------------------------------------------------------


def _as_batches(
    table_or_batches: pa.Table | pa.RecordBatch | pa.RecordBatchReader | Iterable[pa.RecordBatch],
    schema: pa.Schema | None,
) -> tuple[pa.Schema, Iterator[pa.RecordBatch]]:
    if isinstance(table_or_batches, pa.Table):
        return table_or_batches.schema, iter(table_or_batches.to_batches())
    if isinstance(table_or_batches, pa.RecordBatch):
        return table_or_batches.schema, iter([table_or_batches])
    if isinstance(table_or_batches, pa.RecordBatchReader):
        return table_or_batches.schema, iter(table_or_batches)
    it = iter(table_or_batches)
    if schema is not None:
        return schema, it
    try:
        first = next(it)
    except StopIteration:
        raise ValueError("write_config_table: no batches and no schema given") from None

    def chain() -> Iterator[pa.RecordBatch]:
        yield first
        yield from it

    return first.schema, chain()


def write_config_table(
    fs: pafs.FileSystem,
    table_or_batches: pa.Table | pa.RecordBatch | pa.RecordBatchReader | Iterable[pa.RecordBatch],
    out_dir: str,
    config_name: str,
    split: str,
    *,
    schema: pa.Schema | None = None,
    row_group_rows: int = DEFAULT_ROW_GROUP_ROWS,
    compression: str = DEFAULT_COMPRESSION,
    shard_prefix: str | None = None,
    pub: Publication | None = None,
) -> ConfigFileStats:
    """Write one split of an extra config to ``out_dir/<config_name>/<split>-00000-of-00001.parquet``
    (streamed, row groups of ``row_group_rows``; temp file + move; other shards of the same
    config/split are removed). ``schema`` is only needed for an empty iterable of batches; ``pub``
    as in ``write_conference_split``."""
    check_name("config", config_name)
    check_name("split", split)
    if config_name in ("default", "data"):
        raise ValueError(f"config name {config_name!r} is reserved")
    prefix = check_prefix(shard_prefix or split)
    schema, batches = _as_batches(table_or_batches, schema)
    config_dir = join_path(out_dir, config_name)
    final = join_path(config_dir, shard_name(prefix, 0, 1))
    num_examples = 0
    with _publication(fs, out_dir, pub) as pub:
        staged = pub.target(final)
        writer = _open_writer(fs, staged, schema, compression)
        try:
            num_examples = _write_batches(writer, batches, schema, row_group_rows)
        finally:
            writer.close()
        pub.remove_after(sorted(i.path for i in list_files(fs, config_dir)
                                if shard_pattern(prefix).match(i.base_name) and i.path != final))
        num_bytes = file_size(fs, staged)
    return ConfigFileStats(
        config_name=config_name,
        split=split,
        path=final,
        num_examples=num_examples,
        num_bytes=num_bytes,
        schema=schema,
    )


def _write_batches(writer: pq.ParquetWriter, batches: Iterator[pa.RecordBatch], schema: pa.Schema,
                   row_group_rows: int) -> int:
    """Regroup `batches` into row groups of `row_group_rows` rows; returns the number of rows."""
    num_examples = 0
    for table in _row_groups(batches, row_group_rows, schema, cast=True):
        writer.write_table(table)
        num_examples += table.num_rows
    return num_examples


# --------------------------------------------------------------------------------------------
# Reading inputs for a config (stages/split_stage.py assembles a split from venue-year parts)
# --------------------------------------------------------------------------------------------


def stream_parquet(fs: pafs.FileSystem, files: list[str], schema: pa.Schema,
                    batch_rows: int = DEFAULT_ROW_GROUP_ROWS * 10) -> Iterator[pa.RecordBatch]:
    """Batches of ``files`` in order, cast to ``schema`` (one row group at a time)."""
    for path in files:
        for batch in iter_parquet_batches(fs, path, batch_rows, columns=schema.names):
            yield pa.Table.from_batches([batch]).select(schema.names).cast(schema).to_batches()[0]


# ---- the check that an input Parquet file has exactly the ReviewBench schema ---------------------

class SchemaMismatchError(ValueError):
    """An input Parquet file is not in REVIEWBENCH_SCHEMA; the message names file and column."""

    def __init__(self, path: str, column: str, problem: str):
        self.path = path
        self.column = column
        self.problem = problem
        super().__init__(f"{path}: column {column!r}: {problem}")


def _types_compatible(actual: pa.DataType, expected: pa.DataType) -> bool:
    if actual.equals(expected):
        return True
    # Parquet round trips may name the list item "element" instead of "item".
    if pa.types.is_list(actual) and pa.types.is_list(expected):
        return _types_compatible(actual.value_type, expected.value_type)
    return False


def validate_parquet_schema(
    schema: pa.Schema, path: str, expected: pa.Schema = REVIEWBENCH_SCHEMA
) -> None:
    """Raise SchemaMismatchError (naming ``path`` and the first offending column) unless
    ``schema`` has exactly the columns of ``expected``, in order, with the same types."""
    expected_names = expected.names
    for name in schema.names:
        if name not in expected_names:
            raise SchemaMismatchError(path, name, "unexpected column (not in REVIEWBENCH_SCHEMA)")
    for exp in expected:
        idx = schema.get_field_index(exp.name)
        if idx < 0:
            if exp.name in schema.names:  # duplicated name
                raise SchemaMismatchError(path, exp.name, "column appears more than once")
            raise SchemaMismatchError(path, exp.name, "missing column")
        actual = schema.field(idx).type
        if not _types_compatible(actual, exp.type):
            raise SchemaMismatchError(path, exp.name, f"type {actual}, expected {exp.type}")
    if schema.names != expected_names:
        for i, (got, want) in enumerate(zip(schema.names, expected_names, strict=False)):
            if got != want:
                raise SchemaMismatchError(
                    path, got, f"out of order: position {i}, expected {want!r} there"
                )
