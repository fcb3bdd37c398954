"""Issue 38.1: a corpus shard damaged after its publication is never trusted. Before, a `corpus/data`
shard cut in half made every later split fail with a bare `ArrowInvalid: ... Parquet magic bytes not
found in footer` (the part counted as current while its files existed), the card alone succeeded and
README.md kept listing the broken shard; the same shard with 2 KB zeroed inside, size and mtime kept,
went unnoticed by split and card, and `datasets.load_dataset` then failed."""
from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from resources.store import store_from_uri
from reviewbench_assets.io.checksums import DamagedPartError
from tests.faults.damage import damage
from tests.splits.conftest import make_rows, write_venue_rows

PK = "iclr-2024"


def _rows(store, n: int) -> None:
    from reviewbench_assets.dagster_step import record_checks

    write_venue_rows(store.fs, store.root, PK, make_rows(PK, n, seed=3))
    for asset in ("openreview_forums", "parsed_forums", "rebuttal_dialogues", "reviewbench_split"):
        record_checks(store, PK, asset, [], allow_failing=False)  # judged, passed


def _listed(root) -> list[str]:
    from huggingface_hub import DatasetCard

    header = DatasetCard((root / "corpus/README.md").read_text()).data.to_dict()
    return [f for c in header.get("configs") or [] for e in c["data_files"] for f in e["path"]]


@pytest.mark.parametrize("how", ["truncate", "zero", "delete", "empty"])
def test_a_damaged_shard_is_never_listed_and_the_next_split_writes_its_part_again(tmp_path, how):
    from reviewbench_assets.stages.card_stage import CardStage
    from reviewbench_assets.stages.split_stage import SplitStage

    root = tmp_path / "root"
    store = store_from_uri(str(root))
    _rows(store, 12)
    SplitStage("iclr", 0.05)(store)
    CardStage()(store)
    shard = next(f for f in _listed(root) if f.startswith("data/"))
    damage(store, str(root / "corpus" / shard), how)
    # the card alone: README.md no longer lists the damaged part, and the run fails naming the file
    # and what to re-materialize
    with pytest.raises(DamagedPartError) as err:
        CardStage()(store)
    assert f"corpus/{shard}" in str(err.value) and "re-materialize iclr_split" in str(err.value)
    assert shard not in _listed(root)
    # the next split run checks the part's files, finds this one failing and writes the part again
    logged: list[str] = []
    again = SplitStage("iclr", 0.05, logged.append)(store)
    assert f"corpus/{shard}" in again.figures["damaged_files_rewritten"]
    assert any(f"corpus/{shard} failed its check" in m for m in logged)
    CardStage()(store)
    listed = _listed(root)
    ids = [i for f in listed if f.startswith("data/")
           for i in pq.read_table(root / "corpus" / f, columns=["forum_id"]).column(0).to_pylist()]
    assert sorted(ids) == sorted(r["forum_id"] for r in make_rows(PK, 12, seed=3))
    for f in listed:  # every listed file whole: every page checks
        pq.ParquetFile(root / "corpus" / f, page_checksum_verification=True).read()
