"""The dataset card and the end-to-end `datasets.load_dataset(<out_dir>)` contract."""
from __future__ import annotations

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
import pytest
import yaml

from resources.store import Store
from reviewbench_assets.domain.card import (
    rating_histogram,
    render_dataset_card,
)
from reviewbench_assets.domain.corpus_stats import VenueYearStats
from reviewbench_assets.domain.manifest import hf_features
from reviewbench_assets.domain.schema import REVIEW_FIELDS, REVIEWBENCH_SCHEMA
from reviewbench_assets.io.corpus_writer import write_conference_split, write_config_table
from reviewbench_assets.io.layout import paths
from tests.card_files import write_dataset_card
from tests.splits.conftest import write_venue_rows
from tests.splits.stats_oracle import compute_split_stats

SPLIT_INPUTS = {
    "neurips": [("neurips-2023", 13), ("neurips-2023-datasets_and_benchmarks", 6)],
    "iclr": [("iclr-2023", 17), ("iclr-2024", 11)],
    "emnlp": [("emnlp-2023", 9), ("emnlp-2023-findings", 5)],
    "tmlr": [],  # no data: must not become a split
}
PROVENANCE_SCHEMA = pa.schema(
    [("forum_id", pa.string()), ("rule", pa.string()), ("pdf_sha256", pa.string()),
     ("ocr_engine", pa.string())]
)


def _front_matter(text: str) -> dict:
    assert text.startswith("---\n")
    head, _, _ = text[4:].partition("\n---\n")
    return yaml.safe_load(head)


def build(fs, root: str, tmp_inputs: str, rows_factory, input_writer, stale_staging=False):
    """Each venue-year's rows written by the rows step's writer (with the statistics it records,
    stages/rows_stage.py) under `tmp_inputs`, then one conference split of them per conference."""
    stats = {}
    for split, vys in SPLIT_INPUTS.items():
        inputs, venue_years = [], {}
        for vy, n in vys:
            inputs.append(write_venue_rows(fs, tmp_inputs, vy, rows_factory(vy, n)))
            recorded = Store(fs, tmp_inputs).read_json(f"{tmp_inputs}/{paths.rows_stats(vy)}")["venue_years"]
            venue_years.update({k: VenueYearStats.from_dict(v) for k, v in recorded.items()})
        stats[split] = write_conference_split(fs, inputs, root, split, target_shard_bytes=60_000, row_group_rows=5,
                                              venue_years=venue_years)
    extra = {"provenance": []}
    for split in ("neurips", "iclr", "emnlp"):
        ids = pa.concat_tables(pq.read_table(p, filesystem=fs, columns=["forum_id"])
                               for p in stats[split].files).column("forum_id")
        n = len(ids)
        table = pa.table({"forum_id": ids, "rule": ["initial"] * n, "pdf_sha256": ["ab" * 32] * n,
                          "ocr_engine": ["nemotron-ocr-v2"] * n}, schema=PROVENANCE_SCHEMA)
        write_config_table(fs, table, root, "provenance", split)
        extra["provenance"].append(split)
    text = render_dataset_card(stats, extra, "2026-04-30T12:00:00Z")
    write_dataset_card(fs, root, text)
    return stats, extra, text


def test_card_front_matter(tmp_path, local_fs, rows_factory, input_writer):
    root = str(tmp_path / "out")
    stats, extra, text = build(local_fs, root, str(tmp_path / "in"), rows_factory, input_writer)
    assert local_fs.open_input_stream(f"{root}/README.md").readall().decode() == text
    fm = _front_matter(text)
    assert fm["license"] == "unknown"  # the fixture's notes state no license (as API v1 notes)
    assert fm["pretty_name"]
    assert fm["size_categories"] == ["n<1K"]
    default, prov = fm["configs"]
    assert default == {
        "config_name": "default",
        "default": True,
        "data_files": [{"split": s, "path": f"data/{s}-*"} for s in ("neurips", "iclr", "emnlp")],
    }
    assert prov == {
        "config_name": "provenance",
        "data_files": [{"split": s, "path": f"provenance/{s}-*"}
                       for s in ("neurips", "iclr", "emnlp")],
    }
    info = fm["dataset_info"]
    assert info["features"][:3] == [
        {"name": "forum_id", "dtype": "string"},
        {"name": "conference", "dtype": "string"},
        {"name": "year", "dtype": "int32"},
    ]
    assert {"name": "authors", "list": "string"} in info["features"]
    assert {"name": "markdown_chars", "dtype": "int64"} in info["features"]
    assert [f["name"] for f in info["features"]] == REVIEWBENCH_SCHEMA.names
    assert info["splits"] == [
        {"name": s, "num_bytes": stats[s].dataset_bytes, "num_examples": stats[s].num_examples}
        for s in ("emnlp", "iclr", "neurips")
    ]
    assert info["download_size"] == sum(stats[s].num_bytes for s in stats)
    # Body: per venue-year table, totals, histograms, the review field union.
    for key in ("iclr-2023", "iclr-2024", "neurips-2023-datasets_and_benchmarks",
                "emnlp-2023-findings"):
        assert f"`{key}`" in text
    assert "## Rating distributions" in text and "█" in text
    assert "**total**" in text
    assert f"**{sum(s.papers for s in stats.values())}** papers" in text
    for field in REVIEW_FIELDS:
        assert f"`{field}`" in text
    assert "tmlr" in text.split("## Statistics per venue-year")[0]  # listed as without data
    # No staging leftovers.
    assert local_fs.get_file_info(f"{root}/.staging").type in (
        pafs.FileType.Directory, pafs.FileType.NotFound)
    leftovers = local_fs.get_file_info(pafs.FileSelector(f"{root}/.staging", allow_not_found=True,
                                                         recursive=True))
    assert leftovers == []


