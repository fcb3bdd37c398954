"""`make demo`: replica up, every asset of replica partitions through the Dagster CLI, corpus summary."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

from scripts.replica_env import running_replica

ROOT = Path(__file__).resolve().parents[1]
PARTITIONS = ["iclr-2024", "iclr-2020"]


def main() -> int:
    storage = ROOT / "var" / "demo" / "storage"
    with running_replica(",".join(PARTITIONS)) as replica_env:
        env = {**os.environ, **replica_env, "REVIEWBENCH_STORAGE_ROOT": str(storage),
               "DAGSTER_HOME": os.environ.get("DAGSTER_HOME", str(ROOT / ".dagster_home"))}
        print(f"replica: api v2 {env['OPENREVIEW_API_V2_URL']}, web {env['OPENREVIEW_WEB_URL']}", flush=True)
        for pk in PARTITIONS:
            cmd = [str(ROOT / ".venv/bin/dagster"), "asset", "materialize", "-m", "reviewbench_assets.definitions",
                   "--select", "*", "--partition", pk]
            print("$ " + " ".join(cmd[1:]), flush=True)
            done = subprocess.run(cmd, env=env, cwd=ROOT)
            if done.returncode != 0:
                print(f"demo: materializing {pk} failed (exit {done.returncode})", file=sys.stderr)
                return done.returncode
    corpus = storage / "corpus"
    for shard_split in sorted({p.name.split("-")[0] for p in (corpus / "data").glob("*.parquet")}):
        rows = sum(pq.ParquetFile(p).metadata.num_rows for p in (corpus / "data").glob(f"{shard_split}-*.parquet"))
        print(f"split {shard_split}: {rows} rows")
    print(f"corpus: {corpus.resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
