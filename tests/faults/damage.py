"""Damage done to a published file after its publication (issue 38.1, 38.8): what a disk, a copy or a
person may do to data at rest. Used by the corruption tests and benchmarks/bench_corruption.py."""
from __future__ import annotations

import os

import pyarrow.fs as pafs

DAMAGES = ("truncate", "zero", "delete", "empty")


def damage(store, path: str, kind: str, zeroed: int = 2048) -> None:
    """`truncate`: cut to half its size; `zero`: `zeroed` bytes in its middle set to 0, size kept
    (and, on local disk, its modification time); `delete`; `empty`: 0 bytes."""
    if kind == "delete":
        store.fs.delete_file(path)
        return
    data = store.read_bytes(path)
    local = isinstance(store.fs, pafs.LocalFileSystem)
    stat = os.stat(path) if local else None
    if kind == "truncate":
        data = data[: len(data) // 2]
    elif kind == "zero":
        n = min(zeroed, max(len(data) // 4, 1))
        start = max((len(data) - n) // 2, 0)
        data = data[:start] + b"\0" * n + data[start + n:]
    elif kind == "empty":
        data = b""
    else:
        raise ValueError(f"unknown damage {kind!r} (known: {', '.join(DAMAGES)})")
    if local:  # in place, as a disk would: same inode, the old mtime put back
        with open(path, "r+b") as f:
            f.write(data)
            f.truncate(len(data))
        if kind == "zero":
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    else:
        with store.fs.open_output_stream(path) as f:
            f.write(data)