def test_card_with_no_data_has_no_configs():
    fm = _front_matter(render_dataset_card({}, None, "now"))
    assert fm["configs"] == [] and "dataset_info" not in fm


def test_hf_features_notation():
    feats = hf_features(REVIEWBENCH_SCHEMA)
    assert len(feats) == 20
    assert {"name": "paper_number", "dtype": "int32"} in feats
    assert {"name": "keywords", "list": "string"} in feats


def test_rating_histogram():
    text = rating_histogram({1.0: 2, 3.0: 10, 8.0: 5})
    lines = text.splitlines()
    assert len(lines) == 3 and lines[1].startswith("3 │ " + "█" * 40)
    assert "(58.8%)" in lines[1]
    wide = rating_histogram({float(i) / 10: 1 for i in range(100)})
    assert len(wide.splitlines()) == 20
    assert rating_histogram({}) == "(no ratings)"


def test_load_dataset_offline(tmp_path, local_fs, rows_factory, input_writer):
    datasets = pytest.importorskip("datasets")
    root = str(tmp_path / "out")
    stats, _, _ = build(local_fs, root, str(tmp_path / "in"), rows_factory, input_writer)
    assert len(stats["iclr"].files) >= 3  # several shards per split
    # A leftover of a crashed run must not be picked up.
    local_fs.create_dir(f"{root}/.staging/iclr-deadbeef", recursive=True)
    pq.write_table(pa.table({"x": [1]}), f"{root}/.staging/iclr-deadbeef/part-00000.parquet")

    cache = str(tmp_path / "hf_cache")
    ds = datasets.load_dataset(root, cache_dir=cache)
    assert isinstance(ds, datasets.DatasetDict)
    assert set(ds) == {"neurips", "iclr", "emnlp"}
    for split, d in ds.items():
        assert d.column_names == REVIEWBENCH_SCHEMA.names
        assert d.num_rows == stats[split].num_examples
        assert d.features["year"] == datasets.Value("int32")
        assert d.features["markdown_chars"] == datasets.Value("int64")
        assert d.data.schema.field("authors").type.value_type == pa.string()
    assert ds["iclr"].num_rows == 28
    assert ds["iclr"][0]["forum_id"] == "iclr-2023-0-0000"
    assert ds["iclr"][27]["forum_id"] == "iclr-2024-0-0010"

    prov = datasets.load_dataset(root, "provenance", cache_dir=cache)
    assert set(prov) == {"neurips", "iclr", "emnlp"}
    assert prov["iclr"].column_names == PROVENANCE_SCHEMA.names
    assert prov["emnlp"].num_rows == stats["emnlp"].num_examples


def test_compute_stats_then_card(tmp_path, local_fs, rows_factory, input_writer):
    """A card can be rendered from stats recomputed from already-published shards by the row loop
    the platform used before its statistics were SQL (issue 28.3): the same card. (The text rules
    come from the provenance, which the default config's shards do not hold: taken as recorded.)"""
    root = str(tmp_path / "out")
    stats, extra, text = build(local_fs, root, str(tmp_path / "in"), rows_factory, input_writer)
    again = {s: compute_split_stats(local_fs, root, s) for s in SPLIT_INPUTS}
    for s, split_stats in again.items():
        for key, vy in split_stats.venue_years.items():
            assert vy.moves and vy.rating_counts  # the figures the comparison is about are there
            vy.text_rules = stats[s].venue_years[key].text_rules
            vy.paper_licenses = stats[s].venue_years[key].paper_licenses  # from the provenance too
            vy.review_licenses = stats[s].venue_years[key].review_licenses
    assert render_dataset_card(again, extra, "2026-04-30T12:00:00Z") == text


def test_s3_filesystem_with_moto(tmp_path, rows_factory, input_writer):
    """The same code against S3 (moto server); skipped when moto is unavailable."""
    moto_server = pytest.importorskip("moto.server")
    boto3 = pytest.importorskip("boto3")
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0)
    server.start()
    try:
        host, port = server.get_host_and_port()
        endpoint = f"http://{host}:{port}"
        boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                     aws_access_key_id="test", aws_secret_access_key="test"
                     ).create_bucket(Bucket="reviewbench")
        fs = pafs.S3FileSystem(access_key="test", secret_key="test", region="us-east-1",
                               endpoint_override=f"{host}:{port}", scheme="http",
                               allow_bucket_creation=True)
        root = "reviewbench/prod/hf"
        stats, extra, text = build(fs, root, "reviewbench/prod/inputs", rows_factory,
                                   input_writer)
        assert stats["iclr"].files[0] == f"{root}/data/iclr-00000-of-{len(stats['iclr'].files):05d}.parquet"
        # Re-run with fewer rows: stale objects removed.
        small = input_writer(fs, "reviewbench/prod/inputs/small.parquet",
                             rows_factory("iclr-2024", 4))
        s2 = write_conference_split(fs, [small], root, "iclr", target_shard_bytes=1,
                                    row_group_rows=2)
        assert [p.rsplit("/", 1)[-1] for p in s2.files] == [
            "iclr-00000-of-00002.parquet", "iclr-00001-of-00002.parquet"]
        listed = [i.base_name for i in fs.get_file_info(pafs.FileSelector(f"{root}/data"))
                  if i.base_name.startswith("iclr-")]
        assert sorted(listed) == sorted(p.rsplit("/", 1)[-1] for p in s2.files)
        assert fs.open_input_stream(f"{root}/README.md").readall().decode() == text
        staged = fs.get_file_info(pafs.FileSelector(f"{root}/.staging", allow_not_found=True,
                                                    recursive=True))
        assert [i for i in staged if i.type == pafs.FileType.File] == []
    finally:
        server.stop()
