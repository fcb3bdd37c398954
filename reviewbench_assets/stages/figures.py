"""Every metadata key the assets emit, declared once: its type, its unit and what it means. A stage
records a figure only under a name declared here for it (`Stage.stat` refuses any other); the assets
show this table in the UI (each asset's definition metadata, `reviewbench_assets/metadata.py`), and
tests/stages/test_figures.py fails on a key emitted but not declared, or declared but never emitted.

`where` names the stages (the asset's name; `conference_split` for every `<split>_split`) and the
checks (their names) that record the key. Types: int, float, bool, text, json (a dict or list),
path (under the storage root), table (a preview of rows), md (rendered text), schema (the column
schema)."""
from __future__ import annotations

from dataclasses import dataclass

CRAWL, PARSE, CHANGES = "openreview_forums", "parsed_forums", "venue_changes"
PDFS, MARKDOWN, DIALOGUES = "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues"
ROWS, SPLIT, CARD = "reviewbench_split", "conference_split", "dataset_card"
STAGES = (CRAWL, PARSE, CHANGES, PDFS, MARKDOWN, DIALOGUES, ROWS, SPLIT, CARD)
# the checks, by name (`quarantined_share` is the crawl's and the parser's, with their own examples)
QUARANTINE, DEADLINE, COVERAGE = "quarantined_share", "deadline_agrees_with_invitation", "dialogue_coverage"
UNIQUE, REVIEWS_MATCH, CHARS_MATCH = "unique_forum_id", "num_reviews_matches_reviews_json", "markdown_chars_matches_markdown"
TITLE, EMPTY_SHARE = "no_empty_title", "empty_markdown_share"
ROW_CHECKS = (UNIQUE, REVIEWS_MATCH, CHARS_MATCH, TITLE, EMPTY_SHARE)
BLOCKING = (QUARANTINE, COVERAGE, UNIQUE, EMPTY_SHARE)  # reviewbench_assets/checks.py BLOCKING_CHECKS
ROW_COUNT = "dagster/row_count"
# the progress a long step reports while it runs (stages/progress.py, as observations of its asset)
PROGRESS, REPORTS_PROGRESS = "progress", (CRAWL, PDFS)
# the failure a downstream asset raises on a partition whose upstream failed a blocking check
GUARD = "upstream_guard"


@dataclass(frozen=True)
class Figure:
    type: str
    unit: str
    where: tuple[str, ...]
    description: str
    when: str = ""  # recorded only then (empty: at every run of its stages)


class UndeclaredFigure(KeyError):
    """A stage recorded a figure (or a check a metadata key) that stages/figures.py does not declare for it."""


def _f(type_: str, unit: str, where: str | tuple[str, ...], description: str, when: str = "") -> Figure:
    return Figure(type_, unit, (where,) if isinstance(where, str) else where, description, when)


CURSOR, LLM = "a refresh that read the tmdate cursor", "an LLM merged the dialogues"
FAILED = "the blocking check failed"


