"""Reading several files as of one moment (`Store.snapshot`, issue 29.4): never half a publication
(resources/store_publish.py) of a writer running at the same time, on local disk and S3.

A reader of several files, or of a file that a multi-file publication replaces, must see them as of
one moment: all before a publication or all after it. `pin_snapshot` finds such a moment:
1. a dead run's journal over the files is replayed (as `Store.recover()` does); a live run's journal
   that moves or deletes one of the files read is waited for (bounded by `wait_s`, `on_wait` told
   whose journal it is: its pid and host);
2. the files' versions are listed: locally inode, size and mtime_ns (a publish moves a new file into
   place, so a replaced file always has a new inode); on S3 the ETag (an S3 mtime has whole seconds);
3. each file is pinned: locally an open descriptor (a later rename replaces the directory entry,
   never the pinned inode's bytes; each read opens `/proc/self/fd/<n>`, its own position); on S3
   its bytes, fetched with `If-Match: <ETag>` of the listing;
4. the pending journals and the versions are taken again: any change means a publication moved
   files during 2-3, and the whole read starts again (`SNAPSHOT_TRIES`, then `SnapshotUnsettled`).
What the reader then reads comes from the pins only (`PinnedHandler`, a `pyarrow.fs` handler, so
code that reads through a filesystem reads the snapshot unchanged).

What it does not give: a reader that lists many files and reads them one by one WITHOUT this (e.g.
`datasets.load_dataset` over a folder's glob, DuckDB over a glob) is not atomic on S3: a LIST and
each GET are separate requests, each strongly consistent by itself, none of them a snapshot of
several objects (docs/storage.md).
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Iterable

import pyarrow.fs as pafs

from resources.store_locks import LOCK_DIR, POLL_S
from resources.store_publish import (
    JOURNAL_DIR,
    LEGACY_JOURNAL_DIRS,
    STAGING,
    Store,
    age_s,
    pending_journal_files,
    recover_publications,
    token_is_dead,
)

SNAPSHOT_TRIES = 50
SPILL_BYTES = 64 << 20  # an S3 file larger than this is pinned on local disk, not in memory
_PROC_FD = "/proc/self/fd"


class SnapshotUnsettled(TimeoutError):
    """No moment without a publication in progress was found for the files to read."""


def published_name(rel: str) -> bool:
    """A root-relative path that is published data (not staging, journal or lock)."""
    parts = rel.split("/")
    return not (STAGING.match(parts[-1]) or parts[0] in (JOURNAL_DIR, LOCK_DIR)
                or parts[-1].startswith(".") and parts[-1].endswith(".json.tmp")
                or any(rel.startswith(d + "/") for d in LEGACY_JOURNAL_DIRS))


def _covers(paths: frozenset, prefixes: tuple, path: str) -> bool:
    return path in paths or any(path.startswith(p) for p in prefixes)


def _relevant_journals(store: Store, paths: frozenset, prefixes: tuple) -> list[tuple[str, dict]]:
    """(journal path, body) of every pending journal that moves or deletes one of the files read."""
    out = []
    for info in pending_journal_files(store):
        try:
            with store.fs.open_input_stream(info.path) as f:
                body = json.loads(f.read())
        except (OSError, ValueError):  # gone since listed (its moves are done), or not ours to judge
            continue
        touched = [final for _tmp, final in body.get("moves", [])] + list(body.get("stale", []))
        if any(_covers(paths, prefixes, t) for t in touched):
            out.append((info.path, {**body, "age_s": age_s(info)}))
    return out


def versions(store: Store, paths: frozenset, prefixes: tuple) -> dict[str, tuple]:
    """Published files among `paths` and under `prefixes` -> version (see above)."""
    root = store.root.rstrip("/") + "/"
    ours = lambda p: published_name(p[len(root):] if p.startswith(root) else p)  # noqa: E731
    client = None if store.is_local or not store.s3_client_factory else store.s3_client_factory()
    out: dict[str, tuple] = {}
    if client is not None:  # S3: the ETag names the version (an mtime has whole seconds only)
        for prefix in prefixes:
            bucket, _, key = prefix.partition("/")
            for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=key):
                for obj in page.get("Contents", []):
                    path = f"{bucket}/{obj['Key']}"
                    if not obj["Key"].endswith("/") and ours(path):
                        out[path] = (obj["Size"], obj["ETag"], obj["LastModified"].timestamp())
        for path in sorted(paths - out.keys()):
            bucket, _, key = path.partition("/")
            try:
                head = client.head_object(Bucket=bucket, Key=key)
            except Exception as exc:  # noqa: BLE001 - botocore's 404 is a ClientError
                if "404" in str(exc) or "Not Found" in str(exc):
                    continue
                raise
            out[path] = (head["ContentLength"], head["ETag"], head["LastModified"].timestamp())
        return dict(sorted(out.items()))
    found = set(paths)
    for prefix in prefixes:
        sel = pafs.FileSelector(prefix.rstrip("/") or prefix, recursive=True, allow_not_found=True)
        found |= {i.path for i in store.fs.get_file_info(sel) if i.type == pafs.FileType.File}
    for path in sorted(p for p in found if ours(p)):
        if store.is_local:
            try:
                st = os.stat(path)
            except (FileNotFoundError, NotADirectoryError):
                continue
            out[path] = (st.st_ino, st.st_size, st.st_mtime_ns)
        else:  # no boto3 client: size and mtime (whole seconds on S3: weaker, said in docs/storage.md)
            info = store.fs.get_file_info(path)
            if info.type == pafs.FileType.File:
                out[path] = (info.size, info.mtime_ns)
    return out


class Pin:
    """One file as of the snapshot: `open()` gives a fresh reader of exactly those bytes."""

    def __init__(self, path: str, size: int, mtime_ns: int | None, fd: int | None = None, data: bytes | None = None):
        self.path, self.size, self.mtime_ns, self.fd, self.data = path, size, mtime_ns, fd, data

    def open(self):
        import pyarrow as pa

        if self.fd is not None:  # a new descriptor of the pinned inode, with its own position
            return pa.OSFile(f"{_PROC_FD}/{self.fd}", "r")
        return pa.BufferReader(self.data)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _held(chunks, size: int) -> dict:
    """Pin bytes read from S3: in memory, or above `SPILL_BYTES` (a whole venue-year's raw forums or
    parsed table) in an unnamed local temporary file, so a snapshot costs disk, not memory; the
    file goes away with its last descriptor."""
    if size <= SPILL_BYTES or not os.path.isdir(_PROC_FD):
        return {"data": b"".join(chunks)}
    with tempfile.TemporaryFile() as spill:
        for chunk in chunks:
            spill.write(chunk)
        spill.flush()
        return {"fd": os.dup(spill.fileno())}


def _pin(store: Store, path: str, version: tuple, client) -> Pin | None:
    """The file's bytes as of `version`, or None when it is no longer that version."""
    if store.is_local:
        size, mtime_ns = version[1], version[2]
        if os.path.isdir(_PROC_FD):
            try:
                fd = os.open(path, os.O_RDONLY)
            except FileNotFoundError:
                return None
            st = os.fstat(fd)
            if (st.st_ino, st.st_size, st.st_mtime_ns) != version:
                os.close(fd)
                return None
            return Pin(path, size, mtime_ns, fd=fd)
    elif client is not None:
        bucket, _, key = path.partition("/")
        size, mtime_ns = version[0], int(version[2] * 1e9)
        try:
            body = client.get_object(Bucket=bucket, Key=key, IfMatch=version[1])["Body"]
            return Pin(path, size, mtime_ns, **_held(body.iter_chunks(1 << 20), size))
        except Exception:  # noqa: BLE001 - 412 (replaced since listed) or 404 (deleted): read again
            return None
    else:
        size, mtime_ns = version[0], version[1]
    try:  # no descriptor to pin (no /proc) or no boto3 client: the bytes, checked by the versions after
        with store.fs.open_input_stream(path) as f:
            return Pin(path, size, mtime_ns, **_held(iter(lambda: f.read(1 << 20), b""), size))
    except FileNotFoundError:
        return None


