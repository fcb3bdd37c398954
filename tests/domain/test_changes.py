"""What changed between two refreshes (issue 30 item 2): each event recorded once with old and new
scores, removals recorded (never dropped), and the recorded changes replay to every snapshot."""
from __future__ import annotations

from datetime import UTC, datetime

import duckdb

from resources.store import store_from_uri
from reviewbench_assets.domain.changes import apply_changes, snapshot, summary, venue_changes
from reviewbench_assets.domain.posts import ParsedForum, Post
from reviewbench_assets.stages.change_log import ChangesStage
from reviewbench_assets.stages.figures import ROW_COUNT
from tests.stages.figures_check import assert_every_figure


def _review(rid: str, rating: float, confidence: float = 3.0) -> dict:
    return {"review_id": rid, "rating": rating, "confidence": confidence}


def _forum(fid: str, reviews: list[dict], posts: list[Post] = (), decision: str = "", status: str = "active",
           pdf: str = "/pdf/a.pdf") -> ParsedForum:
    review_posts = [Post(note_id=r["review_id"], replyto=fid, kind="review", role="reviewer", tcdate=1) for r in reviews]
    return ParsedForum(forum_id=fid, reviews=reviews, posts=[*review_posts, *posts], decision=decision,
                       status=status, pdf=pdf)


DAY1 = {"F1": _forum("F1", [_review("R1", 3), _review("R2", 6)]),
        "F2": _forum("F2", [_review("R3", 5)])}
DAY2 = {"F1": _forum("F1", [_review("R1", 5), _review("R2", 6)],
                     [Post(note_id="A1", replyto="R1", kind="rebuttal", role="author", tcdate=10),
                      Post(note_id="C1", replyto="A1", kind="comment", role="reviewer", tcdate=11)],
                     pdf="/pdf/b.pdf"),
        "F2": _forum("F2", [])}  # R3 made private (or deleted) between the two days
DAY3 = {"F1": _forum("F1", [_review("R1", 5), _review("R2", 6)],
                     [Post(note_id="A1", replyto="R1", kind="rebuttal", role="author", tcdate=10),
                      Post(note_id="C1", replyto="A1", kind="comment", role="reviewer", tcdate=11, deleted=True)],
                     decision="Accept (poster)", pdf="/pdf/b.pdf"),
        "F3": _forum("F3", [], status="withdrawn")}  # F2 gone, F3 new


def _snaps(day):
    return {f: snapshot(p) for f, p in day.items()}


def test_each_event_is_recorded_once_with_old_and_new_scores():
    changes = list(venue_changes(_snaps(DAY1), _snaps(DAY2)))
    kinds = sorted((c.change, c.target_id) for c in changes)
    assert kinds == [("comment_added", "C1"), ("pdf_revised", "F1"), ("response_added", "A1"),
                     ("review_edited", "R1"), ("review_removed", "R3")]
    edit = next(c for c in changes if c.change == "review_edited")
    assert (edit.old_rating, edit.new_rating) == (3, 5)
    removed = next(c for c in changes if c.change == "review_removed")
    assert removed.old_rating == 5 and removed.new_rating is None
    s = summary(changes)
    assert s["ratings_up"] == 1 and s["ratings_down"] == 0 and s["mean_rating_move"] == 2 and s["forums_changed"] == 2


def test_no_change_records_nothing_and_removals_are_recorded():
    assert list(venue_changes(_snaps(DAY2), _snaps(DAY2))) == []
    changes = list(venue_changes(_snaps(DAY2), _snaps(DAY3)))
    kinds = sorted((c.change, c.target_id) for c in changes)
    assert ("decision_changed", "F1") in kinds and ("post_removed", "C1") in kinds
    assert ("forum_removed", "F2") in kinds and ("forum_added", "F3") in kinds
    assert next(c for c in changes if c.change == "forum_added").new_value == "withdrawn"


def test_the_changes_replay_to_every_snapshot():
    state: dict = {}
    previous: dict = {}
    for n, day in enumerate((DAY1, DAY2, DAY3)):
        current = _snaps(day)
        state = apply_changes(state, list(venue_changes(previous, current, baseline=n == 0)))
        assert state == current
        previous = current