FIGURES: dict[str, Figure] = {
    # ---- every stage
    ROW_COUNT: _f("int", "rows", (CRAWL, PARSE, CHANGES, PDFS, MARKDOWN, DIALOGUES, ROWS, SPLIT),
                  "rows of the stage's main output (forums, changes, dialogues, papers)"),
    "dagster/column_schema": _f("schema", "", (PARSE, PDFS, MARKDOWN, ROWS, SPLIT),
                                "the main output's columns with their descriptions"),
    "path": _f("path", "", (CRAWL, PARSE, PDFS, MARKDOWN, DIALOGUES, ROWS), "the stage's main output"),
    "preview": _f("table", "rows", (CRAWL, PARSE, CHANGES, DIALOGUES), "the first rows of this run's output"),
    # ---- openreview_forums: the crawl or refresh
    "quarantine_path": _f("path", "", (CRAWL, PARSE), "the quarantine: every forum that needs a look, with its reasons"),
    "mode": _f("text", "", CRAWL, "full: every forum crawled; incremental: only those a tmdate cursor found changed"),
    "forums_new": _f("int", "forums", CRAWL, "forums not in the stored crawl"),
    "forums_changed": _f("int", "forums", (CRAWL, CHANGES),
                         "forums with a change since the previous materialization (notes' tmdates; recorded changes)"),
    "forums_unchanged": _f("int", "forums", CRAWL, "forums whose notes did not change since the stored crawl"),
    "forums_removed": _f("int", "forums", CRAWL, "forums of the stored crawl that are gone"),
    "touched_forums": _f("json", "forum ids", CRAWL, "the first 50 forums new or changed"),
    "notes_newer_than_cursor": _f("int", "notes", CRAWL, "notes the tmdate cursor returned", CURSOR),
    "cursor_requests": _f("int", "requests", CRAWL, "requests the tmdate cursor made", CURSOR),
    "changes_since": _f("text", "ISO time", CRAWL, "the cursor: the previous crawl's start, less a margin", CURSOR),
    "forums_by_query": _f("json", "forums", CRAWL, "forums per catalogue query (active, withdrawn, desk-rejected)"),
    "malformed_notes": _f("int", "notes", CRAWL, "notes unusable as a forum (no id, no content), kept in the quarantine"),
    "quarantined_forums": _f("int", "forums", (CRAWL, PARSE), "forums quarantined with a reason"),
    "quarantine_reasons": _f("json", "forums", CRAWL, "quarantined forums per reason (first word of the reason)"),
    "oddities": _f("json", "forums", CRAWL, "quarantine reasons that are oddities of the data: oversized, absurd, duplicate"),
    "requests": _f("int", "requests", CRAWL, "OpenReview API requests of the run"),
    "requests_per_forum": _f("float", "requests/forum", CRAWL, "requests per forum, review edit histories apart"),
    "review_edit_requests": _f("int", "requests", CRAWL, "requests for review edit histories (one per edited paper)"),
    "review_edits_resumed": _f("int", "forums", CRAWL, "forums whose edit histories came from a killed run's checkpoint"),
    "rate_limited": _f("int", "responses", CRAWL, "429 answers of the API"),
    "rate_limit_wait_s": _f("float", "s", CRAWL, "time spent waiting out rate limits"),
    "retries": _f("int", "requests", CRAWL, "requests retried"),
    "retries_by_cause": _f("json", "requests", CRAWL, "retries per cause (timeouts, 5xx, connection errors)"),
    "server_errors_after_retries": _f("int", "requests", CRAWL, "requests still failing with a 5xx after their retries"),
    "forums_per_s": _f("float", "forums/s", (CRAWL, PDFS), "forums done per second of the run"),
    # ---- parsed_forums
    "reviews": _f("int", "reviews", (PARSE, ROWS), "reviews in the stage's output"),
    "posts": _f("int", "posts", PARSE, "posts of the parsed forums"),
    "malformed_forums": _f("int", "forums", PARSE, "forums the parser could not use (no row; reasons in the quarantine)"),
    "edited_reviews_with_history": _f("int", "reviews", PARSE, "edited reviews whose edit history was read"),
    "posts_thread": _f("int", "posts", PARSE, "posts routed into a dialogue thread"),
    "posts_reference_context": _f("int", "posts", PARSE, "posts routed as reference context (global responses)"),
    "posts_excluded": _f("int", "posts", (PARSE, DIALOGUES), "posts in no dialogue, each with its reason"),
    "posts_none": _f("int", "posts", PARSE, "posts outside the dialogues' scope (decisions, meta-reviews, ...)"),
    "posts_unrouted": _f("int", "posts", PARSE, "posts the routing could not place (should be 0)"),
    "quarantine_codes": _f("json", "problems", PARSE, "the parser's problems per reason code"),
    # ---- venue_changes
    "changes": _f("path", "", CHANGES, "this refresh's changes (one Parquet file under changes/<pk>/log/)"),
    "state": _f("path", "", CHANGES, "the forums' snapshots the next refresh compares with"),
    "trajectories": _f("path", "", CHANGES, "each review's score trajectory"),
    "daily": _f("path", "", CHANGES, "the venue-year's daily figures"),
    "daily_plot": _f("path", "", CHANGES, "the daily figures' plot"),
    "by_kind": _f("json", "changes", CHANGES, "changes per kind (review_added, review_edited, ...)"),
    "ratings_up": _f("int", "reviews", CHANGES, "edited reviews whose rating went up"),
    "ratings_down": _f("int", "reviews", CHANGES, "edited reviews whose rating went down"),
    "mean_rating_move": _f("float", "rating points", CHANGES, "mean rating change of the reviews whose rating moved"),
    "first_refresh": _f("bool", "", CHANGES, "no earlier refresh: every forum recorded as added"),
    "forums": _f("int", "forums", CHANGES, "forums of this refresh"),
    "as_of": _f("text", "ISO time", CHANGES, "when this refresh was recorded"),
    "daily_ratings": _f("md", "", CHANGES, "the last 14 days: reviews, mean rating, share changed"),
    # ---- initial_submission_pdfs
    "forums_done_this_run": _f("int", "forums", PDFS, "forums (re)done by this run"),
    "redone_forums": _f("json", "forum ids", PDFS, "the first 50 forums (re)done by this run, by id"),
    "forums_resumed": _f("int", "forums", PDFS, "forums whose checkpoint was reused"),
    "retryable_errors": _f("int", "forums", PDFS, "forums with a transient error, retried by the next run"),
    "pdf_fetch_this_run": _f("json", "forums", PDFS, "this run's forums per way of fetching the PDF"),
    "browser_s": _f("float", "s", PDFS, "time spent reading revision pages in the browser"),
    "revision_sources_this_run": _f("json", "forums", PDFS, "where this run's choices came from: browser, api, note"),
    "browser_failures": _f("int", "forums", PDFS, "forums whose revision page failed (the API recipe answered)"),
    "revision_requests_per_forum": _f("float", "requests/forum", PDFS, "requests per forum for the revision history"),
    "pdf_requests_per_forum": _f("float", "requests/forum", PDFS, "requests per forum for PDF downloads"),
    "rules": _f("json", "forums", PDFS, "the partition's forums per revision rule"),
    "pdfs_stored": _f("int", "PDFs", PDFS, "forums with a PDF in the store"),
    "errors": _f("json", "forums", PDFS, "the partition's forums per error kind"),
    "pdf_fetch_total": _f("json", "forums", PDFS, "the partition's forums per way of fetching the PDF"),
    "cross_check_disagreements": _f("int", "forums", PDFS, "forums where the browser and the API recipe chose differently"),
    "deadline_announced": _f("text", "", PDFS, "the catalogue's announced deadline (rolling: none)"),
    "deadline_announced_utc": _f("text", "ISO time", PDFS, "the announced deadline in UTC"),
    "deadline_source": _f("text", "", PDFS, "where the catalogue's deadline comes from"),
    "deadline_confidence": _f("text", "", PDFS, "how sure the catalogue is of it"),
    "deadline_invitations": _f("json", "", PDFS, "the submission invitations' duedates and expdates read"),
    "deadline_check": _f("text", "", PDFS, "the deadline cross-check's status"),
    "deadline_disagreement_h": _f("float", "h", PDFS, "announced deadline against the invitation's, in hours"),
    "cutoff": _f("text", "ISO time", PDFS, "the instant revisions are judged against"),
    "cutoff_rule": _f("text", "", (PDFS, DEADLINE), "how the cutoff was set (announced + grace, the invitation's expdate)"),
    "chosen_revisions": _f("table", "forums", PDFS, "the first forums' chosen revisions"),
    # ---- paper_markdown
    "pages_ocrd": _f("int", "pages", MARKDOWN, "pages read by this run"),
    "papers_ocrd": _f("int", "papers", MARKDOWN, "papers read by this run"),
    "papers_cached_or_without_pdf": _f("int", "papers", MARKDOWN, "papers from the cache or without a PDF"),
    "ocr_s": _f("float", "s", MARKDOWN, "this run's OCR and the table written from it, Ray's start included"),
    "pages_per_s": _f("float", "pages/s", MARKDOWN, "pages read per second of this run"),
    "pages_by_engine_this_run": _f("json", "pages", MARKDOWN, "this run's pages per engine"),
    "papers_by_engine_total": _f("json", "papers", MARKDOWN, "the partition's papers per engine (cached included)"),
    "pages_by_engine_total": _f("json", "pages", MARKDOWN, "the partition's pages per engine (cached included)"),
    "engine_cache_id": _f("text", "", MARKDOWN, "engine@version: the cache key beside the PDF's sha256"),
    "empty_markdown": _f("int", "papers", (MARKDOWN, ROWS), "papers without markdown"),
    "papers_with_errors": _f("table", "papers", MARKDOWN, "the papers with an error (first 20)"),
    # ---- rebuttal_dialogues
    "excluded_path": _f("path", "", DIALOGUES, "author/reviewer posts in no dialogue, with their reason"),
    "turns": _f("int", "turns", DIALOGUES, "turns of the dialogues"),
    "dialogue_coverage": _f("float", "share", (DIALOGUES, COVERAGE),
                            "author and reviewer posts accounted for / all of them (goal 1.0)"),
    "author_reviewer_posts": _f("int", "posts", DIALOGUES, "author and reviewer posts"),
    "posts_as_turns": _f("int", "posts", DIALOGUES, "posts that are a turn of a dialogue"),
    "posts_as_reference_context": _f("int", "posts", DIALOGUES, "posts kept as reference context"),
    "posts_dropped_reminders": _f("int", "posts", DIALOGUES, "posts dropped as reminders"),
    "posts_unaccounted": _f("int", "posts", DIALOGUES, "posts in no dialogue and without a reason (goal 0)"),
    "exclusion_reasons": _f("json", "posts", DIALOGUES, "excluded posts per reason"),
    "reviewer_comment_threads": _f("int", "dialogues", DIALOGUES, "dialogues rooted at a reviewer's comment"),
    "dropped_reminders": _f("int", "turns", DIALOGUES, "reminders dropped from the dialogues"),
    "merged_by": _f("text", "", DIALOGUES, "who merged same-speaker posts: the rule, or the LLM model"),
    "llm_merged_turns": _f("int", "turns", DIALOGUES, "turns the LLM merged"),
    "re2_review_records": _f("int", "records", DIALOGUES, "Re^2 review records written"),
    "re2_rebuttal_records": _f("int", "records", DIALOGUES, "Re^2 rebuttal records written"),
    "llm_calls": _f("int", "calls", DIALOGUES, "calls made", LLM),
    "llm_cache_hits": _f("int", "calls", DIALOGUES, "answers from the cache", LLM),
    "llm_merges_accepted": _f("int", "merges", DIALOGUES, "merges that passed the guards", LLM),
    "llm_merges_rejected": _f("int", "merges", DIALOGUES, "merges the guards refused", LLM),
    "llm_rejections": _f("json", "merges", DIALOGUES, "refused merges per reason", LLM),
    "llm_reminder_requests": _f("int", "requests", DIALOGUES, "reminder classification requests", LLM),
    "llm_vetoed_reminders": _f("int", "posts", DIALOGUES, "rule-found reminders the LLM kept", LLM),
    "llm_only_reminders_kept": _f("int", "posts", DIALOGUES, "reminders only the LLM found", LLM),
    # ---- reviewbench_split (the venue-year's rows)
    "provenance_path": _f("path", "", ROWS, "the rows' provenance (revision rule, PDF, engine)"),
    "reviews_path": _f("path", "", ROWS, "one typed row per review (the `reviews` config)"),
    "stats_path": _f("path", "", ROWS, "the venue-year's statistics (DuckDB SQL over the rows), merged by the splits "
                                       "and the card"),
    "stale_markdown": _f("int", "papers", ROWS, "forums paper_markdown has not seen yet"),
    # ---- <split>_split
    "num_bytes": _f("int", "bytes", SPLIT, "size of the split's shards"),
    "venue_years": _f("json", "", SPLIT, "the venue-years in the split"),
    "files": _f("json", "", SPLIT, "the split's shards"),
    "rewritten_venue_years": _f("json", "", SPLIT, "venue-years whose shards this run rewrote"),
    "unchanged_venue_years": _f("json", "", SPLIT, "venue-years whose shards were kept"),
    "removed_files": _f("json", "", SPLIT, "shards removed"),
    "blocked_venue_years": _f("json", "", SPLIT, "venue-years left out: their data failed blocking checks"),
    "configs": _f("json", "", SPLIT, "the split's other configs (provenance, review, rebuttal) and their files"),
    # ---- dataset_card
    "corpus": _f("path", "", CARD, "the corpus directory (README.md, data/, plots/)"),
    "splits": _f("json", "rows", CARD, "rows per split"),
    "card": _f("md", "", CARD, "the card as rendered"),
    # ---- check metadata
    "partition": _f("text", "", (QUARANTINE, *ROW_CHECKS), "the partition the check judged"),
    "share": _f("float", "share", (QUARANTINE, EMPTY_SHARE), "the share the check compares with its threshold"),
    "threshold": _f("text", "", (QUARANTINE, EMPTY_SHARE), "the threshold (text, so the UI does not plot it)"),
    "quarantined": _f("int", "forums", QUARANTINE, "forums quarantined"),
    "codes": _f("json", "problems", QUARANTINE, "problems per reason code (the crawl's: the reason's first word)"),
    "examples": _f("table", "", (QUARANTINE, COVERAGE), "the first cases"),
    "status": _f("text", "", DEADLINE, "agree, agree_abstract, rolling, or the disagreement"),
    "disagreement_h": _f("float", "h", DEADLINE, "announced deadline against the invitation's, in hours"),
    "problems": _f("text", "", DEADLINE, "what disagrees"),
    "goal": _f("float", "share", COVERAGE, "the coverage the check asks for"),
    "unaccounted": _f("int", "posts", COVERAGE, "posts in no dialogue and without a reason"),
    "duplicates": _f("int", "rows", UNIQUE, "forum ids seen more than once"),
    "mismatches": _f("int", "rows", (REVIEWS_MATCH, CHARS_MATCH), "rows where the count disagrees with the content"),
    "empty_titles": _f("int", "rows", TITLE, "rows without a title"),
    "empty": _f("int", "rows", EMPTY_SHARE, "rows without markdown"),
    "blocks_downstream": _f("bool", "", BLOCKING, "whether the failure keeps the data from downstream assets",
                            FAILED),
    "how_to_override": _f("text", "", BLOCKING, "how to publish the data anyway", FAILED),
    # ---- progress observations, while a long step runs
    "progress": _f("text", "", PROGRESS, "the progress as one line: a bar, done / total, rate, estimated end"),
    "progress_stage": _f("text", "", PROGRESS, "what is counted, e.g. forums (revision pages)"),
    "progress_done": _f("int", "items", PROGRESS, "items done"),
    "progress_total": _f("int", "items", PROGRESS, "items to do"),
    "progress_share": _f("float", "share", PROGRESS, "done / total"),
    "progress_rate_per_s": _f("float", "items/s", PROGRESS, "items done per second so far"),
    "progress_eta": _f("text", "ISO time", PROGRESS, "estimated end (empty until something is done)"),
    "progress_waiting_until": _f("text", "ISO time", PROGRESS, "end of a rate-limit window being waited out"),
    "run_id": _f("text", "", PROGRESS, "the run reporting"),
    # ---- a run refused by the upstream guard (reviewbench_assets/checks.py guard_upstream)
    "failed_checks": _f("json", "", GUARD, "the upstream's failed blocking checks, with their descriptions"),
}

