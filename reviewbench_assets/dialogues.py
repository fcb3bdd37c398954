"""rebuttal_dialogues: per (forum, review) author-reviewer threads, Re^2 rules, optionally LLM-merged.

Besides `dialogues/<pk>.jsonl` it writes the venue-year's Re^2 records (`re2/<pk>.review.parquet`,
`re2/<pk>.rebuttal.parquet`) that the conference split assets publish as the `review` and
`rebuttal` configs. The logic is `stages.dialogue_stage.build_venue_dialogues`.
"""

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import StorageResource
from resources.llm import LLMResource
from resources.llm_client import LLMCache
from reviewbench_assets.domain.llm import LLMSteps
from reviewbench_assets.domain.threads import RULE_BASED
from reviewbench_assets.metadata import preview
from reviewbench_assets.stages.dialogue_stage import build_venue_dialogues


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
    r = build_venue_dialogues(venue, store, steps)
    stats, counts = r.stats, r.counts
    meta = {
        "dagster/row_count": counts["dialogues"], "turns": stats["turns"],
        "dropped_reminders": stats["dropped_reminders"],
        "merged_by": steps.merged_by if steps is not None else RULE_BASED,
        "llm_merged_turns": stats["llm_merged_turns"], "malformed_forums": len(r.malformed),
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
    return dg.MaterializeResult(metadata=meta)
