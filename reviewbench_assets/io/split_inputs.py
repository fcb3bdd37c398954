"""What a venue-year's part of a conference split is written from, as of one moment (`SplitInputs`,
what `Upstream.split_inputs` hands the split stage): the rows, one row per review, the provenance and
their statistics (reviewbench_split: one publication, all or none) and the Re^2 review/rebuttal
records (rebuttal_dialogues), whichever exist, read through one snapshot of them all; and the Re^2
`review`/`rebuttal` configs read back split train/test (`config_split_reader`: the records joined
with their provenance by DuckDB, streamed). The stage never holds the snapshot's store nor its
filesystem: it names its inputs (`"rows"`, `"reviews"`, ...) and the IO layer reads them."""
from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa

from resources.store import SnapshotStore
from reviewbench_assets.domain.dialogues import DEFAULT_TEST_SHARE, TRAIN_TEST_SPLITS, split_of
from reviewbench_assets.domain.schema import PROVENANCE_FIELDS
from reviewbench_assets.io.corpus_writer import FileReader, stream_parquet
from reviewbench_assets.io.parquet_batches import iter_parquet_batches


class SplitInputs:
    """The venue-year's inputs of its part of a conference split, by name (`rows`, `reviews`,
    `provenance`, `stats`, and `review` / `rebuttal` when they exist), as of one moment: use it in a
    `with` block (the snapshot's pins go at its end)."""

    def __init__(self, view: SnapshotStore, found: dict[str, str]):
        self._view, self._found = view, found

    def __enter__(self) -> SplitInputs:
        return self

    def __exit__(self, *exc) -> None:
        self._view.close()

    def __contains__(self, name: str) -> bool:
        return name in self._found

    def path(self, name: str) -> str:
        """The input's full path (what a message names)."""
        return self._found[name]

    def fingerprint(self) -> dict[str, list]:
        """Size and modification time of each input (local and S3 both report them): a file rewritten
        by its stage has a new time, whatever its content."""
        out = {}
        for what, path in sorted(self._found.items()):
            info = self._view.fs.get_file_info(path)
            out[what] = [self._view.rel(path), info.size, info.mtime_ns]
        return out

    def read_json(self, name: str):
        return self._view.read_json(self._found[name])

    def read_parquet(self, name: str, columns: list[str] | None = None) -> pa.Table:
        return self._view.read_parquet(self._found[name], columns=columns)

    def batches(self, name: str, schema: pa.Schema) -> Iterator[pa.RecordBatch]:
        """Batches of the input `name`, cast to `schema` (one row group at a time)."""
        return stream_parquet(self._view.fs, [self._found[name]], schema)

    def config_split(self, name: str, split: str, config_schema: pa.Schema, test_share: float,
                     chain_sides: dict[str, str] | None) -> pa.RecordBatchReader:
        """The Re^2 records `name` of one train/test `split`, joined with the provenance (`config_split_reader`)."""
        return config_split_reader(self._view.fs, [self._found[name]], [self._found["provenance"]], split,
                                   config_schema, test_share=test_share, chain_sides=chain_sides)

    def shard_source(self) -> tuple[FileReader, list[str]]:
        """(reader, [rows path]): what the conference split's shard writer reads (io/corpus_writer.py),
        for `Staging.conference_shards` (io/stage_io.py)."""
        return FileReader(self._view.fs), [self._found["rows"]]


