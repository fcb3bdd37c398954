"""The demo's instance and storage, one place for `make demo` (scripts/demo.py) and `make ui` (scripts/ui.py).

Both run on the same replica data (same venues, same seed), the same DAGSTER_HOME and the same
REVIEWBENCH_STORAGE_ROOT, so what the demo materialized is what the UI shows and re-materializes.
`make dev` (the real OpenReview) has its own instance and storage (.dagster_home, var/storage).
"""
from __future__ import annotations

import os
from pathlib import Path

from scripts.init_instance import init_instance

ROOT = Path(__file__).resolve().parents[1]
PARTITIONS = ["iclr-2024", "iclr-2020"]
DEMO_DIR = ROOT / "var" / "demo"


def demo_paths() -> tuple[Path, Path]:
    """(DAGSTER_HOME, storage root); REVIEWBENCH_DEMO_DIR moves both (tests, a fresh-machine timing)."""
    base = Path(os.environ.get("REVIEWBENCH_DEMO_DIR") or DEMO_DIR).resolve()
    return base / "dagster_home", base / "storage"


def demo_env(replica_env: dict[str, str]) -> dict[str, str]:
    """The process environment for the Dagster CLI / webserver / daemon on the demo's data."""
    home, storage = demo_paths()
    init_instance(home)  # databases created once, before the CLI runs and the webserver open them
    return {**os.environ, **replica_env, "DAGSTER_HOME": str(home), "REVIEWBENCH_STORAGE_ROOT": str(storage),
            "DAGSTER_DISABLE_TELEMETRY": "1"}
