"""The Re^2 train/test per chain (issue 37 item 3): every version of a paper on one side, read from the
resubmissions stage's chains (never linked again by the split), stable as venue-years arrive. The
versions are parsed forums written by hand (tests/stages/resubmission_inputs.py); their ids were chosen
so that their own draws differ (checked first), which is what would leak without the chains."""
from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from resources.store import parquet_writer, store_from_uri
from reviewbench_assets.domain.dialogues import split_of
from reviewbench_assets.domain.schema import REVIEW_RECORD_SCHEMA
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.resubmission_stage import ResubmissionsStage
from reviewbench_assets.stages.split_stage import SplitStage, update_conference_split
from tests.splits.conftest import make_rows, write_venue_rows
from tests.stages.resubmission_inputs import (
    ABSTRACT_V1,
    ABSTRACT_V2,
    OTHER_ABSTRACT,
    THIRD_ABSTRACT,
    forum,
    write_parsed,
)

SHARE = 0.3
GRAPH_V1 = forum("i23_graphs", "Residual Normalisation Against Oversmoothing in Deep Graph Networks", OTHER_ABSTRACT,
                 ["Ana Silva", "Tom Berg"], "Reject", 1_664_000_000_000)
GRAPH_V2 = forum("i24_graphs", "Bounded Feature Variance for Very Deep Graph Neural Networks",
                 OTHER_ABSTRACT.replace("64-layer", "128-layer") + " Code is released.",
                 ["Tom Berg", "Ana Silva"], "Accept (poster)", 1_695_000_000_000)
CURRICULUM_V1 = forum("i23_curriculum", "Curriculum Learning for Compositional Instruction Following", ABSTRACT_V1,
                      ["Maria Lopez", "Jun Park"], "Reject", 1_664_100_000_000)
CURRICULUM_V2 = forum("i24_curriculum", "Ordering Instructions by Dependency Depth Helps Language Models Compose",
                      ABSTRACT_V2, ["Jun Park", "Maria Lopez", "Wei Chen"], "Accept (poster)", 1_695_100_000_000)
ALONE = forum("i23_rl", "Ensemble Disagreement Penalties for Offline Reinforcement Learning", THIRD_ABSTRACT,
              ["Omar Haddad"], "Reject", 1_664_200_000_000)


def _venue_year(store, local_fs, root, pk: str, forums: list[dict]) -> None:
    """The venue-year's parsed forums, its rows and its Re^2 review records, for these forum ids."""
    write_parsed(store, pk, forums)
    rows = make_rows(pk, len(forums))
    for row, f in zip(rows, forums, strict=True):
        row["forum_id"] = f["forum_id"]
    write_venue_rows(local_fs, root, pk, rows)
    conference, year = pk.split("-")
    records = [{"paper_id": f["forum_id"], "conference_year_track": f"{conference}_{year}_main", "conference": conference,
                "year": int(year), "track": "main", "venue_id": "ICLR", "reviews": [], "metareview": "m",
                "decision": f["decision"], "venue": ""} for f in forums]
    with parquet_writer(store.fs, store.path(paths.re2_review(pk)), REVIEW_RECORD_SCHEMA) as w:
        w.write_table(pa.Table.from_pylist(records, schema=REVIEW_RECORD_SCHEMA))


def _sides(root) -> dict[str, str]:
    out = {}
    for part in ("train", "test"):
        for f in (root / "corpus" / "review").glob(f"iclr_{part}-*.parquet"):
            out.update({p: part for p in pq.read_table(f, columns=["paper_id"]).column(0).to_pylist()})
    return out


