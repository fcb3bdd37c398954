"""A test oracle: split statistics recomputed from the published shards, row by row, independently
of the statistics the writer computed once when it wrote them (the two must agree). The row loop is
the one the platform ran before the statistics became SQL over typed reviews (issue 28.3): it
decodes every paper's `reviews_json`, so the SQL must give exactly what it gives."""
from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pafs

from resources.store import open_parquet
from reviewbench_assets.domain.corpus_stats import SplitStats, VenueYearStats, is_accepted, venue_year_key
from reviewbench_assets.domain.reviews import parse_score
from reviewbench_assets.domain.schema import PAGE_SEPARATOR, REVIEWBENCH_SCHEMA
from reviewbench_assets.io.corpus_writer import DEFAULT_ROW_GROUP_ROWS, _estimate_bytes, validate_parquet_schema
from reviewbench_assets.io.parquet_batches import iter_parquet_batches
from reviewbench_assets.io.shards import check_name, file_size, list_split_shards


def compute_split_stats(
    fs: pafs.FileSystem, out_dir: str, split: str, row_group_rows: int = DEFAULT_ROW_GROUP_ROWS,
    files: list[str] | None = None,
) -> SplitStats:
    """Recompute SplitStats from the published shards (e.g. to render the card for splits that
    were written by earlier runs). Streams row groups; ``dataset_bytes`` is the same estimate."""
    check_name("split", split)
    files = list_split_shards(fs, out_dir, split) if files is None else files  # per-venue-year shards: given
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


class StatsAccumulator:
    """The statistics as the platform computed them before issue 28.3, kept verbatim: a Python loop
    over the rows, `json.loads` on every paper's `reviews_json`."""

    def __init__(self) -> None:
        self.venue_years: dict[str, VenueYearStats] = {}

    def add(self, table: pa.Table | pa.RecordBatch) -> None:
        if table.num_rows == 0:
            return
        conf = table.column("conference").to_pylist()
        year = table.column("year").to_pylist()
        track = table.column("track").to_pylist()
        num_reviews = table.column("num_reviews").to_pylist()
        decision = table.column("decision").to_pylist()
        venue = table.column("venue").to_pylist()
        reviews_json = table.column("reviews_json").to_pylist()
        markdown = table.column("markdown")
        # Page counts without materialising the markdown as Python strings.
        seps = pc.count_substring(markdown, PAGE_SEPARATOR).to_pylist()
        md_len = pc.binary_length(markdown).to_pylist()
        for i in range(table.num_rows):
            key = venue_year_key(conf[i], year[i], track[i])
            vy = self.venue_years.get(key)
            if vy is None:
                vy = self.venue_years[key] = VenueYearStats(
                    key=key, conference=conf[i] or "", year=year[i], track=track[i] or ""
                )
            vy.papers += 1
            vy.reviews += num_reviews[i] or 0
            if md_len[i]:
                vy.pages += (seps[i] or 0) + 1
                vy.papers_with_markdown += 1
            if is_accepted(decision[i], venue[i]):
                vy.accepted += 1
            for review in _reviews(reviews_json[i]):
                r = parse_score(review.get("rating"))
                if r is not None:
                    vy.rating_counts[r] = vy.rating_counts.get(r, 0) + 1
                _add_move(vy.moves, review.get("score_history"))


def _reviews(reviews_json: str | None) -> list[dict]:
    if not reviews_json:
        return []
    try:
        reviews = json.loads(reviews_json)
    except (TypeError, ValueError):
        return []
    return [r for r in reviews if isinstance(r, dict)] if isinstance(reviews, list) else []


def _add_move(moves: dict[str, float], history) -> None:
    """Count one review's trajectory (see VenueYearStats.moves)."""
    if not isinstance(history, list) or not history:
        return
    first = parse_score(history[0].get("rating")) if isinstance(history[0], dict) else None
    last = parse_score(history[-1].get("rating")) if isinstance(history[-1], dict) else None
    if first is None or last is None:
        return
    for key, n in (("tracked", 1), ("edited", len(history) > 1), ("changed", last != first), ("up", last > first),
                   ("down", last < first), ("initial_sum", first), ("final_sum", last)):
        moves[key] = moves.get(key, 0) + n
