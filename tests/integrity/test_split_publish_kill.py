"""Issue 29.1: a run killed inside a venue-year's multi-shard split publish. Its journal lives where
`Store.recover()` looks (the root's `.publish/`), so the next reader finds one generation of shards
(no forum id twice), no journal and no staging left, on local disk and S3 (moto_server); and the
next split does not wait out the dead run's lock lease (its holder is known dead). Issue 29.4: the
journal holds README.md's manifest of the split too, so after recovery README.md lists exactly the
shards on disk, one generation (what `datasets.load_dataset(<root>/corpus)` reads)."""
from __future__ import annotations

import multiprocessing
import time

import pyarrow.parquet as pq
import pytest

from resources import store_publish
from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from tests.faults.kill_points import die_after_first_move
from tests.splits.conftest import make_rows, write_venue_rows

PK = "iclr-2024"


def _s3_factory(endpoint: str):
    def client():
        import boto3

        return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                            aws_access_key_id="testing-key", aws_secret_access_key="testing-secret")
    return client


def _open(root: str, s3: dict | None, endpoint: str | None, recover: bool = True):
    if s3 is None:
        return store_from_uri(root, recover=recover)
    return store_from_uri(root, s3, s3_client_factory=_s3_factory(endpoint), recover=recover)


def _split(store) -> None:
    from reviewbench_assets.stages.split_stage import SplitStage

    SplitStage("iclr", 0.05, print)(store)


def _killed_inside_the_split(root: str, s3: dict | None, endpoint: str | None) -> None:
    """Rebuild the split with three shards where two were, dying (no cleanup, as kill -9) after the
    first shard moved into place: the other two and the stale shards wait for the journal. (Small
    shards: the parent's patch of the writer is inherited through fork.)"""
    store = _open(root, s3, endpoint)
    die_after_first_move()
    _split(store)


def _forum_ids(store) -> list[str]:
    ids = []
    for path in store.list_files(store.path("corpus/data")):
        if path.rsplit("/", 1)[-1].startswith("iclr-"):
            ids += pq.read_table(path, filesystem=store.fs, columns=["forum_id"]).column(0).to_pylist()
    return ids


def _manifest_is_the_disk(store) -> list[str]:
    """README.md's data_files (every config) are exactly the published shards under the corpus, and
    its row count of the split is theirs. Returns the default config's files of the split."""
    from huggingface_hub import DatasetCard

    from reviewbench_assets.io.shards import corpus_listing

    header = DatasetCard(store.read_bytes(store.path("corpus/README.md")).decode()).data.to_dict()
    listed = sorted(f for c in header["configs"] for e in c["data_files"] for f in e["path"])
    assert listed == sorted(corpus_listing(store, store.path("corpus")))
    default = [f for c in header["configs"] if c["config_name"] == "default" for e in c["data_files"]
               if e["split"] == "iclr" for f in e["path"]]
    rows = sum(pq.read_metadata(store.path("corpus", f), filesystem=store.fs).num_rows for f in default)
    assert [s["num_examples"] for s in header["dataset_info"]["splits"] if s["name"] == "iclr"] == [rows]
    return default


@pytest.mark.parametrize("where", ["local", "s3"])
def test_a_split_killed_inside_its_multi_shard_publish_is_whole_for_the_next_reader(tmp_path, where, request,
                                                                                    monkeypatch):
    from reviewbench_assets.dagster_step import record_checks
    from reviewbench_assets.io import stage_io as split_writer

    s3 = endpoint = None
    root = str(tmp_path / "root")
    if where == "s3":
        bucket = request.getfixturevalue("s3_bucket")
        endpoint = request.getfixturevalue("moto_endpoint")
        s3 = {"endpoint_override": endpoint.removeprefix("http://"), "scheme": "http", "region": "us-east-1",
              "access_key": "testing-key", "secret_key": "testing-secret"}
        root = f"s3://{bucket}/root"
    store = _open(root, s3, endpoint)
    real_writer = split_writer.write_conference_split  # one shard per five rows
    monkeypatch.setattr(split_writer, "write_conference_split",
                        lambda fs, inputs, out, split, _t, _r, **kw: real_writer(fs, inputs, out, split, 1, 5, **kw))

    def rows(n: int, seed: int) -> None:
        write_venue_rows(store.fs, store.root, PK, make_rows(PK, n, seed=seed))
        for asset in ("openreview_forums", "parsed_forums", "rebuttal_dialogues", "reviewbench_split"):
            record_checks(store, PK, asset, [], allow_failing=False)  # judged, passed

    rows(10, seed=1)  # two shards of five rows
    _split(store)
    assert sorted(_forum_ids(store)) == sorted(r["forum_id"] for r in make_rows(PK, 10, seed=1))
    _manifest_is_the_disk(store)
    rows(15, seed=1)  # three shards, the same forum ids and five more
    proc = multiprocessing.get_context("fork").Process(target=_killed_inside_the_split, args=(root, s3, endpoint))
    proc.start()
    proc.join(120)
    assert proc.exitcode == 137
    before = _open(root, s3, endpoint, recover=False)  # what a reader would see without recovery
    assert len(_forum_ids(before)) > len(set(_forum_ids(before))), "the kill did not land inside the publish"
    assert store.list_files(store.path(store_publish.JOURNAL_DIR)), "the journal is where recover() looks"

    reader = _open(root, s3, endpoint)  # any reader path recovers first
    ids = _forum_ids(reader)
    assert len(ids) == len(set(ids)) and sorted(ids) == sorted(r["forum_id"] for r in make_rows(PK, 15, seed=1))
    everything = reader.list_files(reader.path(""))
    assert [p for p in everything if "/.publish/" in p] == []
    assert [p for p in everything if ".tmp-" in p] == []
    part = reader.read_json(reader.path(paths.split_part("iclr", PK)))  # the record moved with its shards
    assert sorted(reader.path(f) for f in part["data_files"]) == sorted(
        p for p in reader.list_files(reader.path("corpus/data")) if p.rsplit("/", 1)[-1].startswith("iclr-"))
    assert sorted(_manifest_is_the_disk(reader)) == sorted(f.removeprefix("corpus/") for f in part["data_files"])

    # the dead run held the split's lock: the next split takes it at once (its holder is known dead)
    rows(12, seed=1)
    started = time.monotonic()
    _split(reader)
    assert time.monotonic() - started < 30, "the next split waited out the dead run's lease"
    ids = _forum_ids(reader)
    assert sorted(ids) == sorted(r["forum_id"] for r in make_rows(PK, 12, seed=1))
    _manifest_is_the_disk(reader)
