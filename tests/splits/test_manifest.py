"""Issue 29.4: `datasets.load_dataset(<root>/corpus)` never sees half a publish, and a plain glob of
`corpus/data/` sees one generation.

A user reads the corpus with `datasets.load_dataset`, which follows README.md's `configs` `data_files`
and reads the files they name (no journal, no snapshot); a non-streaming load also checks the rows
against README.md's `dataset_info.splits`. The split's own journaled publication of a venue-year
writes its new generation of shards, its part record, README.md's manifest of the split (the exact
files and rows) and deletes the previous generation, in that order (stages/split_stage.py,
docs/storage.md "What a reader gets"). A reader that read the previous list in the instant between
README.md's switch and the deletion gets FileNotFoundError: an error, never wrong rows, counted here.

Also: a dead split's journal replayed after a later writer published must not bring its README.md
back (writers replay dead journals after taking the card's lock, before reading README.md)."""
from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path

import pyarrow.parquet as pq

from resources.store import store_from_uri
from tests.faults.kill_points import die_after_first_move
from tests.splits.conftest import make_rows, write_venue_rows
from tests.splits.test_split_update import manifest_is_the_disk

PK = "iclr-2024"


def _is_window_error(exc: BaseException) -> bool:
    """A listed file gone when read (the instant between README.md's switch and the old files'
    deletion), however `datasets` wraps it."""
    while exc is not None:
        if isinstance(exc, FileNotFoundError) or "No such file" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _poll(corpus: str, stop: str, out: str, cache: str) -> None:
    """Load the `iclr` split as a user does, streamed and not, until `stop` exists; write every load's
    outcome to `out`."""
    os.environ.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_DATASETS_CACHE=cache,
                      HF_DATASETS_DISABLE_PROGRESS_BARS="1")
    import datasets

    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    loads = []
    while not os.path.exists(stop) or len(loads) < 2:
        for streaming in (True, False):
            try:
                ds = datasets.load_dataset(corpus, split="iclr", streaming=streaming)
                loads.append({"streaming": streaming, "ids": [ex["forum_id"] for ex in ds]})
            except Exception as exc:  # noqa: BLE001 - every failure is judged by the test
                loads.append({"streaming": streaming, "window": _is_window_error(exc),
                              "error": f"{type(exc).__name__}: {exc}"[:300]})
        Path(out + ".ready").touch()
    Path(out).write_text(json.dumps(loads))


def _checked(store, n: int) -> None:
    for asset in ("openreview_forums", "parsed_forums", "rebuttal_dialogues", "reviewbench_split"):
        from reviewbench_assets.dagster_step import record_checks

        record_checks(store, PK, asset, [], allow_failing=False)  # judged, passed


def _rows(store, n: int) -> None:
    write_venue_rows(store.fs, store.root, PK, make_rows(PK, n, seed=1))
    _checked(store, n)


def _small_shards(monkeypatch) -> None:
    from reviewbench_assets.io import stage_io

    real_writer = stage_io.write_conference_split  # one shard per five rows: 10 rows -> 2, 15 -> 3
    monkeypatch.setattr(stage_io, "write_conference_split",
                        lambda fs, inputs, out, split, _t, _r, **kw: real_writer(fs, inputs, out, split, 1, 5, **kw))


def _glob_ids(root: Path) -> list[str]:
    """What a plain glob of `corpus/data/iclr-*` reads (pandas, DuckDB, pyarrow over the folder)."""
    return [i for p in sorted((root / "corpus/data").glob("iclr-*"))
            for i in pq.read_table(p, columns=["forum_id"]).column(0).to_pylist()]


