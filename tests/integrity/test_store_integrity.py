"""The store's guarantees (issue 13): contained paths, one atomic publish, locks, checksummed Parquet,
verified PDFs, corrupt entries named or treated as misses, any JSON text stored."""
from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from resources.store import CorruptFileError, PathEscapeError, store_from_uri
from reviewbench_assets.domain.posts import id_problem
from tests.published import write_jsonl


@pytest.fixture
def store(tmp_path):
    return store_from_uri(str(tmp_path / "root"))


@pytest.mark.parametrize("part", ["../x", "a/../../x", "/etc/passwd", "a\x00b", "..", "a\\..\\b"])
def test_paths_cannot_leave_the_root(store, part):
    with pytest.raises(PathEscapeError):
        store.path("checkpoints", part)


def test_paths_outside_the_root_are_refused_by_every_operation(store, tmp_path):
    outside = str(tmp_path / "elsewhere.json")
    for op in (lambda: store.write_json(outside, {}), lambda: store.read_json(outside),
               lambda: store.exists(outside)):
        with pytest.raises(PathEscapeError):
            op()
    assert not (tmp_path / "elsewhere.json").exists()


def test_s3_paths_are_contained_too():
    import pyarrow.fs as pafs

    from resources.store import Store

    s3 = Store(pafs.LocalFileSystem(), "bucket/prefix")  # the path rules need no server
    assert s3.path("pdfs", "ab", "x.pdf") == "bucket/prefix/pdfs/ab/x.pdf"
    for bad in ("../other", "a/../../other-prefix/x"):
        with pytest.raises(PathEscapeError):
            s3.path(bad)
    with pytest.raises(PathEscapeError):
        s3.check("bucket/prefix-evil/x")


@pytest.mark.parametrize("value", ["../../../../tmp/x", "sub/dir/forum", "a" * 400, "ab\x00c", "",
                                   "x.cursor", None, 7])
def test_ids_that_are_not_openreview_ids_are_refused_with_a_reason(value):
    assert id_problem(value)


@pytest.mark.parametrize("value", ["ryxz8CVYDH", "zzo3Sy3NSX", "Hk_a-9Z", "B1x8anVFPr"])
def test_real_openreview_ids_pass(value):
    assert id_problem(value) is None


def test_records_store_relative_paths(store):
    sha, path, _ = store.put_pdf(b"%PDF-1.4 x\n%%EOF\n")
    assert store.rel(path) == f"pdfs/{sha[:2]}/{sha}.pdf"
    assert store.path(store.rel(path)) == path


def test_lone_surrogates_and_nul_are_stored_and_read_back(store):
    note = {"id": "abc", "content": {"abstract": {"value": "x \ud800 y \x00 z \\ud800"}}}
    write_jsonl(store, store.path("raw/forums/t.jsonl"), [note])
    store.write_json(store.path("raw/t.json"), note)
    assert list(store.iter_jsonl(store.path("raw/forums/t.jsonl"))) == [note]
    assert store.read_json(store.path("raw/t.json")) == note


def test_publish_moves_several_files_together_or_none(store):
    a, b = store.path("x/a.json"), store.path("y/b.json")
    with pytest.raises(RuntimeError):
        with store.publish() as pub:
            for p in (a, b):
                with store.fs.open_output_stream(pub.target(p)) as f:
                    f.write(b"{}")
            raise RuntimeError("killed between the two")
    assert not store.exists(a) and not store.exists(b)
    assert not [f for f in store.list_files(store.path("")) if ".tmp-" in f]
    with store.publish() as pub:
        for p in (a, b):
            with store.fs.open_output_stream(pub.target(p)) as f:
                f.write(b"{}")
        pub.remove_after([store.path("x/stale.json")])
    assert store.exists(a) and store.exists(b)


def test_a_failed_publication_removes_only_its_own_staging(store):
    other = store.path("corpus/data/.iclr-00000-of-00001.parquet.tmp-otherrun-0")  # another run's
    store.ensure_parent(other)
    with store.fs.open_output_stream(other) as f:
        f.write(b"in progress")
    with pytest.raises(ValueError):
        with store.publish() as pub:
            pub.target(store.path("corpus/data/iclr-00000-of-00001.parquet"))
            raise ValueError("fails")
    assert store.exists(other), "another run's staging file was removed"


def _hold_lock(root: str, name: str, started, seconds: float) -> None:
    s = store_from_uri(root)
    with s.lock(name):
        started.set()
        time.sleep(seconds)


