"""Initialise a Dagster instance once: `python -m scripts.init_instance [DAGSTER_HOME]`.

Dagster creates its SQLite databases (runs, schedules, the event-log index) the first time a process
opens the instance; two `dagster asset materialize` processes started together on a new
DAGSTER_HOME both try, and the second dies with `table alembic_version already exists`. Creating
(and migrating) them here, once, before any run, removes the race: afterwards every process only
opens existing databases. Idempotent; a file lock serialises two of these started together.

The project's dagster.yaml now opens the storage under the same lock by itself
(reviewbench_assets/instance_storage.py), so the first runs on a new DAGSTER_HOME need no manual
step; this remains for the Makefile's targets (`make demo`, `make ui`, `make dev`), to create and
migrate the databases ahead of time.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def init_instance(home: str | os.PathLike) -> Path:
    """Create `home` with the project's dagster.yaml (unless it has one) and its databases."""
    home = Path(home).resolve()
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "dagster.yaml").exists():
        shutil.copy(ROOT / "dagster.yaml", home / "dagster.yaml")
    from reviewbench_assets.instance_storage import instance_lock

    with instance_lock(str(home)):  # the lock the storage takes too (re-entrant in this process)
        from dagster import DagsterInstance

        old = os.environ.get("DAGSTER_HOME")
        os.environ["DAGSTER_HOME"] = str(home)
        try:
            with DagsterInstance.get() as instance:
                instance.upgrade()  # creates missing databases, migrates old ones
        finally:
            if old is None:
                os.environ.pop("DAGSTER_HOME", None)
            else:
                os.environ["DAGSTER_HOME"] = old
    return home


def main(argv: list[str]) -> int:
    home = argv[1] if len(argv) > 1 else os.environ.get("DAGSTER_HOME")
    if not home:
        print("usage: python -m scripts.init_instance <DAGSTER_HOME> (or set DAGSTER_HOME)", file=sys.stderr)
        return 2
    print(f"dagster instance ready: {init_instance(home)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
