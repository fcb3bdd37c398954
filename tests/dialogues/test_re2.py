"""Re^2 records, the guarded LLM merge in dialogues, and the review/rebuttal configs end to end."""
from __future__ import annotations

import json

import pyarrow.fs as pafs
import yaml
from forum_fixture import PART1, PART2, raw_forum

from resources.llm_client import LLMCache
from resources.store import store_from_uri
from reviewbench_assets.domain.card import render_dataset_card
from reviewbench_assets.domain.dialogues import (
    PAPER_PLACEHOLDER,
    REFERENCE_HEADER,
    RULE_BASED,
    build_dialogues,
    llm_merge,
    rebuttal_record,
    review_record,
    split_of,
)
from reviewbench_assets.domain.forum import row_fields
from reviewbench_assets.domain.llm import LLMSteps
from reviewbench_assets.domain.manifest import extra_config_splits
from reviewbench_assets.domain.routing import route_posts
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.dialogue_stage import DialogueStage, write_venue_outputs
from reviewbench_assets.stages.rows_stage import RowsStage, write_rows
from reviewbench_assets.stages.split_stage import SplitStage, update_conference_split
from tests.card_files import write_dataset_card
from tests.forums import parse_forum


class _Echo:
    """Deterministic in-process model: joins the posts' texts (faithful) or keeps 40 chars."""

    def __init__(self, truncate=False):
        self.model, self.truncate, self.calls = "echo", truncate, 0

    def complete_json(self, requests):
        self.calls += len(requests)
        out = []
        for r in requests:
            if r.schema_name == "reminder_label":
                out.append(json.dumps({"label": "reminder" if "reminder" in r.messages[-1]["content"]
                                       else "content"}))
                continue
            texts = [p.split("\n\n", 1)[1].strip() for p in r.messages[-1]["content"].split("### Post ")[1:]]
            out.append(json.dumps({"title": "Response", "text": texts[0][:40] if self.truncate
                                   else "\n\n".join(texts)}))
        return out


def test_review_record_scores_and_metareview(forum):
    rec = review_record(forum, "iclr", 2024)
    assert rec["paper_id"] == "F0rumA" and rec["conference_year_track"] == "iclr_2024_main"
    assert rec["decision"] == "Accept (poster)" and rec["metareview"].startswith("Reviewers agree")
    a, b = rec["reviews"]
    assert a["final_score"]["rating"] == 5.0 and a["initial_score"] == a["final_score"]
    assert json.loads(a["final_score"]["aspect_score"]) == {"soundness": 3.0}
    assert "Missing ablation" in a["review_content"]
    assert b["initial_score"] is None and b["initial_score_source"].startswith("modified")


def test_rebuttal_messages_roles_and_reference(forum):
    d_a, d_b = build_dialogues(forum, route_posts(forum))
    rec = rebuttal_record(d_a, forum, "iclr", 2024)
    roles = [m["role"] for m in rec["messages"]]
    assert roles == ["system", "user", "assistant", "user", "assistant"]
    assert PAPER_PLACEHOLDER.format(paper_id="F0rumA") in rec["messages"][1]["content"]
    author = rec["messages"][3]["content"]
    assert author.startswith("Title: Response (1/2) / Response (2/2)")
    assert PART1.strip() in author and PART2.strip() in author and REFERENCE_HEADER in author
    assert "gentle reminder" not in json.dumps(rec["messages"]).lower()
    assert rec["dropped_reminder_ids"] == d_a.dropped_reminder_ids and rec["merged_by"] == RULE_BASED
    assert len(rec["message_note_ids"]) == len(rec["messages"])
    rec_b = rebuttal_record(d_b, forum, "iclr", 2024)
    assert [m["role"] for m in rec_b["messages"]] == ["system", "user", "assistant", "user"]


def test_llm_merge_accepts_faithful_and_rejects_lossy(tmp_path, forum):
    for truncate in (False, True):
        steps = LLMSteps(_Echo(truncate), LLMCache(store_from_uri(str(tmp_path / str(truncate)))))
        merged = llm_merge(build_dialogues(forum, route_posts(forum)), {forum.forum_id: forum}, steps)
        turn = merged[0].turns[1]
        assert merged[0].merged_by == steps.merged_by == "llm:echo@merge-v1"
        if truncate:
            assert turn.merged_by == RULE_BASED and turn.merge_note.startswith("content lost")
            assert PART2.strip() in turn.text  # the rule-based merge was kept
        else:
            assert turn.merged_by == steps.merged_by and turn.title == "Response" and not turn.merge_note
        assert merged[0].turns[0].merged_by == RULE_BASED  # single-post turns are untouched


