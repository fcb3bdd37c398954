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

from collections import Counter

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import OpenReviewResource, StorageResource
from reviewbench_assets.checks import GuardConfig, guarded, partition_metadata, partitioned_check_specs, record_checks
from reviewbench_assets.failures import fail_without_retry, openreview_slot
from reviewbench_assets.metadata import iso_time, preview
from reviewbench_assets.progress_sink import on_rate_limit, step_progress
from reviewbench_assets.stages.crawl import check_api_version
from reviewbench_assets.stages.refresh import CrawlResult, refresh_venue

QUARANTINE_CHECK = "quarantined_share"
QUARANTINE_CHECK_DESCRIPTION = "share of quarantined forums stays under the configured max_quarantined_share"


class ForumsConfig(GuardConfig):
    max_quarantined_share: float = 0.05  # the asset check fails above this share of forums
    full_refresh: bool = False  # ignore the stored crawl and its cursor: crawl everything again
    review_edits: bool = True  # fetch the edit history of edited reviews (v2 edits, v1 references): initial scores


@dg.asset(partitions_def=venue_year_partitions, group_name="crawl", pool="openreview_api",
          kinds={"python", "json"}, code_version="1",
          check_specs=partitioned_check_specs("openreview_forums", {QUARANTINE_CHECK: QUARANTINE_CHECK_DESCRIPTION},
                                              venue_year_partitions),
          retry_policy=dg.RetryPolicy(max_retries=2, delay=30, backoff=dg.Backoff.EXPONENTIAL))
def openreview_forums(context: dg.AssetExecutionContext, config: ForumsConfig, openreview: OpenReviewResource,
                      storage: StorageResource) -> dg.MaterializeResult:
    """Submissions with every reply (`details=replies`), withdrawn and desk-rejected included."""
    venue = catalogue().get(context.partition_key)
    log = on_rate_limit(step_progress(context, "openreview_forums", "rate-limit waits"), context.log.warning)
    # one of the OpenReview slots (CLI runs too); credentials, a long 429 window, a corrupt file: stop
    with openreview_slot(storage, context.log.warning, openreview.limiter), fail_without_retry():
        v2 = openreview.api("v2", on_event=log)
        check_api_version(v2, venue)
        api = v2 if venue.api == "v2" else openreview.api("v1", on_event=log)
        result = refresh_venue(venue, storage.store(), v2, api, full_refresh=config.full_refresh,
                               review_edits=config.review_edits, log=context.log.info,
                               progress=lambda stage, total: step_progress(context, "openreview_forums",
                                                                           stage, total))
    out = _result(result, api, config.max_quarantined_share, venue.key)
    checks = guarded(list(out.check_results), config.allow_failing_checks)
    record_checks(storage.store(), venue.key, "openreview_forums", checks, config.allow_failing_checks)
    return dg.MaterializeResult(metadata=out.metadata, check_results=checks)


def _result(r: CrawlResult, api, max_share: float, partition_key: str) -> dg.MaterializeResult:
    share = r.quarantined_share
    reason_kinds = Counter(x.split(": ", 1)[-1].split(" ")[0] if ": " in x else x
                           for q in r.quarantined for x in q["reasons"])
    check = dg.AssetCheckResult(
        check_name=QUARANTINE_CHECK, passed=share <= max_share,
        description=f"{partition_key}: {QUARANTINE_CHECK_DESCRIPTION}",
        metadata={**partition_metadata(partition_key), "share": round(share, 4),
                  "threshold": dg.MetadataValue.text(f"<= {max_share}"), "quarantined": len(r.quarantined),
                  "examples": preview([{"forum_id": q["forum_id"], "reason": q["reasons"][0][:200]}
                                       for q in r.quarantined[:10]], ["forum_id", "reason"])})
    return dg.MaterializeResult(metadata={
        "dagster/row_count": r.forums,
        "mode": r.mode,
        "forums_new": r.status["new"], "forums_changed": r.status["changed"],
        "forums_unchanged": r.status["unchanged"], "forums_removed": r.status["removed"],
        "touched_forums": r.touched[:50],
        # an incremental refresh: the cursor it read changes since, as a date (the stored value is epoch ms)
        **{k: v for k, v in r.refresh.items() if k != "cursor_ms"},
        **({"changes_since": iso_time(r.refresh["cursor_ms"])} if r.refresh.get("cursor_ms") else {}),
        "forums_by_query": r.forums_by_query,
        "malformed_notes": len(r.errors),
        "quarantined_forums": len(r.quarantined), "quarantine_reasons": dict(reason_kinds.most_common(10)),
        "oddities": dict(Counter(k for k in reason_kinds.elements()
                                 if k in ("oversized", "absurd", "duplicate"))),
        "requests": r.requests,
        # The cost goal is about the forum JSON; review edit histories are one request per
        # paper with edited reviews (no batch form is known to work on the real API) and shown apart.
        "requests_per_forum": round((r.requests - r.review_edit_requests) / max(r.forums, 1), 4),
        "review_edit_requests": r.review_edit_requests, "review_edits_resumed": r.review_edits_resumed,
        "rate_limited": api.stats["rate_limited"], "rate_limit_wait_s": round(api.stats["rate_limit_wait_s"], 1),
        "retries": api.stats["retries"],
        "retries_by_cause": {k[8:]: v for k, v in api.stats.items() if k.startswith("retries_")},
        "server_errors_after_retries": api.stats["server_errors"],
        "forums_per_s": round(r.forums / max(r.elapsed_s, 1e-6), 2),
        "path": dg.MetadataValue.path(r.raw_path),
        "quarantine_path": dg.MetadataValue.path(r.quarantine_path),
        "preview": preview(r.previews, ["forum_id", "query", "title", "replies"], what="forums of this run"),
    }, check_results=[check])
