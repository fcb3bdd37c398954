"""Locks (`Store.lock`, `Store.slot`): exclusive named locks shared by every process that uses
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

import json
import os
import posixpath
import socket
import threading
import time
import uuid
from contextlib import contextmanager


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def process_is_dead(host: str, pid: int) -> bool:
    """Known dead: a process of this host (by name) that no longer exists. Another host's process
    is never known dead from here."""
    return host == socket.gethostname() and pid != os.getpid() and not alive(pid)


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
