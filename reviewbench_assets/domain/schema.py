"""The output contract: the ReviewBench card's 20 columns and its `reviews_json` field union, and
every table the stages write on the way (pure declarations, no Dagster, no code that runs on the
data). Everything that writes or checks a split imports these names so the contract lives in exactly
one place (docs/reviewbench-dataset-card.md).

The values that fill them live with their concern: typed reviews (the strict model built from these
field lists, `reviews_json`, the `reviews` config's rows) in domain/reviews.py; the parsed table's
row (`parsed_row`, `forum_of`) in domain/forum.py, each post's place (`post_placements`) in
domain/routing.py.
"""
from __future__ import annotations

import pyarrow as pa

from partitions.catalogue import catalogue

# Order and types exactly as the card's `dataset_info.features`.
REVIEWBENCH_SCHEMA = pa.schema(
    [
        pa.field("forum_id", pa.string()),
        pa.field("conference", pa.string()),
        pa.field("year", pa.int32()),
        pa.field("track", pa.string()),
        pa.field("venue_id", pa.string()),
        pa.field("paper_number", pa.int32()),  # nullable
        pa.field("title", pa.string()),
        pa.field("abstract", pa.string()),
        pa.field("authors", pa.list_(pa.string())),
        pa.field("keywords", pa.list_(pa.string())),
        pa.field("tldr", pa.string()),
        pa.field("primary_area", pa.string()),
        pa.field("venue", pa.string()),
        pa.field("decision", pa.string()),
        pa.field("decision_comment", pa.string()),
        pa.field("author_rebuttal", pa.string()),
        pa.field("num_reviews", pa.int32()),
        pa.field("reviews_json", pa.string()),
        pa.field("markdown", pa.string()),
        pa.field("markdown_chars", pa.int64()),
    ]
)
REVIEWBENCH_COLUMNS: list[str] = REVIEWBENCH_SCHEMA.names

# What each column holds: the dataset card's Schema table and the column schema Dagster shows
# (reviewbench_assets/dagster_step.py: column_schema) both read this, so they cannot disagree.
COLUMN_DESCRIPTIONS: dict[str, str] = {
    "forum_id": "OpenReview forum ID — primary key",
    "conference": "`neurips` / `iclr` / `icml` / `tmlr` / `emnlp` / `corl` / `colm`",
    "year": "Conference year (for TMLR: the year of the paper's submission)",
    "track": "`main` / `datasets_and_benchmarks` / `findings` / etc.",
    "venue_id": "OpenReview venue ID, e.g. `NeurIPS.cc/2024/Conference`",
    "paper_number": "Submission number (nullable)",
    "title": "Paper title",
    "abstract": "Paper abstract",
    "authors": "Author names as listed on OpenReview (empty when anonymous)",
    "keywords": "Author-supplied keywords",
    "tldr": "TL;DR field of the submission form; `\"\"` if the form has none",
    "primary_area": "Primary (subject) area of the submission form; `\"\"` if the form has none",
    "venue": 'Final venue string, e.g. `"NeurIPS 2024 poster"`',
    "decision": "`Accept (poster)`, `Accept (oral)`, `Reject`, etc.",
    "decision_comment": "Area-chair meta-review",
    "author_rebuttal": "General rebuttal; empty when per-reviewer rebuttals are used",
    "num_reviews": "Convenience count",
    "reviews_json": "All reviews as a JSON string (`json.dumps(list[dict])`, one dict per review)",
    "markdown": "OCR'd full text of the initial submission PDF; `\"\"` if unavailable",
    "markdown_chars": "`len(markdown)` for fast filtering",
}
assert set(COLUMN_DESCRIPTIONS) == set(REVIEWBENCH_COLUMNS), "every column needs a description"

# Page boundary inside `markdown` (the card's OCR section).
PAGE_SEPARATOR = "\n\n---\n\n"

