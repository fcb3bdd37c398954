"""How a stage reads the stages before it: streamed readers of the stored files (Parquet one row group
at a time, JSON lines one line at a time) and `Upstream`, one typed method per input of a venue-year's
stage, the only place a stage's files are opened by another stage (each stage declares what it writes).
Each input is read as its stage wrote it, streamed where it can be large, so the stages stay flat in
memory from hundreds of forums to a whole venue-year (19,631 for ICLR 2026).

- `ParquetLookup` (and `iter_parquet_batches`, io/parquet_batches.py): Parquet through a `pyarrow.fs` filesystem (local or S3),
  streamed in file order, or rows looked up by key.
- `JsonlLines`: a stored JSONL file read line by line with each line's byte offset, and any line read
  again later by its offset (what a compact index of the stored forums points at).
- `Spool`: a local scratch file of JSON lines that a stage writes as its items arrive and reads back
  in order (or one line by offset). It is an unnamed temporary file: the OS removes it whatever ends
  the process, and nothing in it is a result (results are published by the store).
- `Upstream`: what each stage reads, by input, through a snapshot (`Store.snapshot`): a file that its
  stage publishes with others, or a set of such files, is read as of one moment, never half a
  publication of a writer running at the same time."""
from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Iterator

import pyarrow as pa

from resources.store import CorruptFileError, Store, dumps_json, open_parquet
from reviewbench_assets.domain.forum import forum_of
from reviewbench_assets.domain.posts import ParsedForum
from reviewbench_assets.domain.routing import Routing
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.parquet_batches import iter_parquet_batches
from reviewbench_assets.io.shards import read_parts
from reviewbench_assets.io.split_inputs import SplitInputs


class ParquetLookup:
    """Rows of one Parquet file fetched by key: an index of key -> (row group, row) is built from the
    key column alone, and one row group is held at a time. Two files written in the same order (each
    stage keeps the crawl's order) read every row group once; any other order is still right, at
    the cost of reading a row group again when the lookups come back to it."""

    def __init__(self, store: Store, path: str, key: str = "forum_id", columns: list[str] | None = None):
        self.store, self.path, self.columns = store, path, columns
        self._file = store.fs.open_input_file(path)
        self._pf = open_parquet(store.fs, path, self._file)
        self.index: dict[str, tuple[int, int]] = {}
        for g in range(self._pf.num_row_groups):
            keys = self._pf.read_row_group(g, columns=[key]).column(0).to_pylist()
            for i, k in enumerate(keys):
                self.index.setdefault(k, (g, i))  # a repeated key: the first row wins
        self._group, self._rows = -1, []

    def get(self, key: str) -> dict | None:
        where = self.index.get(key)
        if where is None:
            return None
        group, i = where
        if group != self._group:
            try:
                self._rows = self._pf.read_row_group(group, columns=self.columns, use_threads=False).to_pylist()
            except (OSError, pa.ArrowException) as exc:
                raise CorruptFileError(self.path, f"row group {group} unreadable ({exc})") from exc
            self._group = group
        return self._rows[i]

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ParquetLookup:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ---- JSON lines, one line at a time ------------------------------------------------------------

def _loads(path: str, line: bytes, n: int | str) -> dict:
    try:
        return json.loads(line)
    except UnicodeDecodeError as exc:
        raise CorruptFileError(path, f"not UTF-8 ({exc})") from exc
    except ValueError as exc:
        raise CorruptFileError(path, f"line {n} is not valid JSON ({exc})") from exc


class JsonlLines:
    """A JSONL file of the store: `scan()` yields (offset, length, object) per line; `read(offset,
    length)` one line again. A bad line is a CorruptFileError naming the file, as `Store.iter_jsonl`."""

    def __init__(self, store: Store, path: str):
        self.store, self.path = store, store.check(path)
        self._random = None  # opened on the first `read`: a scan alone needs only a stream

    def scan(self) -> Iterator[tuple[int, int, dict]]:
        offset = 0
        with self.store.fs.open_input_stream(self.path) as f:
            for n, line in enumerate(io.BufferedReader(f, buffer_size=1 << 20), start=1):
                if line.strip():
                    yield offset, len(line), _loads(self.path, line, n)
                offset += len(line)

    def read(self, offset: int, length: int) -> dict:
        if self._random is None:
            self._random = self.store.fs.open_input_file(self.path)
        return _loads(self.path, self._random.read_at(length, offset), f"at byte {offset}")

    def close(self) -> None:
        if self._random is not None:
            self._random.close()
            self._random = None

    def __enter__(self) -> JsonlLines:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


