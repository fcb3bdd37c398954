"""Issue 29.4: crash points enumerated from the code. A venue-year's split publish and the card
(every shard of every config, the part record, stale shards removed, the split's figures, the card and
its plots) is run once on a filesystem that counts every mutating call it makes
(tests/faults/crash_points.py); then, for each of those N calls, a run is killed -9 just before it,
a reader opens the store as every reader does and must see one generation whole (no forum id twice,
no mix of the two generations, no file without its companions), and a re-run must publish the new
generation. `crash_point_trials` also gives bench_crash_points.py its figures."""
from __future__ import annotations

import multiprocessing
import shutil
from dataclasses import dataclass
from pathlib import Path

import pyarrow.fs as pafs
import pyarrow.parquet as pq

from resources.store import Store, store_from_uri
from reviewbench_assets import paths
from tests.faults.crash_points import CountingHandler
from tests.splits.conftest import make_rows, write_venue_rows

PKS = ("iclr-2023", "iclr-2024")  # two venue-years of one split, both changed


@dataclass(frozen=True)
class _CountingLocalStore(Store):
    """A local root seen through the counting filesystem (local locks, local folders)."""

    @property
    def is_local(self) -> bool:
        return True


@dataclass
class Backend:
    """Where the trials run: a local folder. (S3 through moto_server is the next backend: its first
    attempt, the same trials through `PyFileSystem` over `S3FileSystem` in forked children, showed
    every trial from the third on reading no shards at all, which was not yet told apart from a
    harness fault; see the crash report.)"""

    def open(self, root: str, recover: bool = True) -> Store:
        return store_from_uri(root, recover=recover)

    def root(self, work: Path, name: str) -> str:
        return str(work / name)

    def counting(self, root: str, kill_at: int | None) -> tuple[Store, CountingHandler]:
        base = self.open(root, recover=False)
        handler = CountingHandler(base.fs, kill_at)
        return _CountingLocalStore(pafs.PyFileSystem(handler), base.root), handler

    def copy(self, src: str, dst: str) -> None:
        shutil.copytree(src, dst)


def _operation(store: Store) -> None:
    from reviewbench_assets.stages.split_stage import CardStage, SplitStage

    SplitStage("iclr", 0.05)(store)
    CardStage()(store)


def _small_shards() -> None:
    """Five rows a shard, so a venue-year's publish moves several shards (as a large one does)."""
    from reviewbench_assets.stages import split_update

    real = split_update.write_conference_split
    if getattr(real, "small", False):
        return

    def small(fs, inputs, out, split, _target, _rows, **kw):
        return real(fs, inputs, out, split, 1, 5, **kw)

    small.small = True
    split_update.write_conference_split = small


def _run_counted(backend: Backend, root: str, kill_at: int | None) -> list:
    _small_shards()
    store, handler = backend.counting(root, kill_at)
    _operation(store)
    return handler.calls


def _child(backend: Backend, root: str, kill_at: int) -> None:
    _run_counted(backend, root, kill_at)


def _shards(store: Store, pk: str) -> list[str]:
    return sorted(p for p in store.list_files(store.path("corpus/data"))
                  if p.rsplit("/", 1)[-1].startswith(f"iclr-{pk}-"))


def _forum_ids(store: Store, pk: str) -> list[str]:
    return [i for path in _shards(store, pk)
            for i in pq.read_table(path, filesystem=store.fs, columns=["forum_id"]).column(0).to_pylist()]


def _violations(store: Store, generations: dict[str, list[set[str]]]) -> list[str]:
    """What a reader must never see: a forum id twice, a mix of a venue-year's two generations, a
    file without its companions (a part record naming files that are not there, or shards that
    are not the part's)."""
    out = []
    for pk, gens in generations.items():
        ids = _forum_ids(store, pk)
        if len(ids) != len(set(ids)):
            out.append(f"{pk}: duplicate forum ids ({len(ids) - len(set(ids))})")
        elif set(ids) not in gens:
            out.append(f"{pk}: a mix of two generations ({len(ids)} rows)")
        part = store.read_json_or_none(store.path(paths.split_part("iclr", pk)))
        if part is not None:
            missing = [f for f in part["files"] if not store.exists(store.path(f))]
            if missing:
                out.append(f"{pk}: the part record names missing files {missing[:3]}")
            elif [store.rel(p) for p in _shards(store, pk)] != sorted(part["data_files"]):
                out.append(f"{pk}: shards that are not the part's")
    return out


def _leftovers(store: Store) -> list[str]:
    return [p for p in store.list_files(store.path("")) if ".tmp-" in p or "/.publish/" in p]


def crash_point_trials(work: Path, backend: Backend | None = None) -> dict:
    """Every crash point of the operation, one trial each; {points, trials, violations, failures, ...}."""
    from reviewbench_assets.stages import split_update

    real = split_update.write_conference_split
    try:
        return _trials(work, backend or Backend())
    finally:  # the small shards are this suite's: later tests of the same process get the real writer
        split_update.write_conference_split = real


def _trials(work: Path, backend: Backend) -> dict:
    _small_shards()
    template = backend.root(work, "template")
    store = backend.open(template)
    old = {pk: make_rows(pk, 10, seed=1) for pk in PKS}
    new = {pk: make_rows(pk, 15, seed=1) for pk in PKS}  # the same forum ids, five more
    for pk in PKS:
        write_venue_rows(store.fs, store.root, pk, old[pk])
    _operation(store)
    for pk in PKS:
        write_venue_rows(store.fs, store.root, pk, new[pk])
    generations = {pk: [{r["forum_id"] for r in old[pk]}, {r["forum_id"] for r in new[pk]}] for pk in PKS}
    clean = backend.root(work, "clean")
    backend.copy(template, clean)
    points = _run_counted(backend, clean, None)
    violations, failures = [], []
    ctx = multiprocessing.get_context("fork")
    for k in range(1, len(points) + 1):
        root = backend.root(work, f"k{k}")
        backend.copy(template, root)
        proc = ctx.Process(target=_child, args=(backend, root, k))
        proc.start()
        proc.join(120)
        if proc.exitcode != 137:
            failures.append(f"point {k} {points[k - 1]}: the run was not killed there (exit {proc.exitcode})")
        reader = backend.open(root)  # any reader path recovers first
        violations += [f"point {k} {points[k - 1][0]}: {v}" for v in _violations(reader, generations)]
        _operation(reader)  # the re-run: the new generation, whole, and nothing of the dead run left
        if (any(set(_forum_ids(reader, pk)) != gens[1] for pk, gens in generations.items())
                or _violations(reader, generations)):
            failures.append(f"point {k}: the re-run did not publish the new generation whole")
        if _leftovers(reader):
            failures.append(f"point {k}: staging or journals of the dead run left: {_leftovers(reader)[:3]}")
        shutil.rmtree(root, ignore_errors=True)
    return {"points": len(points), "trials": len(points), "violations": violations, "failures": failures,
            "kinds": sorted({m for m, _ in points})}


def test_every_crash_point_of_a_split_and_card_publish_leaves_readers_one_whole_generation(tmp_path):
    got = crash_point_trials(tmp_path)
    # every shard, record, journal and stale file of two venue-years' publishes, the figures and the card
    assert got["points"] >= 35, got
    assert {"open_output_stream", "move", "delete_file"} <= set(got["kinds"]), got["kinds"]
    assert got["violations"] == [] and got["failures"] == [], got
