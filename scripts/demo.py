"""`make demo`: replica up, every asset of replica partitions through the Dagster CLI, corpus summary."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq

from scripts.demo_env import PARTITIONS, ROOT, demo_env, demo_paths
from scripts.replica_env import running_replica

BIN = Path(sys.executable).parent


def main() -> int:
    started = time.monotonic()
    home, storage = demo_paths()
    with running_replica(",".join(PARTITIONS)) as replica_env:
        env = demo_env(replica_env)
        print(f"replica: api v2 {env['OPENREVIEW_API_V2_URL']}, web {env['OPENREVIEW_WEB_URL']}", flush=True)
        print(f"instance: DAGSTER_HOME={home}\nstorage: REVIEWBENCH_STORAGE_ROOT={storage}", flush=True)
        for pk in PARTITIONS:
            cmd = [str(BIN / "dagster"), "asset", "materialize", "-m", "reviewbench_assets.definitions",
                   "--select", "*", "--partition", pk]
            print("$ dagster " + " ".join(cmd[1:]), flush=True)
            done = subprocess.run(cmd, env=env, cwd=ROOT)
            if done.returncode != 0:
                print(f"demo: materializing {pk} failed (exit {done.returncode})", file=sys.stderr)
                return done.returncode
    corpus = storage / "corpus"
    for shard_split in sorted({p.name.split("-")[0] for p in (corpus / "data").glob("*.parquet")}):
        rows = sum(pq.ParquetFile(p).metadata.num_rows for p in (corpus / "data").glob(f"{shard_split}-*.parquet"))
        print(f"split {shard_split}: {rows} rows")
    print(f"demo: pipeline ran in {time.monotonic() - started:.0f} s")
    print(f"corpus: {corpus.resolve()}")
    print("UI on the same data (the replica + Dagster webserver and daemon on this instance and storage): "
          "run `make ui`, then open http://127.0.0.1:3000")
    return 0


if __name__ == "__main__":
    sys.exit(main())
