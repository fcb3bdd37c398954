"""Publishing a set of files all together or not at all (`Store.publish()`), for readers in other
processes too, on local disk and S3.

1. Every file is written under a staging name beside its final one: `.<name>.tmp-<token>-<i>`. The
   token names the run that wrote it: `<host tag>.<pid>.<random>`.
2. When the block ends, a set of more than one file writes its journal first,
   `.publish/<token>.json` (one small file, itself written whole): every (staging, final) move and
   every stale file to delete. This is the commit point.
3. The files are moved into place (a rename locally, a server-side copy on S3), stale files are
   deleted, and the journal is deleted last.

A run killed before 2 leaves only staging files: the set was never published and readers keep the
previous one. A run killed during 3 leaves its journal: the next `Store.recover()` (every way of
opening a root calls it, `store_from_uri`, so every asset through `StorageResource.store()`)
finishes the moves, so the set is whole again before anyone reads it. Every journal lives in the
ROOT's `.publish/`, whatever folder the files go to (a writer handed a sub-folder as its root once
put the split's journals under `corpus/.publish/`, where no recovery looked: `LEGACY_JOURNAL_DIRS`
are still replayed). A half-written journal of a dead run (killed before 2) is deleted. Staging
files of a dead run (its process is gone on this host, or it is a day old) are deleted by the next
publication into the same folder; a live run's files are never touched. A writer whose every run
stages into a folder of its own (the change log's `log/refresh=<time>/`) sweeps its parent folder
itself (`Store.sweep_staging`): no later publication would go into a dead run's folder.

Locks (`Store.lock`, `Store.slot`, below): exclusive named locks shared by every process that uses
one storage root. `Store.lock` replays dead runs' journals once it holds the lock: a holder killed
mid-publication is finished before the next holder reads and rewrites the same files (it may have
opened its store, and recovered, long before, while it waited), so no later replay moves the dead
run's older files over the new holder's.

Local root: `fcntl.flock` on `<root>/.locks/<name>.lock`. The kernel drops the lock when the
holder's process ends, so a run killed with -9 never leaves it held.

S3 root: a lock object `<prefix>/.locks/<name>.lock` created with a conditional put
(`If-None-Match: *`, S3's conditional writes since 2024-08; moto_server implements them), holding
the owner and a lease expiry, renewed every `ttl_s / 3` (default 120 s) by the holder. A holder
that died leaves the object until its lease runs out (at most `ttl_s`); the next taker then
replaces it with a conditional put on its ETag (`If-Match`), so two takers cannot both win. A
holder known dead (a process of this host that no longer exists) is replaced at once, without
waiting out its lease. What this does NOT give on S3: a holder that stalls longer than `ttl_s`
without renewing (e.g. a frozen process, a network partition) loses the lock while still running
and can overlap with the next. Without a boto3 client (no `s3_client_factory`), S3 locks are refused
rather than silently skipped.
"""
from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import socket
import threading
import time
import uuid
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

import pyarrow.fs as pafs


class Store(Protocol):
    """What a publication needs of `resources.store.Store` (which imports this module)."""

    fs: pafs.FileSystem

    def path(self, *parts: str) -> str: ...
    def check(self, path: str) -> str: ...
    def exists(self, path: str) -> bool: ...
    def ensure_parent(self, path: str) -> None: ...

JOURNAL_DIR = ".publish"
LEGACY_JOURNAL_DIRS = ("corpus/.publish",)  # written by the split and card writers before issue 29
DEAD_AFTER_S = 24 * 3600  # a staging file or journal of another host counts as dead after a day
HOST_TAG = hashlib.sha1(socket.gethostname().encode()).hexdigest()[:8]
STAGING = re.compile(r"^\..+\.tmp-(?P<token>[0-9a-f]{8}\.\d+\.[0-9a-f]+|[0-9a-f]{12})-\d+$")


