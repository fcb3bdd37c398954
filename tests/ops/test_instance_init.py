"""Issue 29.5: the first runs on a new DAGSTER_HOME initialise the instance by themselves, under a
lock (reviewbench_assets/instance_storage.py, named in dagster.yaml): several processes opening a new
instance at the same instant all succeed, where Dagster's own SQLite storage let the second die on
`table ... already exists` (1 in 9 pairs of CLI runs) unless `scripts.init_instance` ran first."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OPEN = """
import os, sys, time
from dagster import DagsterInstance
print("imported", flush=True)
while not os.path.exists(sys.argv[1]):  # imported: wait for the common start
    time.sleep(0.005)
with DagsterInstance.get() as instance:
    print(len(instance.get_runs()), flush=True)
"""


@pytest.mark.slow  # processes that import Dagster, three times four (issue 39.5: out of the fast loop)
def test_processes_opening_a_new_instance_at_once_all_succeed(tmp_path):
    failures = []
    for trial in range(3):
        home = tmp_path / f"home{trial}"
        home.mkdir()
        shutil.copy(ROOT / "dagster.yaml", home / "dagster.yaml")  # what a user does; no init step
        go = tmp_path / f"go{trial}"
        env = {**os.environ, "DAGSTER_HOME": str(home), "DAGSTER_DISABLE_TELEMETRY": "1",
               "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
        procs = [subprocess.Popen([sys.executable, "-c", OPEN, str(go)], env=env, cwd=ROOT, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for _ in range(4)]
        for p in procs:  # every process has imported dagster (no fixed wait: as long as that takes)
            assert p.stdout.readline().strip() == "imported", p.stdout.read()[-600:]
        go.touch()
        for p in procs:
            out = p.communicate(timeout=120)[0]
            if p.returncode != 0 or out.strip().splitlines()[-1:] != ["0"]:
                failures.append(out[-600:])
        assert (home / "history" / "runs.db").exists()
    assert not failures, failures[0]


def test_init_instance_takes_the_storages_lock_without_waiting_on_itself(tmp_path):
    """`scripts.init_instance` holds the instance lock while its own `DagsterInstance.get()` opens the
    storage, which takes the same lock: re-entrant within one process, not a wait on itself."""
    code = ("import sys; from scripts.init_instance import init_instance; "
            "h = init_instance(sys.argv[1]); init_instance(h); print('ready')")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "home")], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0 and "ready" in done.stdout, done.stderr[-2000:]
    assert (tmp_path / "home" / "history" / "runs.db").exists()
