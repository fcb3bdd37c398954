"""rebuttal_dialogues: per (forum, review) author-reviewer threads, Re^2 rules, optionally LLM-merged.

Besides `dialogues/<pk>.jsonl` it writes the venue-year's Re^2 records (`re2/<pk>.review.parquet`,
`re2/<pk>.rebuttal.parquet`) that the conference split assets publish as the `review` and
`rebuttal` configs, and `dialogues/<pk>.excluded.jsonl`: every author/reviewer post that is in no
dialogue, with its reason (`domain/routing.py`). `dialogue_coverage` (author and reviewer posts
accounted for / all of them) is in the metadata and checked (goal 1.0). The logic is
`stages.dialogue_stage.DialogueStage`.
"""

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import StorageResource
from resources.llm import LLMResource
from resources.llm_client import LLMCache
from reviewbench_assets.checks import GuardConfig
from reviewbench_assets.domain.llm import LLMSteps
from reviewbench_assets.metadata import figures_table, materialize
from reviewbench_assets.stages.dialogue_stage import COVERAGE_CHECK, DialogueStage
from reviewbench_assets.stages.stage import DIALOGUES


@dg.asset(partitions_def=venue_year_partitions, deps=["parsed_forums"], group_name="dialogues",
          kinds={"python", "json"}, code_version="4", metadata=figures_table(DIALOGUES, (COVERAGE_CHECK,)),
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
    return materialize(DialogueStage(venue, steps)(store), store, config.allow_failing_checks)
