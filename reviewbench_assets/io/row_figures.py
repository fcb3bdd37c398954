"""The corpus statistics (what the dataset card and the split assets report, domain/corpus_stats.py)
as DuckDB SQL over a venue-year's row files (issue 28.3; the rows stage computes them over the rows it
has just staged): the papers, reviews, pages and acceptances from the default config's rows, the
ratings and their moves from the `reviews` config's rows (typed: no JSON is decoded), and the full
text's revision rules from the provenance rows. The Parquet files are read through the storage's
`pyarrow.fs` filesystem (local or S3, the same code) and reach DuckDB as streamed Arrow batches of the
few columns each query needs, one row group at a time, so memory does not grow with the venue-year.
The venue-year key and the acceptance rule stay one Python function each (domain/corpus_stats.py),
called from SQL. A reader of stored files: the IO layer's, not a stage's."""
from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pyarrow.fs as pafs

from reviewbench_assets.domain.corpus_stats import VenueYearStats, is_accepted, venue_year_key
from reviewbench_assets.domain.schema import (
    PAGE_SEPARATOR,
    PROVENANCE_SCHEMA,
    REVIEWBENCH_SCHEMA,
    REVIEWS_CONFIG_SCHEMA,
)
from reviewbench_assets.io.parquet_batches import iter_parquet_batches

BATCH_ROWS = 256  # rows per batch streamed into DuckDB

_KEY = "vy_key(conference, year, track)"

# One row per venue-year key; the first paper's (file order) conference, year and track name it,
# as the card always did (a rolling venue's papers have several years), null or not.
PAPERS_SQL = f"""
SELECT {_KEY} AS key,
       arg_min_null(conference, ordinal) AS conference, arg_min_null(year, ordinal) AS year,
       arg_min_null(track, ordinal) AS track,
       count(*) AS papers,
       coalesce(sum(num_reviews), 0) AS reviews,
       count(*) FILTER (WHERE coalesce(markdown, '') <> '') AS papers_with_markdown,
       -- pages: separators + 1 in each non-empty text (non-overlapping, leftmost first, like str.count)
       coalesce(sum((length(markdown) - length(replace(markdown, $sep, ''))) // length($sep) + 1)
                FILTER (WHERE coalesce(markdown, '') <> ''), 0) AS pages,
       count(*) FILTER (WHERE accepted(decision, venue)) AS accepted
FROM papers GROUP BY key ORDER BY min(ordinal)
"""
RATINGS_SQL = f"""
SELECT {_KEY} AS key, rating, count(*) AS n FROM reviews WHERE rating IS NOT NULL GROUP BY ALL
"""
# How a review's rating moved: the first and the last point of its score_history, when both are numbers.
MOVES_SQL = f"""
WITH t AS (SELECT {_KEY} AS key, score_history[1].rating AS first, score_history[-1].rating AS last,
                  len(score_history) AS points
           FROM reviews WHERE len(score_history) > 0)
SELECT key, count(*) AS tracked, count(*) FILTER (WHERE points > 1) AS edited,
       count(*) FILTER (WHERE last <> first) AS changed, count(*) FILTER (WHERE last > first) AS up,
       count(*) FILTER (WHERE last < first) AS down, sum(first) AS initial_sum, sum(last) AS final_sum
FROM t WHERE first IS NOT NULL AND last IS NOT NULL GROUP BY key
"""
TEXT_RULES_SQL = f"""
SELECT {_KEY} AS key, coalesce(nullif(revision_rule, ''), 'unavailable') AS rule, count(*) AS n
FROM provenance GROUP BY ALL
"""
LICENSES_SQL = f"""
SELECT {_KEY} AS key, coalesce(nullif(license, ''), 'unknown') AS license, count(*) AS n
FROM {{table}} GROUP BY ALL
"""
_MOVES = ("tracked", "edited", "changed", "up", "down", "initial_sum", "final_sum")