# folder -> when this process last removed its dead staging (time.monotonic): a folder is swept at
# most every SWEEP_EVERY_S, so 20,000 PDFs do not cost 40,000 listings, and a long-lived process
# (a sensor, `dagster dev`'s in-process runs) still sweeps what runs killed since left behind
_CLEANED: dict[str, float] = {}
SWEEP_EVERY_S = 600.0


def new_token() -> str:
    return f"{HOST_TAG}.{os.getpid()}.{uuid.uuid4().hex[:8]}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def token_is_dead(token: str, age_s: float) -> bool:
    """A token of this host whose process is gone, or any token older than DEAD_AFTER_S."""
    parts = token.split(".")
    if len(parts) == 3 and parts[0] == HOST_TAG and parts[1].isdigit():
        return int(parts[1]) != os.getpid() and not _alive(int(parts[1]))
    return age_s > DEAD_AFTER_S


def process_is_dead(host: str, pid: int) -> bool:
    """Known dead: a process of this host (by name) that no longer exists. Another host's process
    is never known dead from here."""
    return host == socket.gethostname() and pid != os.getpid() and not _alive(pid)


def age_s(info: pafs.FileInfo) -> float:
    return time.time() - (info.mtime.timestamp() if info.mtime is not None else time.time())


def _move(fs: pafs.FileSystem, tmp: str, final: str) -> int:
    """Move unless done already (a journal replayed after some of its moves happened)."""
    if fs.get_file_info(tmp).type != pafs.FileType.File:
        return 0
    fs.move(tmp, final)
    return 1


@dataclass
class Publication:
    """Files staged by one `Store.publish()` block; see the module docstring."""

    store: Store
    token: str = field(default_factory=new_token)
    staged: list[tuple[str, str]] = field(default_factory=list)  # (staging path, final path)
    stale: list[str] = field(default_factory=list)

    def target(self, final: str) -> str:
        """The staging path to write `final` to (unique to this publication)."""
        self.store.check(final)
        head, tail = posixpath.split(final)
        tmp = posixpath.join(head, f".{tail}.tmp-{self.token}-{len(self.staged)}")
        self.store.ensure_parent(final)
        now, last = time.monotonic(), _CLEANED.get(head)
        if last is None or now - last >= SWEEP_EVERY_S:
            _CLEANED[head] = now
            remove_dead_staging(self.store, head)
        self.staged.append((tmp, final))
        return tmp

    def set_final(self, tmp: str, final: str) -> None:
        """Give a staged file its final name once it is known (e.g. `-of-<n>` shard names); it must
        stay in the same folder, so the move is a rename."""
        self.store.check(final)
        if posixpath.dirname(final) != posixpath.dirname(tmp):
            raise ValueError(f"{final} is not in the folder of its staging file {tmp}")
        self.staged = [(t, final if t == tmp else f) for t, f in self.staged]

    def remove_after(self, paths: Iterable[str]) -> None:
        """Delete these final paths once everything is moved into place (stale shards)."""
        self.stale.extend(p for p in paths if self.store.check(p))

    def commit(self) -> None:
        finals = {f for _, f in self.staged}
        stale = [p for p in self.stale if p not in finals]
        if len(self.staged) + len(stale) <= 1:  # one move is atomic by itself
            self._apply(self.staged, stale)
            return
        journal = self.store.path(JOURNAL_DIR, f"{self.token}.json")
        self.store.ensure_parent(journal)
        body = json.dumps({"token": self.token, "created": time.time(), "moves": self.staged,
                           "stale": stale}).encode()
        tmp = posixpath.join(posixpath.dirname(journal), f".{self.token}.json.tmp")
        with self.store.fs.open_output_stream(tmp) as f:
            f.write(body)
        try:
            self.store.fs.move(tmp, journal)  # the commit point
        except BaseException:
            self.abort()
            raise
        self._apply(self.staged, stale)
        self.store.fs.delete_file(journal)

    def _apply(self, moves: list[tuple[str, str]], stale: list[str]) -> None:
        fs = self.store.fs
        for tmp, final in moves:
            _move(fs, tmp, final)
        for path in stale:
            if self.store.exists(path):
                fs.delete_file(path)

    def abort(self, staged=None) -> None:
        for tmp, _ in (self.staged if staged is None else staged):
            try:
                if self.store.fs.get_file_info(tmp).type == pafs.FileType.File:
                    self.store.fs.delete_file(tmp)
            except OSError:  # best effort: the error being raised matters more
                pass


