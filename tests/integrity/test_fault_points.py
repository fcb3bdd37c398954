"""The kill test's placed stops (reviewbench_assets/stages/fault_points.py): unset they do nothing;
set, the n-th time the named point is reached the whole process group is SIGKILLed."""
from __future__ import annotations

import signal
import subprocess
import sys

from reviewbench_assets.stages.fault_points import KILL_VAR, POINTS, reached

SCRIPT = """
from reviewbench_assets.stages.fault_points import reached
for i in range(1, 6):
    reached("pdf_source_written")
    reached("pdf_stored")
    print(i, flush=True)
"""


def _run(env_value: str | None) -> subprocess.CompletedProcess:
    import os
    env = {k: v for k, v in os.environ.items() if k != KILL_VAR}
    if env_value is not None:
        env[KILL_VAR] = env_value
    return subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60,
                          start_new_session=True)  # its own group: the kill must not reach pytest


def test_unset_nothing_happens(monkeypatch):
    monkeypatch.delenv(KILL_VAR, raising=False)
    for point in POINTS:
        reached(point)  # returns
    done = _run(None)
    assert done.returncode == 0 and done.stdout.split() == ["1", "2", "3", "4", "5"]


def test_the_nth_time_the_named_point_is_reached_the_group_is_killed():
    killed = _run("pdf_stored:3")
    assert killed.returncode == -signal.SIGKILL
    assert killed.stdout.split() == ["1", "2"]  # the 3rd PDF was stored, its checkpoint never written
    other = _run("pdf_source_written:1")
    assert other.returncode == -signal.SIGKILL and other.stdout == ""
