"""Storage: the same code on a local folder and on S3 (moto_server over HTTP), atomic writes, CAS PDFs."""
import pyarrow as pa
import pytest
from dagster_aws.s3 import S3Resource

from resources import StorageResource
from tests.published import publish_set, write_jsonl


@pytest.fixture(params=["local", "s3"])
def storage(request, tmp_path):
    if request.param == "local":
        return StorageResource(root=str(tmp_path / "root"))
    endpoint = request.getfixturevalue("moto_endpoint")
    bucket = request.getfixturevalue("s3_bucket")
    return StorageResource(root=f"s3://{bucket}/prefix",
                           s3=S3Resource(endpoint_url=endpoint, region_name="us-east-1",
                                         aws_access_key_id="testing-key", aws_secret_access_key="testing-secret"))


def test_roundtrip_and_content_addressed_pdfs(storage):
    store = storage.store()
    write_jsonl(store, store.path("raw/x.jsonl"), ({"i": i} for i in range(3)))
    assert [r["i"] for r in store.iter_jsonl(store.path("raw/x.jsonl"))] == [0, 1, 2]
    store.write_parquet(store.path("t/a.parquet"), pa.table({"a": [1, 2]}))
    assert store.read_parquet(store.path("t/a.parquet")).column("a").to_pylist() == [1, 2]
    sha, path, new = store.put_pdf(b"%PDF-1.4 fake")
    assert new and path.endswith(f"pdfs/{sha[:2]}/{sha}.pdf")
    assert store.put_pdf(b"%PDF-1.4 fake") == (sha, path, False)  # stored once
    files = store.list_files(store.path(""))
    assert not [f for f in files if ".tmp-" in f], "no temporary file left behind"
    assert store.uri.startswith("s3://" if not store.is_local else "/")


def test_a_staged_pdf_is_moved_into_the_store(storage):
    """A download's staging file (stages/pdf_fetch.py, its staging) becomes the stored PDF without its bytes
    being written a second time; a second copy of the same PDF leaves its staging file alone."""
    store = storage.store()
    staged = store.path("pdf_staging/ab/abcd.bin")
    store.fs.create_dir(store.path("pdf_staging/ab"), recursive=True)
    with store.fs.open_output_stream(staged) as f:
        f.write(b"%PDF-1.4 staged")
    sha, path, new = store.put_pdf(b"%PDF-1.4 staged", staged)
    assert new and store.read_bytes(path) == b"%PDF-1.4 staged" and not store.exists(staged)
    assert store.pdf_ok(sha)


def test_a_failed_write_leaves_nothing_under_the_final_name(storage):
    store = storage.store()

    def rows():
        yield {"ok": 1}
        raise RuntimeError("killed mid-write")

    with pytest.raises(RuntimeError):
        write_jsonl(store, store.path("raw/half.jsonl"), rows())
    assert not store.exists(store.path("raw/half.jsonl"))
    assert not [f for f in store.list_files(store.path("")) if ".tmp-" in f]


def test_a_snapshot_reads_a_set_as_of_one_moment_while_a_writer_replaces_it(storage):
    """Issue 29.4: a reader of several files that one publication replaces sees all of them before
    it or all after it, whenever the writer moves them (here: between the reader's two reads)."""
    store = storage.store()
    rows, stats, new = store.path("set/rows.parquet"), store.path("set/stats.json"), store.path("set/new.json")
    store.write_parquet(store.path("other.parquet"), pa.table({"a": [0]}))
    publish_set(store, {rows: b"rows-1", stats: b"stats-1"})
    with store.snapshot([store.path("other.parquet")], prefixes=[store.path("set")]) as view:
        assert view.read_bytes(rows) == b"rows-1"
        publish_set(store, {rows: b"rows-2", stats: b"stats-2", new: b"{}"})  # a writer publishes meanwhile
        store.write_parquet(store.path("other.parquet"), pa.table({"a": [1, 2]}))
        assert view.read_bytes(stats) == b"stats-1"  # not stats-2 beside rows-1
        assert not view.exists(new) and view.list_files(store.path("set")) == [rows, stats]
        assert view.read_parquet(store.path("other.parquet")).column("a").to_pylist() == [0]
        assert view.fs.get_file_info(stats).size == len(b"stats-1")
        view.write_bytes(store.path("out.json"), b"written through the view")  # writes pass through
    assert store.read_bytes(stats) == b"stats-2" and store.read_bytes(store.path("out.json")).startswith(b"written")
    with store.snapshot(prefixes=[store.path("set")]) as view:
        assert {view.read_bytes(p) for p in view.fs.handler.pins} == {b"rows-2", b"stats-2", b"{}"}


def _journal(store, token: str, moves: dict[str, bytes]) -> str:
    """A publication stopped after its commit point: its files staged, its journal written."""
    import json

    staged = []
    for i, (final, data) in enumerate(moves.items()):
        head, tail = final.rsplit("/", 1)
        tmp = f"{head}/.{tail}.tmp-{token}-{i}"
        store.ensure_parent(tmp)
        with store.fs.open_output_stream(tmp) as f:
            f.write(data)
        staged.append((tmp, final))
    journal = store.path(".publish", f"{token}.json")
    store.ensure_parent(journal)
    with store.fs.open_output_stream(journal) as f:
        f.write(json.dumps({"token": token, "created": 0, "moves": staged, "stale": []}).encode())
    return journal


