"""Several processes opening one storage root while a dead run's journal is pending (issue 38.4):
every `store_from_uri` replays it (resources/store_publish.py), so they replay it together. Used by
tests/integrity/test_replay_race.py and benchmarks/bench_crash_points.py (`replay_race_failures`).

A round: a set of files published whole (v1), then a run of this host that no longer exists leaves
its journal after the commit point with every file staged (v2), then `procs` processes, released
together, each open the root. A round fails when any of them raises, or when the set afterwards is
not v2 whole with no journal and no staging file left."""
from __future__ import annotations

import json
import multiprocessing
import posixpath
import subprocess
import traceback

from resources.store import store_from_uri
from resources.store_publish import HOST_TAG, JOURNAL_DIR
from tests.published import publish_set


def s3_options(endpoint: str) -> dict:
    return {"endpoint_override": endpoint.removeprefix("http://"), "scheme": "http", "region": "us-east-1",
            "access_key": "testing-key", "secret_key": "testing-secret"}


def s3_factory(endpoint: str):
    def make():
        import boto3

        return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                            aws_access_key_id="testing-key", aws_secret_access_key="testing-secret")
    return make


def open_root(root: str, endpoint: str | None, lock_client: bool = True):
    """The root as an asset opens it (`StorageResource.store()`: with a boto3 client on S3 unless
    `lock_client` is False, as a script calling `store_from_uri` alone would)."""
    if endpoint is None:
        return store_from_uri(root)
    return store_from_uri(root, s3_options(endpoint), s3_client_factory=s3_factory(endpoint) if lock_client else None)


def dead_token() -> str:
    """The publication token of a process of this host that no longer exists."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return f"{HOST_TAG}.{proc.pid}.00dead00"


def leave_journal(store, token: str, files: dict[str, bytes], stale: list[str] = ()) -> str:
    """A publication stopped right after its commit point: every file staged, the journal written."""
    moves = []
    for i, (final, data) in enumerate(files.items()):
        head, tail = posixpath.split(final)
        tmp = posixpath.join(head, f".{tail}.tmp-{token}-{i}")
        store.ensure_parent(tmp)
        with store.fs.open_output_stream(tmp) as f:
            f.write(data)
        moves.append((tmp, final))
    journal = store.path(JOURNAL_DIR, f"{token}.json")
    store.ensure_parent(journal)
    with store.fs.open_output_stream(journal) as f:
        f.write(json.dumps({"token": token, "created": 0, "moves": moves, "stale": list(stale)}).encode())
    return journal


def _opener(root, endpoint, lock_client, barrier, out) -> None:
    try:
        barrier.wait(60)
        open_root(root, endpoint, lock_client)
        out.put(None)
    except BaseException:  # what the process would have died of
        out.put(traceback.format_exc(limit=3))


def race_round(root: str, endpoint: str | None = None, procs: int = 3, files: int = 12,
               lock_client: bool = True, tag: str = "r") -> list[str]:
    """One round (see the module docstring); returns what went wrong (empty: the round held)."""
    store = open_root(root, endpoint)
    names = [store.path(f"race/{tag}/part-{i:02d}.bin") for i in range(files)]
    stale = store.path(f"race/{tag}/old.bin")
    publish_set(store, {path: b"v1 " + path.encode() for path in [*names, stale]})
    leave_journal(store, dead_token(), {p: b"v2 " + p.encode() for p in names}, [stale])
    ctx = multiprocessing.get_context("fork")
    barrier, out = ctx.Barrier(procs), ctx.Queue()
    workers = [ctx.Process(target=_opener, args=(root, endpoint, lock_client, barrier, out)) for _ in range(procs)]
    for w in workers:
        w.start()
    problems = []
    for w in workers:
        w.join(120)
        if w.exitcode != 0:
            problems.append(f"an opener ended with exit code {w.exitcode}")
    while not out.empty():
        err = out.get()
        if err:
            problems.append(err)
    got = {p: store.read_bytes(p) if store.exists(p) else None for p in names}
    problems += [f"{p}: {v!r} after the replay" for p, v in got.items() if v != b"v2 " + p.encode()]
    if store.exists(stale):
        problems.append(f"{stale}: the stale file is still there")
    left = [p for p in store.list_files(store.path(JOURNAL_DIR)) if not posixpath.basename(p).startswith(".")]
    left += [p for p in store.list_files(store.path(f"race/{tag}")) if ".tmp-" in p]
    problems += [f"{p}: left after the replay" for p in left]
    return problems
