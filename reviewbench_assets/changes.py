"""venue_changes: what each refresh of a venue-year changed, per forum (stages/change_log.py ChangesStage), kept
across refreshes so that a venue's discussion can be replayed day by day (issue 30 item 2)."""
import dagster as dg

from partitions.definitions import venue_year_partitions
from resources import StorageResource
from reviewbench_assets.dagster_step import figures_table, materialize
from reviewbench_assets.data_path import upstream_of
from reviewbench_assets.stages.change_log import ChangesStage
from reviewbench_assets.stages.figures import CHANGES


@dg.asset(partitions_def=venue_year_partitions, deps=upstream_of(ChangesStage), group_name="live",
          kinds={"python", "parquet"}, code_version="1", metadata=figures_table(CHANGES))
def venue_changes(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """One row per change since the previous refresh (reviews added, edited with old and new scores,
    or removed; author responses and comments; decisions, withdrawals, PDF revisions; forums that
    appeared or disappeared), appended under `changes/<pk>/log/refresh=<time>/`. The first
    materialization records every forum as added. Query the history with DuckDB:
    `SELECT refresh, change, count(*) FROM read_parquet('changes/<pk>/log/*/*.parquet', hive_partitioning=true) GROUP BY ALL`."""
    return materialize(ChangesStage(context.partition_key)(storage.store()))