def test_the_first_build_records_a_baseline_not_changes():
    """Issue 38.6: a first build of ICLR 2026 recorded 999 `pdf_revised` for 1,000 forums, and each
    existing post as `response_added`/`comment_added`. The first observation is a baseline: what
    was there (written here by hand from DAY1: 2 forums with a PDF each, 3 reviews), no change."""
    first = list(venue_changes({}, _snaps(DAY1), baseline=True))
    assert sorted((c.change, c.target_id) for c in first) == [
        ("forum_observed", "F1"), ("forum_observed", "F2"), ("pdf_observed", "F1"), ("pdf_observed", "F2"),
        ("review_observed", "R1"), ("review_observed", "R2"), ("review_observed", "R3")]
    with_posts = list(venue_changes({}, _snaps(DAY2), baseline=True))
    assert {c.change for c in with_posts} == {"forum_observed", "pdf_observed", "review_observed", "post_observed"}
    s = summary(first)
    assert s["changes"] == 0 and s["by_kind"] == {} and s["forums_changed"] == 0 and s["observed"] == 7
    # a forum that appears at a later refresh was added; its PDF is its first, not a revision
    later = list(venue_changes(_snaps(DAY2), _snaps(DAY3)))
    assert sorted((c.change, c.target_id) for c in later if c.forum_id == "F3") == [
        ("forum_added", "F3"), ("pdf_observed", "F3")]


def test_the_log_is_kept_across_refreshes_and_queryable(tmp_path):
    store = store_from_uri(str(tmp_path))
    t = [datetime(2025, 11, d, 3, tzinfo=UTC) for d in (12, 13, 14, 15)]
    first = ChangesStage("iclr-2026", DAY1.values(), now=t[0])(store)
    assert_every_figure(first)
    assert first.figures["first_refresh"] and first.figures["by_kind"] == {} and first.figures["observed"] == 7
    second = ChangesStage("iclr-2026", DAY2.values(), now=t[1])(store)
    assert second.figures[ROW_COUNT] == 5 and second.figures["ratings_up"] == 1
    # a re-run of the same day (the run was killed after its publish): nothing counted twice
    again = ChangesStage("iclr-2026", DAY2.values(), now=t[2])(store)
    assert again.figures[ROW_COUNT] == 0 and not again.figures["first_refresh"]
    ChangesStage("iclr-2026", DAY3.values(), now=t[3])(store)
    rows = duckdb.sql(
        f"SELECT refresh, change, target_id, old_rating, new_rating FROM read_parquet("
        f"'{tmp_path}/changes/iclr-2026/log/*/*.parquet', hive_partitioning=true) ORDER BY refreshed_at, change").fetchall()
    assert len({r[0] for r in rows}) == 3  # the empty refresh wrote a file without rows
    # the documented count query (docs/live-venues.md) counts changes only, the baseline apart
    counted = duckdb.sql(
        f"SELECT refresh, change, count(*) FROM read_parquet('{tmp_path}/changes/iclr-2026/log/*/*.parquet', "
        "hive_partitioning=true) WHERE NOT ends_with(change, '_observed') GROUP BY ALL ORDER BY ALL").fetchall()
    assert "2025-11-12T030000.000000Z" not in {r[0] for r in counted}  # the first build changed nothing
    assert ("2025-11-13T030000.000000Z", "pdf_revised", 1) in counted
    assert ("2025-11-13T030000.000000Z", "review_edited", "R1", 3.0, 5.0) in rows
    assert sum(1 for r in rows if r[1] == "review_removed") == 1


def test_two_refreshes_of_one_venue_year_take_turns(tmp_path):
    """A schedule tick and a manual run at once: the changes are recorded once, not by both."""
    from concurrent.futures import ThreadPoolExecutor

    store = store_from_uri(str(tmp_path))
    ChangesStage("iclr-2026", DAY1.values(), now=datetime(2025, 11, 12, 3, tzinfo=UTC))(store)
    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda h: ChangesStage("iclr-2026", DAY2.values(),
                                                    now=datetime(2025, 11, 13, 3, h, tzinfo=UTC))(store), (0, 1)))
    assert sorted(r.figures[ROW_COUNT] for r in done) == [0, 5]


