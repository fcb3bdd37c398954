"""Where each stage keeps its files under the storage root (one place, so stages agree)."""


def raw_forums(pk: str) -> str:
    return f"raw/forums/{pk}.jsonl"


def crawl_errors(pk: str) -> str:
    return f"raw/forums/{pk}.errors.jsonl"


def quarantine(pk: str) -> str:
    return f"raw/forums/{pk}.quarantine.jsonl"


def crawl_cursor(pk: str) -> str:
    return f"raw/forums/{pk}.cursor.json"


def crawl_checkpoints(pk: str) -> str:
    return f"checkpoints/forums/{pk}"


def attempt(pk: str) -> str:
    """The partition's unfinished attempt: its run and the answers it received (stages/attempt.py)."""
    return f"checkpoints/attempt/{pk}"


def review_edit_checkpoints(pk: str) -> str:
    return f"checkpoints/review_edits/{pk}"


def submissions(pk: str) -> str:
    return f"submissions/{pk}.parquet"


def submission_checkpoints(pk: str) -> str:
    return f"checkpoints/submissions/{pk}"


def revision_checkpoints(pk: str) -> str:
    """Each forum's revision-history answers as received (stages/revision_answers.py)."""
    return f"checkpoints/revisions/{pk}"


def pdf_source(forum_id: str, key: str) -> str:
    """Which stored PDF a forum's chosen revision resolved to (stages/pdf_choice.py: written
    before the PDF itself, so a stored PDF is always found again without a download)."""
    return f"pdf_sources/{forum_id}/{key}.json"


def pdf_staging(name: str) -> str:
    """A download as it arrives, and its completion record (stages/pdf_fetch.py: fetch_staged)."""
    return f"pdf_staging/{name}"


def markdown(pk: str) -> str:
    return f"markdown/{pk}.parquet"


def markdown_cache(engine: str, sha256: str) -> str:
    return f"cache/markdown/{engine}/{sha256[:2]}/{sha256}.json"


def dialogues(pk: str) -> str:
    return f"dialogues/{pk}.jsonl"


def dialogue_exclusions(pk: str) -> str:
    return f"dialogues/{pk}.excluded.jsonl"


def re2_review(pk: str) -> str:
    return f"re2/{pk}.review.parquet"


def re2_rebuttal(pk: str) -> str:
    return f"re2/{pk}.rebuttal.parquet"


def rows(pk: str) -> str:
    return f"rows/{pk}.parquet"


def provenance(pk: str) -> str:
    return f"rows/{pk}.provenance.parquet"


def rows_reviews(pk: str) -> str:
    """One row per review of the venue-year's papers (the `reviews` config, schema.REVIEWS_CONFIG_SCHEMA)."""
    return f"rows/{pk}.reviews.parquet"


def rows_stats(pk: str) -> str:
    """The venue-year's statistics (per venue-year key), computed once as its rows are written."""
    return f"rows/{pk}.stats.json"


CORPUS_DIR = "corpus"


def split_stats(split: str) -> str:
    return f"corpus_stats/{split}.json"


def split_part_dir(split: str) -> str:
    return f"corpus_stats/{split}"


def split_part(split: str, pk: str) -> str:
    """One venue-year's part of a conference split: its inputs' fingerprint, files and statistics."""
    return f"corpus_stats/{split}/{pk}.json"


def check_record(pk: str, asset: str) -> str:
    """The outcome of an asset's data-guarding checks for one partition (reviewbench_assets/checks.py)."""
    return f"checks/{pk}/{asset}.json"


def parsed(pk: str) -> str:
    return f"parsed/{pk}.parquet"


def parsed_quarantine(pk: str) -> str:
    return f"parsed/{pk}.quarantine.parquet"


def change_state(pk: str) -> str:
    """The last refresh's snapshot of every forum (domain/changes.py), one row per forum."""
    return f"changes/{pk}/state.parquet"


def change_log(pk: str, refreshed_at: str) -> str:
    """The changes one refresh found (hive-style `refresh=` folder: DuckDB's hive_partitioning reads it)."""
    return f"changes/{pk}/log/refresh={refreshed_at}/changes.parquet"


def change_log_dir(pk: str) -> str:
    return f"changes/{pk}/log"


def change_trajectories(pk: str) -> str:
    """Each review's score trajectory: edit history and daily observations merged, with the source."""
    return f"changes/{pk}/trajectories.parquet"


def change_daily(pk: str) -> str:
    return f"changes/{pk}/daily.parquet"


def change_daily_plot(pk: str) -> str:
    return f"changes/{pk}/daily.png"