class Spool:
    """Scratch JSON lines on local disk: `append` returns the line's (offset, length); iterating
    reads every line back in order; `read` one line by its offset."""

    def __init__(self):
        self._f = tempfile.TemporaryFile(mode="w+b", prefix="reviewbench-spool-")
        self.end = 0
        self.lines = 0

    def append(self, obj: dict) -> tuple[int, int]:
        data = dumps_json(obj) + b"\n"
        self._f.seek(self.end)
        self._f.write(data)
        at, self.end, self.lines = self.end, self.end + len(data), self.lines + 1
        return at, len(data)

    def read(self, offset: int, length: int) -> dict:
        self._f.seek(offset)
        return json.loads(self._f.read(length))

    def __iter__(self) -> Iterator[dict]:
        self._f.flush()
        self._f.seek(0)
        offset = 0
        while offset < self.end:
            line = self._f.readline()
            offset += len(line)
            yield json.loads(line)
            self._f.seek(offset)  # a `read` or `append` between two lines moved the position

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


# ---- what each stage reads of the stages before it -----------------------------------------------

# What the rows step writes as one publication (stages/rows_stage.py): one of them alone is a broken set.
ROWS_SET = {"rows": paths.rows, "reviews": paths.rows_reviews, "provenance": paths.provenance, "stats": paths.rows_stats}
ROWS_SET_NAMES = tuple(where.__name__ for where in ROWS_SET.values())


class MissingStageOutputError(FileNotFoundError):
    pass


class SubmissionNotes(ParquetLookup):
    """Raw submission notes of the parsed table by forum id: `get(forum_id)` -> (API version, note)."""

    def __init__(self, store: Store, path: str):
        super().__init__(store, path, columns=["api", "submission_json"])

    def scan(self, batch_rows: int = 256) -> Iterator[tuple[str, str, dict]]:
        """(forum id, API version, raw submission note without replies) of each forum, in crawl order."""
        for batch in iter_parquet_batches(self.store.fs, self.path, batch_rows,
                                          columns=["forum_id", "api", "submission_json"]):
            for row in batch.to_pylist():
                yield row["forum_id"], row["api"], json.loads(row["submission_json"])

    def note(self, forum_id: str) -> tuple[str, dict] | None:
        row = self.get(forum_id)
        return None if row is None else (row["api"], json.loads(row["submission_json"]))


class SubmissionTexts:
    """One venue-year's forums as the resubmission linking reads them, from one snapshot (`view`) of
    its parsed table and markdown: `fingerprint` (size and time of each file: a file its stage
    rewrote has a new time), and, iterated, each forum's `forum_id, title, abstract, authors,
    decision, status, venue, submission_json` with `markdown` (the paper's text, None when none) and
    `has_pdf` (a PDF was read for it), in crawl order. Close it (or use `with`) to let the snapshot go."""

    COLUMNS = ["forum_id", "title", "abstract", "authors", "decision", "status", "venue", "submission_json"]

    def __init__(self, view: Store, parsed: str, markdown: str):
        self.view, self.parsed, self.md = view, parsed, markdown
        self.fingerprint = {}
        for name, path in (("parsed", parsed), ("markdown", markdown)):
            if view.exists(path):
                info = view.fs.get_file_info(path)
                self.fingerprint[name] = [view.rel(path), info.size, info.mtime_ns]

    def __iter__(self) -> Iterator[dict]:
        text = ParquetLookup(self.view, self.md, columns=["markdown", "pdf_sha256"]) if self.view.exists(self.md) else None
        try:
            for batch in iter_parquet_batches(self.view.fs, self.parsed, 64, columns=self.COLUMNS):
                for row in batch.to_pylist():
                    got = (text.get(row["forum_id"]) if text is not None else None) or {}
                    yield {**row, "markdown": got.get("markdown") or None, "has_pdf": bool(got.get("pdf_sha256"))}
        finally:
            if text is not None:
                text.close()

    def close(self) -> None:
        self.view.close()

    def __enter__(self) -> SubmissionTexts:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


class StoredPdfs:
    """The PDF stage's stored PDFs (content-addressed, `pdfs/<sha256[:2]>/<sha256>.pdf`): whether one is
    there and whole, where it is, and the filesystem a reader (the OCR pipeline) opens them from."""

    def __init__(self, store: Store):
        self._store = store
        self.filesystem = store.fs

    def ok(self, sha256: str) -> bool:
        return self._store.pdf_ok(sha256)

    def path(self, sha256: str) -> str:
        return self._store.pdf_path(sha256)


