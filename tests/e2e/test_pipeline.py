"""End to end: every asset of the replica partitions, checked against the replica's ground truth."""
from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from datasets import load_dataset

from reviewbench_assets.io.layout import paths
from tests.e2e.conftest import VENUES, materialize_corpus, materialize_partition, replica_resources
from tests.splits.stats_oracle import StatsAccumulator

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.ray]  # the whole chain


@pytest.fixture(scope="module")
def built(replica, tmp_path_factory):
    root = str(tmp_path_factory.mktemp("storage"))
    resources = replica_resources(replica, root)
    config = {"ops": {"initial_submission_pdfs": {"config": {"cross_check_api": True}}}}
    results = {pk: materialize_partition(resources, pk, run_config=config) for pk in VENUES}
    corpus = materialize_corpus(resources)
    return root, resources, results, corpus


def _rows(root, pk):
    return {r["forum_id"]: r for r in pq.read_table(f"{root}/{paths.rows(pk)}").to_pylist()}


def _prov(root, pk):
    return {r["forum_id"]: r for r in pq.read_table(f"{root}/{paths.provenance(pk)}").to_pylist()}


@pytest.mark.parametrize("pk", VENUES)
def test_every_forum_and_review_is_there(built, fixtures, pk):
    root, _, results, _ = built
    assert results[pk].success, [e.message for e in results[pk].all_events if e.is_failure]
    rows, truth = _rows(root, pk), fixtures.venues[pk].forums
    assert set(rows) == set(truth)
    for fid, t in truth.items():
        row = rows[fid]
        assert row["num_reviews"] == t.num_reviews, fid
        assert len(json.loads(row["reviews_json"])) == t.num_reviews
        assert row["title"] == t.title
        assert row["paper_number"] == t.number
        if t.decision:
            assert row["decision"] == t.decision, fid


@pytest.mark.parametrize("pk", VENUES)
def test_the_initial_submission_and_never_a_post_deadline_revision(built, fixtures, pk):
    root, _, _, _ = built
    rows, prov = _rows(root, pk), _prov(root, pk)
    for fid, t in fixtures.venues[pk].forums.items():
        md, p = rows[fid]["markdown"], prov[fid]
        assert p["revision_rule"] == t.stage_rule, (fid, p["revision_reason"])
        if t.stage_rule == "initial" or (t.stage_rule == "earliest_public" and t.stage_revision_id):
            assert p["revision_id"] == t.stage_revision_id, fid
        if t.expected_marker:
            assert t.expected_marker in md, fid
            assert "\n\n---\n\n" in md  # page boundaries as in the card
        else:
            assert md == "", fid
        for marker in t.post_deadline_markers:
            if marker != t.expected_marker:
                assert marker not in md, (fid, marker)
        assert rows[fid]["markdown_chars"] == len(md)


def test_browser_and_api_choose_the_same_revision(built, fixtures):
    """Every forum whose history is read is read in the browser and the API recipe agrees; the
    others are v2 notes that no revision invitation touched (the note settles the choice)."""
    root, _, _, _ = built
    for pk in VENUES:
        truth = fixtures.venues[pk].forums
        subs = pq.read_table(f"{root}/{paths.submissions(pk)}").to_pylist()
        read = [s for s in subs if not truth[s["forum_id"]].note_settles]
        assert read and {s["revision_source"] for s in read} == {"browser"}
        assert all(s["cross_check"] == "agree" for s in read), [s for s in read if s["cross_check"] != "agree"]
        assert {s["revision_source"] for s in subs if s not in read} <= {"note"}


def test_checks_pass_and_metadata_is_readable(built):
    _, _, results, _ = built
    for pk, result in results.items():
        evaluations = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
        assert evaluations["unique_forum_id"] and evaluations["num_reviews_matches_reviews_json"]
        assert evaluations["markdown_chars_matches_markdown"] and evaluations["no_empty_title"]
        mats = {m.asset_key.to_user_string(): m for m in result.get_asset_materialization_events()}
        meta = mats["openreview_forums"].materialization.metadata
        assert meta["dagster/row_count"].value > 30
        assert meta["requests_per_forum"].value < 0.5
        # issue 10: every author/reviewer post in a dialogue or excluded with a reason; the replica's
        # split_rebuttal forum has a reviewer without a review, an AC note and a public comment
        assert evaluations["dialogue_coverage"], pk
        dmeta = mats["rebuttal_dialogues"].materialization.metadata
        assert dmeta["dialogue_coverage"].value == 1.0 and dmeta["posts_unaccounted"].value == 0
        assert dmeta["reviewer_comment_threads"].value >= 1 and dmeta["posts_excluded"].value >= 1


def test_every_asset_records_every_figure_it_declares(built):
    """Issue 28 item 2: each materialization's metadata is its stage's declared figures (stages/figures.yaml),
    all of them but those recorded only under a condition this run did not meet (a first crawl reads
    no cursor; no LLM is configured)."""
    from reviewbench_assets.stages.figures import SPLIT, figures_of
    from tests.stages.figures_check import ADDED_BY_ASSETS, expected

    _, _, results, corpus = built
    mats = [m for r in [*results.values(), corpus] for m in r.get_asset_materialization_events()]
    assert len({m.asset_key for m in mats}) >= 8
    for m in mats:
        name = m.asset_key.to_user_string()
        stage = SPLIT if name.endswith("_split") and name != "reviewbench_split" else name
        keys = set(m.materialization.metadata)
        assert keys <= set(figures_of(stage)), (name, keys - set(figures_of(stage)))
        assert expected(stage) <= keys, (name, expected(stage) - keys)
        assert keys - expected(stage) <= ADDED_BY_ASSETS, (name, keys - expected(stage))


