"""The one-off migration that replaced the split update's branch for the layout before parts
(scripts/migrate_storage.py, issue 28.5): it removes the whole-split shards of every config, and
nothing of the per-venue-year layout, which the split update keeps to itself."""
from __future__ import annotations

import pytest

from resources.store import store_from_uri
from reviewbench_assets.io.corpus_writer import write_conference_split
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.split_stage import SplitStage, update_conference_split
from scripts.migrate_storage import main, migrate
from tests.splits.conftest import write_venue_rows


def _names(root, config: str) -> list[str]:
    return sorted(p.name for p in (root / "corpus" / config).iterdir())


def test_old_whole_split_shards_go_and_the_parts_stay(tmp_path, rows_factory, local_fs):
    store = store_from_uri(str(tmp_path))
    for pk in ("iclr-2023", "iclr-2024"):
        write_venue_rows(local_fs, str(tmp_path), pk, rows_factory(pk, 10))
    update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023", "iclr-2024"])
    parts = _names(tmp_path, "data")
    # shards of the layout before parts, as the old assembly wrote them (default config and the
    # Re^2 configs' train/test names), and another conference's whose name starts the same way
    for split in ("iclr", "iclr_train", "icml"):
        write_conference_split(local_fs, [store.path(paths.rows("iclr-2023"))], store.path("corpus"), split)
    old = {"iclr-00000-of-00001.parquet", "iclr_train-00000-of-00001.parquet"}
    assert old <= set(_names(tmp_path, "data"))

    # the split update no longer touches them: that branch is gone from the hot path
    assert update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023", "iclr-2024"]).removed == []

    assert sorted(p.rsplit("/", 1)[-1] for p in migrate(store, ["iclr"], dry_run=True)) == sorted(old)
    assert old <= set(_names(tmp_path, "data"))  # a dry run deletes nothing
    assert main(["--root", str(tmp_path)]) == 0  # every split of the catalogue: icml's old shard too
    assert _names(tmp_path, "data") == parts
    assert migrate(store, ["iclr", "icml"]) == []  # once is enough


def test_files_from_before_typed_reviews_are_rewritten_once(tmp_path, rows_factory, local_fs):
    """Issue 28.3/28.5: a parsed table with the `reviews_json` column and rows without the `reviews`
    file or statistics (what earlier runs left) are rewritten by the migration, not read by a
    branch of the stages: the typed reviews are the JSON's, the rows' reviews_json stays, the
    statistics are the SQL's, and the checks' verdicts follow the data they judged."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    from reviewbench_assets.domain.schema import PARSED_SCHEMA
    from reviewbench_assets.io.verdicts import blocking_failures, write_verdict
    from scripts.migrate_reviews import migrate_typed_reviews

    store = store_from_uri(str(tmp_path))
    pk = "iclr-2024"
    rows = rows_factory(pk, 12)
    write_venue_rows(local_fs, str(tmp_path), pk, rows)
    for rel in (paths.rows_reviews(pk), paths.rows_stats(pk)):  # the rows of a run before them
        (tmp_path / rel).unlink()
    old_parsed = pa.schema([pa.field("reviews_json", pa.string()) if f.name == "reviews" else f for f in PARSED_SCHEMA])
    (tmp_path / "parsed").mkdir()
    pq.write_table(pa.Table.from_pylist([{k: v for k, v in r.items() if k in old_parsed.names} for r in rows],
                                        schema=old_parsed), tmp_path / paths.parsed(pk))
    for asset in ("parsed_forums", "reviewbench_split"):
        write_verdict(store, pk, asset, {}, overridden=False)
    with pytest.raises(FileNotFoundError, match="migrate_storage"):  # the split says what to do
        update_conference_split(SplitStage.outputs_in(store, "iclr"), [pk])

    assert len(migrate_typed_reviews(store, [pk], dry_run=True)) == 2
    assert main(["--root", str(tmp_path)]) == 0
    parsed = pq.read_table(tmp_path / paths.parsed(pk))
    assert parsed.schema.field("reviews").type == PARSED_SCHEMA.field("reviews").type
    for row, typed in zip(rows, parsed.column("reviews").to_pylist(), strict=True):
        assert [r["rating"] for r in typed] == [r["rating"] for r in json.loads(row["reviews_json"])]
    assert pq.read_table(tmp_path / paths.rows(pk)).column("reviews_json").to_pylist() == [
        r["reviews_json"] for r in rows]
    assert blocking_failures(store, pk, ["parsed_forums", "reviewbench_split"]) == {}  # verdicts carried over
    update = update_conference_split(SplitStage.outputs_in(store, "iclr"), [pk])
    assert update.configs["reviews"] == {"iclr": sum(r["num_reviews"] for r in rows)}
    assert update.stats.venue_years[pk].papers == 12
    assert migrate_typed_reviews(store, [pk]) == []  # once is enough
