"""Mark runs whose process died (kill -9, OOM, power loss) as failed and free their pool slots.

`dagster asset materialize` runs in-process with no daemon, so after a kill -9 its run stays
STARTED and keeps its `openreview_api`/`ray` pool slot: the next run would wait forever with
"Step blocked by limit for pool ...". With the daemon (`dagster dev`, production) run monitoring
does this itself (`run_monitoring` in dagster.yaml, with `reviewbench_assets.run_launcher`). A run is
only touched when the process that executed it (pid from its "(pid: N)" event) no longer exists on
this machine, so a run that is still going is left alone.

    python -m scripts.recover_runs            # uses $DAGSTER_HOME
"""
from __future__ import annotations

import sys

from dagster import DagsterInstance, DagsterRunStatus, RunsFilter

from reviewbench_assets.run_launcher import run_worker, worker_alive


def recover(instance: DagsterInstance) -> list[str]:
    """Fail every STARTED/STARTING run whose process is gone; return their run ids."""
    recovered = []
    for run in instance.get_runs(RunsFilter(statuses=[DagsterRunStatus.STARTED, DagsterRunStatus.STARTING])):
        worker = run_worker(instance, run.run_id)
        if worker is None or worker_alive(*worker):
            continue
        pid = worker[0]
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