def test_load_dataset_sees_one_generation_while_the_split_is_published_again(tmp_path, monkeypatch):
    from reviewbench_assets.stages.card_stage import CardStage
    from reviewbench_assets.stages.split_stage import SplitStage

    _small_shards(monkeypatch)
    root = tmp_path / "root"
    store = store_from_uri(str(root))
    corpus = str(root / "corpus")
    sizes = (10, 15, 7, 12)  # 2, 3, 2, 3 shards
    generations = {n: sorted(r["forum_id"] for r in make_rows(PK, n, seed=1)) for n in sizes}
    _rows(store, 10)
    SplitStage("iclr", 0.05)(store)
    CardStage()(store)

    stop, out = str(tmp_path / "stop"), str(tmp_path / "loads.json")
    poller = multiprocessing.get_context("spawn").Process(target=_poll, args=(corpus, stop, out, str(tmp_path / "hf")))
    poller.start()
    try:
        deadline = time.monotonic() + 150
        while not os.path.exists(out + ".ready") and poller.is_alive() and time.monotonic() < deadline:
            time.sleep(0.1)  # the poller has loaded once (datasets imported): the publications start
        for i in range(16):
            n = sizes[(i + 1) % len(sizes)]
            _rows(store, n)
            SplitStage("iclr", 0.05)(store)  # the split alone: its manifest is README.md's switch
            if i % 4 == 3:
                CardStage()(store)  # the card now and then, rendering around the splits' manifests
            # after every publication: one generation on disk, README.md lists exactly it
            assert sorted(_glob_ids(root)) == generations[n]
            manifest_is_the_disk(root)
            time.sleep(0.3)
            if time.monotonic() > deadline:
                break
        Path(stop).touch()
        poller.join(150)
    finally:
        if poller.is_alive():
            poller.kill()
    loads = json.loads(Path(out).read_text())
    for streaming in (True, False):
        seen = [len(x["ids"]) for x in loads if "ids" in x and x["streaming"] == streaming]
        switches = sum(a != b for a, b in zip(seen, seen[1:], strict=False))
        assert switches >= 3, (streaming, seen)  # it read while the publications went on, across switches
    bad = [x for x in loads if ("error" in x and not x["window"])
           or ("ids" in x and sorted(x["ids"]) not in generations.values())]
    assert bad == [], (len(bad), len(loads), [x.get("error") or len(x["ids"]) for x in bad][:5])
    window = [x for x in loads if x.get("window")]
    print(f"{len(loads)} loads, {len(window)} FileNotFoundError in the switch-to-deletion window")
    assert len(window) <= len(loads) // 4, window[:3]  # an instant per publication, not a state


def _killed_inside_the_split(root: str) -> None:
    """The split, dying (as kill -9) after the first file of its journal moved into place: the
    README.md it staged is in the journal, not yet in place."""
    from reviewbench_assets.stages.split_stage import SplitStage

    store = store_from_uri(root)
    die_after_first_move()
    SplitStage("iclr", 0.05)(store)


def test_a_dead_splits_journal_cannot_bring_its_readme_back_over_a_later_writers(tmp_path, monkeypatch):
    from reviewbench_assets.stages.split_stage import SplitStage

    _small_shards(monkeypatch)
    root = tmp_path / "root"
    writer = store_from_uri(str(root))  # opened before the kill: opening will not replay its journal
    _rows(writer, 10)
    SplitStage("iclr", 0.05)(writer)
    _rows(writer, 15)
    proc = multiprocessing.get_context("fork").Process(target=_killed_inside_the_split, args=(str(root),))
    proc.start()
    proc.join(120)
    assert proc.exitcode == 137
    assert list((root / ".publish").glob("*.json")), "the kill landed inside the split's journal"

    _rows(writer, 12)
    SplitStage("iclr", 0.05)(writer)  # takes the locks, publishes generation 3 of the part
    store_from_uri(str(root))  # a reader: replays any journal left
    assert sorted(_glob_ids(root)) == sorted(r["forum_id"] for r in make_rows(PK, 12, seed=1))
    default = manifest_is_the_disk(root)  # README.md is the later writer's: it lists the files on disk
    assert sum(pq.read_metadata(root / "corpus" / f).num_rows for f in default["iclr"]) == 12
    part = json.loads((root / "corpus_stats/iclr" / f"{PK}.json").read_text())
    assert sorted(f.removeprefix("corpus/") for f in part["data_files"]) == sorted(default["iclr"])


