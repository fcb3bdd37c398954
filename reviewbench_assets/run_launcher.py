"""The run launcher of a one-machine instance: Dagster's `DefaultRunLauncher` (a run worker process
per run, started by the code server of the daemon that dequeued it) plus a health check of that
process, so that run monitoring notices a run whose worker died.

Why: `DefaultRunLauncher` does not support `check_run_worker_health` (dagster 1.13,
`_core/launcher/base.py`), so the daemon's run monitoring only times out runs that never start. When
the daemon is restarted with its process group (a deploy, `systemctl restart`, a container restart,
a machine reboot), its code server and the run workers it started die with it, and their runs stay
STARTED for ever: with run-granularity pools (`dagster.yaml`), that dead run holds the
`openreview_api` pool and the queue never admits the next run of any partition. With this launcher
the restarted daemon's run monitoring marks such a run failed on its next poll, which frees the
pool, and `run_retries` re-launches it (the venue pipeline and refresh jobs carry
`dagster/max_retries`), resuming from the checkpoints (tests/ops/test_daemon_restart.py).

The worker is found by the pid its own "Started process for run (pid: N)" event records, and is
alive when that pid exists and was started no later than the event (a reused pid is younger). This
holds where the run workers run on the machine of the daemon, as with `DefaultRunLauncher` and a
workspace of local code locations; container and Kubernetes launchers check their workers
themselves.
"""
from __future__ import annotations

import os
import re

from dagster import DagsterInstance
from dagster._core.launcher import CheckRunHealthResult, DefaultRunLauncher, WorkerStatus

_PID = re.compile(r"\(pid: (\d+)\)")
_CLOCK_SLACK_S = 2.0  # /proc start times are in clock ticks; the event's time is the worker's own clock


def run_worker(instance: DagsterInstance, run_id: str) -> tuple[int, float] | None:
    """(pid, time of its event) of the process that executes the run: the daemon-launched worker's
    "Started process for run (pid: N)", or a CLI run's "Executing steps in process (pid: N)"."""
    for entry in instance.all_logs(run_id):
        match = _PID.search(entry.user_message or "")
        if match:
            return int(match.group(1)), entry.timestamp
    return None


def _started_at(pid: int) -> float | None:
    """When the process started (epoch seconds), from /proc; None where /proc cannot tell."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open("/proc/stat") as f:
            boot = next(float(line.split()[1]) for line in f if line.startswith("btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22 of stat: starttime
    except (OSError, StopIteration, IndexError, ValueError):
        return None


def worker_alive(pid: int, event_time: float) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, another user's
    started = _started_at(pid)
    return started is None or started <= event_time + _CLOCK_SLACK_S


class LocalRunLauncher(DefaultRunLauncher):
    """`DefaultRunLauncher` whose run workers run monitoring can check (see the module's docstring)."""

    @property
    def supports_check_run_worker_health(self) -> bool:
        return True

    def check_run_worker_health(self, run) -> CheckRunHealthResult:
        worker = run_worker(self._instance, run.run_id)
        if worker is None:  # not started yet: run monitoring's start timeout covers that case
            return CheckRunHealthResult(WorkerStatus.RUNNING, "run worker has not reported its pid yet")
        pid, at = worker
        if worker_alive(pid, at):
            return CheckRunHealthResult(WorkerStatus.RUNNING, f"run worker process {pid} is alive")
        return CheckRunHealthResult(WorkerStatus.FAILED,
                                    f"run worker process {pid} is gone (killed with its daemon, OOM, reboot?)")