def _stream(fs: pafs.FileSystem, paths: list[str], schema: pa.Schema, columns: list[str],
            ordinal: bool = False) -> pa.RecordBatchReader:
    """The columns of the files, in file order, as one Arrow stream (with each row's place when asked)."""
    fields = [schema.field(c) for c in columns] + ([pa.field("ordinal", pa.int64())] if ordinal else [])
    out_schema = pa.schema(fields)

    def batches() -> Iterator[pa.RecordBatch]:
        seen = 0
        for path in paths:
            for b in iter_parquet_batches(fs, path, BATCH_ROWS, columns=columns):
                arrays = [b.column(c).cast(schema.field(c).type) for c in columns]
                if ordinal:
                    arrays.append(pa.array(range(seen, seen + b.num_rows), pa.int64()))
                seen += b.num_rows
                yield pa.RecordBatch.from_arrays(arrays, schema=out_schema)

    return pa.RecordBatchReader.from_batches(out_schema, batches())


def venue_year_figures(fs: pafs.FileSystem, rows: list[str], reviews: list[str],
                       provenance: list[str]) -> dict[str, VenueYearStats]:
    """The statistics per venue-year key of the default config's `rows`, the `reviews` config's rows
    and the `provenance` rows (files of one venue-year, or several: keys are merged as in the card)."""
    import tempfile

    import duckdb

    con = duckdb.connect(config={"threads": 1, "memory_limit": "256MB", "temp_directory": tempfile.gettempdir()})
    try:
        con.create_function("vy_key", venue_year_key, ["VARCHAR", "INTEGER", "VARCHAR"], "VARCHAR",
                            null_handling="special", side_effects=False)
        con.create_function("accepted", is_accepted, ["VARCHAR", "VARCHAR"], "BOOLEAN",
                            null_handling="special", side_effects=False)
        con.register("papers", _stream(fs, rows, REVIEWBENCH_SCHEMA, ["conference", "year", "track", "num_reviews",
                                                                      "decision", "venue", "markdown"], ordinal=True))
        out: dict[str, VenueYearStats] = {}
        for key, conference, year, track, papers, n_reviews, with_md, pages, accepted in \
                con.execute(PAPERS_SQL, {"sep": PAGE_SEPARATOR}).fetchall():
            out[key] = VenueYearStats(key=key, conference=conference or "", year=year, track=track or "",
                                      papers=papers, reviews=int(n_reviews), pages=int(pages),
                                      papers_with_markdown=with_md, accepted=accepted)
        review_columns = ["conference", "year", "track", "rating", "score_history"]
        con.register("reviews", _stream(fs, reviews, REVIEWS_CONFIG_SCHEMA, review_columns))
        for key, rating, n in con.execute(RATINGS_SQL).fetchall():
            out[key].rating_counts[float(rating)] = n
        con.register("reviews", _stream(fs, reviews, REVIEWS_CONFIG_SCHEMA, review_columns))  # a stream reads once
        for key, *moves in con.execute(MOVES_SQL).fetchall():
            out[key].moves = dict(zip(_MOVES, moves, strict=True))
        con.register("reviews", _stream(fs, reviews, REVIEWS_CONFIG_SCHEMA, ["conference", "year", "track", "license"]))
        for key, lic, n in con.execute(LICENSES_SQL.format(table="reviews")).fetchall():
            if key in out:
                out[key].review_licenses[lic] = n
        prov_columns = ["conference", "year", "track", "revision_rule", "license"]
        con.register("provenance", _stream(fs, provenance, PROVENANCE_SCHEMA, prov_columns))
        for key, rule, n in con.execute(TEXT_RULES_SQL).fetchall():
            if key in out:
                out[key].text_rules[rule] = n
        con.register("provenance", _stream(fs, provenance, PROVENANCE_SCHEMA, prov_columns))
        for key, lic, n in con.execute(LICENSES_SQL.format(table="provenance")).fetchall():
            if key in out:
                out[key].paper_licenses[lic] = n
    finally:
        con.close()
    for vy in out.values():  # the order the card lists them in (and the JSON keeps)
        vy.rating_counts = dict(sorted(vy.rating_counts.items()))
        vy.text_rules = dict(sorted(vy.text_rules.items()))
    return out
