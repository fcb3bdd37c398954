"""Streaming assembly (issue 5): row-group reads and the Re^2 configs joined by DuckDB in input
order with the records on the probe side of the join (memory flat as the split grows)."""
from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from reviewbench_assets.domain.dialogues import split_of
from reviewbench_assets.domain.schema import (
    PROVENANCE_SCHEMA,
    REBUTTAL_CONFIG_SCHEMA,
    REBUTTAL_RECORD_SCHEMA,
    REVIEW_CONFIG_SCHEMA,
    REVIEW_RECORD_SCHEMA,
)
from reviewbench_assets.io.parquet_batches import iter_parquet_batches
from reviewbench_assets.io.split_inputs import config_split_reader


def test_iter_parquet_batches_reads_row_group_by_row_group(tmp_path, local_fs, rows_factory, input_writer):
    rows = rows_factory("iclr-2024", 23)
    path = input_writer(local_fs, str(tmp_path / "in.parquet"), rows, row_group_size=7)
    batches = list(iter_parquet_batches(local_fs, path, 5))
    # never across a row group boundary: 7 -> 5 + 2, last group 2
    assert [b.num_rows for b in batches] == [5, 2, 5, 2, 5, 2, 2]
    assert pa.Table.from_batches(batches).equals(pq.read_table(path))
    only = list(iter_parquet_batches(local_fs, path, 100, columns=["forum_id", "year"]))
    assert only[0].schema.names == ["forum_id", "year"]
    assert sum(b.num_rows for b in only) == 23


def _write(path, rows, schema, row_group_size=4):
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path, row_group_size=row_group_size)
    return str(path)


def _records(vy: str, n: int, reviewers: int = 3, words: int = 50):
    review, rebuttal, prov = [], [], []
    for i in range(n):
        fid = f"{vy}-{i:04d}"
        base = {"paper_id": fid, "conference_year_track": f"iclr_{vy[-4:]}_main", "conference": "iclr",
                "year": int(vy[-4:]), "track": "main", "venue_id": "ICLR"}
        review.append({**base, "reviews": [], "metareview": "m", "decision": "Reject", "venue": ""})
        for r in range(reviewers):
            rebuttal.append({**base, "reviewer_id": f"Reviewer_{r}", "review_id": f"{fid}-r{r}",
                             "messages": [{"role": "system", "content": "s"},
                                          {"role": "assistant", "content": f"review {r} " * words}],
                             "message_note_ids": [[], [f"{fid}-r{r}"]], "merged_by": "rule-based",
                             "turn_merged_by": ["", ""], "reminders_by": "rule", "dropped_reminder_ids": []})
        prov.append({"forum_id": fid, "conference": "iclr", "year": int(vy[-4:]), "track": "main",
                     "revision_rule": "initial", "pdf_sha256": f"{i:064d}", "ocr_engine": "pypdfium2",
                     "crawled_at": float(i)})
    return review, rebuttal, prov


def test_config_split_reader_keeps_input_order_and_joins_provenance(tmp_path, local_fs):
    vys = ("iclr-2025", "iclr-2023")  # not sorted: the given file order is the output order
    files = {"review": [], "rebuttal": [], "prov": []}
    expected = {"review": [], "rebuttal": []}
    for vy in vys:
        review, rebuttal, prov = _records(vy, 40)
        files["review"].append(_write(tmp_path / f"{vy}.review.parquet", review, REVIEW_RECORD_SCHEMA))
        files["rebuttal"].append(_write(tmp_path / f"{vy}.rebuttal.parquet", rebuttal, REBUTTAL_RECORD_SCHEMA))
        # provenance in another order than the records: the output must still follow the records
        files["prov"].append(_write(tmp_path / f"{vy}.provenance.parquet", prov[::-1], PROVENANCE_SCHEMA))
        expected["review"] += [r["paper_id"] for r in review]
        expected["rebuttal"] += [(r["paper_id"], r["reviewer_id"]) for r in rebuttal]
    # the last paper has no provenance row: kept, provenance fields null (LEFT JOIN)
    last = expected["review"][-1]
    prov_all = pq.read_table(files["prov"][-1])
    _write(tmp_path / "p.parquet", [r for r in prov_all.to_pylist() if r["forum_id"] != last], PROVENANCE_SCHEMA)
    files["prov"][-1] = str(tmp_path / "p.parquet")

    for name, schema in (("review", REVIEW_CONFIG_SCHEMA), ("rebuttal", REBUTTAL_CONFIG_SCHEMA)):
        got_all = []
        for part in ("train", "test"):
            reader = config_split_reader(local_fs, files[name], files["prov"], part, schema,
                                         test_share=0.3, batch_rows=8, temp_dir=str(tmp_path))
            assert reader.schema.equals(schema)
            table = reader.read_all()
            assert all(split_of(p, 0.3) == part for p in table.column("paper_id").to_pylist())
            keys = (table.column("paper_id").to_pylist() if name == "review" else
                    list(zip(table.column("paper_id").to_pylist(), table.column("reviewer_id").to_pylist(), strict=False)))
            want = [k for k in expected[name] if split_of(k if name == "review" else k[0], 0.3) == part]
            assert keys == want  # input order, reviewers of a paper in file order
            for row in table.select(["paper_id", "pdf_sha256", "crawled_at"]).to_pylist():
                if row["paper_id"] == last:
                    assert row["pdf_sha256"] is None
                else:
                    i = int(row["paper_id"][-4:])
                    assert row["pdf_sha256"] == f"{i:064d}" and row["crawled_at"] == float(i)
            got_all += keys
        assert sorted(got_all) == sorted(expected[name])


def test_config_split_reader_streams_records_on_the_probe_side(tmp_path, local_fs):
    """The text-heavy records must be the probe side of DuckDB's hash join (the build side is
    held in memory): the reader hands batches out before the record files are exhausted."""
    review, rebuttal, prov = _records("iclr-2024", 400, words=2_000)  # 1,200 records, ~24 MB of text
    rec = _write(tmp_path / "r.parquet", rebuttal, REBUTTAL_RECORD_SCHEMA, row_group_size=50)
    pv = _write(tmp_path / "p.parquet", prov, PROVENANCE_SCHEMA)
    reads: list[int] = []
    import reviewbench_assets.io.split_inputs as splits_mod

    original = splits_mod.iter_parquet_batches

    def counting(fs, path, batch_rows, columns=None):
        for b in original(fs, path, batch_rows, columns):
            if path == rec:
                reads.append(b.num_rows)
            yield b

    splits_mod.iter_parquet_batches = counting
    try:
        reader = config_split_reader(local_fs, [rec], [pv], "train", REBUTTAL_CONFIG_SCHEMA,
                                     test_share=0.0, batch_rows=50)
        first = reader.read_next_batch()
        assert first.num_rows > 0
        # a build side of the records would have read all 1,200 before the first output batch;
        # as the probe side only DuckDB's bounded read-ahead is read (~600 with duckdb 2.0)
        assert sum(reads) < 1_000
        rest = sum(b.num_rows for b in reader)
        assert first.num_rows + rest == 1_200 == sum(reads)
    finally:
        splits_mod.iter_parquet_batches = original