def test_trajectories_merge_edit_history_and_daily_observations():
    from reviewbench_assets.domain.trajectories import EDIT, OBSERVED, SINGLE, daily_figures, merged_trajectory

    edited = [{"time": 100, "rating": 3, "confidence": 4, "edit_id": "e1"},
              {"time": 500, "rating": 5, "confidence": 4, "edit_id": "e2"}]
    # both observations are explained by the history: its exact times are kept, nothing added
    assert [(p["time"], p["source"]) for p in merged_trajectory(edited, [(200, 3, 4), (600, 5, 4)])] == \
        [(100, EDIT), (500, EDIT)]
    # edited in place without a crawled history: the day the new score was first seen is a point
    merged = merged_trajectory([{"time": 100, "rating": 3, "confidence": 4, "edit_id": None}],
                               [(200, 3, 4), (600, 5, 4), (700, 5, 4)])
    # the one point of a review never edited is a reading of the review, not an edit (issue 38.6:
    # it was labelled edit_history with no edit id)
    assert [(p["time"], p["rating"], p["source"]) for p in merged] == [(100, 3, SINGLE), (600, 5, OBSERVED)]
    assert all(p["edit_id"] for p in merged_trajectory(edited, []) if p["source"] == EDIT)
    day = 86_400_000
    rows = daily_figures({"a": merged, "b": [{"time": 50, "rating": 6, "confidence": 3, "source": EDIT}]},
                         [200, day + 10])
    assert rows[0] == {"day": "1970-01-01", "reviews": 2, "mean_rating": 5.5, "share_changed": 0.5}
    assert rows[1]["day"] == "1970-01-02" and rows[1]["mean_rating"] == 5.5


def test_the_refresh_writes_trajectories_daily_figures_and_a_plot(tmp_path):
    import pyarrow.parquet as pq

    store = store_from_uri(str(tmp_path))
    for d, day in zip((12, 13, 14), (DAY1, DAY2, DAY2), strict=True):
        last = ChangesStage("iclr-2026", day.values(), now=datetime(2025, 11, d, 3, tzinfo=UTC))(store)
    traj = pq.read_table(tmp_path / "changes/iclr-2026/trajectories.parquet").to_pylist()
    r1 = [(t["rating"], t["source"]) for t in traj if t["review_id"] == "R1"]
    assert r1 == [(3.0, "daily_observation"), (5.0, "daily_observation")]  # no edit history in these forums
    daily = pq.read_table(tmp_path / "changes/iclr-2026/daily.parquet").to_pylist()
    assert [d["day"] for d in daily] == ["2025-11-12", "2025-11-13", "2025-11-14"]  # the quiet day too
    assert daily[1]["share_changed"] == 0.5 and daily[0]["share_changed"] == 0.0
    assert (tmp_path / "changes/iclr-2026/daily.png").read_bytes()[:4] == b"\x89PNG"
    assert "| 2025-11-14 |" in last.figures["daily_ratings"].text and last.figures["as_of"].startswith("2025-11-14")


def test_the_card_shows_each_followed_venue_with_its_plot(tmp_path):
    from reviewbench_assets.io.stage_io import Inputs
    from reviewbench_assets.stages.card_stage import CardStage
    from reviewbench_assets.stages.live_card import live_section

    store = store_from_uri(str(tmp_path))
    for d, day in zip((12, 13), (DAY1, DAY2), strict=True):
        ChangesStage("iclr-2026", day.values(), now=datetime(2025, 11, d, 3, tzinfo=UTC))(store)
    inputs, outputs = Inputs(CardStage.name, CardStage.reads, store, None), CardStage.outputs_in(store, None)
    with outputs.publish() as pub:
        text = live_section(inputs, ["iclr-2024", "iclr-2026"], pub)
    assert "| iclr-2026 | 2025-11-12 | 2025-11-13 | 2 | 5.5 | 0.5 |" in text and "iclr-2024" not in text
    assert "](plots/iclr-2026_discussion.png)" in text
    assert (tmp_path / "corpus/plots/iclr-2026_discussion.png").read_bytes()[:4] == b"\x89PNG"
    with outputs.publish() as pub:
        assert live_section(inputs, ["iclr-2024"], pub) == ""  # nothing followed: no section