def test_the_lock_is_shared_by_processes_and_dropped_when_the_holder_is_killed(store):
    ctx = mp.get_context("spawn")
    started = ctx.Event()
    p = ctx.Process(target=_hold_lock, args=(store.root, "split-iclr", started, 60))
    p.start()
    assert started.wait(60)
    t0 = time.monotonic()
    from resources.store_locks import LockTimeout

    with pytest.raises(LockTimeout):
        with store.lock("split-iclr", timeout_s=0.5):
            pass
    assert time.monotonic() - t0 >= 0.5
    p.kill()  # kill -9: the kernel drops the flock
    p.join()
    with store.lock("split-iclr", timeout_s=5):
        pass


def _flip(path, at: float) -> None:
    data = bytearray(open(path, "rb").read())
    i = int(len(data) * at)
    data[i] ^= 0x55
    open(path, "wb").write(bytes(data))


def test_parquet_has_page_checksums_and_a_flipped_byte_is_named(store):
    path = store.path("rows/t.parquet")
    import random

    rng = random.Random(0)  # text that does not compress away: 40% into the file is a data page
    store.write_parquet(path, pa.table({"markdown": [" ".join(f"w{rng.randrange(10**9)}" for _ in range(300))
                                                     for _ in range(50)]}))
    assert store.read_parquet(path).num_rows == 50
    _flip(path, 0.4)
    with pytest.raises(CorruptFileError) as err:
        store.read_parquet(path)
    assert path in str(err.value)


def test_pdfs_are_verified_against_their_sha256(store):
    data = b"%PDF-1.4 some paper\n%%EOF\n"
    sha, path, _ = store.put_pdf(data)
    assert store.read_bytes(path) == data and store.pdf_ok(sha)
    _flip(path, 0.5)
    assert not store.pdf_ok(sha)
    assert store.put_pdf(data) == (sha, path, True)  # found corrupt in the store: written again
    assert store.read_bytes(path) == data and store.pdf_ok(sha)


def test_corrupt_entries_are_misses_and_corrupt_files_are_named(store):
    ck = store.path("checkpoints/submissions/x/abc.json")
    store.write_bytes(ck, b'{"forum_id": "abc", "finger')  # truncated
    assert store.read_json_or_none(ck) is None
    raw = store.path("raw/forums/x.jsonl")
    store.write_bytes(raw, b'{"forum_id": "a"}\n{"forum_id": "b", "no')
    with pytest.raises(CorruptFileError, match=r"raw/forums/x.jsonl: line 2"):
        list(store.iter_jsonl(raw))


def test_parquet_writers_of_the_stages_write_checksums(store):
    from reviewbench_assets.stages.rows_stage import RowsStage, write_rows

    stats = write_rows(RowsStage.outputs_in(store, "a"), iter(()), with_stats=False)  # rows/a.parquet, ...
    assert stats["rows"] == 0
    md = pq.ParquetFile(store.path("rows/a.parquet")).metadata
    assert md.num_rows == 0
    # a non-empty file: every data page header carries a CRC (checked by a verifying read)
    store.write_parquet(store.path("t.parquet"), pa.table({"a": list(range(1000))}))
    pq.read_table(store.path("t.parquet"), page_checksum_verification=True)


def test_json_written_is_utf8_with_escaped_surrogates_only(store):
    store.write_json(store.path("a.json"), {"t": "é \ud800"})
    raw = store.read_bytes(store.path("a.json"))
    assert raw.decode("utf-8") == '{"t": "é \\ud800"}'
    assert json.loads(raw)["t"] == "é \ud800"
    assert hashlib.sha256(raw).hexdigest()  # plain bytes


def test_s3_lock_is_a_conditional_put_that_excludes_a_second_holder(moto_endpoint, s3_bucket):
    """On S3 the lock is an object created with If-None-Match: * (moto_server implements it)."""
    from dagster_aws.s3 import S3Resource

    from resources import StorageResource
    from resources.store_locks import LockTimeout

    storage = StorageResource(root=f"s3://{s3_bucket}/locks", s3=S3Resource(
        endpoint_url=moto_endpoint, region_name="us-east-1", aws_access_key_id="testing-key",
        aws_secret_access_key="testing-secret"))
    a, b = storage.store(), storage.store()
    with a.lock("split-iclr"):
        with pytest.raises(LockTimeout):
            with b.lock("split-iclr", timeout_s=0.5):
                pass
    with b.lock("split-iclr", timeout_s=5):  # released
        pass
    keys = [o["Key"] for o in a.s3_client_factory().list_objects_v2(Bucket=s3_bucket).get("Contents", [])]
    assert "locks/.locks/split-iclr.lock" not in keys