def config_split_reader(fs, record_paths: list[str], provenance_paths: list[str], split: str,
                        config_schema: pa.Schema, test_share: float = DEFAULT_TEST_SHARE,
                        batch_rows: int = 256, temp_dir: str | None = None,
                        chain_sides: dict[str, str] | None = None, reader=None) -> pa.RecordBatchReader:
    """The records of one train/test `split` (`split_of`, a DuckDB Python UDF: a version of a paper
    submitted more than once takes its chain's side, `chain_sides`), joined with their
    provenance, in input order (files in the given order, records in file order), streamed as
    Arrow batches.

    Memory stays flat as the split grows:
    - the record files (the text) reach DuckDB as one streamed `RecordBatchReader`, read one
      Parquet row group at a time through `fs` (local or S3, the same code); neither a pyarrow
      dataset scan (which keeps read-ahead and earlier batches' memory) nor a materialized table;
    - the records are the *probe* side of the hash join and the provenance (no text, a few short
      columns per paper) the build side: DuckDB's `build_side_probe_side` optimizer is disabled,
      since with the split filter its cardinality estimate of the records is ~1 row and it would
      flip the join and build a hash table of every record (all the text of the split);
    - one thread, `preserve_insertion_order`, a memory limit, spilling to `temp_dir`."""
    import tempfile

    import duckdb

    if split not in TRAIN_TEST_SPLITS:
        raise ValueError(f"split must be one of {TRAIN_TEST_SPLITS}, not {split!r}")

    def read(path: str, rows: int, columns: list[str]) -> Iterator[pa.RecordBatch]:
        # `reader`: the inputs held elsewhere than files of `fs` (io/memory_inputs.py `TableReader`)
        return reader.batches(path, rows, columns) if reader is not None else iter_parquet_batches(
            fs, path, rows, columns=columns)
    rec_schema = pa.schema([f for f in config_schema if f.name not in {n for n, _ in PROVENANCE_FIELDS}])
    prov_schema = pa.schema([pa.field("forum_id", pa.string())] + [pa.field(n, t) for n, t in PROVENANCE_FIELDS])
    con = duckdb.connect(config={"threads": 1, "memory_limit": "256MB", "preserve_insertion_order": True,
                                 "temp_directory": temp_dir or tempfile.gettempdir()})
    try:
        con.execute("SET disabled_optimizers = 'build_side_probe_side'")
        con.create_function("re2_split", lambda fid: split_of(fid, test_share, chain_sides), ["VARCHAR"], "VARCHAR",
                            side_effects=False)

        def record_batches_() -> Iterator[pa.RecordBatch]:
            for path in record_paths:
                for b in read(path, batch_rows, rec_schema.names):
                    yield b if b.schema.equals(rec_schema) else pa.Table.from_batches([b]).cast(
                        rec_schema).combine_chunks().to_batches()[0]

        records = pa.RecordBatchReader.from_batches(rec_schema, record_batches_())
        # The build side: a few short columns per paper (~100 bytes), the only thing held.
        prov = pa.concat_tables(
            [prov_schema.empty_table()]
            + [pa.Table.from_batches([b]).cast(prov_schema) for path in provenance_paths
               for b in read(path, 64 * 1024, prov_schema.names)]).combine_chunks()
        con.register("records", records)
        con.register("prov", prov)
        cols = ", ".join(f"r.{f.name}" for f in rec_schema)
        pcols = ", ".join(f"p.{n}" for n, _ in PROVENANCE_FIELDS)
        # No ORDER BY: a sort of the text-heavy records does not spill reliably (duckdb ran out of
        # its 256 MB at 20k papers); one thread + preserve_insertion_order + records on the probe
        # side keep the input order (venue-years in the given order, forums in crawl order).
        sql = (f"SELECT {cols}, {pcols} FROM records r LEFT JOIN prov p ON p.forum_id = r.paper_id "
               f"WHERE re2_split(r.paper_id) = ?")
        rel = con.sql(sql, params=[split])
        # a relation streams (duckdb >= 2: to_arrow_reader; 1.x: record_batch), batch by batch
        result = (rel.to_arrow_reader(batch_rows) if hasattr(rel, "to_arrow_reader")
                  else rel.record_batch(batch_rows))
    except BaseException:
        con.close()
        raise

    def batches() -> Iterator[pa.RecordBatch]:
        try:
            for b in result:
                if b.num_rows:
                    yield pa.Table.from_batches([b]).cast(config_schema).combine_chunks().to_batches()[0]
        finally:
            con.close()

    return pa.RecordBatchReader.from_batches(config_schema, batches())