def test_a_snapshot_finishes_a_dead_runs_publication_and_waits_for_a_live_ones(tmp_path):
    """A dead run's journal is replayed before the read; a live run's journal over the files read is
    waited for (bounded, naming its pid), one over other files is not."""
    import os
    import subprocess

    from resources.store import store_from_uri
    from resources.store_publish import HOST_TAG
    from resources.store_read import SnapshotUnsettled

    store = store_from_uri(str(tmp_path / "root"))
    a, b = store.path("set/a"), store.path("set/b")
    publish_set(store, {a: b"1", b: b"1"})
    dead = subprocess.Popen(["true"])  # a process of this host that no longer exists
    dead.wait()
    journal = _journal(store, f"{HOST_TAG}.{dead.pid}.0000dead", {a: b"2", b: b"2"})
    with store.snapshot([a, b]) as view:
        assert (view.read_bytes(a), view.read_bytes(b)) == (b"2", b"2") and not store.exists(journal)
    live = _journal(store, f"{HOST_TAG}.{os.getpid()}.00000a1e", {a: b"3", b: b"3"})  # this process: alive
    told: list[str] = []
    with pytest.raises(SnapshotUnsettled):
        store.snapshot(prefixes=[store.path("set")], wait_s=0.3, on_wait=told.append)
    assert told and f"pid {os.getpid()}" in told[0]
    with store.snapshot([store.path("elsewhere")], wait_s=0.3) as view:  # not a file the journal moves
        assert not view.fs.handler.pins
    store.fs.delete_file(live)  # (the live run's moves are not ours to finish)


def test_the_next_holder_of_a_lock_finishes_a_dead_holders_publication_before_it_writes(storage):
    """Issue 29.1: a run killed mid-publication while it held a lock leaves its journal. The next
    holder, whose store was opened before the kill (a run that waited on the lock), finishes that
    journal when it takes the lock, so it reads what the dead run published, and no later recovery
    moves the dead run's older files over the ones it publishes."""
    import subprocess

    from resources.store_publish import HOST_TAG

    store = storage.store()  # opened (and recovered) before the kill
    a, b = store.path("set/a"), store.path("set/b")
    publish_set(store, {a: b"1", b: b"1"})
    dead = subprocess.Popen(["true"])  # a process of this host that no longer exists
    dead.wait()
    _journal(store, f"{HOST_TAG}.{dead.pid}.0000dead", {a: b"2", b: b"2"})  # killed after its commit point
    with store.lock("set"):
        assert (store.read_bytes(a), store.read_bytes(b)) == (b"2", b"2")
        publish_set(store, {a: b"3", b: b"3"})
    store.recover()
    assert (store.read_bytes(a), store.read_bytes(b)) == (b"3", b"3")


def test_a_long_lived_process_sweeps_a_folder_again_for_staging_runs_killed_since(tmp_path, monkeypatch):
    """A folder's dead staging is swept once per SWEEP_EVERY_S and process, not once per process: a
    long-lived process (a sensor, `dagster dev` running steps in process) publishing into the same
    folder removes the staging of a run killed after its first sweep."""
    import subprocess

    from resources import store_publish
    from resources.store import store_from_uri

    clock = [1000.0]
    monkeypatch.setattr(store_publish.time, "monotonic", lambda: clock[0])
    store = store_from_uri(str(tmp_path / "root"))
    publish_set(store, {store.path("f/a"): b"1", store.path("f/b"): b"1"})  # the folder's first sweep
    dead = subprocess.Popen(["true"])
    dead.wait()
    left = store.path("f", f".c.tmp-{store_publish.HOST_TAG}.{dead.pid}.0000dead-0")  # killed before its commit
    with store.fs.open_output_stream(left) as f:
        f.write(b"half")
    publish_set(store, {store.path("f/a"): b"2", store.path("f/b"): b"2"})
    assert store.exists(left)  # within the interval: no listing per publication
    clock[0] += store_publish.SWEEP_EVERY_S
    publish_set(store, {store.path("f/a"): b"3", store.path("f/b"): b"3"})
    assert not store.exists(left)


def test_a_snapshot_of_a_large_file_holds_it_on_local_disk_not_in_memory(storage, monkeypatch):
    """An S3 file above `SPILL_BYTES` (a venue-year's raw forums, its parsed table) is pinned in an
    unnamed local temporary file; it still reads as of the snapshot after the store moved on."""
    import resources.store_read as store_read

    monkeypatch.setattr(store_read, "SPILL_BYTES", 100)
    store = storage.store()
    path = store.path("big/table.parquet")
    store.write_parquet(path, pa.table({"a": list(range(1000))}))
    with store.snapshot([path]) as view:
        [pin] = view.fs.handler.pins.values()
        assert pin.data is None and pin.fd is not None  # on disk (locally: the file's own descriptor)
        store.write_parquet(path, pa.table({"a": [1]}))
        assert view.read_parquet(path).num_rows == 1000 and view.read_parquet(path, ["a"]).num_rows == 1000
    assert store.read_parquet(path).num_rows == 1
