"""What the stage base hands a stage (issue 39 item 1), as Dagster's `project_fully_featured` IO
managers hand an asset its inputs: `Inputs`, the readers the stage declared in `reads` and nothing
else, and `Outputs`, the files it declared in `writes` and the ways to write them in a publication.
A stage never spells a path template (`paths.<name>`) nor opens the raw filesystem; both are here.

`Inputs` reads through `Upstream` (the stored files of the stages before), or hands values given in
memory (a stage test hands the crawl's records to the parser without writing them first).

A stage writes through `Outputs` by declared name: `with outputs.publish() as pub: pub.parquet("parsed",
schema)` (a `Staging`), `outputs.lock(...)`, its own state read back (`outputs.read_json(...)`).
The staged writers below (`staged_stream`, `staged_parquet`, `put_staged`) write one file of a publication
(`Store.publish`): it appears under its final name when the publication commits; the PDF stage's
downloads are staged in place by io/pdf_files.py. Dagster-free."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pyarrow as pa

from resources.store import Store, dumps_json, parquet_writer
from resources.store_publish import Publication
from reviewbench_assets.domain.corpus_stats import ConfigFileStats, SplitStats
from reviewbench_assets.io.checksums import part_damage, stage_card_checksum
from reviewbench_assets.io.corpus_writer import write_conference_split, write_config_table
from reviewbench_assets.io.layout import SHARED_PATHS, paths
from reviewbench_assets.io.memory_inputs import PerPartition
from reviewbench_assets.io.parquet_batches import iter_parquet_batches
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.io.shards import corpus_listing, join_path, part_record_files, read_parts
from reviewbench_assets.io.split_inputs import SplitInputs
from reviewbench_assets.io.upstream import JsonlLines, Upstream
from reviewbench_assets.io.verdicts import blocking_failures, stage_verdict


class UndeclaredIO(LookupError):
    """A stage read an input or wrote a file its class does not declare (`reads` / `writes`)."""


class Inputs:
    """The inputs a stage declared, by reader name: `inputs.raw_forums()`. A name given in memory
    (`given`) is handed as given (a callable is called with the reader's arguments); the others are
    read by the IO layer (`Upstream`) from `store`."""

    def __init__(self, stage: str, reads: tuple[str, ...], store: Store | None, key: str | None,
                 given: Mapping[str, Any] | None = None):
        self._stage, self._reads, self._store, self._key = stage, reads, store, key
        self._given = dict(given or {})
        unknown = sorted(set(self._given) - set(reads))
        if unknown:
            raise UndeclaredIO(f"{stage} is handed {unknown}, which it does not declare in `reads`")

    def of(self, key: str) -> Inputs:
        """The same inputs of another partition (a conference split reads each of its venue-years)."""
        return Inputs(self._stage, self._reads, self._store, key, self._given)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._reads:
            raise UndeclaredIO(f"{self._stage} reads {name!r}, which it does not declare in `reads` {self._reads}")
        if name in self._given:
            value = self._given[name]
            if isinstance(value, PerPartition):  # a value per partition (io/memory_inputs.py)
                value = value.get(self._key, value.default)
            return value if callable(value) else (lambda *_a, **_kw: value)
        if self._store is None:
            raise UndeclaredIO(f"{self._stage}: {name!r} was neither given nor can be read (no store)")
        return getattr(Upstream(self._store, self._key), name)


class Outputs:
    """The files a stage declared (`writes`) and the narrow ways a stage writes them: a publication
    (`publish`: every file staged in it moves into place at its commit), a lock, and the stage's own
    files read back or written in place (its state, cache and checkpoints). Every operation takes a
    declared name (`paths.<name>`) and its arguments, never a path, so a stage holds no path
    template and no filesystem: the store is private to the IO layer (`_store`), which no stage
    module reaches (tests/test_architecture.py)."""

    def __init__(self, stage: str, writes: tuple[str, ...], store: Store, key: str | None):
        self._stage, self._writes, self._store, self.key = stage, writes, store, key

    def rel(self, name: str, *args: str) -> str:
        """Root-relative path of the declared file `name` (`paths.<name>`), of this partition unless
        `args` are given (a PDF's source record: forum id and key)."""
        if name not in self._writes and name not in SHARED_PATHS:
            raise UndeclaredIO(f"{self._stage} writes {name!r}, which it does not declare in `writes` {self._writes}")
        where = getattr(paths, name)
        return where if isinstance(where, str) else where(*(args or (self.key,)))

    def path(self, name: str, *args: str) -> str:
        """Like `rel`, as the store's full path."""
        return self._store.path(self.rel(name, *args))

    def path_in(self, name: str, rel: str) -> str:
        """The full path of `rel` inside the declared folder `name` (the corpus folder's README.md)."""
        return join_path(self.path(name), rel)

    def inputs(self, reads: tuple[str, ...]) -> Inputs:
        """The stage's declared inputs `reads`, read from the same storage (a tool or a test that calls
        a stage's function without the base: `update_conference_split(SplitStage.outputs_in(...), ...)`)."""
        return Inputs(self._stage, reads, self._store, None)

    def full_path(self, rel: str) -> str:
        """The full path of a root-relative path a record of the stage keeps (a part's files)."""
        return self._store.path(rel)

    def relative(self, path: str) -> str:
        """The root-relative form of a full path (what records keep: the root may move)."""
        return self._store.rel(path)

    # ---- publishing: the stage's files move into place together
    @contextmanager
    def publish(self) -> Iterator[Staging]:
        """One publication (`Store.publish`): what is staged in it appears at its commit, all or none."""
        with self._store.publish() as pub:
            staging = Staging(self, pub)
            yield staging
            pub.remove_after(staging.removals)  # what `Staging.remove` named: deleted after the moves

    def write_parquet(self, name: str, table: pa.Table, *args: str) -> None:
        """The declared file `name` published whole (one file, moved into place complete)."""
        self._store.write_parquet(self.path(name, *args), table)

    def pdf_files(self) -> PdfFiles:
        """The stored PDFs, their source records and the download staging (io/pdf_files.py), for the
        stage that declares `pdf_source` and `pdf_staging`."""
        missing = [n for n in ("pdf_source", "pdf_staging") if n not in self._writes]
        if missing:
            raise UndeclaredIO(f"{self._stage} writes {missing}, which it does not declare in `writes` {self._writes}")
        return PdfFiles(self._store)

    def lock(self, label: str):
        """The store's lock `label`, held by one writer at a time (a split's records, the card)."""
        return self._store.lock(label)

    # ---- the stage's own files read back (its state, its cache): None / False when absent
    def exists(self, name: str, *args: str) -> bool:
        return self._store.exists(self.path(name, *args))

    def read_json(self, name: str, *args: str) -> Any:
        return self._store.read_json_or_none(self.path(name, *args))

    def read_parquet(self, name: str, *args: str) -> pa.Table:
        return self._store.read_parquet(self.path(name, *args))

    def parquet_batches(self, path: str, batch_rows: int, columns: list[str] | None = None) -> Iterator[pa.RecordBatch]:
        """The batches of a Parquet file `files` listed (a stage's own log), checked page by page."""
        return iter_parquet_batches(self._store.fs, path, batch_rows, columns=columns)

    def read_text_in(self, name: str, rel: str) -> str | None:
        """The text of the file `rel` inside the declared folder `name`, None when absent."""
        path = self.path_in(name, rel)
        return self._store.read_bytes(path).decode("utf-8") if self._store.exists(path) else None

    def read_column(self, name: str, rel: str, column: str) -> list:
        """One column of a Parquet file the stage published under its declared folder `name`
        (`rel`: root-relative, as its records keep it), page checksums verified."""
        if not (rel + "/").startswith(self.rel(name).rstrip("/") + "/"):
            raise UndeclaredIO(f"{self._stage} reads {rel!r}, which is not under its folder {name!r}")
        return self._store.read_parquet(self._store.path(rel), columns=[column]).column(0).to_pylist()

    def blocking_failures(self, key: str, assets: list[str]) -> dict[str, str]:
        """The blocking checks of partition `key`'s data, by `assets`, that failed and were not
        overridden (io/verdicts.py: the verdicts stay in the IO layer)."""
        return blocking_failures(self._store, key, assets)

    def read_parts(self, split: str) -> list[dict]:
        """A conference split's part records as published (io/shards.py `read_parts`)."""
        return read_parts(self._store, split)

    def leaving_parts(self, split: str, staying: set[str]) -> list[tuple[str, list[str]]]:
        """(record, its files) root-relative of each part record of `split` whose venue-year is not in
        `staying` (a venue-year that left the split: blocked, or gone from the catalogue)."""
        store = self._store
        return [(store.rel(info.path), (store.read_json_or_none(info.path) or {}).get("files", []))
                for info in part_record_files(store, split) if info.base_name.removesuffix(".json") not in staying]

    def damage(self, part: dict) -> dict[str, str]:
        """{file: problem} of a published part record's files that fail their check (io/checksums.py)."""
        return part_damage(self._store, part)

    def listing(self, name: str) -> dict[str, int]:
        """{relative path: size} of the published shard files under the declared corpus folder `name`."""
        return corpus_listing(self._store, self.path(name))

    def folder(self, name: str, *args: str) -> Folder:
        """The declared folder `name` of the stage's own resume files (its checkpoints)."""
        return Folder(self._store, self.rel(name, *args))

    def lines(self, name: str, *args: str) -> JsonlLines:
        """The stage's own stored JSON-lines file `name`, read by offset (what a refresh compares with)."""
        return JsonlLines(self._store, self.path(name, *args))

    def iter_jsonl(self, name: str, *args: str) -> Iterator[dict]:
        """The records of the stage's own stored JSON-lines file `name` (none when it is absent)."""
        path = self.path(name, *args)
        return self._store.iter_jsonl(path) if self._store.exists(path) else iter(())

    def files(self, name: str, *args: str) -> list[str]:
        """The files under the declared folder `name`, by full path."""
        return self._store.list_files(self.path(name, *args))

    def write_json(self, name: str, obj: Any, *args: str) -> None:
        """A file of the stage's own written in place, outside a publication (a cache entry, a
        checkpoint: a damaged one is a miss, done again)."""
        self._store.write_json(self.path(name, *args), obj)

    def sweep_staging(self, name: str, *args: str) -> None:
        """Staging files dead runs left under the declared folder `name`."""
        self._store.sweep_staging(self.path(name, *args))


class Folder:
    """A folder of a stage's own resume files (page and answer checkpoints), written in place outside
    any publication: a missing or damaged file is a miss, asked again. Files are named within it
    (the store refuses a name that would leave it)."""

    def __init__(self, store: Store, rel: str):
        self._store, self.rel = store, rel

    def _file(self, name: str) -> str:
        return self._store.path(self.rel, name)

    def exists(self, name: str) -> bool:
        return self._store.exists(self._file(name))

    def read_bytes(self, name: str) -> bytes | None:
        path = self._file(name)
        return self._store.read_bytes(path) if self._store.exists(path) else None

    def write_bytes(self, name: str, data: bytes) -> None:
        self._store.write_bytes(self._file(name), data)

    def read_json(self, name: str) -> Any:
        return self._store.read_json_or_none(self._file(name))

    def write_json(self, name: str, obj: Any) -> None:
        self._store.write_json(self._file(name), obj)

    def delete(self) -> None:
        """The whole folder."""
        self._store.delete_dir(self._store.path(self.rel))


class Staging:
    """One publication of a stage's declared files (`Outputs.publish`): each is written by name."""

    def __init__(self, outputs: Outputs, pub: Publication):
        self._outputs, self.pub = outputs, pub
        self.removals: list[str] = []  # full paths, deleted once every staged file is in place

    def stream(self, name: str, *args: str):
        """An output stream of the declared file `name`."""
        return staged_stream(self._outputs._store, self.pub, self._outputs.path(name, *args))

    def parquet(self, name: str, schema: pa.Schema, *args: str, **kwargs):
        """A Parquet writer (page checksums on) of the declared file `name`."""
        return staged_parquet(self._outputs._store, self.pub, self._outputs.path(name, *args), schema, **kwargs)

    def put(self, name: str, data: bytes, *args: str) -> None:
        """The whole declared file `name`."""
        put_staged(self._outputs._store, self.pub, self._outputs.path(name, *args), data)

    def put_json(self, name: str, obj: Any, *args: str) -> None:
        """The whole declared file `name`, as JSON."""
        self.put(name, dumps_json(obj), *args)

    def read_staged(self, reader: Callable[..., Any], *names: str) -> Any:
        """`reader(filesystem, [path], ...)` over the declared files `names` as staged so far (not yet
        in place): the rows' statistics computed over the rows just written (io/row_figures.py)."""
        staging = {final: tmp for tmp, final in self.pub.staged}
        return reader(self._outputs._store.fs, *([staging[self._outputs.path(name)]] for name in names))

    def put_in(self, name: str, rel: str, data: bytes) -> None:
        """The whole file `rel` inside the declared folder `name`."""
        put_staged(self._outputs._store, self.pub, self._outputs.path_in(name, rel), data)

    def parquet_in(self, name: str, rel: str, schema: pa.Schema, **kwargs):
        """A Parquet writer of the file `rel` inside the declared folder `name`."""
        return staged_parquet(self._outputs._store, self.pub, self._outputs.path_in(name, rel), schema, **kwargs)

    def remove_in(self, name: str, rel: str) -> None:
        """Delete the file `rel` inside the declared folder `name`, if there, when the publication commits."""
        path = self._outputs.path_in(name, rel)
        if self._outputs._store.exists(path):
            self.pub.remove_after([path])

    def staged_sha256(self, rels: list[str]) -> dict[str, str]:
        """{root-relative file: sha256} of files staged so far, read back from their staged bytes."""
        store = self._outputs._store
        staged = {store.rel(final): tmp for tmp, final in self.pub.staged}
        return {f: store.sha256(staged[f]) for f in rels}

    def remove(self, rels) -> None:
        """Delete the root-relative files `rels` when the publication commits (after its moves)."""
        self.removals += [self._outputs._store.path(f) for f in rels]

    def conference_shards(self, name: str, source: SplitInputs, split: str, target_shard_bytes: int,
                          row_group_rows: int, **kwargs) -> SplitStats:
        """The rows of `source` as shards of conference split `split` in the declared corpus folder
        `name` (io/corpus_writer.py `write_conference_split`), staged in this publication."""
        reader, files = source.shard_source()
        return write_conference_split(self._outputs._store.fs, files, self._outputs.path(name), split,
                                      target_shard_bytes, row_group_rows, pub=self.pub, reader=reader, **kwargs)

    def config_shards(self, name: str, batches, config: str, split: str, **kwargs) -> ConfigFileStats:
        """One split of an extra config in the declared corpus folder `name` (io/corpus_writer.py
        `write_config_table`), staged in this publication."""
        return write_config_table(self._outputs._store.fs, batches, self._outputs.path(name), config, split,
                                  pub=self.pub, **kwargs)

    def card_checksum(self, text: str) -> None:
        """README.md's sha256 record, staged with README.md (io/checksums.py `stage_card_checksum`)."""
        stage_card_checksum(self._outputs._store, self.pub, text)

    def verdict(self, stage_name: str, key: str | None, failed: dict[str, str], allow_failing: bool) -> None:
        """The verdict of a stage's blocking checks on the files staged so far, moving into place with
        them (io/verdicts.py `stage_verdict`)."""
        store = self._outputs._store
        stage_verdict(store, self.pub, key, stage_name, failed, allow_failing,
                      {store.rel(final): tmp for tmp, final in self.pub.staged})


def staged_stream(store: Store, pub: Publication, path: str):
    """An output stream of the file `path` (full path), staged in `pub`."""
    return store.fs.open_output_stream(pub.target(path))


def staged_parquet(store: Store, pub: Publication, path: str, schema: pa.Schema, **kwargs):
    """A Parquet writer (page checksums on) of the file `path`, staged in `pub`."""
    return parquet_writer(store.fs, pub.target(path), schema, **kwargs)


def put_staged(store: Store, pub: Publication, path: str, data: bytes) -> None:
    """The whole file `path`, staged in `pub`."""
    with staged_stream(store, pub, path) as f:
        f.write(data)
