"""Issue 38.5: a helper server that does not exit is killed after its grace period, and the teardown
never raises: `make bench` lost bench_crash_points' 321 trials because `moto_server` did not exit
within 10 s under load (`proc.wait(10)` raised TimeoutExpired in tests/faults/crash_trials.py)."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

from tests.ops import procs

_DEAF = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('up', flush=True); time.sleep(600)"


def test_a_server_ignoring_sigterm_is_killed_after_its_grace():
    proc = subprocess.Popen([sys.executable, "-c", _DEAF], stdout=subprocess.PIPE)
    assert proc.stdout.readline() == b"up\n"  # SIGTERM ignored from here on
    started = time.monotonic()
    assert procs.stop_server(proc, grace_s=0.5) == -signal.SIGKILL
    assert time.monotonic() - started < 5


def test_the_crash_bench_moto_server_that_does_not_exit_loses_no_figures(monkeypatch):
    """The bench's own teardown (`crash_trials.moto_bucket`) with a server deaf to SIGTERM: the block's
    result survives the teardown, and the server is gone after it."""
    from tests.faults import crash_trials

    deaf: list[subprocess.Popen] = []
    # as if under load: SIGTERM does not make it exit
    monkeypatch.setattr(subprocess.Popen, "terminate", lambda self: deaf.append(self))
    monkeypatch.setattr(procs, "SERVER_GRACE_S", 0.5)
    figures = []
    with crash_trials.moto_bucket() as s3:
        figures.append({"metric": "crash_points", "backend": s3.name})
    assert figures == [{"metric": "crash_points", "backend": "s3"}]
    assert deaf and deaf[0].poll() == -signal.SIGKILL
