"""Where every file of the data path lives under the storage root, and which stage owns it: the IO
layer owns the paths (issue 28 item 1).

- `paths`: one function per file (or folder), by venue-year; the only place a path is spelled.
- every path belongs to the one stage that declares it in its `writes` (`Stage.writes`;
  reviewbench_assets/data_path.py derives the table of owners), but `SHARED_PATHS`, which belong to no
  stage. What a stage reads of another comes through `io.upstream` (checked by tests/test_architecture.py).

The check verdicts recorded on these files are `io/verdicts.py`'s, the corpus folder's shard names
`io/shards.py`'s. Dagster-free, like the stages."""
from __future__ import annotations


class paths:  # a namespace, lower-case as its call sites read: `paths.raw_forums(pk)`
    """The storage root's layout, one function per file, so stages agree."""

    @staticmethod
    def raw_forums(pk: str) -> str:
        return f"raw/forums/{pk}.jsonl"

    @staticmethod
    def crawl_errors(pk: str) -> str:
        return f"raw/forums/{pk}.errors.jsonl"

    @staticmethod
    def quarantine(pk: str) -> str:
        return f"raw/forums/{pk}.quarantine.jsonl"

    @staticmethod
    def crawl_cursor(pk: str) -> str:
        return f"raw/forums/{pk}.cursor.json"

    @staticmethod
    def crawl_checkpoints(pk: str) -> str:
        return f"checkpoints/forums/{pk}"

    @staticmethod
    def attempt(pk: str) -> str:
        """The partition's unfinished attempt: its run and the answers it received (io/attempt.py, open_attempt)."""
        return f"checkpoints/attempt/{pk}"

    @staticmethod
    def final_answers(pk: str) -> str:
        """A closed venue-year's venue-level answers, final, kept across runs (io/attempt.py, open_attempt)."""
        return f"checkpoints/final/{pk}"

    @staticmethod
    def review_edit_checkpoints(pk: str) -> str:
        return f"checkpoints/review_edits/{pk}"

    @staticmethod
    def submissions(pk: str) -> str:
        return f"submissions/{pk}.parquet"

    @staticmethod
    def submission_checkpoints(pk: str) -> str:
        return f"checkpoints/submissions/{pk}"

    @staticmethod
    def revision_checkpoints(pk: str) -> str:
        """Each forum's revision-history answers as received (stages/revision_answers.py: RevisionAnswers)."""
        return f"checkpoints/revisions/{pk}"

    @staticmethod
    def pdf_source(forum_id: str, key: str) -> str:
        """Which stored PDF a forum's chosen revision resolved to (stages/pdf_fetch.py: written
        before the PDF itself, so a stored PDF is always found again without a download)."""
        return f"pdf_sources/{forum_id}/{key}.json"

    @staticmethod
    def pdf_staging(name: str) -> str:
        """A download as it arrives, and its completion record (stages/pdf_fetch.py: fetch_staged)."""
        return f"pdf_staging/{name}"

    @staticmethod
    def markdown(pk: str) -> str:
        return f"markdown/{pk}.parquet"

    @staticmethod
    def markdown_cache(engine: str, sha256: str) -> str:
        return f"cache/markdown/{engine}/{sha256[:2]}/{sha256}.json"

    @staticmethod
    def dialogues(pk: str) -> str:
        return f"dialogues/{pk}.jsonl"

    @staticmethod
    def dialogue_exclusions(pk: str) -> str:
        return f"dialogues/{pk}.excluded.jsonl"

    @staticmethod
    def re2_review(pk: str) -> str:
        return f"re2/{pk}.review.parquet"

    @staticmethod
    def re2_rebuttal(pk: str) -> str:
        return f"re2/{pk}.rebuttal.parquet"

    @staticmethod
    def rows(pk: str) -> str:
        return f"rows/{pk}.parquet"

    @staticmethod
    def provenance(pk: str) -> str:
        return f"rows/{pk}.provenance.parquet"

    @staticmethod
    def rows_reviews(pk: str) -> str:
        """One row per review of the venue-year's papers (the `reviews` config, schema.REVIEWS_CONFIG_SCHEMA)."""
        return f"rows/{pk}.reviews.parquet"

    @staticmethod
    def rows_stats(pk: str) -> str:
        """The venue-year's statistics (per venue-year key), computed once as its rows are written."""
        return f"rows/{pk}.stats.json"

    CORPUS_DIR = "corpus"

    @staticmethod
    def split_stats(split: str) -> str:
        return f"corpus_stats/{split}.json"

    @staticmethod
    def card_checksum() -> str:
        """README.md's sha256, published with it by each of its writers (the splits' manifest, the card)."""
        return "corpus_stats/README.sha256.json"

    @staticmethod
    def split_part_dir(split: str) -> str:
        return f"corpus_stats/{split}"

    @staticmethod
    def split_part(split: str, pk: str) -> str:
        """One venue-year's part of a conference split: its inputs' fingerprint, files and statistics."""
        return f"corpus_stats/{split}/{pk}.json"

    @staticmethod
    def check_record(pk: str, asset: str) -> str:
        """The outcome of an asset's data-guarding checks for one partition (reviewbench_assets/dagster_step.py)."""
        return f"checks/{pk}/{asset}.json"

    @staticmethod
    def parsed(pk: str) -> str:
        return f"parsed/{pk}.parquet"

    @staticmethod
    def parsed_quarantine(pk: str) -> str:
        return f"parsed/{pk}.quarantine.parquet"

    @staticmethod
    def change_state(pk: str) -> str:
        """The last refresh's snapshot of every forum (domain/changes.py), one row per forum."""
        return f"changes/{pk}/state.parquet"

    @staticmethod
    def change_log(pk: str, refreshed_at: str) -> str:
        """The changes one refresh found (hive-style `refresh=` folder: DuckDB's hive_partitioning reads it)."""
        return f"changes/{pk}/log/refresh={refreshed_at}/changes.parquet"

    @staticmethod
    def change_log_dir(pk: str) -> str:
        return f"changes/{pk}/log"

    @staticmethod
    def change_trajectories(pk: str) -> str:
        """Each review's score trajectory: edit history and daily observations merged, with the source."""
        return f"changes/{pk}/trajectories.parquet"

    @staticmethod
    def change_daily(pk: str) -> str:
        return f"changes/{pk}/daily.parquet"

    @staticmethod
    def change_daily_plot(pk: str) -> str:
        return f"changes/{pk}/daily.png"

    # ---- resubmissions (corpus-level: every venue-year's submissions linked, issue 37 items 2-3)
    @staticmethod
    def resubmission_records(pk: str) -> str:
        """The venue-year's submissions as the linking rule reads them, kept so that a run re-reads
        only the venue-years whose parsed forums or text changed."""
        return f"resubmissions/records/{pk}.parquet"

    RESUBMISSION_STATE = "resubmissions/state.json"  # each venue-year's inputs' fingerprint and records' digest
    RESUBMISSION_LINKS = "resubmissions/links.parquet"  # one row per link, with its evidence and confidence
    RESUBMISSION_CHAINS = "resubmissions/chains.parquet"  # one row per chain: the `resubmissions` config
    RESUBMISSION_LEFT_ALONE = "resubmissions/left_alone.parquet"  # records not judged, with the reason


# Written by the checks of every asset (the verdicts, io/verdicts.py), read by the split: no stage's own;
# and the partition's run attempt (io/attempt.py, open_attempt), whose answers the crawl and the PDF stage share,
# with the final answers of a closed venue-year beside it.
SHARED_PATHS = ("check_record", "attempt", "final_answers")

