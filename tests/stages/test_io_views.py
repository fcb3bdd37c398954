"""DuckDB views over the stages' partitioned Parquet (reviewbench_assets/io/views.py): one view per
table across venue-years, with the partition of each row, partitions of an older schema included."""
from __future__ import annotations

import pyarrow.parquet as pq

from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.views import duckdb_views
from tests.stages.pdf_stage_run import run_pdf_stage
from tests.stages.test_pdf_choice_stage import VENUE, make_world

OLD = "iclr-2025"  # a venue-year parsed before the parsed table had `submission_json`


def test_views_span_partitions_and_schemas(tmp_path):
    store, api = make_world(tmp_path)
    run_pdf_stage(VENUE, store, api, None, max_workers=1)
    table = store.read_parquet(store.path(paths.parsed(VENUE.key))).drop_columns(["submission_json"])
    with store.fs.open_output_stream(store.path(paths.parsed(OLD))) as f:
        pq.write_table(table.slice(0, 2), f)

    con = duckdb_views(store, [VENUE.key, OLD, "iclr-2024"])  # iclr-2024: nothing stored, no rows
    per_partition = dict(con.sql("SELECT partition, count(*) FROM parsed GROUP BY ALL").fetchall())
    assert per_partition == {VENUE.key: 3, OLD: 2}
    missing = con.sql("SELECT count(*) FROM parsed WHERE submission_json IS NULL").fetchall()[0][0]
    assert missing == 2  # the old partition's rows: the column is there, empty
    # a join across two stages' tables, by forum id, as the split joins them
    joined = con.sql("SELECT p.forum_id, d.rule FROM parsed p JOIN pdfs d USING (partition, forum_id) "
                     "ORDER BY p.ordinal").fetchall()
    assert [fid for fid, _ in joined] == ["revisedAAA", "currentBBB", "flakyCCCC"]
    assert dict(joined)["currentBBB"] == "current_is_initial"
    tables = {r[0] for r in con.sql("SELECT table_name FROM information_schema.tables").fetchall()}
    assert {"parsed", "parsed_quarantine", "pdfs"} <= tables and "rows" not in tables  # no partition has rows


def test_a_parsed_table_without_submission_notes_asks_for_its_rematerialization(tmp_path):
    """A parsed table written before it kept the submission notes: the PDF stage says what to do
    (re-materialize parsed_forums) instead of failing on a missing column."""
    import pytest

    from reviewbench_assets.io.upstream import MissingStageOutputError

    store, api = make_world(tmp_path)
    path = store.path(paths.parsed(VENUE.key))
    old = store.read_parquet(path).drop_columns(["submission_json"])
    with store.fs.open_output_stream(path) as f:
        pq.write_table(old, f)
    with pytest.raises(MissingStageOutputError, match="re-materialize parsed_forums"):
        run_pdf_stage(VENUE, store, api, None, max_workers=1)


def test_the_splits_inputs_are_read_as_of_one_moment_while_the_rows_step_publishes_again(tmp_path):
    """Issue 29.4: the split reads rows, provenance and their statistics (one publication of the rows
    step); a rows step publishing a new generation while the split reads must not give it the new
    statistics beside the old rows (nor the reverse)."""
    from resources.store import store_from_uri
    from reviewbench_assets.io.upstream import Upstream
    from reviewbench_assets.stages.rows_stage import RowsStage, write_rows
    from tests.splits.conftest import as_papers, make_rows

    pk = "iclr-2024"
    store = store_from_uri(str(tmp_path / "root"))

    def publish(n: int) -> None:
        write_rows(RowsStage.outputs_in(store, pk), ((r, {}) for r in as_papers(make_rows(pk, n, seed=n))))

    publish(4)
    with Upstream(store, pk).split_inputs() as source:
        rows = source.read_parquet("rows")
        publish(7)  # the next generation moves into place while the split reads
        stats = source.read_json("stats")["venue_years"][pk]
        provenance = source.read_parquet("provenance")
    assert rows.num_rows == provenance.num_rows == stats["papers"] == 4, (rows.num_rows, stats)
    assert store.read_json(source.path("stats"))["venue_years"][pk]["papers"] == 7  # the store itself moved on
