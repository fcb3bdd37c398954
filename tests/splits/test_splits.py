"""write_conference_split / write_config_table, checked against statistics recomputed from the shards."""
from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
import pytest

from reviewbench_assets.domain.corpus_stats import SplitStats, is_accepted, venue_year_key
from reviewbench_assets.domain.reviews import parse_score as parse_rating
from reviewbench_assets.domain.schema import PAGE_SEPARATOR, REVIEWBENCH_SCHEMA
from reviewbench_assets.io.corpus_writer import (
    DuplicateForumError,
    SchemaMismatchError,
    write_conference_split,
    write_config_table,
)
from reviewbench_assets.io.shards import list_split_shards
from tests.splits.stats_oracle import compute_split_stats


def _names(paths):
    return [p.rsplit("/", 1)[-1] for p in paths]


def _read_all(fs, paths) -> pa.Table:
    return pa.concat_tables(pq.read_table(p, filesystem=fs) for p in paths)


def _listing(fs, root):
    sel = pafs.FileSelector(root, recursive=True, allow_not_found=True)
    return sorted(i.path[len(root):] for i in fs.get_file_info(sel) if i.type == pafs.FileType.File)


@pytest.fixture
def iclr_inputs(tmp_path, local_fs, rows_factory, input_writer):
    base = str(tmp_path / "inputs")
    return [
        input_writer(local_fs, f"{base}/iclr-2023.parquet", rows_factory("iclr-2023", 20)),
        input_writer(local_fs, f"{base}/iclr-2024.parquet", rows_factory("iclr-2024", 10)),
    ]


def test_shards_names_schema_rows_and_row_groups(tmp_path, local_fs, iclr_inputs):
    out = str(tmp_path / "out")
    stats = write_conference_split(
        local_fs, iclr_inputs, out, "iclr", target_shard_bytes=1, row_group_rows=10
    )
    assert _names(stats.files) == [
        "iclr-00000-of-00003.parquet",
        "iclr-00001-of-00003.parquet",
        "iclr-00002-of-00003.parquet",
    ]
    assert stats.files == list_split_shards(local_fs, out, "iclr")
    assert stats.files[0] == f"{out}/data/iclr-00000-of-00003.parquet"
    assert stats.num_examples == 30
    assert stats.num_bytes == sum(local_fs.get_file_info(p).size for p in stats.files)
    assert stats.dataset_bytes > stats.num_bytes  # compressed on disk
    for path in stats.files:
        schema = pq.read_schema(path, filesystem=local_fs)
        assert schema.equals(REVIEWBENCH_SCHEMA, check_metadata=False)
        assert schema.names == REVIEWBENCH_SCHEMA.names and len(schema) == 20
        md = pq.ParquetFile(path, filesystem=local_fs).metadata
        assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [10]
    # Rows in input order, then file order.
    got = _read_all(local_fs, stats.files)
    want = pa.concat_tables(pq.read_table(p, filesystem=local_fs) for p in iclr_inputs)
    assert got.column("forum_id").to_pylist() == want.column("forum_id").to_pylist()
    assert got.cast(REVIEWBENCH_SCHEMA).equals(want.cast(REVIEWBENCH_SCHEMA))
    # Nothing but the final shards is left behind.
    assert _listing(local_fs, out) == [f"/data/{n}" for n in _names(stats.files)]


def test_target_shard_bytes_groups_row_groups(tmp_path, local_fs, iclr_inputs):
    out = str(tmp_path / "out")
    one = write_conference_split(local_fs, iclr_inputs, out, "iclr", target_shard_bytes=10**12,
                                 row_group_rows=7)
    assert _names(one.files) == ["iclr-00000-of-00001.parquet"]
    md = pq.ParquetFile(one.files[0], filesystem=local_fs).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [7, 7, 7, 7, 2]

    # About 2.5 row groups' worth per shard -> shards of 2 row groups.
    target = int(one.dataset_bytes / 5 * 2.5)
    many = write_conference_split(local_fs, iclr_inputs, out, "iclr", target_shard_bytes=target,
                                  row_group_rows=7)
    n = len(many.files)
    assert n >= 2
    assert _names(many.files) == [f"iclr-{i:05d}-of-{n:05d}.parquet" for i in range(n)]
    sizes = []
    for p in many.files:
        md = pq.ParquetFile(p, filesystem=local_fs).metadata
        sizes += [md.row_group(i).num_rows for i in range(md.num_row_groups)]
        assert md.num_row_groups <= 3
    assert sizes == [7, 7, 7, 7, 2]
    assert many.num_examples == 30