# The union of every review form, in the card's order: the normaliser's own fields around the form
# fields the catalogue lists (`vocabulary.review_fields` in partitions/venues.yaml, never code).
# Absent text fields are "", absent scores None.
_UNION = catalogue().vocabulary.review_fields
REVIEW_TEXT_FIELDS: list[str] = ["review_id", "reviewer", "rebuttal", *_UNION.text]
REVIEW_SCORE_FIELDS: list[str] = list(_UNION.scores)
REVIEW_FLAG_FIELDS: list[str] = ["was_revised"]
REVIEW_DICT_FIELDS: list[str] = ["extra_scores", "extra_text"]
# How the scores moved: [{"time", "rating", "confidence", "edit_id"}, ...] oldest first, from the
# review's crawled edit history; one entry for a review never edited, [] when it was edited but
# its history was not crawled (domain/reviews.py: score_history).
REVIEW_HISTORY_FIELDS: list[str] = ["score_history"]
REVIEW_FIELDS: list[str] = (
    REVIEW_TEXT_FIELDS + REVIEW_SCORE_FIELDS + REVIEW_FLAG_FIELDS + REVIEW_DICT_FIELDS + REVIEW_HISTORY_FIELDS
)

# One review, typed (issue 28.3): the parsed table's `reviews` column is a list of these and the
# `reviews` config has one row per review with these columns; `reviews_json` is derived from it
# (`reviews_json` below). The venue-specific extras are name/value lists, not Arrow maps: the Hugging
# Face `datasets` library has no feature type for a map, and a list keeps the form's order.
SCORE_POINT = pa.struct([("time", pa.int64()), ("rating", pa.float64()), ("confidence", pa.float64()),
                         ("edit_id", pa.string())])
EXTRA_SCORE = pa.struct([("name", pa.string()), ("value", pa.float64())])
EXTRA_TEXT = pa.struct([("name", pa.string()), ("value", pa.string())])
REVIEW_FIELD_TYPES: list[pa.Field] = (
    [pa.field(f, pa.string()) for f in REVIEW_TEXT_FIELDS]
    + [pa.field(f, pa.float64()) for f in REVIEW_SCORE_FIELDS]
    + [pa.field("was_revised", pa.bool_()),
       pa.field("extra_scores", pa.list_(EXTRA_SCORE)), pa.field("extra_text", pa.list_(EXTRA_TEXT)),
       pa.field("score_history", pa.list_(SCORE_POINT))]
)
assert [f.name for f in REVIEW_FIELD_TYPES] == REVIEW_FIELDS
REVIEW_STRUCT = pa.struct(REVIEW_FIELD_TYPES)
# The `reviews` config (`reviews/<split>-<pk>-i-of-n.parquet`; `rows/<pk>.reviews.parquet` of the
# rows stage): one row per review, its paper's key and venue-year, then the review's typed fields.
REVIEWS_CONFIG_SCHEMA = pa.schema(
    [pa.field("forum_id", pa.string()), pa.field("conference", pa.string()), pa.field("year", pa.int32()),
     pa.field("track", pa.string()), pa.field("venue_id", pa.string()),
     pa.field("review_index", pa.int32()),  # the review's place in its paper's reviews_json
     pa.field("license", pa.string())]  # the review note's own license, "unknown" where it has none
    + REVIEW_FIELD_TYPES
)


# paper_markdown's output (`markdown/<pk>.parquet`), read by reviewbench_split.
MARKDOWN_SCHEMA = pa.schema([("forum_id", pa.string()), ("markdown", pa.string()),
                             ("num_pages", pa.int32()), ("engine", pa.string()), ("model", pa.string()),
                             ("pdf_sha256", pa.string()), ("error", pa.string()),
                             # JSON list of the blocks that fell back to plain text, and why
                             # (ocr_ray.layout.fallback): {"page", "rule", "reason", "detail"}
                             ("fallbacks", pa.string())])

