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

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import OpenReviewResource, StorageResource
from reviewbench_assets.attempts import partition_attempt
from reviewbench_assets.checks import GuardConfig, partitioned_check_specs
from reviewbench_assets.failures import fail_without_retry, openreview_slot
from reviewbench_assets.metadata import figures_table, materialize
from reviewbench_assets.progress_sink import on_rate_limit, step_progress
from reviewbench_assets.stages.crawl import check_api_version
from reviewbench_assets.stages.crawl_stage import QUARANTINE_CHECK, QUARANTINE_CHECK_DESCRIPTION, CrawlStage
from reviewbench_assets.stages.stage import CRAWL


class ForumsConfig(GuardConfig):
    max_quarantined_share: float = 0.05  # the asset check fails above this share of forums
    full_refresh: bool = False  # ignore the stored crawl and its cursor: crawl everything again
    review_edits: bool = True  # fetch the edit history of edited reviews (v2 edits, v1 references): initial scores


@dg.asset(partitions_def=venue_year_partitions, group_name="crawl", pool="openreview_api",
          kinds={"python", "json"}, code_version="1", metadata=figures_table(CRAWL, (QUARANTINE_CHECK,)),
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
        attempt = partition_attempt(context, storage.store())
        v2 = openreview.api("v2", on_event=log, answers=attempt.answers)
        check_api_version(v2, venue)
        api = v2 if venue.api == "v2" else openreview.api("v1", on_event=log, answers=attempt.answers)
        result = CrawlStage(venue, v2, api, max_quarantined_share=config.max_quarantined_share,
                            full_refresh=config.full_refresh, review_edits=config.review_edits, log=context.log.info,
                            progress=lambda stage, total: step_progress(context, "openreview_forums", stage, total),
                            attempt_continues=attempt.continues)(storage.store())
    return materialize(result, storage.store(), config.allow_failing_checks)
