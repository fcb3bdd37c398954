"""The data path's assets, in the order the data flows: crawl, parse, PDFs, markdown, dialogues, the
venue-year's rows, the conference splits and the dataset card (`venue_changes`, the live history, is
reviewbench_assets/changes.py). Each is its decorator, its config and one stage call
(reviewbench_assets/stages/); what every step does around that call (metadata, checks, failures,
progress) is reviewbench_assets/dagster_step.py, and definitions.py gathers them."""

from datetime import UTC, datetime

import dagster as dg

from ocr_ray.engines import get_engine
from partitions.catalogue import catalogue
from partitions.definitions import split_partition_mapping, venue_year_partitions
from resources import BrowserResource, LLMResource, OpenReviewResource, RayResource, StorageResource
from resources.llm_client import LLMCache
from reviewbench_assets.dagster_step import (
    GuardConfig,
    column_schema,
    fail_without_retry,
    figures_table,
    guard_upstream,
    materialize,
    on_rate_limit,
    openreview_slot,
    partition_attempt,
    partitioned_check_specs,
    step_progress,
)
from reviewbench_assets.data_path import upstream_of
from reviewbench_assets.domain.llm import LLMSteps
from reviewbench_assets.domain.schema import MARKDOWN_SCHEMA, PARSED_SCHEMA, REVIEWBENCH_SCHEMA, SUBMISSIONS_SCHEMA
from reviewbench_assets.stages.card_stage import CardStage
from reviewbench_assets.stages.crawl import check_api_version
from reviewbench_assets.stages.crawl_stage import QUARANTINE_CHECK_DESCRIPTION as CRAWL_QUARANTINE_DESCRIPTION
from reviewbench_assets.stages.crawl_stage import CrawlStage
from reviewbench_assets.stages.dialogue_stage import COVERAGE_CHECK, DialogueStage
from reviewbench_assets.stages.figures import (
    CARD,
    CRAWL,
    DIALOGUES,
    MARKDOWN,
    PARSE,
    PDFS,
    QUARANTINE,
    RESUBMISSIONS,
    ROWS,
    SPLIT,
)
from reviewbench_assets.stages.paper_text import MarkdownStage
from reviewbench_assets.stages.parse_stage import QUARANTINE_CHECK_DESCRIPTION as PARSE_QUARANTINE_DESCRIPTION
from reviewbench_assets.stages.parse_stage import ParseStage
from reviewbench_assets.stages.pdf_stage import DEADLINE_CHECK, PdfStage
from reviewbench_assets.stages.resubmission_stage import ResubmissionsStage
from reviewbench_assets.stages.rows_stage import ROW_CHECKS, RowsStage
from reviewbench_assets.stages.split_stage import UPSTREAM_GUARDED, SplitStage

# ==== openreview_forums ===================================================================================
# openreview_forums: every forum of a venue-year as raw JSON, exactly as the API returned it.
#
# The first materialization crawls the venue in batches (`details=replies`, 1000 forums a request).
# Later ones of an API v2 venue are incremental: a `tmdate` cursor over every note of the venue
# finds the forums with something new, only those are fetched, and they are merged into the stored
# file (one line per forum, rewritten atomically). API v1 has no `domain` filter to run such a
# cursor over a venue's notes, and its venue-years are closed: their stored crawl is final, taken as it is by a
# later run (no request); `full_refresh` re-reads the submission pages (O(papers/1000) requests) and counts as
# touched only the forums whose notes changed. Forums that need a look (malformed notes,
# unknown invitations, orphan replies) are listed with their reasons in a quarantine file, and an
# asset check fails the partition when their share passes `max_quarantined_share`.

class ForumsConfig(GuardConfig):
    max_quarantined_share: float = 0.05  # the asset check fails above this share of forums
    full_refresh: bool = False  # ignore the stored crawl and its cursor: crawl everything again
    review_edits: bool = True  # fetch the edit history of edited reviews (v2 edits, v1 references): initial scores