def test_rerun_with_fewer_rows_removes_stale_shards(tmp_path, local_fs, rows_factory,
                                                     input_writer, iclr_inputs):
    out = str(tmp_path / "out")
    first = write_conference_split(local_fs, iclr_inputs, out, "iclr", target_shard_bytes=1,
                                   row_group_rows=10)
    assert len(first.files) == 3
    # Another split's shards must survive.
    nips = input_writer(local_fs, str(tmp_path / "inputs/neurips-2023.parquet"),
                        rows_factory("neurips-2023", 5))
    write_conference_split(local_fs, [nips], out, "neurips")
    small = input_writer(local_fs, str(tmp_path / "inputs/iclr-small.parquet"),
                         rows_factory("iclr-2024", 15))
    second = write_conference_split(local_fs, [small], out, "iclr", target_shard_bytes=1,
                                    row_group_rows=10)
    assert _names(second.files) == ["iclr-00000-of-00002.parquet", "iclr-00001-of-00002.parquet"]
    assert _listing(local_fs, out) == [
        "/data/iclr-00000-of-00002.parquet",
        "/data/iclr-00001-of-00002.parquet",
        "/data/neurips-00000-of-00001.parquet",
    ]
    assert _read_all(local_fs, second.files).num_rows == 15
    # An empty split removes every shard of it.
    empty = write_conference_split(local_fs, [], out, "iclr")
    assert empty.files == [] and empty.num_examples == 0 and empty.venue_years == {}
    assert _listing(local_fs, out) == ["/data/neurips-00000-of-00001.parquet"]


def test_deterministic_bytes(tmp_path, local_fs, rows_factory, input_writer, iclr_inputs):
    out = str(tmp_path / "out")

    def snapshot(stats):
        return {p: local_fs.open_input_stream(p).readall() for p in stats.files}

    a = snapshot(write_conference_split(local_fs, iclr_inputs, out, "iclr", 150_000, 8))
    b = snapshot(write_conference_split(local_fs, iclr_inputs, out, "iclr", 150_000, 8))
    assert a == b
    # Input row-group layout does not matter either.
    other = [
        input_writer(local_fs, str(tmp_path / f"in2/{i}.parquet"),
                     pq.read_table(p, filesystem=local_fs).to_pylist(), row_group_size=3)
        for i, p in enumerate(iclr_inputs)
    ]
    out2 = str(tmp_path / "out2")
    c = write_conference_split(local_fs, other, out2, "iclr", 150_000, 8)
    assert [local_fs.open_input_stream(p).readall() for p in c.files] == list(a.values())


