"""rebuttal_dialogues materialized on real recorded forums: `dialogue_coverage` in the metadata, its
asset check, the excluded-posts file, and the quarantine path (a `details=directReplies` payload
is counted as malformed and makes no dialogue)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import dagster as dg
import pytest

import reviewbench_assets.stages.dialogue_stage as dialogue_stage
from resources import LLMResource, StorageResource
from resources.store import store_from_uri
from reviewbench_assets import assets as dialogues_asset
from reviewbench_assets.assets import parsed_forums
from reviewbench_assets.io.layout import paths
from tests.published import write_jsonl

SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "openreview-samples"
PK = "iclr-2026"
VENUE = "ICLR.cc/2026/Conference"


def _forums() -> list[dict]:
    forum = json.loads((SAMPLES / "iclr2026_zzo3Sy3NSX_v2_submission_vars_with_replies.json").read_text())
    # a reviewer without an official review answers the authors' general note (a copy of the
    # recorded reviewer comment DZW9xjlKvJ with id / replyto / signature / text changed)
    replies = forum["details"]["replies"]
    tpl = next(r for r in replies if r["id"] == "DZW9xjlKvJ")
    late = copy.deepcopy(tpl)
    sig = f"{VENUE}/Submission4956/Reviewer_Lt9z"
    late.update(id="LateRev001", replyto=forum["id"], signatures=[sig], writers=[VENUE, sig])
    late["content"] = {"comment": {"value": "As a late reviewer: how does the method scale to 70B?"}}
    answer = copy.deepcopy(next(r for r in replies if r["id"] == "nf3lHFfpVa"))
    answer.update(id="LateAns001", replyto="LateRev001", tcdate=late["tcdate"] + 1000, cdate=late["tcdate"] + 1000)
    answer["content"] = {"comment": {"value": "We ran the 70B model: the masks transfer, see Table 9."}}
    replies += [late, answer]
    tracked = json.loads((SAMPLES / "iclr2026_16_forums_tracker_directReplies.json").read_text())[4]
    direct = {"id": tracked["id"], "number": tracked["number"], "invitations": [f"{VENUE}/-/Submission"],
              "domain": VENUE, "content": {k: {"value": v} for k, v in tracked["content"].items()},
              "details": {"directReplies": tracked["replies"]}}
    return [{"forum_id": f["id"], "query": "submissions", "api": "v2", "fetched_at": 1.0, "note": f}
            for f in (forum, direct)]


def _materialize(tmp_path):
    store = store_from_uri(str(tmp_path))
    write_jsonl(store, store.path(paths.raw_forums(PK)), _forums())
    result = dg.materialize([parsed_forums, dialogues_asset.rebuttal_dialogues], partition_key=PK,
                            resources={"storage": StorageResource(root=str(tmp_path)), "llm": LLMResource()},
                            # one forum of two is quarantined on purpose: parsed_forums' check allows it
                            run_config={"ops": {"parsed_forums": {"config": {"max_quarantined_share": 0.5}}}},
                            raise_on_error=False)
    metas = {m.asset_key.to_user_string(): m.materialization.metadata
             for m in result.get_asset_materialization_events()}
    meta = {**metas["parsed_forums"], **metas.get("rebuttal_dialogues", {})}
    checks = {c.check_name: c for c in result.get_asset_check_evaluations()}
    assert checks["quarantined_share"].passed and checks["quarantined_share"].metadata["share"].value == 0.5
    check = checks["dialogue_coverage"]
    excluded = [json.loads(x) for x in (tmp_path / paths.dialogue_exclusions(PK)).read_text().splitlines()]
    return result, meta, check, excluded


def test_coverage_metadata_check_and_exclusions(tmp_path):
    result, meta, check, excluded = _materialize(tmp_path)
    assert result.success
    assert check.check_name == "dialogue_coverage" and check.passed
    assert meta["dialogue_coverage"].value == 1.0 and meta["author_reviewer_posts"].value == 18
    assert meta["reviewer_comment_threads"].value == 1 and meta["posts_unaccounted"].value == 0
    # the forum fetched without details.replies is quarantined by the parse, with its reason code
    assert meta["malformed_forums"].value == 1 and meta["quarantine_codes"].value == {"no_replies": 1}
    assert [(e["note_id"], e["status"]) for e in excluded] == [("f62LQEWDzg", "excluded")]
    assert "discussion summary" in excluded[0]["reason"]
    lines = [json.loads(x) for x in (tmp_path / paths.dialogues(PK)).read_text().splitlines()]
    assert {d["forum_id"] for d in lines} == {"zzo3Sy3NSX"}  # the quarantined forum makes none
    late = next(d for d in lines if d["review_id"] == "LateRev001")
    assert late["root_kind"] == "reviewer_comment"
    assert [t["note_ids"] for t in late["turns"] if t["kind"] == "turn"] == [["LateRev001"], ["LateAns001"]]


def test_check_fails_and_names_lost_posts(tmp_path, monkeypatch):
    real = dialogue_stage.build_dialogues

    def lossy(p, *a, **kw):  # a regression that loses the authors' answers
        return [d.model_copy(update={"turns": d.turns[:1]}) for d in real(p, *a, **kw)]

    monkeypatch.setattr(dialogue_stage, "build_dialogues", lossy)
    result, meta, check, excluded = _materialize(tmp_path)
    # a blocking check: the step fails, so no split is built on dialogues that lost posts
    assert not result.success and not check.passed and check.severity == dg.AssetCheckSeverity.ERROR
    assert meta["dialogue_coverage"].value == pytest.approx(6 / 18, abs=1e-6)
    lost = {e["note_id"] for e in excluded if e["status"] == "unaccounted"}
    assert "LateAns001" in lost and "c8dYllAinO" in lost and len(lost) == 12
    assert "LateAns001" in check.metadata["examples"].value or check.metadata["unaccounted"].value == 12
