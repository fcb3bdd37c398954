"""openreview_forums: every forum of a venue-year as raw JSON, exactly as the API returned it."""

import time
from collections import Counter

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import OpenReviewResource, StorageResource
from reviewbench_assets import paths
from reviewbench_assets.domain.crawl import check_api_version, crawl_forums
from reviewbench_assets.metadata import preview


def _record(item: dict, api: str, fetched_at: float) -> tuple[dict | None, dict | None]:
    """A raw forum line, or an error line when the note is unusable (kept, never crashes)."""
    note = item["note"]
    if not isinstance(note, dict) or not note.get("id"):
        return None, {"query": item["query"], "reason": "note without id", "raw": note}
    if not isinstance(note.get("content"), dict):
        return None, {"forum_id": note["id"], "query": item["query"], "reason": "note without content",
                      "raw": note}
    return {"forum_id": note["id"], "query": item["query"], "api": api,
            "fetched_at": round(fetched_at, 3), "note": note}, None


@dg.asset(partitions_def=venue_year_partitions, group_name="crawl", pool="openreview_api",
          kinds={"python", "json"}, code_version="1",
          retry_policy=dg.RetryPolicy(max_retries=2, delay=30, backoff=dg.Backoff.EXPONENTIAL))
def openreview_forums(context: dg.AssetExecutionContext, openreview: OpenReviewResource,
                      storage: StorageResource) -> dg.MaterializeResult:
    """Submissions with every reply (`details=replies`), withdrawn and desk-rejected included."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    log = context.log.warning
    v2 = openreview.api("v2", on_event=log)
    check_api_version(v2, venue)
    api = v2 if venue.api == "v2" else openreview.api("v1", on_event=log)

    started, counts, errors, previews = time.time(), Counter(), [], []
    checkpoint = store.path(paths.crawl_checkpoints(venue.key))

    def records():
        for item in crawl_forums(api, venue, store, checkpoint,
                                 progress=lambda label, n: context.log.info(f"{venue.key}: {label} page of {n}")):
            record, error = _record(item, venue.api, time.time())
            if error:
                errors.append(error)
                continue
            counts[record["query"]] += 1
            if len(previews) < 10:
                content = record["note"]["content"]
                title = content.get("title")
                previews.append({"forum_id": record["forum_id"], "query": record["query"],
                                 "title": title.get("value") if isinstance(title, dict) else title,
                                 "replies": len((record["note"].get("details") or {}).get("replies") or [])})
            yield record

    n = store.write_jsonl(store.path(paths.raw_forums(venue.key)), records())
    store.write_jsonl(store.path(paths.crawl_errors(venue.key)), errors)
    store.delete_dir(checkpoint)  # finished: the next materialization is a fresh crawl
    elapsed = time.time() - started
    requests = v2.stats["requests"] + (api.stats["requests"] if api is not v2 else 0)
    return dg.MaterializeResult(metadata={
        "dagster/row_count": n,
        "forums_by_query": dict(counts),
        "malformed_notes": len(errors),
        "requests": requests,
        "requests_per_forum": round(requests / max(n, 1), 4),
        "rate_limited": api.stats["rate_limited"], "rate_limit_wait_s": round(api.stats["rate_limit_wait_s"], 1),
        "retries": api.stats["retries"], "retries_by_cause": {k[8:]: v for k, v in api.stats.items() if k.startswith("retries_")},
        "server_errors_after_retries": api.stats["server_errors"],
        "forums_per_s": round(n / max(elapsed, 1e-6), 2),
        "path": dg.MetadataValue.path(store.path(paths.raw_forums(venue.key))),
        "preview": preview(previews, ["forum_id", "query", "title", "replies"]),
    })
