"""rebuttal_dialogues: per (forum, review) author-reviewer threads, Re^2 rules, optionally LLM-merged.

Besides `dialogues/<pk>.jsonl` it writes the venue-year's Re^2 records (`re2/<pk>.review.parquet`,
`re2/<pk>.rebuttal.parquet`) that the conference split assets publish as the `review` and
`rebuttal` configs.
"""

from collections import Counter
from itertools import islice

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import StorageResource
from resources.llm import LLMResource
from reviewbench_assets import paths
from reviewbench_assets.domain.threads import (RULE_BASED, build_dialogues, is_reminder, llm_merge,
                                                 llm_only_reminders, reminder_candidates)
from reviewbench_assets.domain.forum import MalformedForumError, parse_forum
from resources.llm_client import LLMCache
from reviewbench_assets.domain.llm import LLMSteps
from reviewbench_assets.domain.re2 import rebuttal_record, review_record
from reviewbench_assets.stages.re2_writer import write_venue_outputs
from reviewbench_assets.metadata import preview

FORUMS_PER_BATCH = 32  # forums whose turns go to the LLM in one batch


@dg.asset(partitions_def=venue_year_partitions, deps=["openreview_forums"], group_name="dialogues",
          kinds={"python", "json"}, code_version="2")
def rebuttal_dialogues(context: dg.AssetExecutionContext, storage: StorageResource,
                       llm: LLMResource) -> dg.MaterializeResult:
    """Threads rebuilt from replyto, same-role posts merged (LLM when configured, guarded), reminders
    dropped, global responses as context; plus the venue-year's Re^2 review/rebuttal records."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    client = llm.client()
    steps = (LLMSteps(client, LLMCache(store), max_merge_tokens=llm.max_merge_tokens,
                      max_input_chars=llm.max_input_chars) if client is not None else None)
    stats, malformed, previews = Counter(), [], []

    def parsed_forums():
        for record in store.iter_jsonl(store.path(paths.raw_forums(venue.key)), scrub_surrogates=True):
            try:
                yield parse_forum(record["note"], venue, review_edits=record.get("review_edits"))
            except MalformedForumError as exc:
                malformed.append({"forum_id": record.get("forum_id"), "error": str(exc)})

    def items():
        forums = parsed_forums()
        while chunk := list(islice(forums, FORUMS_PER_BATCH)):
            labels: dict[str, bool] = {}
            if steps is not None:
                cands = [q for p in chunk for q in reminder_candidates(p)]
                for q, label in zip(cands, steps.classify_reminders([(q.title, q.text) for q in cands])):
                    if label is not None:
                        labels[q.note_id] = label
                stats["llm_only_reminders"] += len(llm_only_reminders(cands, labels))
                stats["llm_vetoed_reminders"] += sum(is_reminder(q) and labels.get(q.note_id) is False
                                                     for q in cands)
            by = steps.merged_by if steps is not None else "rule"
            per_forum = [(p, build_dialogues(p, labels, by)) for p in chunk]
            if steps is not None:
                merged = iter(llm_merge([d for _, ds in per_forum for d in ds],
                                        {p.forum_id: p for p in chunk}, steps))
                per_forum = [(p, [next(merged) for _ in ds]) for p, ds in per_forum]
            for p, ds in per_forum:
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
    counts = write_venue_outputs(store, out, store.path(paths.re2_review(venue.key)),
                                 store.path(paths.re2_rebuttal(venue.key)), items())
    meta = {
        "dagster/row_count": counts["dialogues"], "turns": stats["turns"],
        "dropped_reminders": stats["dropped_reminders"],
        "merged_by": steps.merged_by if steps is not None else RULE_BASED,
        "llm_merged_turns": stats["llm_merged_turns"], "malformed_forums": len(malformed),
        "re2_review_records": counts["review_records"], "re2_rebuttal_records": counts["rebuttal_records"],
        "path": dg.MetadataValue.path(out),
        "preview": preview(previews, ["forum_id", "reviewer", "turns", "merged_by", "roles"]),
    }
    if steps is not None:
        s = steps.stats
        meta.update({"llm_calls": s.llm_calls, "llm_cache_hits": s.cache_hits,
                     "llm_merges_accepted": s.merges_accepted, "llm_merges_rejected": s.merges_rejected,
                     "llm_rejections": dict(s.rejections), "llm_reminder_requests": s.reminder_requests,
                     "llm_vetoed_reminders": stats["llm_vetoed_reminders"],
                     "llm_only_reminders_kept": stats["llm_only_reminders"]})
    return dg.MaterializeResult(metadata=meta)