# initial_submission_pdfs' output (`submissions/<pk>.parquet`): the chosen revision per forum.
SUBMISSIONS_SCHEMA = pa.schema([
    ("forum_id", pa.string()), ("rule", pa.string()), ("reason", pa.string()),
    ("revision_id", pa.string()), ("revision_tcdate", pa.int64()), ("deadline_ms", pa.int64()),
    ("revision_source", pa.string()), ("cross_check", pa.string()),
    ("pdf_sha256", pa.string()), ("pdf_size", pa.int64()), ("pdf_pages", pa.int32()),
    ("pdf_path", pa.string()), ("error", pa.string()), ("fingerprint", pa.string()),
    ("pdf_fetch", pa.string()),  # "single" (one request), "batch" (/attachment?ids= zip), None
    # the instant "at or before the deadline" was judged by, and why (domain/revisions.py judge_deadline)
    ("cutoff_ms", pa.int64()), ("cutoff_rule", pa.string()),
    # OpenReview requests spent on this forum: revision discovery (browser page + API) and PDFs
    # (a batched zip request is shared among its forums)
    ("revision_requests", pa.float64()), ("pdf_requests", pa.float64()),
    # True: the error is the forum's answer (404, not a PDF, over a cap); False: transient (5xx after
    # retries, no answer), the forum is done again by the next run. None when there is no error.
    ("error_final", pa.bool_()),
    # the error's reason code (stages/pdf_fetch.py: revision_history_unreadable, pdf_download_failed,
    # pdf_invalid), its words in `error`; None without an error and in tables written before codes
    ("error_code", pa.string()),
])

# reviewbench_split's provenance rows (`rows/<pk>.provenance.parquet`, the `provenance` config).
PROVENANCE_SCHEMA = pa.schema([
    ("forum_id", pa.string()), ("conference", pa.string()), ("year", pa.int32()), ("track", pa.string()),
    ("venue_id", pa.string()), ("status", pa.string()), ("revision_rule", pa.string()),
    ("revision_reason", pa.string()), ("revision_id", pa.string()), ("revision_tcdate", pa.int64()),
    ("deadline_ms", pa.int64()), ("cutoff_ms", pa.int64()), ("cutoff_rule", pa.string()),
    ("revision_source", pa.string()), ("pdf_sha256", pa.string()),
    ("pdf_size", pa.int64()), ("pdf_pages", pa.int32()), ("ocr_engine", pa.string()),
    ("ocr_model", pa.string()), ("markdown_error", pa.string()), ("crawled_at", pa.float64()),
    ("license", pa.string()),  # the submission note's own license (API v2), "unknown" where it has none
])

# rebuttal_dialogues' Re^2 records (`re2/<pk>.{review,rebuttal}.parquet`) and the published
# `review`/`rebuttal` configs (records + provenance), built in domain/dialogues.py.
RE2_SCORE = pa.struct([("rating", pa.float64()), ("confidence", pa.float64()),
                    ("aspect_score", pa.string())])  # aspect_score: JSON object name -> number
