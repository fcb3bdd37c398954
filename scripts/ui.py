"""`make ui`: the replica (the demo's venues and seed) and the Dagster UI, webserver and daemon
(`dagster dev`), on the demo's instance and storage (scripts/demo_env.py).

The demo's partitions show as materialized and can be re-materialized or backfilled from the UI
with no further set-up: the webserver and the daemon get the replica's OPENREVIEW_* variables and
the demo's DAGSTER_HOME / REVIEWBENCH_STORAGE_ROOT. Stop with Ctrl-C (both go down with it).
UI_HOST / UI_PORT change where the UI listens [127.0.0.1:3000].
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from scripts.demo_env import PARTITIONS, ROOT, demo_env, demo_paths
from scripts.replica_env import running_replica

BIN = Path(sys.executable).parent


def main() -> int:
    host, port = os.environ.get("UI_HOST", "127.0.0.1"), os.environ.get("UI_PORT", "3000")
    home, storage = demo_paths()
    with running_replica(",".join(PARTITIONS)) as replica_env:
        env = demo_env(replica_env)
        for name in ("OPENREVIEW_API_V2_URL", "OPENREVIEW_API_V1_URL", "OPENREVIEW_WEB_URL"):
            print(f"replica: {name}={env[name]}")
        print(f"instance: DAGSTER_HOME={home}\nstorage: REVIEWBENCH_STORAGE_ROOT={storage}", flush=True)
        if not (storage / "corpus").exists():
            print("ui: no demo data yet (`make demo` fills it); every asset can be materialized from the UI")
        # Create the SQLite storages before webserver and daemon start together: migrating a fresh
        # instance from two processes at once leaves two alembic heads.
        subprocess.run([str(BIN / "dagster"), "instance", "migrate"], env=env, cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        print(f"ui: open http://{host}:{port} (Ctrl-C stops the UI and the replica)", flush=True)
        dev = subprocess.Popen([str(BIN / "dagster"), "dev", "-w", str(ROOT / "workspace.yaml"),
                                "-h", host, "-p", port], env=env, cwd=ROOT)
        # SIGTERM (from a test or a process manager) stops `dagster dev` the way Ctrl-C does.
        signal.signal(signal.SIGTERM, lambda *_: dev.send_signal(signal.SIGINT))
        try:
            return dev.wait()
        except KeyboardInterrupt:
            dev.send_signal(signal.SIGINT)
            try:
                return dev.wait(30)
            except subprocess.TimeoutExpired:
                dev.kill()
                return 130


if __name__ == "__main__":
    sys.exit(main())
