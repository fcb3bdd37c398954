"""rebuttal_dialogues: per (forum, review) author-reviewer threads, Re^2 rules, optionally LLM-merged.

Besides `dialogues/<pk>.jsonl` it writes the venue-year's Re^2 records (`re2/<pk>.review.parquet`,
`re2/<pk>.rebuttal.parquet`) that the conference split assets publish as the `review` and
`rebuttal` configs, and `dialogues/<pk>.excluded.jsonl`: every author/reviewer post that is in no
dialogue, with its reason (`domain/routing.py`). `dialogue_coverage` (author and reviewer posts
accounted for / all of them) is in the metadata and checked (goal 1.0). The logic is
`stages.dialogue_stage.build_venue_dialogues`.
"""

from collections import Counter

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import StorageResource
from resources.llm import LLMResource
from resources.llm_client import LLMCache
from reviewbench_assets.checks import GuardConfig, guarded, record_checks
from reviewbench_assets.domain.llm import LLMSteps
from reviewbench_assets.domain.threads import RULE_BASED
from reviewbench_assets.metadata import preview
from reviewbench_assets.stages.dialogue_stage import build_venue_dialogues

COVERAGE_CHECK = "dialogue_coverage"


@dg.asset(partitions_def=venue_year_partitions, deps=["parsed_forums"], group_name="dialogues",
          kinds={"python", "json"}, code_version="4",
          check_specs=[dg.AssetCheckSpec(COVERAGE_CHECK, asset="rebuttal_dialogues", blocking=True,
                                         description="every author and reviewer post is a turn of exactly "
                                                     "one dialogue, reference context, or excluded with a "
                                                     "reason (dialogue_coverage == 1.0)")])
def rebuttal_dialogues(context: dg.AssetExecutionContext, config: GuardConfig, storage: StorageResource,
                       llm: LLMResource) -> dg.MaterializeResult:
    """Threads rebuilt from replyto, same-speaker posts merged (LLM when configured, guarded), reminders
    dropped, global responses as context; plus the venue-year's Re^2 review/rebuttal records."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    client = llm.client()
    steps = (LLMSteps(client, LLMCache(store), max_merge_tokens=llm.max_merge_tokens,
                      max_input_chars=llm.max_input_chars) if client is not None else None)
    r = build_venue_dialogues(venue, store, steps)
    stats, counts = r.stats, r.counts
    check = dg.AssetCheckResult(
        check_name=COVERAGE_CHECK, passed=r.coverage >= 1.0,
        metadata={"dialogue_coverage": round(r.coverage, 6), "goal": 1.0, "unaccounted": len(r.unaccounted),
                  "examples": preview(r.unaccounted[:10], ["forum_id", "note_id", "role", "reason"])})
    meta = {
        "dagster/row_count": counts["dialogues"], "turns": stats["turns"],
        "dialogue_coverage": round(r.coverage, 6), "author_reviewer_posts": stats["posts_total"],
        "posts_as_turns": stats["posts_turn"], "posts_as_reference_context": stats["posts_reference_context"],
        "posts_excluded": stats["posts_excluded"], "posts_dropped_reminders": stats["posts_dropped_reminder"],
        "posts_unaccounted": stats["posts_unaccounted"],
        "exclusion_reasons": dict(Counter(a["reason"].split(" (")[0] for a in r.outside
                                          if a["status"] == "excluded").most_common(10)),
        "reviewer_comment_threads": stats["reviewer_comment_threads"],
        "excluded_path": dg.MetadataValue.path(r.excluded_path),
        "dropped_reminders": stats["dropped_reminders"],
        "merged_by": steps.merged_by if steps is not None else RULE_BASED,
        "llm_merged_turns": stats["llm_merged_turns"],
        "re2_review_records": counts["review_records"], "re2_rebuttal_records": counts["rebuttal_records"],
        "path": dg.MetadataValue.path(r.out_path),
        "preview": preview(r.previews, ["forum_id", "reviewer", "turns", "merged_by", "roles"]),
    }
    if steps is not None:
        s = steps.stats
        meta.update({"llm_calls": s.llm_calls, "llm_cache_hits": s.cache_hits,
                     "llm_merges_accepted": s.merges_accepted, "llm_merges_rejected": s.merges_rejected,
                     "llm_rejections": dict(s.rejections), "llm_reminder_requests": s.reminder_requests,
                     "llm_vetoed_reminders": stats["llm_vetoed_reminders"],
                     "llm_only_reminders_kept": stats["llm_only_reminders"]})
    checks = guarded([check], config.allow_failing_checks)
    record_checks(store, venue.key, "rebuttal_dialogues", checks, config.allow_failing_checks)
    return dg.MaterializeResult(metadata=meta, check_results=checks)
