"""What one venue-year's stage reads of the stages before it, one method per input: the only place a
stage's files are opened by another stage (io/layout.py says who owns which). Each input is read as
its stage wrote it, streamed where it can be large (one batch of rows, one row group at a time), and
through a snapshot (`Store.snapshot`): a file that its stage publishes with others, or a set of such
files, is read as of one moment, never half a publication of a writer running at the same time."""
from __future__ import annotations

import json
from collections.abc import Iterator

from resources.store import Store, open_parquet
from reviewbench_assets import paths
from reviewbench_assets.domain.parsed_table import forum_of
from reviewbench_assets.domain.posts import ParsedForum
from reviewbench_assets.domain.routing import Routing
from reviewbench_assets.stages.parquet_io import ParquetLookup, iter_parquet_batches

# What the rows step writes as one publication (stages/rows_writer.py): one of them alone is a broken set.
ROWS_SET = {"rows": paths.rows, "reviews": paths.rows_reviews, "provenance": paths.provenance, "stats": paths.rows_stats}


class MissingStageOutputError(FileNotFoundError):
    pass


class SubmissionNotes(ParquetLookup):
    """Raw submission notes of the parsed table by forum id: `get(forum_id)` -> (API version, note)."""

    def __init__(self, store: Store, path: str):
        super().__init__(store, path, columns=["api", "submission_json"])

    def note(self, forum_id: str) -> tuple[str, dict] | None:
        row = self.get(forum_id)
        return None if row is None else (row["api"], json.loads(row["submission_json"]))


