"""openreview_forums: every forum of a venue-year as raw JSON, exactly as the API returned it.

The first materialization crawls the venue in batches (`details=replies`, 1000 forums a request).
Later ones of an API v2 venue are incremental: a `tmdate` cursor over every note of the venue
finds the forums with something new, only those are fetched, and they are merged into the stored
file (one line per forum, rewritten atomically). API v1 has no `domain` filter to run such a
cursor over a venue's notes, and its venue-years are closed: a refresh re-reads the submission pages
(O(papers/1000) requests) and counts as touched only the forums whose notes changed. Forums that need a look (malformed notes,
unknown invitations, orphan replies) are listed with their reasons in a quarantine file, and an
asset check fails the partition when their share passes `max_quarantined_share`.
"""

import time
from collections import Counter

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import OpenReviewResource, StorageResource
from reviewbench_assets import paths
from reviewbench_assets.domain.crawl import (CURSOR_MARGIN_MS, REFRESH_MAX_SHARE, REFRESH_MIN_FORUMS,
                                             changed_forums, check_api_version, crawl_forums, fetch_forum,
                                             fetch_review_edits, note_tmdates, query_label)
from reviewbench_assets.domain.forum import quarantine_reasons
from reviewbench_assets.domain.openreview_api import CredentialsError
from reviewbench_assets.metadata import preview

QUARANTINE_CHECK = "quarantined_share"


class ForumsConfig(dg.Config):
    max_quarantined_share: float = 0.05  # the asset check fails above this share of forums
    full_refresh: bool = False  # ignore the stored crawl and its cursor: crawl everything again
    review_edits: bool = True  # v2: fetch the edit history of edited reviews (initial ratings)


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
          check_specs=[dg.AssetCheckSpec(QUARANTINE_CHECK, asset="openreview_forums",
                                         description="share of quarantined forums stays under the "
                                                     "configured max_quarantined_share")],
          retry_policy=dg.RetryPolicy(max_retries=2, delay=30, backoff=dg.Backoff.EXPONENTIAL))