def _killed_refresh_child(root: str, now: datetime) -> None:
    """A refresh killed -9 inside its publication, after staging its log (the crash-point suite's
    point `open_output_stream changes/<pk>/.state.parquet.tmp-...`)."""
    import os

    from reviewbench_assets.stages import change_log

    real = change_log._write

    def dying(pub, name, *args):
        if name == "change_state":  # changes/<pk>/state.parquet
            os._exit(137)
        return real(pub, name, *args)

    change_log._write = dying
    ChangesStage("iclr-2026", DAY2.values(), now=now)(store_from_uri(root))


def test_a_refresh_killed_before_its_commit_leaves_no_staged_log_behind(tmp_path):
    """Each refresh logs into a folder of its own (`log/refresh=<time>/`), so no later publication
    writes into a killed refresh's folder, where its staged log would stay for good (found by the
    crash-point suite, tests/faults/crash_trials.py). The next refresh removes it."""
    import multiprocessing

    store = store_from_uri(str(tmp_path))
    ChangesStage("iclr-2026", DAY1.values(), now=datetime(2025, 11, 12, 3, tzinfo=UTC))(store)
    proc = multiprocessing.get_context("fork").Process(
        target=_killed_refresh_child, args=(str(tmp_path), datetime(2025, 11, 13, 3, tzinfo=UTC)))
    proc.start()
    proc.join(60)
    assert proc.exitcode == 137
    staged = [p for p in store.list_files(store.path("changes")) if ".tmp-" in p]
    assert any("refresh=2025-11-13" in p for p in staged), staged  # the kill left its staged log
    ChangesStage("iclr-2026", DAY2.values(), now=datetime(2025, 11, 14, 3, tzinfo=UTC))(store_from_uri(str(tmp_path)))
    assert [p for p in store.list_files(store.path("changes")) if ".tmp-" in p] == []


def test_a_deleted_state_is_rebuilt_from_the_log_not_taken_for_a_first_build(tmp_path):
    """Issue 38.8: `changes/<pk>/state.parquet` deleted after its publication made the next refresh a
    first build: a baseline recorded again and the real changes lost. The log says everything, so the
    state is replayed from it."""
    store = store_from_uri(str(tmp_path))
    ChangesStage("iclr-2026", DAY1.values(), now=datetime(2025, 11, 12, 3, tzinfo=UTC))(store)
    (tmp_path / "changes/iclr-2026/state.parquet").unlink()
    second = ChangesStage("iclr-2026", DAY2.values(), now=datetime(2025, 11, 13, 3, tzinfo=UTC))(store)
    assert not second.figures["first_refresh"] and second.figures[ROW_COUNT] == 5  # as with its state (the log test)


def test_a_deleted_history_is_refused_naming_it_not_recorded_over(tmp_path):
    """Issue 38.8: the change log deleted after its publication (the state kept) made the next refresh
    rebuild trajectories and daily figures from nothing, silently. The history cannot be rebuilt: the
    refresh fails naming the folder."""
    import shutil

    import pytest

    from resources.store import CorruptFileError

    store = store_from_uri(str(tmp_path))
    ChangesStage("iclr-2026", DAY1.values(), now=datetime(2025, 11, 12, 3, tzinfo=UTC))(store)
    shutil.rmtree(tmp_path / "changes/iclr-2026/log")
    with pytest.raises(CorruptFileError, match="changes/iclr-2026/log.*history was deleted"):
        ChangesStage("iclr-2026", DAY2.values(), now=datetime(2025, 11, 13, 3, tzinfo=UTC))(store)
