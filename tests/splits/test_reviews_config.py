"""The `reviews` config (issue 28.3): one row per review with typed columns, beside the default config
whose `reviews_json` stays as the card prescribes; listed in the card and loadable with
`datasets.load_dataset(<dir>, "reviews")`; its scores within SQL's reach without JSON functions."""
from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from resources.store import store_from_uri
from reviewbench_assets.domain.card import render_dataset_card
from reviewbench_assets.domain.manifest import extra_config_splits
from reviewbench_assets.domain.schema import REVIEW_FIELDS, REVIEWS_CONFIG_SCHEMA
from reviewbench_assets.stages.split_stage import SplitStage, update_conference_split
from tests.card_files import write_dataset_card
from tests.splits.conftest import write_venue_rows

VENUE_YEARS = {"iclr": [("iclr-2023", 12), ("iclr-2024", 7)], "emnlp": [("emnlp-2023", 5), ("emnlp-2023-findings", 4)]}


def _publish(tmp_path, local_fs, rows_factory) -> tuple[str, dict, dict]:
    """Rows written by the rows step's writer, the conference splits and the card, as the assets do."""
    store = store_from_uri(str(tmp_path))
    stats, configs, rows = {}, {}, {}
    for split, vys in VENUE_YEARS.items():
        for pk, n in vys:
            rows[pk] = rows_factory(pk, n)
            write_venue_rows(local_fs, str(tmp_path), pk, rows[pk])
        update = update_conference_split(SplitStage.outputs_in(store, split), [pk for pk, _ in vys])
        stats[split] = update.stats
        for name, parts in update.configs.items():
            configs.setdefault(name, {})[split] = parts
    corpus = str(tmp_path / "corpus")
    text = render_dataset_card(stats, extra_config_splits(configs), "2026-11-27T10:00:00+00:00", config_counts=configs)
    write_dataset_card(local_fs, corpus, text)
    return corpus, rows, yaml.safe_load(text[4:].partition("\n---\n")[0])


def test_the_card_lists_the_reviews_config(tmp_path, local_fs, rows_factory):
    corpus, rows, front = _publish(tmp_path, local_fs, rows_factory)
    reviews = next(c for c in front["configs"] if c["config_name"] == "reviews")
    assert reviews["data_files"] == [{"split": s, "path": f"reviews/{s}-*"} for s in ("iclr", "emnlp")]
    card = (tmp_path / "corpus" / "README.md").read_text()
    assert '`load_dataset(<path>, "reviews")`' in card and "one row per review" in card
    n_iclr = sum(r["num_reviews"] for pk, _ in VENUE_YEARS["iclr"] for r in rows[pk])
    assert f"| `reviews` | iclr | iclr | {n_iclr} |" in card


def test_load_dataset_reviews_config(tmp_path, local_fs, rows_factory):
    datasets = pytest.importorskip("datasets")
    corpus, rows, _ = _publish(tmp_path, local_fs, rows_factory)
    cache = str(tmp_path / "hf_cache")
    ds = datasets.load_dataset(corpus, "reviews", cache_dir=cache)
    assert set(ds) == {"iclr", "emnlp"}
    iclr = ds["iclr"]
    assert iclr.column_names == REVIEWS_CONFIG_SCHEMA.names
    assert iclr.features["rating"] == datasets.Value("float64")  # a number, not a string to decode
    assert iclr.features["year"] == datasets.Value("int32")
    assert iclr.data.schema.field("score_history").type == REVIEWS_CONFIG_SCHEMA.field("score_history").type
    # The same reviews as the default config's reviews_json, paper by paper, in its order.
    default = datasets.load_dataset(corpus, cache_dir=cache)
    for split in ("iclr", "emnlp"):
        by_paper: dict[str, list[dict]] = {}
        for r in ds[split]:
            by_paper.setdefault(r["forum_id"], []).append(r)
        for paper in default[split]:
            typed = by_paper.pop(paper["forum_id"], [])
            assert [r["review_index"] for r in typed] == list(range(len(typed)))
            as_dicts = [{f: r[f] for f in REVIEW_FIELDS} for r in typed]
            for d in as_dicts:
                d["extra_scores"] = {e["name"]: e["value"] for e in d["extra_scores"]}
                d["extra_text"] = {e["name"]: e["value"] for e in d["extra_text"]}
            assert as_dicts == json.loads(paper["reviews_json"]) and len(typed) == paper["num_reviews"]
        assert by_paper == {}  # no review without its paper
    # the default config is as the fixture gave it
    assert default["iclr"][0]["reviews_json"] == rows["iclr-2023"][0]["reviews_json"]


def test_scores_are_sql_without_json(tmp_path, local_fs, rows_factory):
    """A mean rating per venue-year straight from the typed column (no json_extract), equal to the
    one decoding every paper's reviews_json gives."""
    import duckdb

    corpus, rows, _ = _publish(tmp_path, local_fs, rows_factory)
    got = dict(duckdb.sql(f"SELECT conference || '-' || year || CASE WHEN track = 'main' THEN '' ELSE '-' || track END, "
                          f"avg(rating) FROM read_parquet('{corpus}/reviews/*.parquet') GROUP BY ALL").fetchall())
    for pk, papers in rows.items():
        ratings = [r["rating"] for p in papers for r in json.loads(p["reviews_json"])]
        assert got[pk] == pytest.approx(sum(ratings) / len(ratings))
    table = pq.read_table(f"{corpus}/reviews")
    assert table.schema.field("rating").type == pa.float64()
