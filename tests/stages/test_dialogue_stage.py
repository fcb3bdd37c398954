"""`stages.dialogue_stage.DialogueStage` without Dagster, HTTP or an LLM (`steps=None`), on the
real recorded ICLR 2026 forum (tests/fixtures/openreview-samples)."""
from __future__ import annotations

import json
from pathlib import Path

from partitions.catalogue import catalogue
from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.dialogue_stage import DialogueStage
from reviewbench_assets.stages.figures import LLM, ROW_COUNT
from reviewbench_assets.stages.parse_stage import ParseStage
from tests.published import write_jsonl
from tests.stages.figures_check import assert_every_figure

SAMPLE = (Path(__file__).resolve().parents[1] / "fixtures/openreview-samples"
          / "iclr2026_zzo3Sy3NSX_v2_submission_vars_with_replies.json")


def _raw_forum() -> dict:
    raw = json.loads(SAMPLE.read_text())
    raw["parentInvitations"] = raw.pop("parent_invitations", None)  # the API's spelling
    return raw


def test_rule_based_dialogues_of_the_recorded_forum(tmp_path):
    venue = catalogue().get("iclr-2026")
    store = store_from_uri(str(tmp_path))
    raw = _raw_forum()
    write_jsonl(store, store.path(paths.raw_forums(venue.key)), [{"forum_id": raw["id"], "note": raw}])
    reviews = [r for r in raw["details"]["replies"]
               if any(i.endswith("/-/Official_Review") for i in r["invitations"])]
    assert len(reviews) == 4  # the recorded forum: four official reviews

    ParseStage(venue)(store)
    result = DialogueStage(venue)(store)

    # every author and reviewer post is accounted for; the one outside a dialogue says why
    f = result.figures
    assert_every_figure(result)
    assert f["dialogue_coverage"] == 1.0 and result.check("dialogue_coverage").passed
    assert f["author_reviewer_posts"] == 16 and f["posts_unaccounted"] == 0
    assert f["posts_as_turns"] + f["posts_as_reference_context"] + f["posts_excluded"] == 16
    outside = list(store.iter_jsonl(f["excluded_path"]))
    assert [(o["note_id"], o["status"]) for o in outside] == [("f62LQEWDzg", "excluded")]
    assert "area chairs" in outside[0]["reason"] and outside[0]["code"] == "discussion_summary"
    assert f["exclusion_reasons"] == {"discussion_summary": 1}  # counted by code, the words beside it

    # one dialogue per review, rule-based, each opened by its reviewer
    assert (result.figures[ROW_COUNT], f["re2_review_records"], f["re2_rebuttal_records"]) == (4, 1, 4)
    assert f["turns"] == 12 and f["llm_merged_turns"] == 0
    rows = list(store.iter_jsonl(f["path"]))
    assert len(rows) == 4 and {r["forum_id"] for r in rows} == {"zzo3Sy3NSX"}
    assert sorted(r["reviewer"] for r in rows) == sorted(
        f"Reviewer_{r['signatures'][0].rsplit('_', 1)[-1]}" for r in reviews)
    assert all(r["turns"][0]["role"] == "reviewer" and r["merged_by"] == "rule-based" for r in rows)
    assert sum(len(r["turns"]) for r in rows) == 12

    # the Re^2 records: one review record for the paper, one rebuttal record per dialogue
    review = store.read_parquet(store.path(paths.re2_review(venue.key)))
    rebuttal = store.read_parquet(store.path(paths.re2_rebuttal(venue.key)))
    assert review.num_rows == 1 and rebuttal.num_rows == 4


def test_malformed_forum_is_reported_not_fatal(tmp_path):
    venue = catalogue().get("iclr-2026")
    store = store_from_uri(str(tmp_path))
    good, bad = _raw_forum(), _raw_forum()
    bad["id"] = bad["forum"] = "badForum01"
    bad["content"] = None
    write_jsonl(store, store.path(paths.raw_forums(venue.key)),
                [{"forum_id": good["id"], "note": good}, {"forum_id": bad["id"], "note": bad}])
    parsed = ParseStage(venue)(store)
    assert parsed.figures[ROW_COUNT] == 1 and parsed.figures["malformed_forums"] == 1
    quarantine = store.read_parquet(store.path(paths.parsed_quarantine(venue.key))).to_pylist()
    assert [(q["forum_id"], q["code"], q["parsed"]) for q in quarantine] == [
        ("badForum01", "malformed_submission", False)]
    assert "no content object" in quarantine[0]["detail"]
    result = DialogueStage(venue)(store)
    assert result.figures[ROW_COUNT] == 4 and result.figures["re2_review_records"] == 1


def test_with_an_llm_the_parsed_routing_is_taken_as_it_is(tmp_path, monkeypatch):
    """Issue 28 item 1: the parsed table holds each post's place; the dialogue stage never routes a
    forum again, with or without an LLM."""
    import reviewbench_assets.domain.dialogues as threads
    import reviewbench_assets.stages.dialogue_stage as stage
    from reviewbench_assets.domain.llm import LLMStats

    venue = catalogue().get("iclr-2026")
    store = store_from_uri(str(tmp_path))
    raw = _raw_forum()
    write_jsonl(store, store.path(paths.raw_forums(venue.key)), [{"forum_id": raw["id"], "note": raw}])
    ParseStage(venue)(store)

    class Steps:  # an LLM that labels nothing and merges nothing: only the stage's own work is tested
        merged_by = "llm:fake@1"
        stats = LLMStats()

        def classify_reminders(self, items):
            return [None] * len(items)

    # one routing entrance (issue 39 item 4): the dialogues' builders take the stored routing, and
    # neither they nor the stage can route a forum again (the router is not even imported there)
    import inspect

    from reviewbench_assets.domain import reviews
    assert not hasattr(threads, "route_posts") and not hasattr(stage, "route_posts")
    assert not hasattr(reviews, "route_posts")
    for fn in (threads.build_dialogues, threads.build_thread, threads.reminder_candidates, reviews.review_rebuttal):
        assert inspect.signature(fn).parameters["routing"].default is inspect.Parameter.empty, fn.__name__
    monkeypatch.setattr(stage, "llm_merge", lambda dialogues, forums, steps: dialogues)
    result = DialogueStage(venue, Steps())(store)
    assert result.figures[ROW_COUNT] == 4 and result.figures["dialogue_coverage"] == 1.0
    assert_every_figure(result, LLM)  # the LLM's figures too