def openreview_forums(context: dg.AssetExecutionContext, config: ForumsConfig, openreview: OpenReviewResource,
                      storage: StorageResource) -> dg.MaterializeResult:
    """Submissions with every reply (`details=replies`), withdrawn and desk-rejected included."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    log = context.log.warning
    try:
        v2 = openreview.api("v2", on_event=log)
        check_api_version(v2, venue)
        api = v2 if venue.api == "v2" else openreview.api("v1", on_event=log)
        return _materialize(context, config, venue, store, v2, api)
    except CredentialsError as exc:  # retrying cannot help: say what to set and stop
        raise dg.Failure(description=str(exc), allow_retries=False) from exc


def _materialize(context, config: ForumsConfig, venue, store, v2, api) -> dg.MaterializeResult:
    started, started_ms = time.time(), int(time.time() * 1000)
    raw_path, cur_path = store.path(paths.raw_forums(venue.key)), store.path(paths.crawl_cursor(venue.key))
    stored: list[dict] | None = None
    if store.exists(raw_path):
        stored = list(store.iter_jsonl(raw_path))
    stored_by_id = {r["forum_id"]: r for r in stored or []}
    review_names = venue.invitations.review
    edits_on = config.review_edits and venue.api == "v2"

    mode, errors, refresh = "full", [], {}
    records: list[dict] | None = None
    if stored is not None and venue.api == "v2" and store.exists(cur_path) and not config.full_refresh:
        since = int(store.read_json(cur_path)["crawl_started_ms"]) - CURSOR_MARGIN_MS
        known: dict[str, int] = {}
        for r in stored:
            known.update(note_tmdates(r["note"]))
        cs = changed_forums(api, venue, since, known)
        refresh = {"cursor_ms": since, "notes_newer_than_cursor": cs.notes_seen, "cursor_requests": cs.requests}
        limit = max(REFRESH_MIN_FORUMS, int(REFRESH_MAX_SHARE * len(stored)))
        if len(cs.changed) <= limit:
            mode = "incremental"
            merged = dict(stored_by_id)
            removed = [fid for fid in cs.deleted if merged.pop(fid, None) is not None]
            for fid in sorted(cs.changed):
                note = fetch_forum(api, fid)
                label = query_label(note, venue) if note else None
                if note is None or note.get("ddate") or label is None:
                    if merged.pop(fid, None) is not None:
                        removed.append(fid)
                    continue
                record, error = _record({"query": label, "note": note}, venue.api, time.time())
                if error:
                    errors.append(error)
                    continue
                merged[fid] = record
            records = list(merged.values())
        else:
            context.log.info(f"{venue.key}: {len(cs.changed)} forums changed (> {limit}): full crawl")

    if records is None:
        checkpoint = store.path(paths.crawl_checkpoints(venue.key))
        records = []
        for item in crawl_forums(api, venue, store, checkpoint,
                                 progress=lambda label, n: context.log.info(f"{venue.key}: {label} page of {n}")):
            record, error = _record(item, venue.api, time.time())
            if error:
                errors.append(error)
            else:
                records.append(record)
        store.delete_dir(checkpoint)  # finished: the next materialization starts from the cursor

    # new / changed / unchanged / removed, against what was stored
    status: Counter = Counter()
    ids, touched = set(), []
    for rec in records:
        ids.add(rec["forum_id"])
        old = stored_by_id.get(rec["forum_id"])
        if old is None:
            status["new"] += 1
        elif old is rec or note_tmdates(old["note"]) == note_tmdates(rec["note"]):
            status["unchanged"] += 1
            if old is not rec and "review_edits" in old:
                rec["review_edits"] = old["review_edits"]
            continue
        else:
            status["changed"] += 1
        touched.append(rec["forum_id"])
    status["removed"] = sum(1 for fid in stored_by_id if fid not in ids)

    # review edit history (initial ratings) for the forums that are new or changed
    edit_requests_before = api.stats["requests"]
    if edits_on:
        fresh = set(touched)
        for rec in records:
            if rec["forum_id"] in fresh or "review_edits" not in rec:
                rec["review_edits"] = fetch_review_edits(api, rec["note"], review_names)
    edit_requests = api.stats["requests"] - edit_requests_before

    quarantined, counts, previews = [], Counter(), []
    for rec in records:
        counts[rec["query"]] += 1
        reasons = quarantine_reasons(rec["note"], venue)
        if reasons:
            quarantined.append({"forum_id": rec["forum_id"], "reasons": reasons})
        if len(previews) < 10:
            title = rec["note"]["content"].get("title")
            previews.append({"forum_id": rec["forum_id"], "query": rec["query"],
                             "title": title.get("value") if isinstance(title, dict) else title,
                             "replies": len((rec["note"].get("details") or {}).get("replies") or [])})
    quarantined += [{"forum_id": e.get("forum_id"), "reasons": [e["reason"]], "raw": e.get("raw")} for e in errors]

    n = store.write_jsonl(raw_path, records)
    store.write_jsonl(store.path(paths.crawl_errors(venue.key)), errors)
    store.write_jsonl(store.path(paths.quarantine(venue.key)), quarantined)
    if venue.api == "v2":
        prev = store.read_json(cur_path) if (mode == "incremental" and store.exists(cur_path)) else None
        # incremental: the cursor moves to this run's start; full: likewise
        store.write_json(cur_path, {"crawl_started_ms": started_ms, "mode": mode,
                                    "previous": prev and prev.get("crawl_started_ms")})

    elapsed = time.time() - started
    requests = v2.stats["requests"] + (api.stats["requests"] if api is not v2 else 0)
    share = len(quarantined) / max(n + len(errors), 1)
    reason_kinds = Counter(r.split(": ", 1)[-1].split(" ")[0] if ": " in r else r
                           for q in quarantined for r in q["reasons"])
    check = dg.AssetCheckResult(
        check_name=QUARANTINE_CHECK, passed=share <= config.max_quarantined_share,
        metadata={"share": round(share, 4), "threshold": config.max_quarantined_share,
                  "quarantined": len(quarantined),
                  "examples": preview([{"forum_id": q["forum_id"], "reason": q["reasons"][0][:200]}
                                       for q in quarantined[:10]], ["forum_id", "reason"])})
    return dg.MaterializeResult(metadata={
        "dagster/row_count": n,
        "mode": mode,
        "forums_new": status["new"], "forums_changed": status["changed"],
        "forums_unchanged": status["unchanged"], "forums_removed": status["removed"],
        "touched_forums": touched[:50],
        **refresh,
        "forums_by_query": dict(counts),
        "malformed_notes": len(errors),
        "quarantined_forums": len(quarantined), "quarantine_reasons": dict(reason_kinds.most_common(10)),
        "requests": requests,
        # The cost goal is about the forum JSON; review edit histories are one request per
        # paper with edited reviews (no batch form is known to work on the real API) and shown apart.
        "requests_per_forum": round((requests - edit_requests) / max(n, 1), 4),
        "review_edit_requests": edit_requests,
        "rate_limited": api.stats["rate_limited"], "rate_limit_wait_s": round(api.stats["rate_limit_wait_s"], 1),
        "retries": api.stats["retries"], "retries_by_cause": {k[8:]: v for k, v in api.stats.items() if k.startswith("retries_")},
        "server_errors_after_retries": api.stats["server_errors"],
        "forums_per_s": round(n / max(elapsed, 1e-6), 2),
        "path": dg.MetadataValue.path(raw_path),
        "quarantine_path": dg.MetadataValue.path(store.path(paths.quarantine(venue.key))),
        "preview": preview(previews, ["forum_id", "query", "title", "replies"]),
    }, check_results=[check])