def _room_for_descriptors(n: int) -> None:
    """Raise this process's open-file limit to its hard limit when `n` pins would not fit (the SQL
    views pin every table of every venue-year at once)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and 2 * n + 256 > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _cached(cache: dict | None, path: str, version: tuple) -> Pin | None:
    return None if cache is None else cache.get((path, version))


def pin_snapshot(store: Store, paths: Iterable[str], prefixes: Iterable[str] = (), wait_s: float = 600.0,
                 on_wait=None, tries: int = SNAPSHOT_TRIES, cache: dict | None = None) -> dict[str, Pin]:
    """The published files among `paths` and under `prefixes` (absolute store paths), pinned as of
    one moment with no publication of them in progress (see above). `cache`: a dict a polling reader
    keeps between snapshots; bytes fetched for a (path, version) are not fetched again (S3)."""
    paths, prefixes = frozenset(paths), tuple(prefixes)
    deadline, told = time.monotonic() + wait_s, 0.0
    client = None if store.is_local or not store.s3_client_factory else store.s3_client_factory()
    for _ in range(tries):
        pending = _relevant_journals(store, paths, prefixes)
        if pending:
            if any(token_is_dead(b.get("token", ""), b["age_s"]) for _p, b in pending):
                recover_publications(store)  # a dead run's: finished now, as every reader does
                continue
            if time.monotonic() > deadline:
                raise SnapshotUnsettled(f"a publication of the files read was still in progress after {wait_s:.0f}s: "
                                        f"{[p for p, _ in pending]}")
            if on_wait is not None and time.monotonic() - told > 10:
                told = time.monotonic()
                for path, body in pending:
                    host, pid, _ = (body.get("token", "") + "..").split(".", 2)
                    on_wait(f"waiting for the publication {path} of the live run pid {pid} (host tag {host}) to "
                            f"finish moving {len(body.get('moves', []))} files into place")
            time.sleep(POLL_S / 4)
            continue
        before = versions(store, paths, prefixes)
        _room_for_descriptors(len(before))
        pins = {p: _cached(cache, p, v) or _pin(store, p, v, client) for p, v in before.items()}
        if cache is not None:
            cache.update({(p, before[p]): pin for p, pin in pins.items() if pin is not None and pin.data is not None})
        if (None not in pins.values() and not _relevant_journals(store, paths, prefixes)
                and versions(store, paths, prefixes) == before):
            return pins
        for pin in pins.values():
            if pin is not None:
                pin.close()
    raise SnapshotUnsettled(f"{len(paths)} files and {len(prefixes)} folders changed during each of {tries} reads")


class PinnedHandler(pafs.FileSystemHandler):
    """`fs` with the snapshot's files answered from their pins: a file in the snapshot's paths or
    folders reads as it was then (absent if it was absent); everything else, writes included, goes
    to `fs` unchanged."""

    def __init__(self, fs: pafs.FileSystem, pins: dict[str, Pin], paths: frozenset, prefixes: tuple):
        self.fs, self.pins, self.paths, self.prefixes = fs, pins, paths, prefixes

    def _covered(self, path: str) -> bool:
        return path in self.paths or any(path.startswith(p) for p in self.prefixes)

    def _info(self, path: str) -> pafs.FileInfo:
        pin = self.pins.get(path)
        if pin is not None:
            return pafs.FileInfo(path, pafs.FileType.File, mtime_ns=pin.mtime_ns, size=pin.size)
        return pafs.FileInfo(path, pafs.FileType.NotFound)

    def _pin(self, path: str) -> Pin:
        if path not in self.pins:
            raise FileNotFoundError(f"{path}: not in the snapshot (absent when it was taken)")
        return self.pins[path]

    def get_file_info(self, paths):
        return [self._info(p) if p in self.pins or (self._covered(p) and not any(
            q.startswith(p.rstrip("/") + "/") for q in self.pins)) else self.fs.get_file_info(p) for p in paths]

    def get_file_info_selector(self, selector):
        base = selector.base_dir.rstrip("/") + "/"
        under = [i for i in self.fs.get_file_info(selector)
                 if not (i.type == pafs.FileType.File and self._covered(i.path))]
        mine = [p for p in self.pins if p.startswith(base) and (selector.recursive or "/" not in p[len(base):])]
        return sorted([*under, *(self._info(p) for p in mine)], key=lambda i: i.path)

    def open_input_stream(self, path):
        return self._pin(path).open() if self._covered(path) else self.fs.open_input_stream(path)

    def open_input_file(self, path):
        return self._pin(path).open() if self._covered(path) else self.fs.open_input_file(path)

    def get_type_name(self):
        return "snapshot"

    def normalize_path(self, path):
        return self.fs.normalize_path(path)

    def __eq__(self, other):
        return isinstance(other, PinnedHandler) and other.pins is self.pins

    def __ne__(self, other):
        return not self == other

    def create_dir(self, path, recursive):
        self.fs.create_dir(path, recursive=recursive)

    def delete_dir(self, path):
        self.fs.delete_dir(path)

    def delete_dir_contents(self, path, missing_dir_ok=False):
        self.fs.delete_dir_contents(path, missing_dir_ok=missing_dir_ok)

    def delete_root_dir_contents(self):
        self.fs.delete_dir_contents("/", accept_root_dir=True)

    def delete_file(self, path):
        self.fs.delete_file(path)

    def move(self, src, dest):
        self.fs.move(src, dest)

    def copy_file(self, src, dest):
        self.fs.copy_file(src, dest)

    def open_output_stream(self, path, metadata):
        return self.fs.open_output_stream(path, metadata=metadata)

    def open_append_stream(self, path, metadata):
        return self.fs.open_append_stream(path, metadata=metadata)
