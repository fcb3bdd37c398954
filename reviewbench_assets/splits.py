"""reviewbench_split per venue-year, one asset per conference split, and the dataset card."""

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import split_partition_mapping, venue_year_partitions
from resources import StorageResource
from reviewbench_assets import paths
from reviewbench_assets.checks import ROW_CHECKS, row_check_results
from reviewbench_assets.domain.rows import assemble_rows, iter_markdown, write_rows
from reviewbench_assets.domain.schema import REVIEWBENCH_SCHEMA
from reviewbench_assets.metadata import column_schema


class SplitConfig(dg.Config):
    max_empty_markdown_share: float = 0.5  # above this the (warning) check fails


@dg.asset(partitions_def=venue_year_partitions, group_name="corpus", kinds={"parquet"}, code_version="1",
          deps=["openreview_forums", "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues"],
          check_specs=[dg.AssetCheckSpec(name, asset="reviewbench_split", description=desc)
                       for name, desc in ROW_CHECKS.items()])
def reviewbench_split(context: dg.AssetExecutionContext, config: SplitConfig,
                      storage: StorageResource) -> dg.MaterializeResult:
    """One venue-year in the final 20-column schema, plus its provenance rows."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    subs = {r["forum_id"]: r for r in store.read_parquet(store.path(paths.submissions(venue.key))).to_pylist()}
    errors: list[dict] = []
    pairs = assemble_rows(store.iter_jsonl(store.path(paths.raw_forums(venue.key))),
                          iter_markdown(store, store.path(paths.markdown(venue.key))), subs, venue, errors)
    out = store.path(paths.rows(venue.key))
    stats = write_rows(store, out, store.path(paths.provenance(venue.key)), pairs)
    return dg.MaterializeResult(
        metadata={"dagster/row_count": stats["rows"], "dagster/column_schema": column_schema(REVIEWBENCH_SCHEMA),
                  "reviews": stats["reviews"], "empty_markdown": stats["empty_markdown"],
                  "malformed_forums": len(errors), "path": dg.MetadataValue.path(out)},
        check_results=row_check_results(stats, config.max_empty_markdown_share))


def build_split_asset(split: str) -> dg.AssetsDefinition:
    @dg.asset(name=f"{split}_split", group_name="corpus", kinds={"parquet"}, code_version="1",
              deps=[dg.AssetDep("reviewbench_split", partition_mapping=split_partition_mapping(split))])
    def _split(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
        from reviewbench_assets.domain.splits import write_conference_split, write_config_table
        import pyarrow as pa

        store = storage.store()
        keys = [k for k in catalogue().keys_for_split(split) if store.exists(store.path(paths.rows(k)))]
        context.log.info(f"{split}: venue-years with rows: {keys or 'none'}")
        corpus = store.path(paths.CORPUS_DIR)
        stats = write_conference_split(store.fs, [store.path(paths.rows(k)) for k in keys], corpus, split)
        if keys:
            prov = pa.concat_tables([store.read_parquet(store.path(paths.provenance(k))) for k in keys])
            write_config_table(store.fs, prov, corpus, "provenance", split)
        store.write_json(store.path(paths.split_stats(split)), stats.to_dict())
        return dg.MaterializeResult(metadata={
            "dagster/row_count": stats.num_examples, "num_bytes": stats.num_bytes,
            "venue_years": keys, "files": [f.rsplit("/", 1)[-1] for f in stats.files],
            "dagster/column_schema": column_schema(REVIEWBENCH_SCHEMA),
        })

    _split.__doc__ = f"The `{split}` split of the corpus: Parquet shards built from its venue-years."
    return _split


split_assets = [build_split_asset(s) for s in catalogue().splits]


@dg.asset(group_name="corpus", kinds={"huggingface"}, code_version="1",
          deps=[a.key for a in split_assets])
def dataset_card(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """README.md with configs, dataset_info and statistics, so `datasets.load_dataset(dir)` works."""
    from datetime import datetime, timezone

    from reviewbench_assets.domain.card import render_dataset_card, write_dataset_card
    from reviewbench_assets.domain.splits import SplitStats

    store = storage.store()
    stats = {}
    for split in catalogue().splits:
        p = store.path(paths.split_stats(split))
        if store.exists(p):
            s = SplitStats.from_dict(store.read_json(p))
            if s.num_examples:
                stats[split] = s
    corpus = store.path(paths.CORPUS_DIR)
    text = render_dataset_card(stats, {"provenance": sorted(stats)},
                               datetime.now(timezone.utc).isoformat(timespec="seconds"))
    write_dataset_card(store.fs, corpus, text)
    return dg.MaterializeResult(metadata={
        "splits": {k: v.num_examples for k, v in stats.items()},
        "corpus": dg.MetadataValue.path(corpus), "card": dg.MetadataValue.md(text[:20000])})