RE2_REVIEW = pa.struct([
    ("reviewer_id", pa.string()), ("review_id", pa.string()), ("review_title", pa.string()),
    ("review_content", pa.string()), ("initial_score", RE2_SCORE), ("final_score", RE2_SCORE),
    ("initial_score_source", pa.string()), ("tcdate", pa.int64()), ("tmdate", pa.int64()),
    ("score_history", pa.list_(SCORE_POINT)),
])
PROVENANCE_FIELDS = [
    ("revision_rule", pa.string()), ("pdf_sha256", pa.string()), ("ocr_engine", pa.string()),
    ("ocr_model", pa.string()), ("crawled_at", pa.float64()),
]
# What rebuttal_dialogues writes per venue-year (the split is assigned when a config is assembled).
REVIEW_RECORD_SCHEMA = pa.schema([
    ("paper_id", pa.string()), ("conference_year_track", pa.string()), ("conference", pa.string()),
    ("year", pa.int32()), ("track", pa.string()), ("venue_id", pa.string()),
    ("reviews", pa.list_(RE2_REVIEW)), ("metareview", pa.string()), ("decision", pa.string()),
    ("venue", pa.string()),
])
RE2_MESSAGE = pa.struct([("role", pa.string()), ("content", pa.string())])
REBUTTAL_RECORD_SCHEMA = pa.schema([
    ("paper_id", pa.string()), ("conference_year_track", pa.string()), ("conference", pa.string()),
    ("year", pa.int32()), ("track", pa.string()), ("venue_id", pa.string()),
    ("reviewer_id", pa.string()), ("review_id", pa.string()),
    ("root_kind", pa.string()),  # "review", or "reviewer_comment": a reviewer without an official review
    ("messages", pa.list_(RE2_MESSAGE)),
    ("message_note_ids", pa.list_(pa.list_(pa.string()))), ("merged_by", pa.string()),
    ("turn_merged_by", pa.list_(pa.string())), ("reminders_by", pa.string()),
    ("dropped_reminder_ids", pa.list_(pa.string())),
])
# The published configs: the records + provenance joined from the venue-year provenance rows.
REVIEW_CONFIG_SCHEMA = pa.schema(list(REVIEW_RECORD_SCHEMA) + [pa.field(n, t) for n, t in PROVENANCE_FIELDS])
REBUTTAL_CONFIG_SCHEMA = pa.schema(list(REBUTTAL_RECORD_SCHEMA) + [pa.field(n, t) for n, t in PROVENANCE_FIELDS])


# parsed_forums' output (`parsed/<pk>.parquet`): one row per forum, the parser's one result. The
# ReviewBench columns a row takes from its forum (all but markdown; the reviews typed, queryable:
# `unnest(reviews)`, from which the rows derive `reviews_json`), what the split's provenance and the
# checks need, every post with its place in the dialogues (queryable: `unnest(posts)`), and the
# whole parsed forum and its routing as JSON for the stages that need every field.
PARSED_POST = pa.struct([
    ("note_id", pa.string()), ("replyto", pa.string()), ("kind", pa.string()), ("role", pa.string()),
    ("signature", pa.string()), ("tcdate", pa.int64()), ("deleted", pa.bool_()),
    ("place", pa.string()),  # thread | reference_context | excluded | none (not an author/reviewer voice)
    ("thread", pa.string()),  # root note id of its thread (place == "thread")
    ("reason", pa.string()),  # why excluded: the words
    ("code", pa.string()),  # why excluded: the reason code (domain/routing.py EXCLUSION_CODES)
])
PARSED_SCHEMA = pa.schema(
    [pa.field("reviews", pa.list_(REVIEW_STRUCT)) if f.name == "reviews_json" else f
     for f in REVIEWBENCH_SCHEMA if f.name not in ("markdown", "markdown_chars")]
    + [pa.field("ordinal", pa.int64()),  # position in the crawl's file (rows keep the crawl's order)
       pa.field("status", pa.string()), pa.field("api", pa.string()), pa.field("crawled_at", pa.float64()),
       pa.field("posts", pa.list_(PARSED_POST)), pa.field("warnings", pa.list_(pa.string())),
       pa.field("forum_json", pa.string()), pa.field("routing_json", pa.string()),
       # the submission note as OpenReview sent it, without its replies: what the PDF stage judges
       # revisions by (invitations, pdf, tmdate) and answers a revision page's own note lookup with
       pa.field("submission_json", pa.string()),
       # the notes' own licenses: the submission's, and each review's in `reviews` order (None: none)
       pa.field("license", pa.string()), pa.field("review_licenses", pa.list_(pa.string()))])
# `parsed/<pk>.quarantine.parquet`: every reason a forum needs a look, as a code and the detail, made
# together by the rule that found it (posts.Reason; domain/routing.py lists the codes); a forum
# that cannot be parsed at all has no row in parsed/<pk>.parquet.
PARSED_QUARANTINE_SCHEMA = pa.schema([("forum_id", pa.string()), ("code", pa.string()), ("detail", pa.string()),
                                      ("parsed", pa.bool_())])
