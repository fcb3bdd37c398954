"""Issue 38.3: a replayed set keeps its verdict. A run of `reviewbench_split` killed while moving its
files into place leaves a journal the next opening of the root replays; the rows then came back with
no verdict of their own (the verdict was written after the files, by the asset layer), so the next
conference split left a published, checked venue-year out and removed its shards until someone
re-materialized the rows. The rows stage now stages its verdict into the rows' own publication: the
replay brings back the rows with the verdict that judged them, locally and on S3 (where a replay's
server-side copy gives the files a new modification time: the verdict also names their sha256)."""
from __future__ import annotations

import multiprocessing

import pytest

from partitions.catalogue import catalogue
from reviewbench_assets.dagster_step import materialize
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.verdicts import blocking_failures
from reviewbench_assets.stages.split_stage import UPSTREAM_GUARDED
from tests.faults import crash_pipeline
from tests.faults.kill_points import die_after_first_move
from tests.faults.replay_race import open_root

PK = crash_pipeline.PK


def _rows_killed_mid_publish(root: str, endpoint: str | None) -> None:
    """The rows stage as its asset runs it, killed (os._exit, no cleanup) after its first move."""
    from reviewbench_assets.stages.rows_stage import RowsStage

    store = open_root(root, endpoint)
    die_after_first_move()
    materialize(RowsStage(catalogue().get(PK), 1.0)(store), store)


@pytest.mark.parametrize("where", ["local", "s3"])
def test_a_rows_set_replayed_after_a_kill_keeps_its_verdict_and_its_place_in_the_split(where, tmp_path, request):
    from reviewbench_assets.stages.split_stage import SplitStage

    endpoint = request.getfixturevalue("moto_endpoint") if where == "s3" else None
    root = f"s3://{request.getfixturevalue('s3_bucket')}/root" if where == "s3" else str(tmp_path / "root")
    store = open_root(root, endpoint)
    crash_pipeline.run_pipeline(store, 1)  # a checked venue-year, in the split
    assert blocking_failures(store, PK, [*UPSTREAM_GUARDED, "reviewbench_split"]) == {}
    before = store.read_bytes(store.path(paths.check_record(PK, "reviewbench_split")))

    proc = multiprocessing.get_context("fork").Process(target=_rows_killed_mid_publish, args=(root, endpoint))
    proc.start()
    proc.join(120)
    assert proc.exitcode == 137  # killed after its first move: its journal is pending
    assert store.list_files(store.path(".publish"))

    store = open_root(root, endpoint)  # the next process: the journal is replayed
    assert store.list_files(store.path(".publish")) == []
    assert blocking_failures(store, PK, ["reviewbench_split"]) == {}
    with crash_pipeline._patched():
        result = SplitStage(crash_pipeline.SPLIT)(store)
    assert result.figures["venue_years"] == [PK], result.figures
    assert not result.figures.get("blocked_venue_years"), result.figures
    assert store.list_files(store.path("corpus/data"))
    from reviewbench_assets.verify import verify

    judged = [f for f in verify(store).damaged if "verdict" in f.problem]
    assert judged == [], judged  # verify agrees: the rows are the data their verdict judged
    # the record in place is the one published with these rows, not the earlier run's
    assert store.read_bytes(store.path(paths.check_record(PK, "reviewbench_split"))) != before


def test_a_staged_verdict_does_not_hold_for_other_bytes_of_the_same_size(tmp_path):
    """The sha256 that lets a replayed (copied) file keep its verdict is checked, not assumed: the
    same size with a new time and other bytes has no verdict."""
    import os

    store = open_root(str(tmp_path / "root"), None)
    crash_pipeline.run_pipeline(store, 1)
    proc = multiprocessing.get_context("fork").Process(target=_rows_killed_mid_publish, args=(store.root, None))
    proc.start()
    proc.join(120)
    store = open_root(store.root, None)
    assert blocking_failures(store, PK, ["reviewbench_split"]) == {}
    target = tmp_path / "root" / paths.provenance(PK)
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))  # the same size, another time, other bytes
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    assert list(blocking_failures(store, PK, ["reviewbench_split"])) == ["reviewbench_split.verdict"]