def test_split_of_is_deterministic_and_balanced():
    ids = [f"forum{i:05d}" for i in range(4000)]
    share = sum(split_of(i, 0.1) == "test" for i in ids) / len(ids)
    assert 0.08 < share < 0.12
    assert [split_of(i) for i in ids[:50]] == [split_of(i) for i in ids[:50]]
    assert split_of("abc", 0.0) == "train" and split_of("abc", 1.0) == "test"


PK = "iclr-2024"


def _venue_inputs(tmp_path, iclr2024, n=24):
    """rows, provenance and Re^2 records of `n` forums through the real writers."""
    store = store_from_uri(str(tmp_path / "storage"))
    forums = [parse_forum(raw_forum(f"F{i:03d}", i + 1), iclr2024) for i in range(n)]
    items = [([d.model_dump() for d in build_dialogues(p, route_posts(p))], review_record(p, "iclr", 2024),
              [rebuttal_record(d, p, "iclr", 2024) for d in build_dialogues(p, route_posts(p))]) for p in forums]
    counts = write_venue_outputs(DialogueStage.outputs_in(store, PK), iter(items), rows=5)
    assert counts == {"dialogues": 2 * n, "review_records": n, "rebuttal_records": 2 * n}
    rows = [{**row_fields(p, "iclr", 2024), "markdown": "page", "markdown_chars": 4} for p in forums]
    prov = [{"forum_id": p.forum_id, "conference": "iclr", "year": 2024, "revision_rule": "initial",
             "pdf_sha256": "ab" * 32, "ocr_engine": "pypdfium2"} for p in forums]
    (tmp_path / "storage" / "rows").mkdir(exist_ok=True)
    write_rows(RowsStage.outputs_in(store, PK), iter(zip(rows, prov, strict=True)))
    return store


def test_configs_split_disjoint_and_load_dataset(tmp_path, iclr2024):
    from datasets import load_dataset

    store = _venue_inputs(tmp_path, iclr2024)
    fs, corpus = pafs.LocalFileSystem(), store.path(paths.CORPUS_DIR)
    update = update_conference_split(SplitStage.outputs_in(store, "iclr"), [PK], test_share=0.25)
    stats, configs = update.stats, update.configs
    assert configs["provenance"] == {"iclr": 24}
    assert sum(configs["review"].values()) == 24 and sum(configs["rebuttal"].values()) == 48
    assert configs["review"]["test"] > 0 and configs["review"]["train"] > 0
    text = render_dataset_card({"iclr": stats}, extra_config_splits({k: {"iclr": v} for k, v in configs.items()}),
                               "2026-01-01T00:00:00Z", config_counts={k: {"iclr": v} for k, v in configs.items()})
    write_dataset_card(fs, corpus, text)
    front = yaml.safe_load(text.split("---\n")[1])
    by_name = {c["config_name"]: c["data_files"] for c in front["configs"]}
    assert by_name["review"] == [{"split": "train", "path": "review/*_train-*"},
                                 {"split": "test", "path": "review/*_test-*"}]
    assert "| `rebuttal` | iclr | test |" in text

    review = load_dataset(corpus, "review")
    rebuttal = load_dataset(corpus, "rebuttal")
    assert set(review) == set(rebuttal) == {"train", "test"}
    for ds in (review, rebuttal):
        train, test = set(ds["train"]["paper_id"]), set(ds["test"]["paper_id"])
        assert not train & test and len(train | test) == 24
        assert all(split_of(p, 0.25) == "test" for p in test)
    assert set(review["test"]["paper_id"]) == set(rebuttal["test"]["paper_id"])
    rec = rebuttal["train"][0]
    assert [m["role"] for m in rec["messages"]][:3] == ["system", "user", "assistant"]
    assert rec["revision_rule"] == "initial" and rec["pdf_sha256"] == "ab" * 32
    assert review["train"][0]["reviews"][0]["final_score"]["rating"] == 5.0
    assert rebuttal["train"]["paper_id"] == sorted(rebuttal["train"]["paper_id"])  # input (crawl) order
    assert len(load_dataset(corpus)["iclr"]) == 24 and len(load_dataset(corpus, "provenance")["iclr"]) == 24
