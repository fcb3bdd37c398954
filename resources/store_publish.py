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

Locks: resources/store_locks.py. The replay itself runs under the root's `publish-recovery` lock.
"""
from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import socket
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

import pyarrow.fs as pafs

from resources.store_locks import alive, lock_for


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


def token_is_dead(token: str, age_s: float) -> bool:
    """A token of this host whose process is gone, or any token older than DEAD_AFTER_S."""
    parts = token.split(".")
    if len(parts) == 3 and parts[0] == HOST_TAG and parts[1].isdigit():
        return int(parts[1]) != os.getpid() and not alive(int(parts[1]))
    return age_s > DEAD_AFTER_S


def age_s(info: pafs.FileInfo) -> float:
    return time.time() - (info.mtime.timestamp() if info.mtime is not None else time.time())


def _is_file(fs: pafs.FileSystem, path: str) -> bool:
    return fs.get_file_info(path).type == pafs.FileType.File


def _move(fs: pafs.FileSystem, tmp: str, final: str) -> int:
    """Move unless done already (a journal replayed after some of its moves happened, or by another
    replayer at the same time: its source gone under us is that move done, not an error)."""
    if not _is_file(fs, tmp):
        return 0
    try:
        fs.move(tmp, final)
    except OSError:
        if _is_file(fs, tmp):
            raise
        return 0
    return 1


def _delete(fs: pafs.FileSystem, path: str) -> None:
    """Delete `path` if it is there; gone already (another replayer) is done."""
    if not _is_file(fs, path):
        return
    try:
        fs.delete_file(path)
    except OSError:
        if _is_file(fs, path):
            raise


# tokens of this process whose publication passed its commit point and then failed while moving
# (a full disk, a dropped connection): their journal is replayed by this process's next recovery,
# where another process would wait for it to die first
_ABANDONED: set[str] = set()


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
        """Move the staged files into place (a journal first for more than one move). Before the
        commit point any error (a full disk on the journal write too) deletes this publication's
        staging and half journal, so the retry gets the space back; after it, the journal stays and
        this process's next recovery finishes it."""
        finals = {f for _, f in self.staged}
        stale = [p for p in self.stale if p not in finals]
        if len(self.staged) + len(stale) <= 1:  # one move is atomic by itself
            try:
                self._apply(self.staged, stale)
            except BaseException:
                self.abort()
                raise
            return
        fs = self.store.fs
        journal = self.store.path(JOURNAL_DIR, f"{self.token}.json")
        tmp = posixpath.join(posixpath.dirname(journal), f".{self.token}.json.tmp")
        body = json.dumps({"token": self.token, "created": time.time(), "moves": self.staged,
                           "stale": stale}).encode()
        try:
            self.store.ensure_parent(journal)
            with fs.open_output_stream(tmp) as f:
                f.write(body)
            fs.move(tmp, journal)  # the commit point
        except BaseException:
            if not _is_journal(fs, journal):  # (an S3 move may fail after its copy: then committed)
                self.abort()
                _delete_quietly(fs, tmp)
                raise
        try:
            self._apply(self.staged, stale)
            fs.delete_file(journal)
        except BaseException:
            _ABANDONED.add(self.token)
            raise

    def _apply(self, moves: list[tuple[str, str]], stale: list[str]) -> None:
        fs = self.store.fs
        for tmp, final in moves:
            _move(fs, tmp, final)
        for path in stale:
            _delete(fs, path)

    def abort(self, staged=None) -> None:
        for tmp, _ in (self.staged if staged is None else staged):
            _delete_quietly(self.store.fs, tmp)


def _is_journal(fs: pafs.FileSystem, journal: str) -> bool:
    try:
        return _is_file(fs, journal)
    except OSError:
        return False


def _delete_quietly(fs: pafs.FileSystem, path: str) -> None:
    try:
        _delete(fs, path)
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


def journal_files(store: Store) -> list[pafs.FileInfo]:
    out = []
    for folder in (JOURNAL_DIR, *LEGACY_JOURNAL_DIRS):
        sel = pafs.FileSelector(store.path(folder), allow_not_found=True, recursive=False)
        out += [i for i in store.fs.get_file_info(sel) if i.type == pafs.FileType.File]
    return out


def pending_journal_files(store: Store) -> list[pafs.FileInfo]:
    return [i for i in journal_files(store) if i.base_name.endswith(".json") and not i.base_name.startswith(".")]


_HALF_JOURNAL = re.compile(r"^\.(?P<token>.+)\.json\.tmp$")


RECOVERY_LOCK = "publish-recovery"
RECOVERY_WAIT_S = 600.0


def recover_publications(store: Store) -> dict[str, int]:
    """Replay the journal of every dead run, and delete the half-written journals of dead runs
    (see the module docstring). Any number of processes may do this at once (every opening of a
    root does): the replay runs under the root's `publish-recovery` lock, which also keeps a
    replayer that listed a journal before another finished it from deleting stale files a later
    holder published again; and each step tolerates its work done by someone else (an S3 root
    opened without a boto3 client has no lock)."""
    if not journal_files(store):
        return {"recovered": 0, "moved": 0}
    if getattr(store, "is_local", False) or getattr(store, "s3_client_factory", None) is not None:
        with lock_for(store, RECOVERY_LOCK, RECOVERY_WAIT_S):
            return _replay(store)
    return _replay(store)


def _replay(store: Store) -> dict[str, int]:
    recovered = moved = 0
    for info in journal_files(store):
        m = _HALF_JOURNAL.match(info.base_name)
        if m and token_is_dead(m["token"], age_s(info)):  # killed before its commit point
            _delete_quietly(store.fs, info.path)
    for info in pending_journal_files(store):
        token = info.base_name[:-5]
        if token not in _ABANDONED and not token_is_dead(token, age_s(info)):
            continue  # a live run is moving its files right now
        try:
            journal = json.loads(store.fs.open_input_stream(info.path).read())
        except FileNotFoundError:
            continue  # finished by another replayer meanwhile
        except (OSError, ValueError):
            continue  # unreadable: left for a person to look at, never guessed
        for tmp, final in journal["moves"]:
            moved += _move(store.fs, store.check(tmp), store.check(final))
        for path in journal.get("stale", []):
            _delete(store.fs, store.check(path))
        _delete(store.fs, info.path)
        _ABANDONED.discard(token)
        recovered += 1
    return {"recovered": recovered, "moved": moved}
