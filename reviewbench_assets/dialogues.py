"""rebuttal_dialogues: per (forum, review) author-reviewer threads, Re^2 rules."""

from collections import Counter

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import StorageResource
from reviewbench_assets import paths
from reviewbench_assets.domain.dialogues import build_dialogues
from reviewbench_assets.domain.forum import MalformedForumError, parse_forum
from reviewbench_assets.metadata import preview


@dg.asset(partitions_def=venue_year_partitions, deps=["openreview_forums"], group_name="dialogues",
          kinds={"python", "json"}, code_version="1")
def rebuttal_dialogues(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """Threads rebuilt from replyto, same-role posts merged, reminders dropped, global responses as context."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    stats, malformed, previews = Counter(), [], []

    def dialogues():
        for record in store.iter_jsonl(store.path(paths.raw_forums(venue.key))):
            try:
                parsed = parse_forum(record["note"], venue)
            except MalformedForumError as exc:
                malformed.append({"forum_id": record.get("forum_id"), "error": str(exc)})
                continue
            for d in build_dialogues(parsed):
                row = d.model_dump()
                stats["dialogues"] += 1
                stats["turns"] += len(row["turns"])
                stats["dropped_reminders"] += row["dropped_reminders"]
                if len(previews) < 10:
                    previews.append({"forum_id": row["forum_id"], "reviewer": row["reviewer"],
                                     "turns": len(row["turns"]),
                                     "roles": " > ".join(t["role"] for t in row["turns"])})
                yield row

    out = store.path(paths.dialogues(venue.key))
    n = store.write_jsonl(out, dialogues())
    return dg.MaterializeResult(metadata={
        "dagster/row_count": n, "turns": stats["turns"], "dropped_reminders": stats["dropped_reminders"],
        "merged_by": "rule-based", "malformed_forums": len(malformed),
        "path": dg.MetadataValue.path(out),
        "preview": preview(previews, ["forum_id", "reviewer", "turns", "roles"]),
    })
