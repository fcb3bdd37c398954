"""venue_changes: what each refresh of a venue-year changed, per forum (stages/change_log.py), kept
across refreshes so that a venue's discussion can be replayed day by day (issue 30 item 2)."""
import dagster as dg

from partitions.definitions import venue_year_partitions
from resources import StorageResource
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.metadata import materialize
from reviewbench_assets.stages.change_log import record_changes


@dg.asset(partitions_def=venue_year_partitions, deps=["parsed_forums"], group_name="live",
          kinds={"python", "parquet"}, code_version="1")
def venue_changes(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """One row per change since the previous refresh (reviews added, edited with old and new scores,
    or removed; author responses and comments; decisions, withdrawals, PDF revisions; forums that
    appeared or disappeared), appended under `changes/<pk>/log/refresh=<time>/`. The first
    materialization records every forum as added. Query the history with DuckDB:
    `SELECT refresh, change, count(*) FROM read_parquet('changes/<pk>/log/*/*.parquet', hive_partitioning=true) GROUP BY ALL`."""
    store, pk = storage.store(), context.partition_key
    return materialize(record_changes(store, pk, (forum for forum, _routing in Upstream(store, pk).parsed_forums())))
