"""reviewbench_split per venue-year, one asset per conference split, and the dataset card; each the
decorator, its config and one stage call (stages/rows_stage.py, stages/split_stage.py)."""

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import split_partition_mapping, venue_year_partitions
from resources import StorageResource
from reviewbench_assets.checks import GuardConfig, guard_upstream, partitioned_check_specs
from reviewbench_assets.domain.schema import REVIEWBENCH_SCHEMA
from reviewbench_assets.failures import fail_without_retry
from reviewbench_assets.metadata import column_schema, figures_table, materialize
from reviewbench_assets.stages.rows_stage import ROW_CHECKS, RowsStage
from reviewbench_assets.stages.split_stage import UPSTREAM_GUARDED, CardStage, SplitStage
from reviewbench_assets.stages.stage import CARD, ROWS, SPLIT


class SplitConfig(GuardConfig):
    max_empty_markdown_share: float = 0.5  # above this the (blocking) check fails


@dg.asset(partitions_def=venue_year_partitions, group_name="corpus", kinds={"parquet"}, code_version="3",
          metadata=figures_table(ROWS, tuple(ROW_CHECKS)),
          deps=["parsed_forums", "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues"],
          check_specs=partitioned_check_specs("reviewbench_split", ROW_CHECKS, venue_year_partitions))
def reviewbench_split(context: dg.AssetExecutionContext, config: SplitConfig,
                      storage: StorageResource) -> dg.MaterializeResult:
    """One venue-year in the final 20-column schema (reviews_json made from the typed reviews), one
    typed row per review, its provenance rows and its statistics (DuckDB SQL over those rows)."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    guard_upstream(store, venue.key, UPSTREAM_GUARDED, config.allow_failing_checks, context.log.warning)
    return materialize(RowsStage(venue, config.max_empty_markdown_share)(store), store, config.allow_failing_checks,
                       extra={"dagster/column_schema": column_schema(REVIEWBENCH_SCHEMA)})


class ConferenceSplitConfig(dg.Config):
    re2_test_share: float = 0.05  # share of papers (by forum-id hash) in the Re^2 `test` splits


def build_split_asset(split: str) -> dg.AssetsDefinition:
    @dg.asset(name=f"{split}_split", group_name="corpus", kinds={"parquet", "duckdb"}, code_version="4",
              metadata=figures_table(SPLIT),
              description=(f"The `{split}` split of the corpus: Parquet shards built from its venue-years "
                           f"({', '.join(catalogue().keys_for_split(split))}), plus its reviews (one typed row per "
                           "review), provenance and Re^2 review/rebuttal (train/test by forum-id hash) configs."),
              deps=[dg.AssetDep("reviewbench_split", partition_mapping=split_partition_mapping(split)),
                    dg.AssetDep("rebuttal_dialogues", partition_mapping=split_partition_mapping(split))])
    def _split(context: dg.AssetExecutionContext, config: ConferenceSplitConfig,
               storage: StorageResource) -> dg.MaterializeResult:
        with fail_without_retry():
            result = SplitStage(split, config.re2_test_share, context.log.warning)(storage.store())
        return materialize(result, extra={"dagster/column_schema": column_schema(REVIEWBENCH_SCHEMA)})

    return _split


split_assets = [build_split_asset(s) for s in catalogue().splits]


@dg.asset(group_name="corpus", kinds={"huggingface"}, code_version="1", metadata=figures_table(CARD),
          deps=[*(a.key for a in split_assets), "venue_changes"])
def dataset_card(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """README.md with configs, dataset_info and statistics, so `datasets.load_dataset(dir)` works."""
    return materialize(CardStage()(storage.store()))
