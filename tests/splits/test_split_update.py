"""A conference split costs what changed (stages/split_stage.py): each venue-year's shards are
written from its own files and rewritten only when those change; venue-years that leave the split
take their shards with them; statistics are merged from the parts' records. A part rewritten gets
new shard names (its generation) and README.md's manifest lists them in the same publication, which
deletes the previous generation: one generation on disk, and README.md lists exactly what is there."""
from __future__ import annotations

import re

import pyarrow.parquet as pq
import pytest

from resources.store import store_from_uri
from reviewbench_assets.io.corpus_writer import DuplicateForumError
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.split_stage import SplitStage, update_conference_split
from tests.splits.conftest import write_venue_rows


def _mtimes(root) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in (root / "corpus").rglob("*.parquet")}


def _gen(name: str) -> str:
    """The generation tag of a venue-year part's shard name (`<split>-<pk>-g<n>-i-of-n.parquet`)."""
    m = re.match(r"^iclr-iclr-\d{4}-(g\d{6})-\d{5}-of-\d{5}\.parquet$", name)
    assert m, name
    return m.group(1)


def manifest_is_the_disk(root) -> dict[str, list[str]]:
    """README.md's data_files of every config and split are exactly the shards on disk (no glob, no
    file missing, no file left out), and its row counts are the files'. Returns the default config's."""
    from huggingface_hub import DatasetCard

    header = DatasetCard((root / "corpus/README.md").read_text()).data.to_dict()
    listed = [f for c in header["configs"] for e in c["data_files"] for f in e["path"]]
    on_disk = sorted(str(p.relative_to(root / "corpus")) for p in (root / "corpus").rglob("*.parquet")
                     if not p.name.startswith(".") and "plots" not in p.parts)
    assert sorted(listed) == on_disk and len(listed) == len(set(listed))
    default = {e["split"]: e["path"] for c in header["configs"] if c["config_name"] == "default"
               for e in c["data_files"]}
    rows = {s["name"]: s["num_examples"] for s in header["dataset_info"]["splits"]}
    assert rows == {k: sum(pq.read_metadata(root / "corpus" / f).num_rows for f in v) for k, v in default.items()}
    return default


def test_only_the_changed_venue_year_is_rewritten(tmp_path, rows_factory, input_writer, local_fs):
    store = store_from_uri(str(tmp_path))
    for pk in ("iclr-2023", "iclr-2024"):
        write_venue_rows(local_fs, str(tmp_path), pk, rows_factory(pk, 20))
    first = update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023", "iclr-2024"])
    assert first.rewritten == ["iclr-2023", "iclr-2024"] and first.removed == []
    names = sorted(p.name for p in (tmp_path / "corpus/data").iterdir())
    assert names == [f"iclr-iclr-2023-{_gen(names[0])}-00000-of-00001.parquet",
                     f"iclr-iclr-2024-{_gen(names[1])}-00000-of-00001.parquet"]
    assert manifest_is_the_disk(tmp_path) == {"iclr": [f"data/{n}" for n in names]}
    assert first.stats.num_examples == 40 and set(first.stats.venue_years) == {"iclr-2023", "iclr-2024"}
    before = _mtimes(tmp_path)

    again = update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023", "iclr-2024"])
    assert again.rewritten == [] and again.kept == ["iclr-2023", "iclr-2024"] and _mtimes(tmp_path) == before
    assert again.stats.to_dict() == first.stats.to_dict()  # merged from the records, not re-read

    write_venue_rows(local_fs, str(tmp_path), "iclr-2024", rows_factory("iclr-2024", 25, seed=1))
    third = update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023", "iclr-2024"])
    assert third.rewritten == ["iclr-2024"] and third.stats.num_examples == 45
    after = _mtimes(tmp_path)
    assert after[f"corpus/data/{names[0]}"] == before[f"corpus/data/{names[0]}"]
    # the rewritten part has new names, listed by README.md; its previous shards are gone
    new = sorted(p.name for p in (tmp_path / "corpus/data").iterdir())
    assert [_gen(n) for n in names] == ["g000001", "g000001"]  # the same history names its files alike
    assert new == [names[0], names[1].replace("-g000001-", "-g000002-")]
    assert manifest_is_the_disk(tmp_path) == {"iclr": [f"data/{n}" for n in new]}
    assert sum(pq.read_metadata(tmp_path / "corpus/data" / n).num_rows for n in new) == 45

    # a venue-year that leaves the split (blocked) takes its shards, record and manifest entries with it
    fourth = update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023"])
    assert fourth.stats.num_examples == 20
    assert sorted(p.name for p in (tmp_path / "corpus/data").iterdir()) == [names[0]]
    assert manifest_is_the_disk(tmp_path) == {"iclr": [f"data/{names[0]}"]}
    assert not (tmp_path / paths.split_part("iclr", "iclr-2024")).exists()


