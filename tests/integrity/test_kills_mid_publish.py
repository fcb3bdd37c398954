"""A set of files appears together or not at all (resources/store_publish.py): a run killed while
moving its files into place leaves a journal that the next `Store.recover()` replays, and staging
files of dead runs are removed by the next publication into their folder, never a live run's."""
from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys

import pytest

from resources.store import store_from_uri
from resources.store_publish import HOST_TAG, JOURNAL_DIR
from tests.faults.kill_points import die_after_first_move


def _store(root: str, s3: dict | None):
    return store_from_uri(root, s3) if s3 else store_from_uri(root)


def _killed_mid_commit(root: str, s3: dict | None = None) -> None:
    """Publish rows + provenance, dying (no cleanup, like kill -9) after the first move."""
    store = _store(root, s3)
    die_after_first_move()
    with store.publish() as pub:
        for name, text in (("rows/a.parquet", b"new rows"), ("rows/a.provenance.parquet", b"new prov")):
            with store.fs.open_output_stream(pub.target(store.path(name))) as f:
                f.write(text)


@pytest.mark.parametrize("where", ["local", "s3"])
def test_a_set_killed_while_moving_is_made_whole_by_the_next_reader(tmp_path, where, request):
    s3 = None
    root = str(tmp_path)
    if where == "s3":  # moto_server over HTTP: a move is a server-side copy + delete
        bucket = request.getfixturevalue("s3_bucket")
        endpoint = request.getfixturevalue("moto_endpoint")
        s3 = {"endpoint_override": endpoint.removeprefix("http://"), "scheme": "http", "region": "us-east-1",
              "access_key": "testing-key", "secret_key": "testing-secret"}
        root = f"s3://{bucket}/root"
    store = _store(root, s3)
    store.write_bytes(store.path("rows/a.parquet"), b"old rows")
    store.write_bytes(store.path("rows/a.provenance.parquet"), b"old prov")
    proc = multiprocessing.get_context("fork").Process(target=_killed_mid_commit, args=(root, s3))
    proc.start()
    proc.join(60)
    assert proc.exitcode == 137
    # the kill left the set mixed: this run's rows beside the previous run's provenance ...
    assert store.read_bytes(store.path("rows/a.parquet")) == b"new rows"
    assert store.read_bytes(store.path("rows/a.provenance.parquet")) == b"old prov"
    assert len(store.list_files(store.path(JOURNAL_DIR))) == 1
    # ... until the next run opens the store: the journal is replayed, the set is whole
    assert store.recover() == {"recovered": 1, "moved": 1}
    assert store.read_bytes(store.path("rows/a.provenance.parquet")) == b"new prov"
    assert store.list_files(store.path(JOURNAL_DIR)) == []
    assert [p for p in store.list_files(store.path("rows")) if "/." in p] == []
    assert store.recover() == {"recovered": 0, "moved": 0}


def test_dead_runs_staging_is_removed_and_live_ones_kept(tmp_path):
    store = store_from_uri(str(tmp_path))
    dead_pid = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True).stdout.strip()
    (tmp_path / "rows").mkdir()
    dead = tmp_path / "rows" / f".a.parquet.tmp-{HOST_TAG}.{dead_pid}.0badc0de-0"
    live = tmp_path / "rows" / f".b.parquet.tmp-{HOST_TAG}.{os.getppid()}.0badc0de-0"
    dead.write_bytes(b"half a file")
    live.write_bytes(b"being written")
    store.write_bytes(store.path("rows/c.parquet"), b"c")
    assert not dead.exists() and live.exists()
    assert (tmp_path / "rows" / "c.parquet").read_bytes() == b"c"


def test_a_pending_journals_staging_files_are_kept_for_its_replay(tmp_path):
    """The staging files a dead run's journal still has to move are not "dead staging": the next
    publication into their folder leaves them, and the replay then moves them into place."""
    proc = multiprocessing.get_context("fork").Process(target=_killed_mid_commit, args=(str(tmp_path),))
    proc.start()
    proc.join(30)
    assert proc.exitcode == 137
    store = store_from_uri(str(tmp_path), recover=False)  # the dead run's leftovers as they are
    pending = [p for p in (tmp_path / "rows").iterdir() if p.name.startswith(".")]
    assert len(pending) == 1  # the provenance the dead run had not moved yet
    store.write_bytes(store.path("rows/b.parquet"), b"another step")  # publishes into the same folder
    assert pending[0].exists()
    assert store.recover()["moved"] == 1
    assert (tmp_path / "rows" / "a.provenance.parquet").read_bytes() == b"new prov"


def test_a_truncated_crawl_line_fails_the_parse_naming_file_and_line(tmp_path):
    """A raw forums file cut in the middle of a line (disk full, a copy interrupted) is no forum to
    parse around: parsed_forums stops, naming the file and the line, and publishes nothing."""
    from partitions.catalogue import catalogue
    from resources.store import CorruptFileError
    from reviewbench_assets.io.layout import paths
    from reviewbench_assets.stages.parse_stage import ParseStage

    venue = catalogue().get("iclr-2024")
    store = store_from_uri(str(tmp_path))
    raw = tmp_path / paths.raw_forums(venue.key)
    raw.parent.mkdir(parents=True)
    raw.write_text('{"forum_id": "a", "note": {"id": "a", "content": {}, "details": {"replies": []}}}\n'
                   '{"forum_id": "b", "note": {"id": "b", "con')
    with pytest.raises(CorruptFileError, match=r"iclr-2024\.jsonl.*line 2"):
        ParseStage(venue)(store)
    assert not (tmp_path / paths.parsed(venue.key)).exists()
    assert [p for p in (tmp_path / "parsed").iterdir()] == []  # no staging left behind either