def test_every_version_of_a_paper_lands_on_one_side_and_a_test_paper_stays_in_test(tmp_path, local_fs):
    # the ids' own draws differ: without the chains each paper would have a version on each side
    assert split_of("i23_graphs", SHARE) == "test" and split_of("i24_graphs", SHARE) == "train"
    assert split_of("i23_curriculum", SHARE) == "train" and split_of("i24_curriculum", SHARE) == "test"
    store = store_from_uri(str(tmp_path))
    (tmp_path / "re2").mkdir()
    _venue_year(store, local_fs, str(tmp_path), "iclr-2023", [GRAPH_V1, CURRICULUM_V1, ALONE])
    ResubmissionsStage(["iclr-2023", "iclr-2024"])(store)
    first = update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023"], test_share=SHARE)
    assert first.chains_read and first.moved_to_test == 0
    assert _sides(tmp_path) == {"i23_graphs": "test", "i23_curriculum": "train", "i23_rl": "train"}

    # a later venue-year adds a version of each paper
    _venue_year(store, local_fs, str(tmp_path), "iclr-2024", [GRAPH_V2, CURRICULUM_V2])
    linked = ResubmissionsStage(["iclr-2023", "iclr-2024"])(store)
    assert linked.figures["chains"] == 2
    second = update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023", "iclr-2024"], test_share=SHARE)
    assert _sides(tmp_path) == {"i23_graphs": "test", "i24_graphs": "test",  # the test paper stays in test
                                "i23_curriculum": "test", "i24_curriculum": "test",  # joined by a test version
                                "i23_rl": "train"}
    assert second.moved_to_test == 2  # i24_graphs and i23_curriculum, whose own draws were train
    assert second.rewritten == ["iclr-2023", "iclr-2024"]  # iclr-2023's part: one of its forums moved

    # nothing changed: no part is written again, the sides are the same
    third = update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023", "iclr-2024"], test_share=SHARE)
    assert third.rewritten == [] and third.moved_to_test == 2


def test_without_the_resubmissions_output_each_forum_keeps_its_own_draw(tmp_path, local_fs):
    store = store_from_uri(str(tmp_path))
    (tmp_path / "re2").mkdir()
    _venue_year(store, local_fs, str(tmp_path), "iclr-2023", [GRAPH_V1, CURRICULUM_V1])
    update = update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023"], test_share=SHARE)
    assert not update.chains_read and update.moved_to_test == 0
    assert _sides(tmp_path) == {"i23_graphs": "test", "i23_curriculum": "train"}


def test_the_chains_are_the_resubmissions_config_and_the_card_counts_them_from_its_rows(tmp_path, local_fs):
    from datasets import load_dataset

    from reviewbench_assets.stages.card_stage import CardStage

    store = store_from_uri(str(tmp_path))
    (tmp_path / "re2").mkdir()
    _venue_year(store, local_fs, str(tmp_path), "iclr-2023", [GRAPH_V1, CURRICULUM_V1, ALONE])
    _venue_year(store, local_fs, str(tmp_path), "iclr-2024", [GRAPH_V2, CURRICULUM_V2])
    ResubmissionsStage(["iclr-2023", "iclr-2024"])(store)
    update_conference_split(SplitStage.outputs_in(store, "iclr"), ["iclr-2023", "iclr-2024"], test_share=SHARE)
    card = CardStage()(store)
    assert card.figures["chains"] == 2
    corpus = str(tmp_path / paths.CORPUS_DIR)
    chains = load_dataset(corpus, "resubmissions")
    assert list(chains) == ["chains"]
    got = {tuple(s["forum_id"] for s in row["steps"]): [s["decision"] for s in row["steps"]] for row in chains["chains"]}
    assert got == {("i23_graphs", "i24_graphs"): ["Reject", "Accept (poster)"],
                   ("i23_curriculum", "i24_curriculum"): ["Reject", "Accept (poster)"]}
    text = (tmp_path / paths.CORPUS_DIR / "README.md").read_text()
    assert "- chains: 2 (4 submissions; 0 with a dual submission)" in text
    assert "| iclr → iclr | 2 |" in text
    assert "- a rejected version followed by an accepted one: 2 of 2 (100.0%)" in text
    # the default config and the others still load beside it
    assert len(load_dataset(corpus)["iclr"]) == 5 and set(load_dataset(corpus, "review")) == {"train", "test"}
