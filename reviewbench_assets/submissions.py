"""initial_submission_pdfs: the last PDF before the deadline, per forum, in the PDF store.
The stage is `stages.pdf_stage.PdfStage` (its work: `choose_initial_pdfs` there); this
module wires it."""

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import BrowserResource, OpenReviewResource, StorageResource
from reviewbench_assets.attempts import partition_attempt
from reviewbench_assets.domain.schema import SUBMISSIONS_SCHEMA
from reviewbench_assets.failures import fail_without_retry, openreview_slot
from reviewbench_assets.metadata import column_schema, figures_table, materialize
from reviewbench_assets.progress_sink import on_rate_limit, step_progress
from reviewbench_assets.stages.pdf_stage import DEADLINE_CHECK, PdfStage
from reviewbench_assets.stages.stage import PDFS

SUBMISSION_COLUMNS = {
    "rule": "how the PDF was chosen: initial, current_is_initial, earliest_public (initial not public), unavailable",
    "reason": "why that rule applied (e.g. last of 2 PDF revisions before the deadline)",
    "revision_id": "the chosen revision (edit/reference id); empty for current_is_initial and unavailable",
    "pdf_sha256": "the stored PDF: pdfs/<sha256[:2]>/<sha256>.pdf",
    "pdf_fetch": "how the PDF was fetched: single request or batch (/attachment?ids=)",
    "error_final": "true: the error is the forum's answer (404, not a PDF, over a cap); false: transient, retried next run",
}


class SubmissionPdfConfig(dg.Config):
    use_browser: bool = True  # False: API recipe only (v1 references / v2 note edits)
    cross_check_api: bool = False  # also run the API recipe and record agreement per forum
    # Threads choosing revisions (API fallback) and downloading PDFs; all share the rate limiter.
    download_workers: int = 8
    batch_attachments: bool = True  # v2 current_is_initial PDFs 50 per /attachment?ids= request
    # True: only the initial submission (the last PDF at or before the deadline) is taken; a paper
    # whose initial PDF is not public gets none (rule `unavailable`). False (default): such a paper
    # gets its earliest public PDF, flagged `earliest_public` in provenance (API v2 venues keep
    # pre-deadline edits private, so most papers revised during the discussion would have no text).
    initial_only: bool = False
    # False (default): an API v2 note whose invitations show it was never revised after the deadline
    # has its current PDF taken without reading its revision history (no page, no request; its rule
    # is current_is_initial, domain/revisions.py). True: read every forum's history (a venue that
    # publishes pre-deadline edits then records the exact upload, rule `initial`, for the same PDF).
    read_every_history: bool = False


@dg.asset(partitions_def=venue_year_partitions, deps=["parsed_forums"], group_name="pdfs",
          pool="openreview_api", kinds={"python", "pdf"}, code_version="3", metadata=figures_table(PDFS, (DEADLINE_CHECK,)),
          check_specs=[dg.AssetCheckSpec(DEADLINE_CHECK, asset="initial_submission_pdfs",
                                         description="the submission invitation's duedate is within one hour "
                                                     "of the catalogue's announced (paper or abstract) deadline")])
def initial_submission_pdfs(context: dg.AssetExecutionContext, config: SubmissionPdfConfig,
                            openreview: OpenReviewResource, browser: BrowserResource,
                            storage: StorageResource) -> dg.MaterializeResult:
    """Revision history read in a real browser; chosen PDF stored by sha256 with its rule."""
    venue = catalogue().get(context.partition_key)
    # one of the OpenReview slots (CLI runs too); no credentials / a long 429 window: stop, record nothing
    waits = step_progress(context, "initial_submission_pdfs", "rate-limit waits")
    with openreview_slot(storage, context.log.warning, openreview.limiter, openreview.attachment_limiter), fail_without_retry():
        kept = partition_attempt(context, storage.store()).answers
        api = openreview.api(venue.api, on_event=on_rate_limit(waits, context.log.warning), answers=kept)

        answers = None  # what one round of revision pages learnt (invitations, scripts), for the next

        def scrape(forum_ids: list[str], on_done, notes: dict) -> dict:
            nonlocal answers
            scraped = browser.scrape_revisions(openreview.web_url, api.token, forum_ids,
                                               limiter=openreview.limiter, on_done=on_done,
                                               api_urls={1: openreview.api_v1_url, 2: openreview.api_v2_url},
                                               notes=notes, answers=answers, kept=kept)
            answers = scraped.answers
            return scraped

        result = PdfStage(venue, api, scrape if config.use_browser else None, cross_check=config.cross_check_api,
                          allow_earliest_public=not config.initial_only,
                          max_workers=config.download_workers, batch_attachments=config.batch_attachments,
                          read_every_history=config.read_every_history,
                          log=context.log.info, warn=context.log.warning,
                          progress=lambda stage, total: step_progress(context, "initial_submission_pdfs",
                                                                      stage, total))(storage.store())
    return materialize(result, extra={"dagster/column_schema": column_schema(SUBMISSIONS_SCHEMA, SUBMISSION_COLUMNS)})