def remove_dead_staging(store: Store, folder: str, recursive: bool = False) -> int:
    """Delete the staging files of dead runs in `folder` (and its sub-folders if `recursive`);
    never a live run's, and never those of a run whose journal still has to be replayed."""
    sel = pafs.FileSelector(folder, allow_not_found=True, recursive=recursive)
    pending = {posixpath.basename(i.path)[:-5] for i in pending_journal_files(store)}
    removed = 0
    for info in store.fs.get_file_info(sel):
        m = STAGING.match(info.base_name) if info.type == pafs.FileType.File else None
        if m and m["token"] not in pending and token_is_dead(m["token"], age_s(info)):
            try:
                store.fs.delete_file(info.path)
                removed += 1
            except OSError:
                pass
    return removed


def _journal_files(store: Store) -> list[pafs.FileInfo]:
    out = []
    for folder in (JOURNAL_DIR, *LEGACY_JOURNAL_DIRS):
        sel = pafs.FileSelector(store.path(folder), allow_not_found=True, recursive=False)
        out += [i for i in store.fs.get_file_info(sel) if i.type == pafs.FileType.File]
    return out


def pending_journal_files(store: Store) -> list[pafs.FileInfo]:
    return [i for i in _journal_files(store) if i.base_name.endswith(".json") and not i.base_name.startswith(".")]


_HALF_JOURNAL = re.compile(r"^\.(?P<token>.+)\.json\.tmp$")


def recover_publications(store: Store) -> dict[str, int]:
    """Replay the journal of every dead run, and delete the half-written journals of dead runs
    (see the module docstring)."""
    recovered = moved = 0
    for info in _journal_files(store):
        m = _HALF_JOURNAL.match(info.base_name)
        if m and token_is_dead(m["token"], age_s(info)):  # killed before its commit point
            try:
                store.fs.delete_file(info.path)
            except OSError:
                pass
    for info in pending_journal_files(store):
        token = info.base_name[:-5]
        if not token_is_dead(token, age_s(info)):
            continue  # a live run is moving its files right now
        try:
            journal = json.loads(store.fs.open_input_stream(info.path).read())
        except (OSError, ValueError):
            continue  # unreadable: left for a person to look at, never guessed
        for tmp, final in journal["moves"]:
            moved += _move(store.fs, store.check(tmp), store.check(final))
        for path in journal.get("stale", []):
            if store.exists(path):
                store.fs.delete_file(path)
        store.fs.delete_file(info.path)
        recovered += 1
    return {"recovered": recovered, "moved": moved}


# ---- locks ------------------------------------------------------------------------------
LOCK_DIR = ".locks"
POLL_S = 0.2


class LockTimeout(TimeoutError):
    pass


def _check_name(name: str) -> None:
    if not name or not all(c.isalnum() or c in "-_." for c in name) or name.startswith("."):
        raise ValueError(f"lock name {name!r}: letters, digits, '-', '_' and '.' only")


@contextmanager
def lock_for(store, name: str, timeout_s: float, ttl_s: float = 120.0):
    _check_name(name)
    if store.is_local:
        with _local_lock(posixpath.join(store.root, LOCK_DIR, f"{name}.lock"), timeout_s):
            yield
    else:
        with _s3_lock(store, name, timeout_s, ttl_s):
            yield