def test_stats_per_venue_year(tmp_path, local_fs, rows_factory):
    """The split's statistics (merged from what each venue-year's rows step computed by SQL) against
    the rows' own columns and against the row loop over the published shards (the oracle)."""
    from resources.store import store_from_uri
    from reviewbench_assets.stages.split_stage import SplitStage, update_conference_split
    from tests.splits.conftest import write_venue_rows

    rows = {k: rows_factory(k, n) for k, n in
            [("neurips-2023", 14), ("neurips-2023-datasets_and_benchmarks", 9)]}
    for k, r in rows.items():
        write_venue_rows(local_fs, str(tmp_path), k, r)
    stats = update_conference_split(SplitStage.outputs_in(store_from_uri(str(tmp_path)), "neurips"), list(rows),
                                    target_shard_bytes=50_000, row_group_rows=4).stats
    assert len(stats.files) > 2  # several shards per venue-year
    assert set(stats.venue_years) == {"neurips-2023", "neurips-2023-datasets_and_benchmarks"}
    for key, rs in rows.items():
        vy = stats.venue_years[key]
        assert vy.papers == len(rs)
        assert vy.reviews == sum(r["num_reviews"] for r in rs)
        assert vy.pages == sum(r["markdown"].count(PAGE_SEPARATOR) + 1 for r in rs if r["markdown"])
        assert vy.pages > vy.papers
        assert vy.accepted == sum(r["decision"].startswith("Accept") for r in rs)
        ratings = [rv["rating"] for r in rs for rv in json.loads(r["reviews_json"])]
        assert vy.num_ratings == len(ratings)
        assert vy.mean_rating == pytest.approx(sum(ratings) / len(ratings))
    assert stats.papers == 23
    # Recomputed from the published shards by the row loop: the same numbers (text rules aside: the
    # shards of the default config do not say where a paper's text came from).
    again = compute_split_stats(local_fs, str(tmp_path / "corpus"), "neurips", row_group_rows=4, files=stats.files)
    for key, vy in stats.venue_years.items():
        assert {**again.venue_years[key].to_dict(), "text_rules": vy.text_rules, "paper_licenses": vy.paper_licenses,
                "review_licenses": vy.review_licenses} == vy.to_dict()  # licenses: provenance and reviews too
    # JSON round trip (e.g. for Dagster metadata / a stats sidecar).
    assert SplitStats.from_dict(json.loads(json.dumps(stats.to_dict()))).to_dict() == stats.to_dict()


@pytest.mark.parametrize(
    "mutate, column",
    [
        (lambda t: t.drop_columns(["tldr"]), "tldr"),
        (lambda t: t.set_column(2, "year", t.column("year").cast(pa.int64())), "year"),
        (lambda t: t.append_column("extra", pa.array(["x"] * t.num_rows)), "extra"),
        (lambda t: t.set_column(8, "authors", pa.array(["a"] * t.num_rows)), "authors"),
    ],
)
def test_bad_input_schema_names_file_and_column(tmp_path, local_fs, rows_factory, input_writer,
                                                iclr_inputs, mutate, column):
    out = str(tmp_path / "out")
    write_conference_split(local_fs, iclr_inputs, out, "iclr")
    before = _listing(local_fs, out)
    good = pa.Table.from_pylist(rows_factory("iclr-2024", 3, seed=9), schema=REVIEWBENCH_SCHEMA)
    bad_path = str(tmp_path / "inputs/bad-iclr.parquet")
    pq.write_table(mutate(good), bad_path, filesystem=local_fs)
    with pytest.raises(SchemaMismatchError) as exc:
        write_conference_split(local_fs, [iclr_inputs[0], bad_path], out, "iclr")
    assert bad_path in str(exc.value) and repr(column) in str(exc.value)
    assert exc.value.path == bad_path and exc.value.column == column
    # Nothing published, nothing left behind.
    assert _listing(local_fs, out) == before


def test_duplicate_forum_ids_rejected(tmp_path, local_fs, iclr_inputs):
    with pytest.raises(DuplicateForumError, match="iclr-2023-0-0000"):
        write_conference_split(local_fs, [iclr_inputs[0], iclr_inputs[0]],
                               str(tmp_path / "out"), "iclr")


def test_invalid_split_name(tmp_path, local_fs):
    with pytest.raises(ValueError, match="split"):
        write_conference_split(local_fs, [], str(tmp_path / "out"), "iclr-2024")


