"""ocr_ray.local_pool beyond what the CLI and crash tests show: its workers do not outlive their driver."""
from __future__ import annotations

import os
import subprocess
import sys
import time

DRIVER = """
import os, sys, time
import pyarrow.fs as pafs
from ocr_ray import local_pool
from ocr_ray.engines import get_engine
if __name__ == "__main__":
    pool = local_pool._pool(2, pafs.LocalFileSystem(), get_engine("text-layer"))
    pids = {pool.submit(os.getpid).result() for _ in range(6)}
    print(" ".join(map(str, pids)), flush=True)
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_workers_leave_when_their_driver_is_killed(tmp_path):
    """A driver killed without notice (SIGKILL) leaves no worker behind: they were children of the fork
    server and waited for jobs forever (seen: a killed benchmark's two workers still there minutes later)."""
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    driver = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        pids = [int(pid) for pid in driver.stdout.readline().split()]
        assert pids and all(_alive(pid) for pid in pids)
    finally:
        driver.kill()
        driver.wait()
    deadline = time.monotonic() + 60
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in pids if _alive(pid)]
