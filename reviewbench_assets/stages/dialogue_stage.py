"""The `rebuttal_dialogues` stage: per (forum, review) author-reviewer threads by the Re^2 rules,
built from the parsed forums and their routing (`parsed/<pk>.parquet`, stages/parse_stage.py),
optionally LLM-merged, written with the venue-year's Re^2 `review`/`rebuttal` records, and the
accounting of every author/reviewer post (`domain/routing.py`): the posts in no dialogue with their
reason in `dialogues/<pk>.excluded.jsonl`, `dialogue_coverage` in the result."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import islice

from partitions.catalogue import VenueYear
from resources.store import Store
from reviewbench_assets import paths
from reviewbench_assets.domain.llm import LLMSteps
from reviewbench_assets.domain.re2 import rebuttal_record, review_record
from reviewbench_assets.domain.routing import account_posts, coverage
from reviewbench_assets.domain.threads import (
    RULE_BASED,
    build_dialogues,
    is_reminder,
    llm_merge,
    llm_only_reminders,
    reminder_candidates,
)
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.re2_writer import write_venue_outputs
from reviewbench_assets.stages.result import CheckOutcome, StageResult, Table

FORUMS_PER_BATCH = 32  # forums whose turns go to the LLM in one batch


@dataclass
class DialogueResult:
    counts: dict                 # dialogues, review_records, rebuttal_records
    stats: Counter               # turns, dropped_reminders, llm_merged_turns, llm_* reminder figures
    previews: list[dict] = field(default_factory=list)
    out_path: str = ""
    outside: list[dict] = field(default_factory=list)  # author/reviewer posts in no dialogue, with status
    excluded_path: str = ""

    @property
    def coverage(self) -> float:
        """Author and reviewer posts accounted for / all of them (1.0 when there are none)."""
        return self.stats["posts_accounted"] / self.stats["posts_total"] if self.stats["posts_total"] else 1.0

    @property
    def unaccounted(self) -> list[dict]:
        return [a for a in self.outside if a["status"] == "unaccounted"]


def build_venue_dialogues(venue: VenueYear, store: Store, steps: LLMSteps | None) -> DialogueResult:
    stats, previews = Counter(), []
    outside: list[dict] = []

    def items():
        forums = Upstream(store, venue.key).parsed_forums(FORUMS_PER_BATCH)
        while pairs := list(islice(forums, FORUMS_PER_BATCH)):
            chunk = [p for p, _ in pairs]
            routings = {p.forum_id: r for p, r in pairs}
            labels: dict[str, bool] = {}
            if steps is not None:
                # the parsed table's routing, as it is: never routed again here
                cands = [q for p in chunk for q in reminder_candidates(p, routings[p.forum_id])]
                for q, label in zip(cands, steps.classify_reminders([(q.title, q.text) for q in cands]), strict=False):
                    if label is not None:
                        labels[q.note_id] = label
                stats["llm_only_reminders"] += len(llm_only_reminders(cands, labels))
                stats["llm_vetoed_reminders"] += sum(is_reminder(q) and labels.get(q.note_id) is False
                                                     for q in cands)
            by = steps.merged_by if steps is not None else "rule"
            per_forum = [(p, build_dialogues(p, labels, by, routings[p.forum_id])) for p in chunk]
            if steps is not None:
                merged = iter(llm_merge([d for _, ds in per_forum for d in ds],
                                        {p.forum_id: p for p in chunk}, steps))
                per_forum = [(p, [next(merged) for _ in ds]) for p, ds in per_forum]
            for p, ds in per_forum:
                accounts = account_posts(p, ds, routings[p.forum_id])
                done, total = coverage(accounts)
                stats["posts_accounted"] += done
                stats["posts_total"] += total
                for a in accounts:
                    stats[f"posts_{a.status}"] += 1
                    if a.status not in ("turn", "reference_context"):
                        outside.append(a.model_dump())
                stats["reviewer_comment_threads"] += sum(d.root_kind == "reviewer_comment" for d in ds)
                rows = [d.model_dump() for d in ds]
                for row in rows:
                    stats["turns"] += len(row["turns"])
                    stats["dropped_reminders"] += row["dropped_reminders"]
                    stats["llm_merged_turns"] += sum(t["merged_by"] != RULE_BASED for t in row["turns"])
                    if len(previews) < 10:
                        previews.append({"forum_id": row["forum_id"], "reviewer": row["reviewer"],
                                         "turns": len(row["turns"]), "merged_by": row["merged_by"],
                                         "roles": " > ".join(t["role"] for t in row["turns"])})
                yield (rows, review_record(p, venue.conference, venue.year),
                       [rebuttal_record(d, p, venue.conference, venue.year) for d in ds])

    out = store.path(paths.dialogues(venue.key))
    excluded_path = store.path(paths.dialogue_exclusions(venue.key))
    counts = write_venue_outputs(store, out, store.path(paths.re2_review(venue.key)),
                                 store.path(paths.re2_rebuttal(venue.key)), items(),
                                 also=lambda: {excluded_path: outside})  # filled as items() ran
    return DialogueResult(counts=counts, stats=stats, previews=previews, out_path=out,
                          outside=outside, excluded_path=excluded_path)


COVERAGE_CHECK = "dialogue_coverage"


def stage_result(r: DialogueResult, steps: LLMSteps | None) -> StageResult:
    """What the rebuttal_dialogues asset reports: coverage and where the posts went, the turns,
    the LLM's work when one merged, and the `dialogue_coverage` check (goal 1.0)."""
    stats, counts = r.stats, r.counts
    figures = {
        "turns": stats["turns"], "dialogue_coverage": round(r.coverage, 6), "author_reviewer_posts": stats["posts_total"],
        "posts_as_turns": stats["posts_turn"], "posts_as_reference_context": stats["posts_reference_context"],
        "posts_excluded": stats["posts_excluded"], "posts_dropped_reminders": stats["posts_dropped_reminder"],
        "posts_unaccounted": stats["posts_unaccounted"],
        "exclusion_reasons": dict(Counter(a["reason"].split(" (")[0] for a in r.outside
                                          if a["status"] == "excluded").most_common(10)),
        "reviewer_comment_threads": stats["reviewer_comment_threads"], "dropped_reminders": stats["dropped_reminders"],
        "merged_by": steps.merged_by if steps is not None else RULE_BASED, "llm_merged_turns": stats["llm_merged_turns"],
        "re2_review_records": counts["review_records"], "re2_rebuttal_records": counts["rebuttal_records"],
    }
    if steps is not None:
        s = steps.stats
        figures.update({"llm_calls": s.llm_calls, "llm_cache_hits": s.cache_hits,
                        "llm_merges_accepted": s.merges_accepted, "llm_merges_rejected": s.merges_rejected,
                        "llm_rejections": dict(s.rejections), "llm_reminder_requests": s.reminder_requests,
                        "llm_vetoed_reminders": stats["llm_vetoed_reminders"],
                        "llm_only_reminders_kept": stats["llm_only_reminders"]})
    check = CheckOutcome(COVERAGE_CHECK, passed=r.coverage >= 1.0, metadata={
        "dialogue_coverage": round(r.coverage, 6), "goal": 1.0, "unaccounted": len(r.unaccounted),
        "examples": Table(r.unaccounted[:10], ["forum_id", "note_id", "role", "reason"])})
    return StageResult(written={"path": r.out_path, "excluded_path": r.excluded_path}, counts=figures,
                       samples=r.previews, sample_columns=["forum_id", "reviewer", "turns", "merged_by", "roles"],
                       checks=[check], row_count=counts["dialogues"])
