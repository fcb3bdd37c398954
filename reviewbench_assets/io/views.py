"""DuckDB views over the stages' partitioned Parquet, one view per table across venue-years (as
Dagster's `duckdb_parquet_io_manager` lays a view over each asset's partitioned files): the way to ask
a question of the stored data in SQL without knowing where any stage keeps its files.

Each view is the union (by column name, so partitions written before a column was added still read)
of the venue-years that have the table, with a `partition` column naming each row's venue-year. The
files are read through the store's `pyarrow.fs` filesystem (local or S3, the same code) as Arrow
datasets, streamed by DuckDB: nothing is loaded until a query runs. Every file is read through one
snapshot taken when the views are made (`Store.snapshot`): the views show the tables as of that
moment, never half a publication (e.g. rows of a new generation beside provenance of the old), for
as long as the connection lives."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from resources.store import Store
from reviewbench_assets.io.layout import paths

# view -> the partition's file (its owner: the stage that declares it in `writes`, data_path.OWNED_PATHS)
TABLES: dict[str, Callable[[str], str]] = {
    "parsed": paths.parsed, "parsed_quarantine": paths.parsed_quarantine,  # parsed_forums
    "pdfs": paths.submissions,  # initial_submission_pdfs
    "markdown": paths.markdown,  # paper_markdown
    "review_records": paths.re2_review, "rebuttal_records": paths.re2_rebuttal,  # rebuttal_dialogues
    "rows": paths.rows, "provenance": paths.provenance,  # reviewbench_split
}
# view -> a corpus-level file (one for every venue-year; no `partition` column), the resubmissions
# stage's: `SELECT * FROM resubmission_links WHERE kind = 'dual_submission'`,
# `SELECT c.chain_id, s.* FROM resubmission_chains c, unnest(c.steps) t(s)`
CORPUS_TABLES: dict[str, str] = {"resubmission_links": paths.RESUBMISSION_LINKS,
                                 "resubmission_chains": paths.RESUBMISSION_CHAINS,
                                 "resubmission_left_alone": paths.RESUBMISSION_LEFT_ALONE}


def duckdb_views(store: Store, keys: Iterable[str], con=None):
    """A DuckDB connection (`con`, or a new in-memory one) with a view per table of `TABLES` over the
    venue-years `keys` that have it, and one per corpus-level table of `CORPUS_TABLES` that exists; a
    table no venue-year has gets no view."""
    import duckdb
    import pyarrow.dataset as pads

    con = con if con is not None else duckdb.connect()
    keys = list(keys)
    # pinned while a registered dataset holds its filesystem (the connection's lifetime)
    snap = store.snapshot([store.path(where(pk)) for where in TABLES.values() for pk in keys]
                          + [store.path(rel) for rel in CORPUS_TABLES.values()])
    for view, where in TABLES.items():
        parts = []
        for i, pk in enumerate(keys):
            path = store.path(where(pk))
            if not snap.exists(path):
                continue
            name = f"{view}__{i}"  # the registered dataset a view reads (one per partition)
            con.register(name, pads.dataset(path, filesystem=snap.fs, format="parquet"))
            literal = pk.replace("'", "''")
            parts.append(f"SELECT '{literal}' AS partition, * FROM {name}")
        if parts:
            con.execute(f"CREATE OR REPLACE VIEW {view} AS {' UNION ALL BY NAME '.join(parts)}")
    for view, rel in CORPUS_TABLES.items():
        if snap.exists(store.path(rel)):
            con.register(f"{view}__all", pads.dataset(store.path(rel), filesystem=snap.fs, format="parquet"))
            con.execute(f"CREATE OR REPLACE VIEW {view} AS SELECT * FROM {view}__all")
    return con
