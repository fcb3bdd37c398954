"""A set of files appears together or not at all (resources/store_publish.py): a run killed while
moving its files into place leaves a journal that the next `Store.recover()` replays, and staging
files of dead runs are removed by the next publication into their folder, never a live run's."""
from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys

from resources import store_publish
from resources.store import store_from_uri
from resources.store_publish import HOST_TAG, JOURNAL_DIR


def _killed_mid_commit(root: str) -> None:
    """Publish rows + provenance, dying (no cleanup, like kill -9) after the first move."""
    store = store_from_uri(root)
    real_move, moves = store_publish._move, []

    def move_then_die(fs, tmp, final):
        if moves:
            os._exit(137)
        moves.append(final)
        return real_move(fs, tmp, final)

    store_publish._move = move_then_die
    with store.publish() as pub:
        for name, text in (("rows/a.parquet", b"new rows"), ("rows/a.provenance.parquet", b"new prov")):
            with store.fs.open_output_stream(pub.target(store.path(name))) as f:
                f.write(text)


def test_a_set_killed_while_moving_is_made_whole_by_the_next_reader(tmp_path):
    store = store_from_uri(str(tmp_path))
    store.write_bytes(store.path("rows/a.parquet"), b"old rows")
    store.write_bytes(store.path("rows/a.provenance.parquet"), b"old prov")
    proc = multiprocessing.get_context("fork").Process(target=_killed_mid_commit, args=(str(tmp_path),))
    proc.start()
    proc.join(30)
    assert proc.exitcode == 137
    # the kill left the set mixed: this run's rows beside the previous run's provenance ...
    assert store.read_bytes(store.path("rows/a.parquet")) == b"new rows"
    assert store.read_bytes(store.path("rows/a.provenance.parquet")) == b"old prov"
    assert len(list((tmp_path / JOURNAL_DIR).iterdir())) == 1
    # ... until the next run opens the store: the journal is replayed, the set is whole
    assert store.recover() == {"recovered": 1, "moved": 1}
    assert store.read_bytes(store.path("rows/a.provenance.parquet")) == b"new prov"
    assert list((tmp_path / JOURNAL_DIR).iterdir()) == []
    assert [p.name for p in (tmp_path / "rows").iterdir() if p.name.startswith(".")] == []
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
