"""The `rebuttal_dialogues` stage: per (forum, review) author-reviewer threads by the Re^2 rules,
built from the parsed forums and their routing (`parsed/<pk>.parquet`, stages/parse_stage.py),
optionally LLM-merged, written with the venue-year's Re^2 `review`/`rebuttal` records, and the
accounting of every author/reviewer post (`domain/routing.py`): the posts in no dialogue with their
reason in `dialogues/<pk>.excluded.jsonl`, `dialogue_coverage` in the figures.

The records themselves are built in `reviewbench_assets.domain.dialogues`; `write_venue_outputs` writes the
dialogues and the records (three files, and the exclusions, published together through the store);
the split reads the records back through the IO layer."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice

import pyarrow as pa

from partitions.catalogue import VenueYear
from resources.store import dumps_json
from reviewbench_assets.domain.dialogues import (
    RULE_BASED,
    build_dialogues,
    is_reminder,
    llm_merge,
    llm_only_reminders,
    rebuttal_record,
    reminder_candidates,
    review_record,
)
from reviewbench_assets.domain.llm import LLMSteps
from reviewbench_assets.domain.routing import account_posts
from reviewbench_assets.domain.schema import REBUTTAL_RECORD_SCHEMA, REVIEW_RECORD_SCHEMA
from reviewbench_assets.io.stage_io import Inputs, Outputs
from reviewbench_assets.stages.figures import COVERAGE, DIALOGUES, ROW_COUNT, Table
from reviewbench_assets.stages.stage import Stage

FORUMS_PER_BATCH = 32  # forums whose turns go to the LLM in one batch


COVERAGE_CHECK = COVERAGE


# An author/reviewer post's status (domain/routing.py account_posts) -> the figure that counts it;
# any other status is counted as posts_unaccounted.
POST_FIGURES = {"turn": "posts_as_turns", "reference_context": "posts_as_reference_context",
                "excluded": "posts_excluded", "dropped_reminder": "posts_dropped_reminders"}


class DialogueStage(Stage):
    """`steps`: the LLM's steps (merging same-speaker posts, classifying reminders), or None for
    the rule-based dialogues. Records coverage and where the posts went, the turns, the LLM's work
    when one merged, and the `dialogue_coverage` check (goal 1.0)."""

    name = DIALOGUES
    reads = ("parsed_forums",)
    writes = ("dialogues", "dialogue_exclusions", "re2_review", "re2_rebuttal")

    def __init__(self, venue: VenueYear, steps: LLMSteps | None = None):
        super().__init__(venue.key)
        self.venue, self.steps = venue, steps

    def count_post(self, status: str, n: int = 1) -> None:
        """Where an author/reviewer post went (domain/routing.py account_posts' statuses), as its figure."""
        self.stat(POST_FIGURES.get(status, "posts_unaccounted"), n)

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        venue, steps = self.venue, self.steps
        previews: list[dict] = []
        outside: list[dict] = []
        # every count is recorded where it happens (`stat` adds up); zero first, so a venue-year without
        # such posts shows 0, not nothing
        self.stat("turns", 0)
        self.stat("author_reviewer_posts", 0)
        self.stat("reviewer_comment_threads", 0)
        self.stat("dropped_reminders", 0)
        self.stat("llm_merged_turns", 0)
        self.stat("exclusion_reasons", {})
        for status in ("turn", "reference_context", "excluded", "dropped_reminder", "unaccounted"):
            self.count_post(status, 0)
        if steps is not None:
            self.stat("llm_vetoed_reminders", 0)
            self.stat("llm_only_reminders_kept", 0)

        def items():
            forums = iter(inputs.parsed_forums(FORUMS_PER_BATCH))
            while pairs := list(islice(forums, FORUMS_PER_BATCH)):
                chunk = [p for p, _ in pairs]
                routings = {p.forum_id: r for p, r in pairs}
                labels: dict[str, bool] = {}
                if steps is not None:
                    # the parsed table's routing, as it is: never routed again here
                    cands = [q for p in chunk for q in reminder_candidates(p, routings[p.forum_id])]
                    for q, label in zip(cands, steps.classify_reminders([(q.title, q.text) for q in cands]),
                                        strict=False):
                        if label is not None:
                            labels[q.note_id] = label
                    self.stat("llm_only_reminders_kept", len(llm_only_reminders(cands, labels)))
                    self.stat("llm_vetoed_reminders", sum(is_reminder(q) and labels.get(q.note_id) is False
                                                          for q in cands))
                by = steps.merged_by if steps is not None else "rule"
                per_forum = [(p, build_dialogues(p, routings[p.forum_id], labels, by)) for p in chunk]
                if steps is not None:
                    merged = iter(llm_merge([d for _, ds in per_forum for d in ds],
                                            {p.forum_id: p for p in chunk}, steps))
                    per_forum = [(p, [next(merged) for _ in ds]) for p, ds in per_forum]
                for p, ds in per_forum:
                    for a in account_posts(p, ds, routings[p.forum_id]):
                        self.stat("author_reviewer_posts")
                        self.count_post(a.status)
                        if a.status == "excluded":
                            self.stat("exclusion_reasons", {a.code: 1})
                        if a.status not in ("turn", "reference_context"):
                            outside.append(a.model_dump())
                    self.stat("reviewer_comment_threads", sum(d.root_kind == "reviewer_comment" for d in ds))
                    rows = [d.model_dump() for d in ds]
                    for row in rows:
                        self.stat("turns", len(row["turns"]))
                        self.stat("dropped_reminders", row["dropped_reminders"])
                        self.stat("llm_merged_turns", sum(t["merged_by"] != RULE_BASED for t in row["turns"]))
                        if len(previews) < 10:
                            previews.append({"forum_id": row["forum_id"], "reviewer": row["reviewer"],
                                             "turns": len(row["turns"]), "merged_by": row["merged_by"],
                                             "roles": " > ".join(t["role"] for t in row["turns"])})
                    yield (rows, review_record(p, venue.conference, venue.year),
                           [rebuttal_record(d, p, venue.conference, venue.year) for d in ds])

        out = outputs.path("dialogues")
        excluded_path = outputs.path("dialogue_exclusions")
        counts = write_venue_outputs(outputs, items(), also=lambda: {"dialogue_exclusions": outside})  # filled as items() ran
        total = self.figure("author_reviewer_posts")
        share = (total - self.figure("posts_unaccounted")) / total if total else 1.0
        unaccounted = [a for a in outside if a["status"] == "unaccounted"]
        self.stat("path", out)
        self.stat("excluded_path", excluded_path)
        self.stat(ROW_COUNT, counts["dialogues"])
        self.stat("dialogue_coverage", round(share, 6))
        self.stat("merged_by", steps.merged_by if steps is not None else RULE_BASED)
        self.stat("re2_review_records", counts["review_records"])
        self.stat("re2_rebuttal_records", counts["rebuttal_records"])
        self.stat("preview", Table(previews, ["forum_id", "reviewer", "turns", "merged_by", "roles"]))
        if steps is not None:
            s = steps.stats
            self.stat("llm_calls", s.llm_calls)
            self.stat("llm_cache_hits", s.cache_hits)
            self.stat("llm_merges_accepted", s.merges_accepted)
            self.stat("llm_merges_rejected", s.merges_rejected)
            self.stat("llm_rejections", dict(s.rejections))
            self.stat("llm_reminder_requests", s.reminder_requests)
        self.check(COVERAGE_CHECK, share >= 1.0, metadata={
            "dialogue_coverage": round(share, 6), "goal": 1.0, "unaccounted": len(unaccounted),
            "examples": Table(unaccounted[:10], ["forum_id", "note_id", "role", "reason"])})


# ---- writing one venue-year's dialogues and records (three files, published together) -------------

def write_venue_outputs(outputs: Outputs, items: Iterable[tuple[list[dict], dict, list[dict]]], rows: int = 128,
                        also: Callable[[], dict[str, Iterable[dict]]] | None = None) -> dict:
    """`outputs`: the dialogue stage's (`dialogues`, `re2_review`, `re2_rebuttal`). `items`: per forum
    (dialogue rows, review record, rebuttal records). Streams: at most `rows` records of each kind are
    buffered. `also()`, called once `items` is exhausted: more JSONL files (declared name -> rows) that
    move into place with the three (the stage's exclusions)."""
    counts = {"dialogues": 0, "review_records": 0, "rebuttal_records": 0}

    with outputs.publish() as pub:  # the files move into place together
        with pub.stream("dialogues") as fj, pub.parquet("re2_review", REVIEW_RECORD_SCHEMA) as wrev, \
                pub.parquet("re2_rebuttal", REBUTTAL_RECORD_SCHEMA) as wreb:
            revs: list[dict] = []
            rebs: list[dict] = []
            for drows, rev, reb in items:
                for row in drows:
                    fj.write(dumps_json(row) + b"\n")
                counts["dialogues"] += len(drows)
                revs.append(rev)
                rebs.extend(reb)
                if len(revs) >= rows:
                    wrev.write_table(pa.Table.from_pylist(revs, schema=REVIEW_RECORD_SCHEMA))
                    counts["review_records"] += len(revs)
                    revs = []
                if len(rebs) >= rows:
                    wreb.write_table(pa.Table.from_pylist(rebs, schema=REBUTTAL_RECORD_SCHEMA))
                    counts["rebuttal_records"] += len(rebs)
                    rebs = []
            wrev.write_table(pa.Table.from_pylist(revs, schema=REVIEW_RECORD_SCHEMA))
            wreb.write_table(pa.Table.from_pylist(rebs, schema=REBUTTAL_RECORD_SCHEMA))
            counts["review_records"] += len(revs)
            counts["rebuttal_records"] += len(rebs)
        for name, more in (also() if also else {}).items():
            with pub.stream(name) as f:
                for row in more:
                    f.write(dumps_json(row) + b"\n")
    return counts
