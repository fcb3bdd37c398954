"""A test oracle: split statistics recomputed from the published shards, row by row, independently
of the statistics the writer computed once when it wrote them (the two must agree)."""
from __future__ import annotations

import pyarrow as pa
import pyarrow.fs as pafs

from resources.store import open_parquet
from reviewbench_assets.domain.corpus_stats import SplitStats, StatsAccumulator
from reviewbench_assets.domain.schema import REVIEWBENCH_SCHEMA
from reviewbench_assets.stages.corpus_writer import DEFAULT_ROW_GROUP_ROWS, _estimate_bytes
from reviewbench_assets.stages.parquet_io import iter_parquet_batches
from reviewbench_assets.stages.shard_files import check_name, file_size, list_split_shards, validate_parquet_schema


def compute_split_stats(
    fs: pafs.FileSystem, out_dir: str, split: str, row_group_rows: int = DEFAULT_ROW_GROUP_ROWS
) -> SplitStats:
    """Recompute SplitStats from the published shards (e.g. to render the card for splits that
    were written by earlier runs). Streams row groups; ``dataset_bytes`` is the same estimate."""
    check_name("split", split)
    files = list_split_shards(fs, out_dir, split)
    stats = StatsAccumulator()
    num_examples = 0
    dataset_bytes = 0
    for path in files:
        with fs.open_input_file(path) as f:
            validate_parquet_schema(open_parquet(fs, path, f).schema_arrow, path)
        for batch in iter_parquet_batches(fs, path, row_group_rows):
            t = pa.Table.from_batches([batch.cast(REVIEWBENCH_SCHEMA)]).combine_chunks()
            num_examples += t.num_rows
            dataset_bytes += _estimate_bytes(t)
            stats.add(t)
    return SplitStats(
        split=split,
        num_examples=num_examples,
        num_bytes=sum(file_size(fs, p) for p in files),
        files=files,
        venue_years=dict(sorted(stats.venue_years.items())),
        dataset_bytes=dataset_bytes,
    )


