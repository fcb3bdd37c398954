"""Who owns each file under the storage root: every path of `reviewbench_assets.paths` belongs to the
one stage that writes it. A stage module may build its own stage's paths only (and the shared ones);
what it reads of another stage comes through `io.upstream` (checked by tests/test_architecture.py).

Stages are named by their asset; `conference_split` is the `<split>_split` assets and the dataset card
(corpus.py), which share the split's records."""
from __future__ import annotations

from reviewbench_assets import paths

OWNED_PATHS: dict[str, tuple[str, ...]] = {
    "openreview_forums": ("raw_forums", "crawl_errors", "quarantine", "crawl_cursor", "crawl_checkpoints",
                          "review_edit_checkpoints"),
    "parsed_forums": ("parsed", "parsed_quarantine"),
    "venue_changes": ("change_state", "change_log", "change_log_dir", "change_trajectories", "change_daily",
                      "change_daily_plot"),
    "initial_submission_pdfs": ("submissions", "submission_checkpoints", "revision_checkpoints", "pdf_source",
                                "pdf_staging"),
    "paper_markdown": ("markdown", "markdown_cache"),
    "rebuttal_dialogues": ("dialogues", "dialogue_exclusions", "re2_review", "re2_rebuttal"),
    "reviewbench_split": ("rows", "rows_reviews", "provenance", "rows_stats"),
    "conference_split": ("CORPUS_DIR", "split_stats", "split_part_dir", "split_part"),
}
# Written by the checks of every asset (reviewbench_assets/checks.py), read by the split: no stage's own;
# and the partition's run attempt (stages/attempt.py), whose answers the crawl and the PDF stage share.
SHARED_PATHS = ("check_record", "attempt")

# asset -> the files of a partition its data-guarding checks judge (what downstream stages read)
JUDGED_FILES = {
    "openreview_forums": (paths.raw_forums, paths.quarantine),
    "parsed_forums": (paths.parsed, paths.parsed_quarantine),
    "rebuttal_dialogues": (paths.dialogues, paths.re2_review, paths.re2_rebuttal),
    "reviewbench_split": (paths.rows, paths.provenance, paths.rows_reviews),
}


def owner_of(path_name: str) -> str | None:
    """The stage that writes `paths.<path_name>` (None for a shared path or an unknown name)."""
    return next((stage for stage, names in OWNED_PATHS.items() if path_name in names), None)
