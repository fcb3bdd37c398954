"""Where every file of the data path lives under the storage root, which stage owns it, and the check
verdicts recorded on it: the IO layer owns the paths (issue 28 item 1).

- `paths`: one function per file (or folder), by venue-year; the only place a path is spelled.
- `OWNED_PATHS` / `SHARED_PATHS`: every path belongs to the one stage that writes it. A stage module
  may build its own stage's paths only (and the shared ones); what it reads of another stage comes
  through `io.upstream` (checked by tests/test_architecture.py). Stages are named by their asset;
  `conference_split` is the `<split>_split` assets and the dataset card, which share the split's records.
- The corpus folder's shard files (`shard_name`, `list_split_shards`, ...): how the conference split
  names and finds its shards (`data/<split>-00000-of-0000n.parquet`), and `join_path` on `pyarrow.fs`
  paths (local or S3).
- The check verdicts (`write_verdict`, `blocking_failures`): which data-guarding checks failed for a
  partition, recorded under `checks/<pk>/<asset>.json` by the asset layer and read by the downstream
  stages that must leave such a partition out (the conference split, and so the card). A verdict
  belongs to the data it judged (issue 29.2): a record names the files it judged (`JUDGED_FILES`:
  root-relative path -> [size, modification time in ns], as published; a stage's publish rewrites its
  files, so both change), and a reader trusts it only for exactly those files. Data without a verdict
  of its own (a run killed between publishing and recording its checks, or a record of older data)
  is treated as failing until its asset is materialized again, never as passing.

Dagster-free, like the stages."""
from __future__ import annotations

import re

import pyarrow.fs as pafs

from resources.store import Store


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
        """The partition's unfinished attempt: its run and the answers it received (stages/stage.py, open_attempt)."""
        return f"checkpoints/attempt/{pk}"

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
        """Each forum's revision-history answers as received (stages/pdf_fetch.py: RevisionAnswers)."""
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
# Written by the checks of every asset (the verdicts below), read by the split: no stage's own;
# and the partition's run attempt (stages/stage.py, open_attempt), whose answers the crawl and the PDF stage share.
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


# ---- check verdicts ---------------------------------------------------------------------------------

def judged_data(store: Store, partition_key: str, asset: str) -> dict[str, list[int]]:
    """The asset's data of this partition as it is now: root-relative path -> [size, mtime_ns]."""
    out = {}
    for where in JUDGED_FILES.get(asset, ()):
        info = store.fs.get_file_info(store.path(where(partition_key)))
        if info.type == pafs.FileType.File:
            out[where(partition_key)] = [info.size, info.mtime_ns]
    return out


def write_verdict(store: Store, partition_key: str, asset: str, failed: dict[str, str], overridden: bool) -> None:
    """Record the blocking checks that failed (name -> description) for the asset's data as it is now."""
    store.write_json(store.path(paths.check_record(partition_key, asset)),
                     {"failed": failed, "overridden": bool(failed) and overridden,
                      "judged": judged_data(store, partition_key, asset)})


def blocking_failures(store: Store, partition_key: str, assets: list[str]) -> dict[str, str]:
    """`asset.check` -> description of the blocking checks that failed (and were not overridden) for
    this partition's data as it is now; `asset.verdict` when that data has no verdict of its own."""
    out = {}
    for asset in assets:
        record = store.path(paths.check_record(partition_key, asset))
        # the data and its record as of one moment (a publish of the data is followed by its record)
        with store.snapshot([record, *(store.path(w(partition_key)) for w in JUDGED_FILES.get(asset, ()))]) as view:
            now = judged_data(view, partition_key, asset)
            rec = view.read_json_or_none(record)
        if asset in JUDGED_FILES and now and (not isinstance(rec, dict) or rec.get("judged") != now):
            out[f"{asset}.verdict"] = (
                f"its data ({', '.join(sorted(now))}) has no check verdict of its own: published after its "
                f"checks were last recorded (a run killed in between?) or never judged; re-materialize {asset} "
                f"for {partition_key} to judge it")
        elif rec and rec.get("failed") and not rec.get("overridden"):
            out.update({f"{asset}.{name}": desc for name, desc in rec["failed"].items()})
    return out


# ---- the corpus folder's shard files: names, listing, path joining on `pyarrow.fs` paths -------------