@dg.asset(partitions_def=venue_year_partitions, group_name="crawl", pool="openreview_api",
          kinds={"python", "json"}, code_version="1", metadata=figures_table(CRAWL, (QUARANTINE,)),
          check_specs=partitioned_check_specs("openreview_forums", {QUARANTINE: CRAWL_QUARANTINE_DESCRIPTION},
                                              venue_year_partitions),
          retry_policy=dg.RetryPolicy(max_retries=2, delay=30, backoff=dg.Backoff.EXPONENTIAL))
def openreview_forums(context: dg.AssetExecutionContext, config: ForumsConfig, openreview: OpenReviewResource,
                      storage: StorageResource) -> dg.MaterializeResult:
    """Submissions with every reply (`details=replies`), withdrawn and desk-rejected included."""
    venue = catalogue().get(context.partition_key)
    log = on_rate_limit(step_progress(context, "openreview_forums", "rate-limit waits"), context.log.warning)
    # one of the OpenReview slots (CLI runs too); credentials, a long 429 window, a corrupt file: stop
    with openreview_slot(storage, context.log.warning, openreview.limiter), fail_without_retry():
        attempt = partition_attempt(context, storage.store(), venue)
        v2 = openreview.api("v2", on_event=log, answers=attempt.answers)
        check_api_version(v2, venue)
        api = v2 if venue.api == "v2" else openreview.api("v1", on_event=log, answers=attempt.answers)
        result = CrawlStage(venue, v2, api, max_quarantined_share=config.max_quarantined_share,
                            full_refresh=config.full_refresh, review_edits=config.review_edits, log=context.log.info,
                            progress=lambda stage, total: step_progress(context, "openreview_forums", stage, total),
                            attempt_continues=attempt.continues,
                            # a closed API v1 venue-year: its stored crawl is its final listing
                            listing_final=venue.api == "v1" and venue.closed_at(datetime.now(UTC)))(storage.store())
    return materialize(result, storage.store(), config.allow_failing_checks)


# ==== parsed_forums =======================================================================================
# parsed_forums: each venue-year's raw forums parsed and routed once (stages/parse_stage.py).

PARSED_COLUMNS = {
    "reviews": "the reviews, typed: one struct per review (the union of every form, scores as numbers, "
               "extra_scores/extra_text as name/value lists, score_history); the rows derive reviews_json "
               "from it and the `reviews` config has one row per review",
    "ordinal": "position of the forum in the crawl's file",
    "status": "active, withdrawn or desk_rejected",
    "api": "OpenReview API version the forum came from (v1 or v2)",
    "crawled_at": "when the crawl fetched the forum (epoch seconds)",
    "posts": "every post with its place in the dialogues: thread (and its root), reference_context, "
             "excluded (and the reason: its code and words) or none",
    "warnings": "what the parser skipped or repaired",
    "forum_json": "the whole parsed forum (domain/posts.py ParsedForum) as JSON, but its reviews (the `reviews` column)",
    "routing_json": "its routing (domain/routing.py Routing) as JSON",
    "submission_json": "the submission note as the API returned it, without its replies (initial_submission_pdfs "
                       "chooses the revision from it)",
}


class ParsedConfig(GuardConfig):
    max_quarantined_share: float = 0.05  # the (blocking) check fails above this share of forums


@dg.asset(partitions_def=venue_year_partitions, deps=upstream_of(ParseStage), group_name="parse",
          kinds={"python", "parquet"}, code_version="6",  # 3: submission_json, 4: typed reviews, 5: posts keep note-level fields, 6: posts' reason codes
          metadata=figures_table(PARSE, (QUARANTINE,)),
          check_specs=partitioned_check_specs("parsed_forums", {QUARANTINE: PARSE_QUARANTINE_DESCRIPTION},
                                              venue_year_partitions))
def parsed_forums(context: dg.AssetExecutionContext, config: ParsedConfig,
                  storage: StorageResource) -> dg.MaterializeResult:
    """One typed row per forum (submission fields, reviews as the union with their score
    trajectories, decision, meta-review, every post with its routing) and a quarantine table with
    reason codes; the only place raw forums are parsed. Query it with DuckDB:
    `SELECT p.place, count(*) FROM 'parsed/<pk>.parquet', unnest(posts) t(p) GROUP BY 1`."""
    venue, store = catalogue().get(context.partition_key), storage.store()
    return materialize(ParseStage(venue, config.max_quarantined_share)(store), store,
                       config.allow_failing_checks,
                       extra={"dagster/column_schema": column_schema(PARSED_SCHEMA, PARSED_COLUMNS)})


