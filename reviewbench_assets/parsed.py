"""parsed_forums: each venue-year's raw forums parsed and routed once (stages/parse_stage.py)."""
import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import StorageResource
from reviewbench_assets.domain.schema import PARSED_SCHEMA
from reviewbench_assets.metadata import column_schema, materialize
from reviewbench_assets.stages.parse_stage import parse_venue

PARSED_COLUMNS = {
    "ordinal": "position of the forum in the crawl's file",
    "status": "active, withdrawn or desk_rejected",
    "api": "OpenReview API version the forum came from (v1 or v2)",
    "crawled_at": "when the crawl fetched the forum (epoch seconds)",
    "posts": "every post with its place in the dialogues: thread (and its root), reference_context, "
             "excluded (and the reason) or none",
    "warnings": "what the parser skipped or repaired",
    "forum_json": "the whole parsed forum (domain/posts.py ParsedForum) as JSON",
    "routing_json": "its routing (domain/routing.py Routing) as JSON",
}


@dg.asset(partitions_def=venue_year_partitions, deps=["openreview_forums"], group_name="parse",
          kinds={"python", "parquet"}, code_version="1")
def parsed_forums(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """One typed row per forum (submission fields, reviews as the union with their score
    trajectories, decision, meta-review, every post with its routing) and a quarantine table with
    reason codes; the only place raw forums are parsed. Query it with DuckDB:
    `SELECT p.place, count(*) FROM 'parsed/<pk>.parquet', unnest(posts) t(p) GROUP BY 1`."""
    result = parse_venue(catalogue().get(context.partition_key), storage.store())
    return materialize(result, extra={"dagster/column_schema": column_schema(PARSED_SCHEMA, PARSED_COLUMNS)})