class Upstream:
    """The inputs of one venue-year (`pk`) in `store`. `OWNERS`: whose files each reader opens (a
    stage may call a reader only when those assets are its direct upstream: tests/test_architecture.py)."""

    OWNERS = {"raw_forums": ("openreview_forums",), "parsed_rows": ("parsed_forums",),
              "parsed_forums": ("parsed_forums",), "submission_notes": ("parsed_forums",),
              "submission_note_lookup": ("parsed_forums",), "pdf_records": ("initial_submission_pdfs",),
              "markdown": ("paper_markdown",), "has_rows": ("reviewbench_split",),
              "split_inputs": ("reviewbench_split", "rebuttal_dialogues"), "daily_changes": ("venue_changes",)}

    def __init__(self, store: Store, pk: str):
        self.store, self.pk = store, pk

    def _required(self, rel: str, asset: str) -> str:
        path = self.store.path(rel)
        if not self.store.exists(path):
            raise MissingStageOutputError(f"{self.pk}: {path} does not exist: materialize {asset} for {self.pk} first")
        return path

    # -- openreview_forums -> parsed_forums
    def raw_forums(self) -> Iterator[dict]:
        """The crawl's records (one forum with every reply each), in crawl order."""
        path = self.store.path(paths.raw_forums(self.pk))
        with self.store.snapshot([path]) as view:
            yield from view.iter_jsonl(path, scrub_surrogates=True)

    # -- parsed_forums -> initial_submission_pdfs, rebuttal_dialogues, venue_changes, reviewbench_split
    def parsed_rows(self, columns: list[str], batch_rows: int = 64) -> Iterator[dict]:
        """The chosen columns of the venue-year's parsed rows, in crawl order."""
        path = self._required(paths.parsed(self.pk), "parsed_forums")
        with self.store.snapshot([path]) as view:
            for batch in iter_parquet_batches(view.fs, path, batch_rows, columns=columns):
                yield from batch.to_pylist()

    def parsed_forums(self, batch_rows: int = 32) -> Iterator[tuple[ParsedForum, Routing]]:
        """Each parsed forum of the venue-year with its routing, in crawl order."""
        for row in self.parsed_rows(["forum_json", "routing_json", "reviews"], batch_rows):
            yield forum_of(row)

    def _parsed_with_notes(self) -> str:
        """The parsed table's path, refused when it was written before it kept the submission notes."""
        path = self._required(paths.parsed(self.pk), "parsed_forums")
        with self.store.fs.open_input_file(path) as f:
            names = open_parquet(self.store.fs, path, f).schema_arrow.names
        if "submission_json" not in names:
            raise MissingStageOutputError(f"{self.pk}: {path} was written before the parsed table kept each forum's "
                                          f"submission note: re-materialize parsed_forums for {self.pk} (no request)")
        return path

    def submission_notes(self, batch_rows: int = 256) -> Iterator[tuple[str, str, dict]]:
        """(forum id, API version, raw submission note without replies) of each parsed forum, in
        crawl order."""
        self._parsed_with_notes()
        for row in self.parsed_rows(["forum_id", "api", "submission_json"], batch_rows):
            yield row["forum_id"], row["api"], json.loads(row["submission_json"])

    def submission_note_lookup(self) -> SubmissionNotes:
        """The same notes looked up by forum id (one row group of the parsed table held at a time)."""
        path = self._parsed_with_notes()
        return SubmissionNotes(self.store.snapshot([path]), path)  # pinned while the lookup lives

    # -- initial_submission_pdfs -> paper_markdown, reviewbench_split
    def pdf_records(self, columns: list[str] | None = None) -> list[dict]:
        """Each forum's initial-submission record (rule, revision, PDF sha256, error), in crawl order."""
        path = self.store.path(paths.submissions(self.pk))
        with self.store.snapshot([path]) as view:
            return view.read_parquet(path, columns=columns).to_pylist()

    # -- paper_markdown -> reviewbench_split
    def markdown(self) -> ParquetLookup:
        """Each paper's markdown row, looked up by forum_id one row group at a time."""
        path = self.store.path(paths.markdown(self.pk))
        return ParquetLookup(self.store.snapshot([path]), path)  # pinned while the lookup lives

    # -- reviewbench_split and rebuttal_dialogues -> the conference split
    def has_rows(self) -> bool:
        return self.store.exists(self.store.path(paths.rows(self.pk)))

    def split_inputs(self) -> tuple[Store, dict[str, str]]:
        """What the venue-year's part of a conference split is written from: rows, one row per review,
        provenance and their statistics (reviewbench_split: one publication, all or none), and the Re^2
        review/rebuttal records (rebuttal_dialogues), whichever exist (absolute paths), with the store
        seen through one snapshot of them all: read them through it (writes go through it unchanged)."""
        store, pk = self.store, self.pk
        wanted = {**{k: where(pk) for k, where in ROWS_SET.items()}, "review": paths.re2_review(pk),
                  "rebuttal": paths.re2_rebuttal(pk)}
        view = store.snapshot([store.path(v) for v in wanted.values()])
        found = {k: store.path(v) for k, v in wanted.items() if view.exists(store.path(v))}
        missing = [store.path(wanted[k]) for k in ROWS_SET if k not in found]
        if "rows" in found and missing:  # one step writes them together: a member is missing
            view.close()
            raise FileNotFoundError(f"{pk}: {found['rows']} has no {', '.join(missing)} beside it (written by the same "
                                    f"step): re-materialize reviewbench_split for {pk} (rows of an older layout: "
                                    f"python -m scripts.migrate_storage)")
        return view, found

    # -- venue_changes -> the dataset card
    def daily_changes(self) -> tuple[list[dict], bytes | None]:
        """The figures of each day the venue-year's discussion was followed (none when it was not) and
        their plot's PNG (None when there is none)."""
        daily_path = self.store.path(paths.change_daily(self.pk))
        plot = self.store.path(paths.change_daily_plot(self.pk))
        with self.store.snapshot([daily_path, plot]) as view:  # published together by venue_changes
            if not view.exists(daily_path):
                return [], None
            return view.read_parquet(daily_path).to_pylist(), view.read_bytes(plot) if view.exists(plot) else None