# HF split names must match r"^\w+(\.\w+)*$"; we also forbid "." and "-" so that the
# `data/<split>-*` glob of one split can never match another split's shards.
NAME_RE = re.compile(r"^[A-Za-z0-9_]+$")


def join_path(*parts: str) -> str:
    """Join filesystem path parts with "/" (pyarrow paths are always "/"-separated), skipping
    empty parts so that a ``SubTreeFileSystem`` root "" works."""
    out = ""
    for part in parts:
        if not part:
            continue
        out = part if not out else f"{out.rstrip('/')}/{part.lstrip('/')}"
    return out


def shard_name(split: str, index: int, count: int) -> str:
    return f"{split}-{index:05d}-of-{count:05d}.parquet"


def shard_pattern(prefix: str) -> re.Pattern:
    return re.compile(rf"^{re.escape(prefix)}-\d{{5}}-of-\d{{5}}\.parquet$")


def next_generation(listing: dict[str, int], split: str, pk: str, previous: str | None) -> str:
    """The generation tag of a venue-year part about to be written (its shards are named
    `<split>[_train|_test]-<pk>-g<n>-i-of-n.parquet`): one more than the part's previous generation
    and than any of its shards still on disk (`listing`: `corpus_listing`), so a part written again
    never replaces a file that README.md lists (the split's publication switches README.md to the new
    names, then deletes the old ones), and two runs of the same history name their files alike."""
    name = re.compile(rf"^{re.escape(split)}(?:_[A-Za-z]+)?-{re.escape(pk)}-g(\d+)-\d{{5}}-of-\d{{5}}\.parquet$")
    seen = [int(m.group(1)) for p in listing if (m := name.match(p.rsplit("/", 1)[-1]))]
    if previous and previous.startswith("g") and previous[1:].isdigit():
        seen.append(int(previous[1:]))
    return f"g{max(seen, default=0) + 1:06d}"


# The corpus folders that hold shards (the default config's `data` and the extra configs).
CORPUS_SHARD_DIRS = ("data", "reviews", "provenance", "review", "rebuttal")


def corpus_listing(store, corpus: str) -> dict[str, int]:
    """{corpus-relative path: size} of every published file of the shard folders (one listing per
    folder; staging names, which start with '.', left out as `datasets` leaves hidden files out)."""
    return {f"{folder}/{info.base_name}": int(info.size or 0) for folder in CORPUS_SHARD_DIRS
            for info in list_files(store.fs, join_path(corpus, folder)) if not info.base_name.startswith(".")}


def read_parts(store, split: str) -> list[dict]:
    """A conference split's part records as published (`corpus_stats/<split>/<pk>.json`), by key."""
    return [store.read_json(i.path) for i in sorted(list_files(store.fs, store.path(paths.split_part_dir(split))),
                                                  key=lambda i: i.base_name) if i.base_name.endswith(".json")]


def list_files(fs: pafs.FileSystem, directory: str) -> list[pafs.FileInfo]:
    sel = pafs.FileSelector(directory, allow_not_found=True, recursive=False)
    return [i for i in fs.get_file_info(sel) if i.type == pafs.FileType.File]


def list_split_shards(fs: pafs.FileSystem, out_dir: str, split: str) -> list[str]:
    """Final shard paths of ``split`` under ``out_dir/data``, sorted by name (= shard order)."""
    pat = shard_pattern(split)
    return sorted(
        i.path for i in list_files(fs, join_path(out_dir, "data")) if pat.match(i.base_name)
    )


def check_name(kind: str, name: str) -> None:
    if not NAME_RE.match(name or ""):
        raise ValueError(f"invalid {kind} name {name!r}: use letters, digits and '_' only")


PREFIX_RE = re.compile(r"^[A-Za-z0-9_]+(-[A-Za-z0-9_]+)*$")


def check_prefix(prefix: str) -> str:
    """A shard name prefix: a split name, or split and venue-year joined by '-' (no '/', no '..')."""
    if not PREFIX_RE.match(prefix or ""):
        raise ValueError(f"invalid shard prefix {prefix!r}: use letters, digits, '_' and single '-'")
    return prefix


def file_size(fs: pafs.FileSystem, path: str) -> int:
    return int(fs.get_file_info(path).size or 0)
