"""Inputs held in memory, handed to a stage instead of the files of the stages before it
(`stage(store, inputs={reader: value})`, io/stage_io.py `Inputs`): a stage test builds what a stage
reads without writing it to storage first. Each answers the calls the stage makes of the IO
layer's reader it stands for:
- `PerPartition`: a value per partition, for a stage that reads several (a conference split reads
  each of its venue-years: `has_rows`, `split_inputs`);
- `SubmissionNotesInMemory`: the parsed forums' submission notes (`submission_note_lookup`);
- `SplitInputsInMemory`: a venue-year's rows, reviews, provenance, statistics and Re^2 records as
  tables (`split_inputs`, io/split_inputs.py `SplitInputs`), read by the same writers as the files
  (`TableReader` in place of io/corpus_writer.py `FileReader`)."""
from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa

from reviewbench_assets.io.split_inputs import config_split_reader

MEMORY = "memory:"  # what an input held in memory is named where a path would be (errors, fingerprints)


class PerPartition(dict):
    """{partition key: value}: `Inputs.of(key)` hands the value of its partition (`default` for the others)."""

    def __init__(self, values: dict, default=None):
        super().__init__(values)
        self.default = default


class SubmissionNotesInMemory:
    """(forum id, API version, raw submission note) of each forum, in the given (crawl) order, as
    `Upstream.submission_note_lookup` hands them: `scan()` and `note(forum_id)`, in a `with` block."""

    def __init__(self, notes: list[tuple[str, str, dict]]):
        self._notes = list(notes)
        self._by_id = {fid: (api, note) for fid, api, note in self._notes}

    def __enter__(self) -> SubmissionNotesInMemory:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def scan(self, batch_rows: int = 256) -> Iterator[tuple[str, str, dict]]:
        return iter(self._notes)

    def note(self, forum_id: str) -> tuple[str, dict] | None:
        return self._by_id.get(forum_id)


class TableReader:
    """Inputs named `memory:<name>` read from tables: what io/corpus_writer.py `FileReader` reads from files."""

    def __init__(self, tables: dict[str, pa.Table]):
        self._tables = tables

    def _table(self, path: str) -> pa.Table:
        return self._tables[path.removeprefix(MEMORY)]

    def schema(self, path: str) -> pa.Schema:
        return self._table(path).schema

    def batches(self, path: str, batch_rows: int, columns: list[str] | None = None) -> Iterator[pa.RecordBatch]:
        table = self._table(path)
        table = table.select(columns) if columns is not None else table
        return (b for b in table.to_batches(max_chunksize=batch_rows) if b.num_rows)


class SplitInputsInMemory:
    """A venue-year's inputs of its part of a conference split (`rows`, `reviews`, `provenance`, and
    `review` / `rebuttal` if given) as tables, and `stats` (the rows' statistics record, as
    `rows/<pk>.stats.json` holds it): what io/split_inputs.py `SplitInputs` hands, from memory."""

    def __init__(self, tables: dict[str, pa.Table], stats: dict):
        self._tables, self._stats = dict(tables), stats
        self._reader = TableReader(self._tables)

    def __enter__(self) -> SplitInputsInMemory:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def __contains__(self, name: str) -> bool:
        return name in self._tables or name == "stats"

    def path(self, name: str) -> str:
        return MEMORY + name

    def fingerprint(self) -> dict[str, list]:
        """Each input's rows and bytes (a table given again with other rows is another input)."""
        return {name: [self.path(name), t.num_rows, t.nbytes] for name, t in sorted(self._tables.items())}

    def read_json(self, name: str):
        if name != "stats":
            raise KeyError(name)
        return self._stats

    def read_parquet(self, name: str, columns: list[str] | None = None) -> pa.Table:
        table = self._tables[name]
        return table.select(columns) if columns is not None else table

    def batches(self, name: str, schema: pa.Schema) -> Iterator[pa.RecordBatch]:
        table = self._tables[name].select(schema.names).cast(schema)
        return (b for b in table.to_batches(max_chunksize=1_000) if b.num_rows)

    def config_split(self, name: str, split: str, config_schema: pa.Schema, test_share: float,
                     chain_sides: dict[str, str] | None) -> pa.RecordBatchReader:
        return config_split_reader(None, [self.path(name)], [self.path("provenance")], split, config_schema,
                                   test_share=test_share, chain_sides=chain_sides, reader=self._reader)

    def shard_source(self) -> tuple[TableReader, list[str]]:
        return self._reader, [self.path("rows")]