def test_dialogues_are_written(built):
    root, _, _, _ = built
    lines = [json.loads(l) for l in open(f"{root}/{paths.dialogues('iclr-2020')}")]
    assert lines and all(d["turns"] and d["turns"][0]["role"] == "reviewer" for d in lines)


def test_the_corpus_loads_with_datasets(built, fixtures):
    root, _, _, corpus = built
    assert corpus.success
    ds = load_dataset(f"{root}/{paths.CORPUS_DIR}")
    assert list(ds) == ["iclr"]
    assert ds["iclr"].num_rows == sum(len(fixtures.venues[pk].forums) for pk in VENUES)
    assert ds["iclr"].column_names[:3] == ["forum_id", "conference", "year"] and len(ds["iclr"].column_names) == 20
    prov = load_dataset(f"{root}/{paths.CORPUS_DIR}", "provenance")
    assert prov["iclr"].num_rows == ds["iclr"].num_rows
    # one row per review, typed (issue 28.3): the same reviews as the papers' reviews_json
    reviews = load_dataset(f"{root}/{paths.CORPUS_DIR}", "reviews")
    assert reviews["iclr"].num_rows == sum(ds["iclr"]["num_reviews"]) > 0
    assert reviews["iclr"].features["rating"].dtype == "float64"
    # the card's figures (SQL over the rows, recorded with them) are what the row loop decoding
    # every reviews_json gave before (tests/splits/stats_oracle.py), on the replica's corpora
    for pk in VENUES:
        oracle = StatsAccumulator()
        oracle.add(pq.read_table(f"{root}/{paths.rows(pk)}"))
        recorded = json.load(open(f"{root}/{paths.rows_stats(pk)}"))["venue_years"]
        # the licenses come from the provenance and reviews configs, which the row loop never read:
        # each paper and review counted once (API v2 notes carry theirs, v1 notes none: unknown)
        for v in recorded.values():
            assert sum(v["paper_licenses"].values()) == v["papers"], pk
            assert sum(v["review_licenses"].values()) == v["reviews"], pk
        assert {k: {**v, "text_rules": {}, "paper_licenses": {}, "review_licenses": {}} for k, v in recorded.items()} == {
            k: v.to_dict() for k, v in oracle.venue_years.items()}, pk
    # the card: statistics and the score-distribution plot of the conference
    card = open(f"{root}/{paths.CORPUS_DIR}/README.md").read()
    assert "plots/iclr_ratings.png" in card and "iclr-2024" in card
    png = open(f"{root}/{paths.CORPUS_DIR}/plots/iclr_ratings.png", "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    # score trajectories from the crawled edit histories: the replica's reviewers edit after rebuttals
    moved = card.split("## How ratings moved during the discussion")[1].split("\n## ")[0]
    assert "`iclr-2024`" in moved and "plots/iclr_rating_moves.png" in moved, moved[:2000]
    # iclr-2020 (v1): the replica's reviewers revise ratings after the rebuttal, and the crawl reads
    # the v1 references (iclr-2024's replica reviews have no rating edits: a row, unchanged)
    row = next(line for line in moved.splitlines() if "`iclr-2020`" in line)
    tracked, edited, changed, up, down = [c.strip() for c in row.split("|")[3:8]]
    assert int(edited.replace(",", "")) > 0 and int(up.replace(",", "")) + int(down.replace(",", "")) > 0
    # where each venue-year's full text comes from: shares by revision rule, summing to the papers
    rules = card.split("## Which revision the full text comes from")[1].split("\n## ")[0]
    for pk in VENUES:
        row = next(line for line in rules.splitlines() if f"`{pk}`" in line)
        cells = [c.strip() for c in row.split("|")[1:-1]]
        assert int(cells[2].replace(",", "")) == len(fixtures.venues[pk].forums), row
        assert abs(sum(float(c.rstrip("%")) for c in cells[3:]) - 100) < 0.5, row


def test_rematerialize_reuses_checkpoints_and_downloads_nothing(built, replica):
    root, resources, _, _ = built
    replica.reset_request_log()
    result = materialize_partition(resources, "iclr-2020", selection=None)
    assert result.success
    pdf_requests = [r for r in replica.request_log if "pdf" in r.path or "attachment" in r.path]
    assert pdf_requests == []


def test_parser_fix_rederives_everything_without_a_request(built, replica):
    """`--select parsed_forums,rebuttal_dialogues,reviewbench_split` after a parser change: the parsed table, dialogues and rows are
    rebuilt from the stored raw forums, with not one request to OpenReview, and come out the same."""
    import duckdb

    from reviewbench_assets.definitions import ASSETS

    root, resources, _, _ = built
    before = _rows(root, "iclr-2020")
    downstream = {"parsed_forums", "rebuttal_dialogues", "reviewbench_split"}
    replica.reset_request_log()
    result = materialize_partition(resources, "iclr-2020",
                                   selection=[a for a in ASSETS if a.key.to_user_string() in downstream])
    assert result.success
    assert replica.request_log == []
    assert {m.asset_key.to_user_string() for m in result.get_asset_materialization_events()} == downstream
    assert _rows(root, "iclr-2020") == before
    # docs/architecture.md's query: where every author and reviewer post went
    places = dict(duckdb.sql(
        f"SELECT p.place, count(*) FROM '{root}/{paths.parsed('iclr-2020')}', unnest(posts) AS t(p) "
        "WHERE p.role IN ('author', 'reviewer') GROUP BY ALL").fetchall())
    assert places["thread"] > 0 and set(places) <= {"thread", "reference_context", "excluded"}