def test_a_forum_in_two_venue_years_is_refused(tmp_path, rows_factory, input_writer, local_fs):
    store = store_from_uri(str(tmp_path))
    rows = rows_factory("iclr-2023", 5)
    write_venue_rows(local_fs, str(tmp_path), "iclr-2023", rows)
    write_venue_rows(local_fs, str(tmp_path), "iclr-2024", [dict(rows[0], year=2024)])
    with pytest.raises(DuplicateForumError, match=rows[0]["forum_id"]):
        update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023", "iclr-2024"])


def test_rows_without_their_provenance_are_refused(tmp_path, rows_factory, input_writer, local_fs):
    """Rows and provenance are one step's set: rows alone mean a broken set, said, not skipped."""
    store = store_from_uri(str(tmp_path))
    input_writer(local_fs, store.path(paths.rows("iclr-2023")), rows_factory("iclr-2023", 3))
    with pytest.raises(FileNotFoundError, match="iclr-2023.provenance.parquet"):
        update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023"])


def test_statistics_are_computed_once_with_the_rows_and_merged_by_the_split(tmp_path, rows_factory):
    """Issue 20.4: the venue-year's statistics are written with its rows (rows/<pk>.stats.json, in
    the same publication), equal to what the rows' columns give, and the split merges that record
    instead of reading the rows again (a record changed on purpose shows up as it is). Issue 28.3:
    they are SQL over the typed reviews now, and equal to what the row loop decoding reviews_json
    gave before (tests/splits/stats_oracle.py keeps that loop)."""
    import json

    from reviewbench_assets.domain.reviews import typed_reviews
    from reviewbench_assets.stages.rows_stage import RowsStage, write_rows
    from tests.splits.stats_oracle import StatsAccumulator

    store = store_from_uri(str(tmp_path))
    rows = rows_factory("iclr-2024", 30)
    rules = ["initial", "earliest_public", None]
    provs = [{"forum_id": r["forum_id"], "conference": r["conference"], "year": r["year"], "track": r["track"],
              "revision_rule": rules[i % 3]} for i, r in enumerate(rows)]
    papers = [{**r, "reviews": typed_reviews(json.loads(r.pop("reviews_json")))} for r in [dict(r) for r in rows]]
    write_rows(RowsStage.outputs_in(store, "iclr-2024"), iter(zip(papers, provs, strict=True)))
    recorded = json.loads((tmp_path / paths.rows_stats("iclr-2024")).read_text())["venue_years"]["iclr-2024"]
    written = pq.read_table(tmp_path / paths.rows("iclr-2024"))
    assert written.column("reviews_json").to_pylist() == [r["reviews_json"] for r in rows]  # the card's JSON, as given
    computed = StatsAccumulator()
    computed.add(written)
    expected = computed.venue_years["iclr-2024"].to_dict()
    from_provenance = ("text_rules", "paper_licenses", "review_licenses")  # the row loop reads the rows only
    assert {k: v for k, v in recorded.items() if k not in from_provenance} == {
        k: v for k, v in expected.items() if k not in from_provenance}
    assert recorded["paper_licenses"] == {"unknown": recorded["papers"]}  # the fixture's notes state none
    assert recorded["papers"] == 30 and recorded["reviews"] > 0 and recorded["rating_counts"]
    assert recorded["moves"]["tracked"] > recorded["moves"]["changed"] > 0 and recorded["moves"]["up"] > 0
    assert recorded["text_rules"] == {"earliest_public": 10, "initial": 10, "unavailable": 10}

    doctored = {"venue_years": {"iclr-2024": {**recorded, "accepted": 29}}}
    store.write_json(store.path(paths.rows_stats("iclr-2024")), doctored)
    update = update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2024"])
    assert update.stats.venue_years["iclr-2024"].accepted == 29  # the record, not a recount
    assert update.stats.venue_years["iclr-2024"].text_rules == recorded["text_rules"]
    assert update.stats.num_examples == 30
