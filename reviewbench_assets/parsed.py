"""parsed_forums: each venue-year's raw forums parsed and routed once (stages/parse_stage.py)."""
import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import StorageResource
from reviewbench_assets.checks import GuardConfig, partitioned_check_specs
from reviewbench_assets.domain.schema import PARSED_SCHEMA
from reviewbench_assets.metadata import column_schema, figures_table, materialize
from reviewbench_assets.stages.parse_stage import QUARANTINE_CHECK, QUARANTINE_CHECK_DESCRIPTION, ParseStage
from reviewbench_assets.stages.stage import PARSE

PARSED_COLUMNS = {
    "reviews": "the reviews, typed: one struct per review (the union of every form, scores as numbers, "
               "extra_scores/extra_text as name/value lists, score_history); the rows derive reviews_json "
               "from it and the `reviews` config has one row per review",
    "ordinal": "position of the forum in the crawl's file",
    "status": "active, withdrawn or desk_rejected",
    "api": "OpenReview API version the forum came from (v1 or v2)",
    "crawled_at": "when the crawl fetched the forum (epoch seconds)",
    "posts": "every post with its place in the dialogues: thread (and its root), reference_context, "
             "excluded (and the reason) or none",
    "warnings": "what the parser skipped or repaired",
    "forum_json": "the whole parsed forum (domain/posts.py ParsedForum) as JSON, but its reviews (the `reviews` column)",
    "routing_json": "its routing (domain/routing.py Routing) as JSON",
    "submission_json": "the submission note as the API returned it, without its replies (initial_submission_pdfs "
                       "chooses the revision from it)",
}


class ParsedConfig(GuardConfig):
    max_quarantined_share: float = 0.05  # the (blocking) check fails above this share of forums


@dg.asset(partitions_def=venue_year_partitions, deps=["openreview_forums"], group_name="parse",
          kinds={"python", "parquet"}, code_version="4",  # 3: submission_json, 4: typed reviews
          metadata=figures_table(PARSE, (QUARANTINE_CHECK,)),
          check_specs=partitioned_check_specs("parsed_forums", {QUARANTINE_CHECK: QUARANTINE_CHECK_DESCRIPTION},
                                              venue_year_partitions))
def parsed_forums(context: dg.AssetExecutionContext, config: ParsedConfig,
                  storage: StorageResource) -> dg.MaterializeResult:
    """One typed row per forum (submission fields, reviews as the union with their score
    trajectories, decision, meta-review, every post with its routing) and a quarantine table with
    reason codes; the only place raw forums are parsed. Query it with DuckDB:
    `SELECT p.place, count(*) FROM 'parsed/<pk>.parquet', unnest(posts) t(p) GROUP BY 1`."""
    venue, store = catalogue().get(context.partition_key), storage.store()
    return materialize(ParseStage(venue, config.max_quarantined_share)(store), store,
                       config.allow_failing_checks,
                       extra={"dagster/column_schema": column_schema(PARSED_SCHEMA, PARSED_COLUMNS)})
