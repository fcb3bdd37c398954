"""The Dagster side of `stages.attempt`: which run this step belongs to, and whether the run that
owns the partition's attempt succeeded (the instance's run record)."""
import dagster as dg

from resources.store import Store
from reviewbench_assets.stages.attempt import Attempt, open_attempt


def partition_attempt(context: dg.AssetExecutionContext, store: Store) -> Attempt:
    run = context.dagster_run

    def succeeded(run_id: str) -> bool | None:
        owner = context.instance.get_run_by_id(run_id)
        return None if owner is None else owner.status == dg.DagsterRunStatus.SUCCESS

    attempt = open_attempt(store, context.partition_key, run.run_id, run.root_run_id, succeeded)
    if attempt.resumed_from:
        context.log.info(f"{context.partition_key}: resuming the answers of unfinished run {attempt.resumed_from} "
                         "(killed or failed): what it received is not asked again")
    return attempt
