"""initial_submission_pdfs: the last PDF before the deadline, per forum, in the PDF store.
The stage's logic is `stages.pdf_choice.choose_initial_pdfs`; this module wires and reports."""

from collections import Counter

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import BrowserResource, OpenReviewResource, StorageResource
from reviewbench_assets.failures import fail_without_retry, openreview_slot
from reviewbench_assets.metadata import preview, table_metadata
from reviewbench_assets.stages.pdf_choice import SUBMISSIONS_SCHEMA, choose_initial_pdfs


class SubmissionPdfConfig(dg.Config):
    use_browser: bool = True  # False: API recipe only (v1 references / v2 note edits)
    cross_check_api: bool = False  # also run the API recipe and record agreement per forum
    # Threads choosing revisions (API fallback) and downloading PDFs; all share the rate limiter.
    download_workers: int = 8
    batch_attachments: bool = True  # v2 current_is_initial PDFs 50 per /attachment?ids= request


@dg.asset(partitions_def=venue_year_partitions, deps=["openreview_forums"], group_name="pdfs",
          pool="openreview_api", kinds={"python", "pdf"}, code_version="2")
def initial_submission_pdfs(context: dg.AssetExecutionContext, config: SubmissionPdfConfig,
                            openreview: OpenReviewResource, browser: BrowserResource,
                            storage: StorageResource) -> dg.MaterializeResult:
    """Revision history read in a real browser; chosen PDF stored by sha256 with its rule."""
    venue = catalogue().get(context.partition_key)
    # one of the OpenReview slots (CLI runs too); no credentials / a long 429 window: stop, record nothing
    with openreview_slot(storage, context.log.warning), fail_without_retry():
        api = openreview.api(venue.api, on_event=context.log.warning)

        def scrape(forum_ids: list[str], on_done) -> dict:
            return browser.scrape_revisions(openreview.web_url, api.token, forum_ids,
                                            limiter=openreview.limiter, on_done=on_done)

        r = choose_initial_pdfs(venue, storage.store(), api, scrape if config.use_browser else None,
                                cross_check=config.cross_check_api,
                                allow_earliest_public=openreview.allow_earliest_public,
                                max_workers=config.download_workers, batch_attachments=config.batch_attachments,
                                log=context.log.info, warn=context.log.warning)
    records = r.records
    retryable = sum(1 for x in records if x.get("error") and not x.get("error_final"))
    if retryable:
        context.log.warning(f"{venue.key}: {retryable} forums met transient errors (5xx after retries, no "
                            "answer) and are left to do: the next run retries them")
    errors = Counter((x.get("error") or "").split(":")[0] or None for x in records if x.get("error"))
    return dg.MaterializeResult(metadata={
        **table_metadata(SUBMISSIONS_SCHEMA, r.table.num_rows, r.out_path),
        "rules": dict(Counter(x["rule"] for x in records)),
        "pdfs_stored": sum(1 for x in records if x.get("pdf_sha256")),
        "errors": {k: v for k, v in errors.items() if k}, "resumed_forums": r.resumed,
        "retryable_errors": retryable,
        "browser_failures": sum(1 for x in records if x.get("revision_source") == "api" and config.use_browser),
        "cross_check_disagreements": sum(1 for x in records if (x.get("cross_check") or "").startswith("disagree")),
        "forums_per_s": round(r.todo / max(r.elapsed_s, 1e-6), 2),
        "browser_s": round(r.browser_s, 2),
        "pdf_fetch": dict(Counter(x.get("pdf_fetch") or "none" for x in records)),
        "deadline_catalogue_ms": venue.deadline_ms,
        "deadline_invitations": r.deadline_check["invitations"],
        "deadline_check": r.deadline_check["status"],
        "chosen_revisions": preview(records, ["forum_id", "rule", "revision_id", "pdf_pages", "error"], limit=20),
    })