@contextmanager
def _local_lock(path: str, timeout_s: float):
    import fcntl

    os.makedirs(posixpath.dirname(path), exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise LockTimeout(f"lock {path} still held after {timeout_s:.0f}s") from None
                time.sleep(POLL_S)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _holder_is_dead(owner: str) -> bool:
    """The lock's holder (`host:pid:random`) is a process of this host that no longer exists: its
    lease need not be waited out (a run killed -9 would otherwise hold the split for `ttl_s`)."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    return pid.isdigit() and process_is_dead(host, int(pid))


@contextmanager
def _s3_lock(store, name: str, timeout_s: float, ttl_s: float):
    if store.s3_client_factory is None:
        raise RuntimeError("S3 locks need a boto3 client (StorageResource passes one); none was given")
    from botocore.exceptions import ClientError

    client = store.s3_client_factory()
    bucket, _, prefix = store.root.partition("/")
    key = posixpath.join(prefix, LOCK_DIR, f"{name}.lock")
    owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    deadline = time.monotonic() + timeout_s

    def body() -> bytes:
        return json.dumps({"owner": owner, "expires": time.time() + ttl_s}).encode()

    def status(exc: ClientError) -> str:
        return str(exc.response.get("Error", {}).get("Code", ""))

    while True:
        try:
            client.put_object(Bucket=bucket, Key=key, Body=body(), IfNoneMatch="*")
            break
        except ClientError as exc:
            if status(exc) not in ("PreconditionFailed", "ConditionalRequestConflict", "412", "409"):
                raise
        try:  # held: take it over only if its lease ran out
            held = client.get_object(Bucket=bucket, Key=key)
            info = json.loads(held["Body"].read() or b"{}")
            if float(info.get("expires", 0)) < time.time() or _holder_is_dead(str(info.get("owner", ""))):
                client.put_object(Bucket=bucket, Key=key, Body=body(), IfMatch=held["ETag"])
                break
        except ClientError as exc:
            if status(exc) not in ("NoSuchKey", "PreconditionFailed", "ConditionalRequestConflict",
                                   "404", "412", "409"):
                raise
        if time.monotonic() > deadline:
            raise LockTimeout(f"s3://{bucket}/{key} still held after {timeout_s:.0f}s")
        time.sleep(POLL_S)
    stop = threading.Event()

    def heartbeat() -> None:  # renew the lease while held, so only a dead holder's lease runs out
        while not stop.wait(ttl_s / 3):
            try:
                held = client.get_object(Bucket=bucket, Key=key)
                if json.loads(held["Body"].read() or b"{}").get("owner") != owner:
                    return
                client.put_object(Bucket=bucket, Key=key, Body=body(), IfMatch=held["ETag"])
            except ClientError:
                return

    beat = threading.Thread(target=heartbeat, daemon=True, name=f"lease-{name}")
    beat.start()
    try:
        yield
    finally:
        stop.set()
        try:
            held = client.get_object(Bucket=bucket, Key=key)
            if json.loads(held["Body"].read() or b"{}").get("owner") == owner:
                client.delete_object(Bucket=bucket, Key=key)
        except ClientError:
            pass


@contextmanager
def slot_for(store, name: str, slots: int, timeout_s: float, on_wait=None):
    """One of `slots` locks `<name>-<i>`: at most `slots` holders at once across processes (a
    counting semaphore made of locks). `on_wait(message)` is called once if all are taken."""
    deadline = time.monotonic() + timeout_s
    told = False
    while True:
        for i in range(max(1, slots)):
            try:
                cm = lock_for(store, f"{name}-{i}", timeout_s=0.0)
                cm.__enter__()
            except LockTimeout:
                continue
            try:
                yield i
            finally:
                cm.__exit__(None, None, None)
            return
        if time.monotonic() > deadline:
            raise LockTimeout(f"all {slots} '{name}' slots still held after {timeout_s:.0f}s")
        if on_wait and not told:
            on_wait(f"all {slots} '{name}' slots are held by other runs on this storage root: waiting")
            told = True
        time.sleep(POLL_S * 5)
