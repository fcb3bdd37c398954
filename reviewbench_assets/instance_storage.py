"""The instance's SQLite storage, opened under a lock (named in dagster.yaml as `storage`).

Dagster creates its SQLite databases (runs, schedules, the event-log index) the first time a process
opens the instance; two processes opening a new DAGSTER_HOME at the same instant both try, and the
second dies on `table runs already exists` / `table alembic_version already exists` (issue 29: 1 in
9 pairs of CLI runs on a new instance). Opening the storage under an exclusive `fcntl` lock on
`$DAGSTER_HOME/.init.lock` (the lock `scripts.init_instance` takes) makes the first process create
the databases while the others wait, then open what it made: no manual initialisation step. Once the
databases exist, holding the lock costs each process a few milliseconds while it opens them.
"""
from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from dagster import Field, StringSource
from dagster._core.storage.sqlite_storage import DagsterSqliteStorage

_HELD: dict[str, list] = {}  # lock file -> [depth, open file] held by this process
_GUARD = threading.RLock()


@contextmanager
def instance_lock(home: str) -> Iterator[None]:
    """The instance's lock, `$DAGSTER_HOME/.init.lock`, across processes; re-entrant within one
    (an flock taken twice through two open files of one process would wait on itself:
    `scripts.init_instance` holds it while its own `DagsterInstance.get()` opens the storage)."""
    path = os.path.join(os.path.abspath(home), ".init.lock")
    with _GUARD:  # the threads of this process one at a time; the holding thread may re-enter
        if path in _HELD:
            _HELD[path][0] += 1
        else:
            f = open(path, "a")  # noqa: SIM115  (closed below, which releases the flock)
            fcntl.flock(f, fcntl.LOCK_EX)
            _HELD[path] = [1, f]
        try:
            yield
        finally:
            _HELD[path][0] -= 1
            if not _HELD[path][0]:
                _HELD.pop(path)[1].close()


class LockedSqliteStorage(DagsterSqliteStorage):
    """Dagster's `DagsterSqliteStorage` (same files under `base_dir`), created under a file lock."""

    @classmethod
    def config_type(cls):
        # default: $DAGSTER_HOME, the folder Dagster's own default SQLite storage uses
        return {"base_dir": Field(StringSource, is_required=False)}

    @classmethod
    def from_config_value(cls, inst_data, config_value) -> LockedSqliteStorage:
        base_dir = (config_value or {}).get("base_dir") or os.environ.get("DAGSTER_HOME")
        if not base_dir:
            raise ValueError("LockedSqliteStorage: no base_dir in dagster.yaml and DAGSTER_HOME is not set")
        return cls.from_local(base_dir, inst_data=inst_data)

    @classmethod
    def from_local(cls, base_dir: str, inst_data=None) -> LockedSqliteStorage:
        os.makedirs(base_dir, exist_ok=True)
        with instance_lock(base_dir):  # released when its file closes (or the process dies)
            return cls(base_dir, inst_data=inst_data)
