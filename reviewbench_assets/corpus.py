"""reviewbench_split per venue-year, one asset per conference split, and the dataset card."""

from datetime import UTC

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import split_partition_mapping, venue_year_partitions
from resources import StorageResource
from reviewbench_assets import paths
from reviewbench_assets.checks import (
    ROW_CHECKS,
    GuardConfig,
    blocking_failures,
    guard_upstream,
    guarded,
    partitioned_check_specs,
    record_checks,
    row_check_results,
)
from reviewbench_assets.domain.schema import REVIEWBENCH_SCHEMA
from reviewbench_assets.failures import fail_without_retry
from reviewbench_assets.metadata import column_schema
from reviewbench_assets.stages.rows_writer import assemble_rows, write_rows


class SplitConfig(GuardConfig):
    max_empty_markdown_share: float = 0.5  # above this the (blocking) check fails


@dg.asset(partitions_def=venue_year_partitions, group_name="corpus", kinds={"parquet"}, code_version="2",
          deps=["parsed_forums", "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues"],
          check_specs=partitioned_check_specs("reviewbench_split", ROW_CHECKS, venue_year_partitions))
def reviewbench_split(context: dg.AssetExecutionContext, config: SplitConfig,
                      storage: StorageResource) -> dg.MaterializeResult:
    """One venue-year in the final 20-column schema, plus its provenance rows."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    guard_upstream(store, venue.key, UPSTREAM_GUARDED, config.allow_failing_checks, context.log.warning)
    subs = {r["forum_id"]: r for r in store.read_parquet(store.path(paths.submissions(venue.key))).to_pylist()}
    out = store.path(paths.rows(venue.key))
    stats = write_rows(store, out, store.path(paths.provenance(venue.key)), assemble_rows(store, venue, subs))
    return dg.MaterializeResult(
        metadata={"dagster/row_count": stats["rows"], "dagster/column_schema": column_schema(REVIEWBENCH_SCHEMA),
                  "reviews": stats["reviews"], "empty_markdown": stats["empty_markdown"],
                  "stale_markdown": stats["stale_markdown"],  # forums paper_markdown has not seen yet
                  "path": dg.MetadataValue.path(out)},
        check_results=_guarded_rows(store, stats, config, context.partition_key))


# The assets whose blocking checks guard a venue-year's rows (and so its shards of the conference split).
UPSTREAM_GUARDED = ["openreview_forums", "rebuttal_dialogues"]


def _guarded_rows(store, stats: dict, config: SplitConfig, pk: str) -> list[dg.AssetCheckResult]:
    checks = guarded(row_check_results(stats, config.max_empty_markdown_share, pk), config.allow_failing_checks)
    record_checks(store, pk, "reviewbench_split", checks, config.allow_failing_checks)
    return checks


class ConferenceSplitConfig(dg.Config):
    re2_test_share: float = 0.05  # share of papers (by forum-id hash) in the Re^2 `test` splits


def build_split_asset(split: str) -> dg.AssetsDefinition:
    @dg.asset(name=f"{split}_split", group_name="corpus", kinds={"parquet", "duckdb"}, code_version="3",
              description=(f"The `{split}` split of the corpus: Parquet shards built from its venue-years "
                           f"({', '.join(catalogue().keys_for_split(split))}), plus its provenance and Re^2 "
                           "review/rebuttal (train/test by forum-id hash) configs."),
              deps=[dg.AssetDep("reviewbench_split", partition_mapping=split_partition_mapping(split)),
                    dg.AssetDep("rebuttal_dialogues", partition_mapping=split_partition_mapping(split))])
    def _split(context: dg.AssetExecutionContext, config: ConferenceSplitConfig,
               storage: StorageResource) -> dg.MaterializeResult:
        from reviewbench_assets.stages.split_update import update_conference_split

        store = storage.store()
        # One writer per split at a time, for every process on this storage root: runs of two
        # venue-years of the same conference both rebuild this split; the lock makes the later one
        # list the rows after the earlier one published, so neither drops the other's rows.
        with store.lock(f"split-{split}"), fail_without_retry():
            keys = [k for k in catalogue().keys_for_split(split) if store.exists(store.path(paths.rows(k)))]
            # A venue-year whose data failed a blocking check stays out of the split (and so the card).
            blocked = {k: f for k in keys
                       if (f := blocking_failures(store, k, [*UPSTREAM_GUARDED, "reviewbench_split"]))}
            keys = [k for k in keys if k not in blocked]
            for k, failed in blocked.items():
                context.log.warning(f"{split}: {k} left out: its data failed blocking checks {sorted(failed)}")
            context.log.info(f"{split}: venue-years with rows: {keys or 'none'}")
            update = update_conference_split(store, split, keys, test_share=config.re2_test_share)
            stats, configs = update.stats, update.configs
            store.write_json(store.path(paths.split_stats(split)),  # paths relative to the root
                             {**stats.to_dict(), "files": [store.rel(f) for f in stats.files], "configs": configs})
        return dg.MaterializeResult(metadata={
            "dagster/row_count": stats.num_examples, "num_bytes": stats.num_bytes,
            "venue_years": keys, "files": [f.rsplit("/", 1)[-1] for f in stats.files],
            "rewritten_venue_years": update.rewritten, "unchanged_venue_years": update.kept,
            "removed_files": [store.rel(f) for f in update.removed],
            "blocked_venue_years": dg.MetadataValue.json({k: sorted(f) for k, f in blocked.items()}),
            "configs": configs, "dagster/column_schema": column_schema(REVIEWBENCH_SCHEMA),
        })

    return _split


split_assets = [build_split_asset(s) for s in catalogue().splits]


@dg.asset(group_name="corpus", kinds={"huggingface"}, code_version="1",
          deps=[a.key for a in split_assets])
def dataset_card(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """README.md with configs, dataset_info and statistics, so `datasets.load_dataset(dir)` works."""
    store = storage.store()
    with store.lock("dataset-card"):  # read every split's figures and publish: one card writer at a time
        return _write_card(store)


def _write_card(store) -> dg.MaterializeResult:
    from datetime import datetime

    from reviewbench_assets.domain.card import card_for_ui, extra_config_splits, render_dataset_card
    from reviewbench_assets.domain.corpus_stats import SplitStats
    from reviewbench_assets.stages.card_writer import write_dataset_card, write_score_plots

    stats, extra = {}, {}
    for split in catalogue().splits:
        p = store.path(paths.split_stats(split))
        if store.exists(p):
            raw = store.read_json(p)
            s = SplitStats.from_dict(raw)
            if s.num_examples:
                stats[split] = s
                for name, parts in (raw.get("configs") or {}).items():
                    extra.setdefault(name, {})[split] = parts
    corpus = store.path(paths.CORPUS_DIR)
    text = render_dataset_card(stats, extra_config_splits(extra),
                               datetime.now(UTC).isoformat(timespec="seconds"),
                               config_counts=extra, plots=write_score_plots(store.fs, corpus, stats))
    write_dataset_card(store.fs, corpus, text)
    return dg.MaterializeResult(metadata={
        "splits": {k: v.num_examples for k, v in stats.items()},
        "corpus": dg.MetadataValue.path(corpus), "card": dg.MetadataValue.md(card_for_ui(text)[:20000])})