# ==== initial_submission_pdfs =============================================================================
# initial_submission_pdfs: the last PDF before the deadline, per forum, in the PDF store.
# The stage is `stages.pdf_stage.PdfStage` (its work: `choose_initial_pdfs` there); this
# module wires it.

SUBMISSION_COLUMNS = {
    "rule": "how the PDF was chosen: initial, current_is_initial, earliest_public (initial not public), unavailable",
    "reason": "why that rule applied (e.g. last of 2 PDF revisions before the deadline)",
    "revision_id": "the chosen revision (edit/reference id); empty for current_is_initial and unavailable",
    "pdf_sha256": "the stored PDF: pdfs/<sha256[:2]>/<sha256>.pdf",
    "pdf_fetch": "how the PDF was fetched: single request or batch (/attachment?ids=)",
    "error_code": "the error's reason code: revision_history_unreadable, pdf_download_failed, pdf_invalid "
                  "(empty in tables written before codes: the error's first word is its kind)",
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


@dg.asset(partitions_def=venue_year_partitions, deps=upstream_of(PdfStage), group_name="pdfs",
          pool="openreview_api", kinds={"python", "pdf"}, code_version="4",  # 4: error_code
          metadata=figures_table(PDFS, (DEADLINE_CHECK,)),
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
        kept = partition_attempt(context, storage.store(), venue).answers
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


# ==== paper_markdown ======================================================================================
# paper_markdown: the chosen PDFs through the Ray OCR pipeline, one markdown per paper
# (`stages.paper_text.MarkdownStage`); this module wires and reports.

MARKDOWN_COLUMNS = {"markdown": "the paper's text, pages joined by the card's page separator",
                    "num_pages": "pages of the PDF", "engine": "OCR engine that read the pages",
                    "model": "the engine's model (OCR engines with one)", "error": "why the paper has no markdown",
                    "fallbacks": "JSON list of the blocks a layout rule failed on, read as plain text instead: "
                                 "page, rule, reason code, detail"}


class PaperMarkdownConfig(dg.Config):
    engine: str = "text-layer"  # see ocr_ray.engines: text-layer, rapidocr, auto, vllm


@dg.asset(partitions_def=venue_year_partitions, deps=upstream_of(MarkdownStage), group_name="ocr",
          pool="ray", kinds={"ray", "python"}, code_version="2", metadata=figures_table(MARKDOWN))
def paper_markdown(context: dg.AssetExecutionContext, config: PaperMarkdownConfig, ray: RayResource,
                   storage: StorageResource) -> dg.MaterializeResult:
    """pypdfium2 pages -> engine -> markdown (pages joined by the card's separator), cached per PDF."""
    engine = get_engine(config.engine)
    engine.check_available()
    result = MarkdownStage(context.partition_key, engine, ray_address=ray.address, num_cpus=ray.num_cpus,
                           log=context.log.info)(storage.store())
    return materialize(result, extra={"dagster/column_schema": column_schema(MARKDOWN_SCHEMA, MARKDOWN_COLUMNS)})


# ==== rebuttal_dialogues ==================================================================================
# rebuttal_dialogues: per (forum, review) author-reviewer threads, Re^2 rules, optionally LLM-merged.
#
# Besides `dialogues/<pk>.jsonl` it writes the venue-year's Re^2 records (`re2/<pk>.review.parquet`,
# `re2/<pk>.rebuttal.parquet`) that the conference split assets publish as the `review` and
# `rebuttal` configs, and `dialogues/<pk>.excluded.jsonl`: every author/reviewer post that is in no
# dialogue, with its reason (`domain/routing.py`). `dialogue_coverage` (author and reviewer posts
# accounted for / all of them) is in the metadata and checked (goal 1.0). The logic is
# `stages.dialogue_stage.DialogueStage`.

@dg.asset(partitions_def=venue_year_partitions, deps=upstream_of(DialogueStage), group_name="dialogues",
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


# ==== resubmissions =======================================================================================
# resubmissions: every venue-year's submissions linked into chains of versions of one paper (corpus-level,
# `stages.resubmission_stage.ResubmissionsStage`); the conference splits put each chain on one side of
# the Re^2 train/test, the card publishes the chains as the `resubmissions` config.

@dg.asset(group_name="corpus", kinds={"python", "parquet"}, code_version="2", metadata=figures_table(RESUBMISSIONS),
          deps=upstream_of(ResubmissionsStage))
def resubmissions(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """Links between versions of one paper across venue-years (explicit TMLR links, else MinHash/LSH
    candidates scored on title, abstract, public authors and text), each with its evidence and
    confidence; chains in time order with the decision at each step; only the links a changed
    venue-year touches are scored again."""
    return materialize(ResubmissionsStage(log=context.log.info)(storage.store()))


# ==== reviewbench_split, the conference splits, the dataset card ==========================================
# reviewbench_split per venue-year, one asset per conference split, and the dataset card; each the
# decorator, its config and one stage call (stages/rows_stage.py, stages/split_stage.py).

class SplitConfig(GuardConfig):
    max_empty_markdown_share: float = 0.5  # above this the (blocking) check fails


@dg.asset(partitions_def=venue_year_partitions, group_name="corpus", kinds={"parquet"}, code_version="3",
          metadata=figures_table(ROWS, tuple(ROW_CHECKS)),
          deps=upstream_of(RowsStage),
          check_specs=partitioned_check_specs("reviewbench_split", ROW_CHECKS, venue_year_partitions))
def reviewbench_split(context: dg.AssetExecutionContext, config: SplitConfig,
                      storage: StorageResource) -> dg.MaterializeResult:
    """One venue-year in the final 20-column schema (reviews_json made from the typed reviews), one
    typed row per review, its provenance rows and its statistics (DuckDB SQL over those rows)."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    guard_upstream(store, venue.key, UPSTREAM_GUARDED, config.allow_failing_checks, context.log.warning)
    return materialize(RowsStage(venue, config.max_empty_markdown_share, config.allow_failing_checks)(store), store,
                       config.allow_failing_checks,
                       extra={"dagster/column_schema": column_schema(REVIEWBENCH_SCHEMA)})


class ConferenceSplitConfig(dg.Config):
    # share of papers (by forum-id hash; a chain of versions is in test when any version draws test) in
    # the Re^2 `test` splits
    re2_test_share: float = 0.05


def build_split_asset(split: str) -> dg.AssetsDefinition:
    @dg.asset(name=f"{split}_split", group_name="corpus", kinds={"parquet", "duckdb"}, code_version="5",
              metadata=figures_table(SPLIT),
              description=(f"The `{split}` split of the corpus: Parquet shards built from its venue-years "
                           f"({', '.join(catalogue().keys_for_split(split))}), plus its reviews (one typed row per "
                           "review), provenance and Re^2 review/rebuttal configs (train/test drawn per chain of versions of a "
                           "paper, from the resubmissions asset)."),
              deps=[dg.AssetDep(d, partition_mapping=split_partition_mapping(split)) if d != RESUBMISSIONS
                    else dg.AssetDep(d) for d in upstream_of(SplitStage)])
    def _split(context: dg.AssetExecutionContext, config: ConferenceSplitConfig,
               storage: StorageResource) -> dg.MaterializeResult:
        with fail_without_retry():
            result = SplitStage(split, config.re2_test_share, context.log.warning)(storage.store())
        return materialize(result, extra={"dagster/column_schema": column_schema(REVIEWBENCH_SCHEMA)})

    return _split


split_assets = [build_split_asset(s) for s in catalogue().splits]


@dg.asset(group_name="corpus", kinds={"huggingface"}, code_version="2", metadata=figures_table(CARD),
          deps=[k for d in upstream_of(CardStage) for k in ([a.key for a in split_assets] if d == SPLIT else [d])])
def dataset_card(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    """README.md with configs, dataset_info and statistics, so `datasets.load_dataset(dir)` works."""
    return materialize(CardStage()(storage.store()))