def test_a_splits_manifest_replaces_its_own_entries_and_keeps_the_other_splits(tmp_path):
    """domain/manifest.py `set_split` on a card of globs (as cards were written before): the split's
    entries become its exact files; another split's stay; the Re^2 configs' shared train/test entries
    keep the other split's files (the glob resolved over the listing) beside this split's; the rows
    expected are the parts'; a split with no part leaves every entry and `dataset_info`."""
    from reviewbench_assets.domain.corpus_stats import SplitStats
    from reviewbench_assets.domain.manifest import (
        card_front_matter,
        card_parts,
        card_text,
        extra_config_splits,
        listed_files,
        set_split,
    )

    stats = {s: SplitStats(split=s, num_examples=n, num_bytes=100 * n, files=[], venue_years={}, dataset_bytes=1000 * n)
             for s, n in (("iclr", 10), ("neurips", 4))}
    header = card_front_matter(stats, extra_config_splits({"review": {"iclr": {"train": 9, "test": 1},
                                                                      "neurips": {"train": 4}}}))
    listing = {"data/iclr-iclr-2024-00000-of-00001.parquet": 5, "data/neurips-neurips-2024-00000-of-00001.parquet": 7,
               "review/iclr_train-iclr-2024-00000-of-00001.parquet": 1,
               "review/neurips_train-neurips-2024-00000-of-00001.parquet": 1}
    new = ["corpus/data/iclr-iclr-2024-g000002-00000-of-00002.parquet",
           "corpus/data/iclr-iclr-2024-g000002-00001-of-00002.parquet",
           "corpus/review/iclr_train-iclr-2024-g000002-00000-of-00001.parquet",
           "corpus/review/iclr_test-iclr-2024-g000002-00000-of-00001.parquet"]
    part = {"pk": "iclr-2024", "files": new, "stats": {"num_examples": 12, "num_bytes": 300, "dataset_bytes": 3000}}
    out = set_split(header, "iclr", [part], listing)
    assert listed_files(out) == {"neurips": ["data/neurips-*"], "iclr": [f.removeprefix("corpus/") for f in new[:2]]}
    assert listed_files(out, "review") == {
        "train": ["review/iclr_train-iclr-2024-g000002-00000-of-00001.parquet",
                  "review/neurips_train-neurips-2024-00000-of-00001.parquet"],
        "test": ["review/iclr_test-iclr-2024-g000002-00000-of-00001.parquet"]}
    info = out["dataset_info"]
    assert {s["name"]: s["num_examples"] for s in info["splits"]} == {"iclr": 12, "neurips": 4}
    assert info["download_size"] == 300 + 7 and info["dataset_size"] == 3000 + 4000
    text = card_text(out, "body\n")  # the Hub reads it back as written
    assert card_parts(text) == (out, "body\n")

    gone = set_split(out, "iclr", [], listing)
    assert listed_files(gone) == {"neurips": ["data/neurips-*"]}
    assert listed_files(gone, "review") == {"train": ["review/neurips_train-neurips-2024-00000-of-00001.parquet"]}
    assert [s["name"] for s in gone["dataset_info"]["splits"]] == ["neurips"]
    assert set_split(set_split(card_front_matter({}), "iclr", [part], {}), "iclr", [], {}).get("dataset_info") is None


def test_a_split_run_again_with_nothing_changed_leaves_the_cards_readme_as_it_is(tmp_path, monkeypatch):
    from reviewbench_assets.stages.card_stage import CardStage
    from reviewbench_assets.stages.split_stage import SplitStage

    root = tmp_path / "root"
    store = store_from_uri(str(root))
    _rows(store, 10)
    SplitStage("iclr", 0.05)(store)
    CardStage()(store)
    readme = root / "corpus/README.md"
    before = (readme.read_bytes(), readme.stat().st_ino)
    SplitStage("iclr", 0.05)(store)
    assert (readme.read_bytes(), readme.stat().st_ino) == before
    from reviewbench_assets.stages.split_stage import FIRST_BODY

    assert FIRST_BODY not in readme.read_text()  # the card's body, not the split's first one
