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

from dagster import Field, StringSource
from dagster._core.storage.sqlite_storage import DagsterSqliteStorage


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
        with open(os.path.join(base_dir, ".init.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes (or the process dies)
            return cls(base_dir, inst_data=inst_data)
