"""Issue 38.2: `verify` checks a storage root end to end, local or S3, like `git fsck`: it names every
damaged file with what to re-run, exits non-zero when anything is, changes nothing unless asked to
repair, and a repair leaves a root that verifies clean."""
from __future__ import annotations

import pytest

from resources.store import store_from_uri
from reviewbench_assets.verify import main_text, verify
from tests.faults.damage import damage
from tests.faults.replay_race import dead_token, leave_journal, open_root
from tests.integrity.test_corrupt_corpus import PK, _rows


@pytest.fixture(params=["local", "s3"])
def built(request, tmp_path):
    """A root with one venue-year's rows, the iclr split and the card: (store, where)."""
    from reviewbench_assets.stages.card_stage import CardStage
    from reviewbench_assets.stages.split_stage import SplitStage

    endpoint = None
    if request.param == "local":
        root = str(tmp_path / "root")
    else:
        endpoint = request.getfixturevalue("moto_endpoint")
        root = f"s3://{request.getfixturevalue('s3_bucket')}/root"
    store = open_root(root, endpoint if request.param == "s3" else None)
    _rows(store, 8)
    SplitStage("iclr", 0.05)(store)
    CardStage()(store)
    return store, request.param


def _shard(store) -> str:
    from huggingface_hub import DatasetCard

    header = DatasetCard(store.read_bytes(store.path("corpus/README.md")).decode()).data.to_dict()
    return next(f"corpus/{p}" for c in header["configs"] for e in c["data_files"] for p in e["path"]
                if p.startswith("data/"))


def test_a_clean_root_verifies_and_a_damaged_file_is_named_with_what_to_rerun(built):
    store, _where = built
    text, code = main_text(verify(store))
    assert code == 0, text
    shard, rows = _shard(store), f"rows/{PK}.parquet"
    damage(store, store.path(shard), "zero")
    damage(store, store.path(rows), "zero")
    before = {p: store.read_bytes(store.path(p)) for p in (shard, rows)}
    report = verify(store)
    text, code = main_text(report)
    assert code == 1
    found = {(f.path, f.fix) for f in report.damaged}
    assert any(p == shard and "re-materialize iclr_split" in fix for p, fix in found), text
    assert any(p == rows and f"re-materialize reviewbench_split for {PK}" in fix for p, fix in found), text
    assert {p: store.read_bytes(store.path(p)) for p in before} == before  # nothing changed


def test_a_pending_journal_is_reported_and_left_until_repair_which_leaves_a_clean_root(built):
    store, where = built
    shard = _shard(store)
    damage(store, store.path(shard), "truncate")
    journal = leave_journal(store, dead_token(), {store.path("extra/a.json"): b"{}", store.path("extra/b.json"): b"{}"})
    report = verify(store)
    assert {journal.removeprefix(store.root + "/"), shard} <= {f.path for f in report.damaged}, report.text()
    assert store.exists(journal)  # verify alone replays nothing
    repaired = verify(store, repair=True, log=lambda _m: None)
    text, code = main_text(repaired)
    assert code == 0 and "iclr_split" in repaired.repaired, text
    assert not store.exists(journal) and store.read_bytes(store.path("extra/a.json")) == b"{}"
    assert shard not in _listed_of(store)  # the part was written again under a new generation


def test_verify_asks_one_listing_whether_files_are_there_not_the_store_file_by_file(tmp_path, monkeypatch):
    """On S3 each `exists` is a HEAD request: verify asked thousands per check (the expected files of
    every venue-year of the catalogue), 33 s of the S3 case above against moto. One listing of the root
    answers them; the per-file questions left are the split's few."""
    from partitions.catalogue import catalogue
    from resources.store import Store
    from reviewbench_assets.stages.card_stage import CardStage
    from reviewbench_assets.stages.split_stage import SplitStage

    store = store_from_uri(str(tmp_path / "root"))
    _rows(store, 8)
    SplitStage("iclr", 0.05)(store)
    CardStage()(store)
    asked = []
    real_exists = Store.exists
    monkeypatch.setattr(Store, "exists", lambda self, path: asked.append(path) or real_exists(self, path))
    text, code = main_text(verify(store))
    assert code == 0, text
    assert len(asked) < len(catalogue().venues), (len(asked), asked[:30])  # not one per venue-year (716 before)


def _listed_of(store) -> list[str]:
    from huggingface_hub import DatasetCard

    header = DatasetCard(store.read_bytes(store.path("corpus/README.md")).decode()).data.to_dict()
    return [f"corpus/{p}" for c in header["configs"] for e in c["data_files"] for p in e["path"]]


def test_the_command_exits_non_zero_on_a_damaged_root(tmp_path, monkeypatch, capsys):
    from scripts.verify import main

    store = store_from_uri(str(tmp_path / "root"))
    _rows(store, 6)
    from reviewbench_assets.stages.split_stage import SplitStage

    SplitStage("iclr", 0.05)(store)
    assert main(["--root", store.root]) == 0
    damage(store, store.path(f"rows/{PK}.stats.json"), "truncate")
    assert main(["--root", store.root]) == 1
    out = capsys.readouterr().out
    assert f"DAMAGED rows/{PK}.stats.json" in out and f"re-materialize reviewbench_split for {PK}" in out




def test_the_dagster_job_fails_on_a_damaged_root_and_passes_once_repaired(tmp_path):
    from resources import StorageResource
    from reviewbench_assets.definitions import defs

    store = store_from_uri(str(tmp_path / "root"))
    _rows(store, 6)
    damage(store, store.path(f"rows/{PK}.stats.json"), "zero")
    job = defs.get_job_def("verify_storage")
    res = {"storage": StorageResource(root=store.root)}
    assert not job.execute_in_process(resources=res, raise_on_error=False).success
    store.write_json(store.path(f"rows/{PK}.stats.json"), {"venue_years": {}})  # the owner wrote it again
    assert job.execute_in_process(resources=res).success
