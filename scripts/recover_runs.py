"""Mark runs whose process died (kill -9, OOM, power loss) as failed and free their pool slots.

`dagster asset materialize` runs in-process with no daemon, so after a kill -9 its run stays
STARTED and keeps its `openreview_api`/`ray` pool slot: the next run would wait forever with
"Step blocked by limit for pool ...". With the daemon (`dagster dev`, production) run monitoring
does this itself (`run_monitoring` in dagster.yaml). A run is only touched when the process that
executed it (pid from its "Executing steps in process (pid: N)" event) no longer exists on this
machine, so a run that is still going is left alone.

    python -m scripts.recover_runs            # uses $DAGSTER_HOME
"""
from __future__ import annotations

import os
import re
import sys

from dagster import DagsterInstance, DagsterRunStatus, RunsFilter

_PID = re.compile(r"\(pid: (\d+)\)")


def _pid_of(instance: DagsterInstance, run_id: str) -> int | None:
    for entry in instance.all_logs(run_id):
        match = _PID.search(entry.user_message or "")
        if match:
            return int(match.group(1))
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover(instance: DagsterInstance) -> list[str]:
    """Fail every STARTED/STARTING run whose process is gone; return their run ids."""
    recovered = []
    for run in instance.get_runs(RunsFilter(statuses=[DagsterRunStatus.STARTED, DagsterRunStatus.STARTING])):
        pid = _pid_of(instance, run.run_id)
        if pid is None or _alive(pid):
            continue
        instance.report_run_failed(run, f"run process {pid} is gone (killed?): marked failed by recover_runs")
        instance.event_log_storage.free_concurrency_slots_for_run(run.run_id)
        recovered.append(run.run_id)
    return recovered


def main() -> int:
    with DagsterInstance.get() as instance:
        ids = recover(instance)
    for run_id in ids:
        print(f"recovered run {run_id}: marked failed, pool slots freed")
    print(f"{len(ids)} dead run(s) recovered")
    return 0


if __name__ == "__main__":
    sys.exit(main())