class Upstream:
    """The inputs of one venue-year (`pk`) in `store`. `OPENS`: the files (`paths.<name>`) each reader
    opens. Who owns them, and so which asset a reader's caller depends on, follows from what each
    stage declares it writes (`Stage.writes`; reviewbench_assets/data_path.py derives the table)."""

    OPENS = {"raw_forums": ("raw_forums",), "parsed_rows": ("parsed",), "parsed_forums": ("parsed",),
             "submission_note_lookup": ("parsed",), "pdf_records": ("submissions",),
             "markdown": ("markdown",), "has_rows": ("rows",),
             "split_inputs": (*ROWS_SET_NAMES, "re2_review", "re2_rebuttal"),
             "daily_changes": ("change_daily", "change_daily_plot"),
             "split_figures": ("split_stats", "split_part_dir", "split_part"),
             "submission_texts": ("parsed", "markdown"), "resubmission_chains": ("RESUBMISSION_CHAINS",),
             "stored_pdfs": ("submissions",)}  # the PDFs its table names (content-addressed: Store.pdf_path)

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

    def submission_note_lookup(self) -> SubmissionNotes:
        """The parsed forums' raw submission notes, scanned in crawl order or looked up by forum id
        (one row group of the parsed table held at a time), from one snapshot of the table."""
        path = self._parsed_with_notes()
        return SubmissionNotes(self.store.snapshot([path]), path)  # pinned while the lookup lives

    # -- initial_submission_pdfs -> paper_markdown, reviewbench_split
    def pdf_records(self, columns: list[str] | None = None) -> list[dict]:
        """Each forum's initial-submission record (rule, revision, PDF sha256, error), in crawl order."""
        path = self.store.path(paths.submissions(self.pk))
        with self.store.snapshot([path]) as view:
            return view.read_parquet(path, columns=columns).to_pylist()

    def stored_pdfs(self) -> StoredPdfs:
        """The PDFs the PDF stage stored, by sha256 (what its records name)."""
        return StoredPdfs(self.store)

    # -- paper_markdown -> reviewbench_split
    def markdown(self) -> ParquetLookup:
        """Each paper's markdown row, looked up by forum_id one row group at a time."""
        path = self.store.path(paths.markdown(self.pk))
        return ParquetLookup(self.store.snapshot([path]), path)  # pinned while the lookup lives

    # -- reviewbench_split and rebuttal_dialogues -> the conference split
    def has_rows(self) -> bool:
        return self.store.exists(self.store.path(paths.rows(self.pk)))

    def split_inputs(self) -> SplitInputs:
        """What the venue-year's part of a conference split is written from: rows, one row per review,
        provenance and their statistics (reviewbench_split: one publication, all or none), and the Re^2
        review/rebuttal records (rebuttal_dialogues), whichever exist, as of one snapshot of them all
        (io/split_inputs.py; use it in a `with` block)."""
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
        return SplitInputs(view, found)

    # -- the conference splits -> the dataset card
    def split_figures(self, splits: list[str]) -> tuple[dict[str, dict], dict[str, list[dict]]]:
        """Each split's published figures (`corpus_stats/<split>.json`, raw; a split without them is
        left out) and its part records, by split, as of one moment (each split publishes its own
        while the card reads). A corrupt file fails naming it, never a split left out."""
        store = self.store
        figures, records = {}, {}
        with store.snapshot([store.path(paths.split_stats(s)) for s in splits],
                            [store.path(paths.split_part_dir(s)) for s in splits]) as view:
            for split in splits:
                records[split] = read_parts(view, split)
                path = store.path(paths.split_stats(split))
                if view.exists(path):
                    figures[split] = view.read_json(path)
        return figures, records

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

    # -- parsed_forums and paper_markdown -> resubmissions (every venue-year, one at a time)
    def submission_texts(self) -> SubmissionTexts | None:
        """The venue-year's forums as the linking reads them, from one snapshot of its parsed table and
        markdown (None when it has no parsed table)."""
        parsed, md = self.store.path(paths.parsed(self.pk)), self.store.path(paths.markdown(self.pk))
        view = self.store.snapshot([parsed, md])
        if not view.exists(parsed):
            view.close()
            return None
        return SubmissionTexts(view, parsed, md)

    # -- resubmissions -> the conference splits (train/test per chain) and the dataset card (its config)
    def resubmission_chains(self, columns: list[str] | None = None) -> pa.Table | None:
        """The chains of every version of a paper (`resubmissions/chains.parquet`, one row per chain),
        or None when the resubmissions stage has not run."""
        path = self.store.path(paths.RESUBMISSION_CHAINS)
        with self.store.snapshot([path]) as view:
            return view.read_parquet(path, columns=columns) if view.exists(path) else None