def _s3_factory(endpoint: str):
    def client():
        import boto3

        return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                            aws_access_key_id="testing-key", aws_secret_access_key="testing-secret")
    return client


def _hold_the_split_lock_then_hang(root: str, s3: dict, endpoint: str, ready: str) -> None:
    import socket
    import time

    from resources.store_locks import lock_for

    socket.gethostname = lambda: "another-host"  # a holder whose death this host cannot see

    store = store_from_uri(root, s3, s3_client_factory=_s3_factory(endpoint))
    with lock_for(store, "split-iclr", timeout_s=10, ttl_s=2.0):
        open(ready, "w").close()
        time.sleep(600)  # killed here, holding the lock


def test_an_s3_run_killed_while_holding_the_split_lock_is_taken_over_after_its_lease(tmp_path, s3_bucket,
                                                                                       moto_endpoint):
    """Issue 22.7: two runs on one S3 root, the first (on another host) killed -9 while it holds the
    split's lock. The second is kept out while the dead holder's lease runs, then takes the lock over
    (never waits for ever, never overlaps a living holder). A holder of this host known dead is
    taken over at once (tests/integrity/test_split_publish_kill.py)."""
    import signal
    import time

    from resources.store_locks import LockTimeout, lock_for

    s3 = {"endpoint_override": moto_endpoint.removeprefix("http://"), "scheme": "http", "region": "us-east-1",
          "access_key": "testing-key", "secret_key": "testing-secret"}
    root, ready = f"s3://{s3_bucket}/root", str(tmp_path / "ready")
    proc = multiprocessing.get_context("fork").Process(target=_hold_the_split_lock_then_hang,
                                                       args=(root, s3, moto_endpoint, ready))
    proc.start()
    deadline = time.monotonic() + 60
    while not os.path.exists(ready) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.exists(ready), "the first run never took the lock"
    os.kill(proc.pid, signal.SIGKILL)
    killed = time.monotonic()
    proc.join(10)
    assert proc.exitcode == -signal.SIGKILL
    second = store_from_uri(root, s3, s3_client_factory=_s3_factory(moto_endpoint))
    with pytest.raises(LockTimeout):  # the dead holder's lease (2 s, renewed every 0.67 s) still runs
        with lock_for(second, "split-iclr", timeout_s=0.2, ttl_s=2.0):
            pass
    with lock_for(second, "split-iclr", timeout_s=15, ttl_s=2.0):
        taken = time.monotonic() - killed
        second.write_bytes(second.path("corpus/ok"), b"published by the second run")
    assert taken <= 2.0 + 2.0, f"the lock was taken over {taken:.1f} s after the kill (lease 2 s)"
    assert second.read_bytes(second.path("corpus/ok")) == b"published by the second run"
    keys = [o["Key"] for o in _s3_factory(moto_endpoint)().list_objects_v2(Bucket=s3_bucket).get("Contents", [])]
    assert "root/.locks/split-iclr.lock" not in keys  # released by the second run


def test_journals_where_old_writers_put_them_and_half_written_ones_of_dead_runs_are_dealt_with(tmp_path):
    """The split and card writers once journaled under `corpus/.publish/` (issue 29.1): such a journal
    of a dead run is still replayed; a journal a dead run was still writing (before its commit
    point) is deleted; nothing of a live run is touched."""
    import json

    store = store_from_uri(str(tmp_path))
    dead_pid = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True).stdout.strip()
    dead, live = f"{HOST_TAG}.{dead_pid}.0badc0de", f"{HOST_TAG}.{os.getppid()}.0badc0de"
    (tmp_path / "corpus/data").mkdir(parents=True)
    staged = tmp_path / "corpus/data" / f".iclr-00000-of-00001.parquet.tmp-{dead}-0"
    staged.write_bytes(b"new shard")
    (tmp_path / "corpus/data/iclr-00000-of-00002.parquet").write_bytes(b"stale shard")
    (tmp_path / "corpus/.publish").mkdir()
    (tmp_path / "corpus/.publish" / f"{dead}.json").write_text(json.dumps({
        "token": dead, "moves": [[str(staged), str(tmp_path / "corpus/data/iclr-00000-of-00001.parquet")]],
        "stale": [str(tmp_path / "corpus/data/iclr-00000-of-00002.parquet")]}))
    (tmp_path / JOURNAL_DIR).mkdir()
    (tmp_path / JOURNAL_DIR / f".{dead}.json.tmp").write_text('{"token": "half')
    (tmp_path / JOURNAL_DIR / f".{live}.json.tmp").write_text('{"token": "being written')
    assert store.recover() == {"recovered": 1, "moved": 1}
    assert sorted(p.name for p in (tmp_path / "corpus/data").iterdir()) == ["iclr-00000-of-00001.parquet"]
    assert list((tmp_path / "corpus/.publish").iterdir()) == []
    assert [p.name for p in (tmp_path / JOURNAL_DIR).iterdir()] == [f".{live}.json.tmp"]