def test_subtree_filesystem(tmp_path, rows_factory, input_writer):
    fs = pafs.SubTreeFileSystem(str(tmp_path / "root"), pafs.LocalFileSystem())
    (tmp_path / "root").mkdir()
    inp = input_writer(fs, "inputs/emnlp-2023.parquet", rows_factory("emnlp-2023", 12))
    for out_dir in ("bucket/prefix", ""):
        stats = write_conference_split(fs, [inp], out_dir, "emnlp", target_shard_bytes=1,
                                       row_group_rows=5)
        prefix = f"{out_dir}/" if out_dir else ""
        assert stats.files == [f"{prefix}data/emnlp-0000{i}-of-00003.parquet" for i in range(3)]
        assert (tmp_path / "root" / prefix / "data" / "emnlp-00002-of-00003.parquet").is_file()
        cfg = write_config_table(fs, pa.table({"forum_id": ["a", "b"]}), out_dir, "provenance",
                                 "emnlp")
        assert cfg.path == f"{prefix}provenance/emnlp-00000-of-00001.parquet"
        assert (tmp_path / "root" / cfg.path).is_file()


def test_write_config_table_variants(tmp_path, local_fs):
    out = str(tmp_path / "out")
    schema = pa.schema([("forum_id", pa.string()), ("pdf_sha256", pa.string()),
                        ("rule", pa.string())])
    table = pa.table({"forum_id": [f"f{i}" for i in range(25)],
                      "pdf_sha256": ["0" * 64] * 25, "rule": ["initial"] * 25}, schema=schema)
    a = write_config_table(local_fs, table, out, "provenance", "iclr", row_group_rows=10)
    assert a.num_examples == 25 and a.path == f"{out}/provenance/iclr-00000-of-00001.parquet"
    md = pq.ParquetFile(a.path, filesystem=local_fs).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [10, 10, 5]
    first_bytes = local_fs.open_input_stream(a.path).readall()
    # A generator of batches (streamed) gives the same file.
    b = write_config_table(local_fs, (b for b in table.to_batches(max_chunksize=4)), out,
                           "provenance", "iclr", row_group_rows=10)
    assert local_fs.open_input_stream(b.path).readall() == first_bytes
    # Empty iterable needs a schema.
    with pytest.raises(ValueError, match="schema"):
        write_config_table(local_fs, iter([]), out, "provenance", "tmlr")
    c = write_config_table(local_fs, iter([]), out, "provenance", "tmlr", schema=schema)
    assert c.num_examples == 0
    with pytest.raises(ValueError, match="reserved"):
        write_config_table(local_fs, table, out, "default", "iclr")
    assert _listing(local_fs, out) == ["/provenance/iclr-00000-of-00001.parquet",
                                       "/provenance/tmlr-00000-of-00001.parquet"]


@pytest.mark.parametrize(
    "decision, venue, expected",
    [
        ("Accept (poster)", "ICLR 2024 poster", True),
        ("Accept-Findings", "", True),
        ("accept with minor revision", "Accepted by TMLR", True),
        ("Reject", "ICLR 2024 poster", False),  # decision wins
        ("", "NeurIPS 2023 poster", True),
        ("", "Submitted to ICLR 2024", False),
        ("", "ICLR 2024 Conference Withdrawn Submission", False),
        ("", "ICLR 2024 Conference Desk Rejected Submission", False),
        ("", "Rejected by TMLR", False),
        ("", "", False),
        ("Poster", "CoRL 2022 Poster", True),  # unrecognised decision -> venue rule
        ("Withdrawn", "", False),
    ],
)
def test_is_accepted(decision, venue, expected):
    assert is_accepted(decision, venue) is expected


def test_parse_rating_and_keys():
    assert parse_rating(6) == 6.0
    assert parse_rating(6.5) == 6.5
    assert parse_rating("8: accept, good paper") == 8.0
    assert parse_rating(None) is None and parse_rating("") is None and parse_rating(True) is None
    assert parse_rating(float("nan")) is None
    assert venue_year_key("iclr", 2024, "main") == "iclr-2024"
    assert venue_year_key("emnlp", 2023, "findings") == "emnlp-2023-findings"
    assert venue_year_key("tmlr", None, "") == "tmlr"
    # a rolling venue is its one partition, whatever year its rows carry (the card said "tmlr-2023")
    assert venue_year_key("tmlr", 2023, "main") == "tmlr"
