"""The one-off migration that replaced the split update's branch for the layout before parts
(scripts/migrate_storage.py, issue 28.5): it removes the whole-split shards of every config, and
nothing of the per-venue-year layout, which the split update keeps to itself."""
from __future__ import annotations

from resources.store import store_from_uri
from reviewbench_assets import paths
from reviewbench_assets.stages.corpus_writer import write_conference_split
from reviewbench_assets.stages.split_update import update_conference_split
from scripts.migrate_storage import main, migrate
from tests.splits.conftest import write_venue_rows


def _names(root, config: str) -> list[str]:
    return sorted(p.name for p in (root / "corpus" / config).iterdir())


def test_old_whole_split_shards_go_and_the_parts_stay(tmp_path, rows_factory, local_fs):
    store = store_from_uri(str(tmp_path))
    for pk in ("iclr-2023", "iclr-2024"):
        write_venue_rows(local_fs, str(tmp_path), pk, rows_factory(pk, 10))
    update_conference_split(store, "iclr", ["iclr-2023", "iclr-2024"])
    parts = _names(tmp_path, "data")
    # shards of the layout before parts, as the old assembly wrote them (default config and the
    # Re^2 configs' train/test names), and another conference's whose name starts the same way
    for split in ("iclr", "iclr_train", "icml"):
        write_conference_split(local_fs, [store.path(paths.rows("iclr-2023"))], store.path("corpus"), split)
    old = {"iclr-00000-of-00001.parquet", "iclr_train-00000-of-00001.parquet"}
    assert old <= set(_names(tmp_path, "data"))

    # the split update no longer touches them: that branch is gone from the hot path
    assert update_conference_split(store, "iclr", ["iclr-2023", "iclr-2024"]).removed == []

    assert sorted(p.rsplit("/", 1)[-1] for p in migrate(store, ["iclr"], dry_run=True)) == sorted(old)
    assert old <= set(_names(tmp_path, "data"))  # a dry run deletes nothing
    assert main(["--root", str(tmp_path)]) == 0  # every split of the catalogue: icml's old shard too
    assert _names(tmp_path, "data") == parts
    assert migrate(store, ["iclr", "icml"]) == []  # once is enough