# Keys the Dagster layer adds (reviewbench_assets/metadata.py, checks.py, progress_sink.py), not the stages.
ADDED_BY_ASSETS = frozenset({"dagster/column_schema", "blocks_downstream", "how_to_override", "run_id",
                             "failed_checks"})


def declared(name: str, where: str) -> Figure:
    """The declaration of `name` for the stage or check `where`; an undeclared one is an error."""
    figure = FIGURES.get(name)
    if figure is None or where not in figure.where:
        raise UndeclaredFigure(f"{where} records {name!r}, which stages/figures.py does not declare for it: "
                               "add it there with its type, unit and description")
    return figure


def figures_of(where: str) -> dict[str, Figure]:
    return {k: f for k, f in FIGURES.items() if where in f.where}


def figures_markdown(where: str, checks: tuple[str, ...] = ()) -> str:
    """The stage's figures (its checks' metadata, its progress observations) as a markdown table,
    for the asset's page in the UI."""
    def row(key: str, f: Figure) -> str:
        return f"| `{key}` | {f.type} | {f.unit} | {f.description}{f' (only when {f.when})' if f.when else ''} |"

    lines = ["| key | type | unit | what it is |", "|---|---|---|---|"]
    lines += [row(k, f) for k, f in figures_of(where).items()]
    for check in checks:
        lines += [row(f"{check}: {k}", f) for k, f in figures_of(check).items()]
    if where in REPORTS_PROGRESS:
        lines += [row(f"observation: {k}", f) for k, f in figures_of(PROGRESS).items()]
    return "\n".join(lines)
