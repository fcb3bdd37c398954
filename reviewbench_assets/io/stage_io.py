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

from resources.store import Store, parquet_writer
from resources.store_publish import Publication
from reviewbench_assets.io.checksums import part_damage, stage_card_checksum
from reviewbench_assets.io.layout import SHARED_PATHS, paths
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.io.shards import corpus_listing, join_path
from reviewbench_assets.io.upstream import JsonlLines, Upstream, iter_parquet_batches
from reviewbench_assets.io.verdicts import stage_verdict


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
            return value if callable(value) else (lambda *_a, **_kw: value)
        if self._store is None:
            raise UndeclaredIO(f"{self._stage}: {name!r} was neither given nor can be read (no store)")
        return getattr(Upstream(self._store, self._key), name)


class Outputs:
    """The files a stage declared (`writes`) and the narrow ways a stage writes them: a publication
    (`publish`: every file staged in it moves into place at its commit), a lock, and the stage's own
    files read back or written in place (its state, cache and checkpoints). Every operation takes a
    declared name (`paths.<name>`) and its arguments, never a path, so a stage holds no path
    template and no filesystem. (`store`: what the stages not yet moved onto these still use.)"""

    def __init__(self, stage: str, writes: tuple[str, ...], store: Store, key: str | None):
        self._stage, self._writes, self.store, self.key = stage, writes, store, key

    def rel(self, name: str, *args: str) -> str:
        """Root-relative path of the declared file `name` (`paths.<name>`), of this partition unless
        `args` are given (a PDF's source record: forum id and key)."""
        if name not in self._writes and name not in SHARED_PATHS:
            raise UndeclaredIO(f"{self._stage} writes {name!r}, which it does not declare in `writes` {self._writes}")
        where = getattr(paths, name)
        return where if isinstance(where, str) else where(*(args or (self.key,)))

    def path(self, name: str, *args: str) -> str:
        """Like `rel`, as the store's full path."""
        return self.store.path(self.rel(name, *args))

    def path_in(self, name: str, rel: str) -> str:
        """The full path of `rel` inside the declared folder `name` (the corpus folder's README.md)."""
        return join_path(self.path(name), rel)

    # ---- publishing: the stage's files move into place together
    @contextmanager
    def publish(self) -> Iterator[Staging]:
        """One publication (`Store.publish`): what is staged in it appears at its commit, all or none."""
        with self.store.publish() as pub:
            yield Staging(self, pub)

    def write_parquet(self, name: str, table: pa.Table, *args: str) -> None:
        """The declared file `name` published whole (one file, moved into place complete)."""
        self.store.write_parquet(self.path(name, *args), table)

    def pdf_files(self) -> PdfFiles:
        """The stored PDFs, their source records and the download staging (io/pdf_files.py), for the
        stage that declares `pdf_source` and `pdf_staging`."""
        missing = [n for n in ("pdf_source", "pdf_staging") if n not in self._writes]
        if missing:
            raise UndeclaredIO(f"{self._stage} writes {missing}, which it does not declare in `writes` {self._writes}")
        return PdfFiles(self.store)

    def lock(self, label: str):
        """The store's lock `label`, held by one writer at a time (a split's records, the card)."""
        return self.store.lock(label)

    # ---- the stage's own files read back (its state, its cache): None / False when absent
    def exists(self, name: str, *args: str) -> bool:
        return self.store.exists(self.path(name, *args))

    def read_json(self, name: str, *args: str) -> Any:
        return self.store.read_json_or_none(self.path(name, *args))

    def read_parquet(self, name: str, *args: str) -> pa.Table:
        return self.store.read_parquet(self.path(name, *args))

    def parquet_batches(self, path: str, batch_rows: int, columns: list[str] | None = None) -> Iterator[pa.RecordBatch]:
        """The batches of a Parquet file `files` listed (a stage's own log), checked page by page."""
        return iter_parquet_batches(self.store.fs, path, batch_rows, columns=columns)

    def damage(self, part: dict) -> dict[str, str]:
        """{file: problem} of a published part record's files that fail their check (io/checksums.py)."""
        return part_damage(self.store, part)

    def listing(self, name: str) -> dict[str, int]:
        """{relative path: size} of the published shard files under the declared corpus folder `name`."""
        return corpus_listing(self.store, self.path(name))

    def folder(self, name: str, *args: str) -> Folder:
        """The declared folder `name` of the stage's own resume files (its checkpoints)."""
        return Folder(self.store, self.rel(name, *args))

    def lines(self, name: str, *args: str) -> JsonlLines:
        """The stage's own stored JSON-lines file `name`, read by offset (what a refresh compares with)."""
        return JsonlLines(self.store, self.path(name, *args))

    def iter_jsonl(self, name: str, *args: str) -> Iterator[dict]:
        """The records of the stage's own stored JSON-lines file `name` (none when it is absent)."""
        path = self.path(name, *args)
        return self.store.iter_jsonl(path) if self.store.exists(path) else iter(())

    def files(self, name: str, *args: str) -> list[str]:
        """The files under the declared folder `name`, by full path."""
        return self.store.list_files(self.path(name, *args))

    def write_json(self, name: str, obj: Any, *args: str) -> None:
        """A file of the stage's own written in place, outside a publication (a cache entry, a
        checkpoint: a damaged one is a miss, done again)."""
        self.store.write_json(self.path(name, *args), obj)

    def sweep_staging(self, name: str, *args: str) -> None:
        """Staging files dead runs left under the declared folder `name`."""
        self.store.sweep_staging(self.path(name, *args))


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

    def stream(self, name: str, *args: str):
        """An output stream of the declared file `name`."""
        return staged_stream(self._outputs.store, self.pub, self._outputs.path(name, *args))

    def parquet(self, name: str, schema: pa.Schema, *args: str, **kwargs):
        """A Parquet writer (page checksums on) of the declared file `name`."""
        return staged_parquet(self._outputs.store, self.pub, self._outputs.path(name, *args), schema, **kwargs)

    def put(self, name: str, data: bytes, *args: str) -> None:
        """The whole declared file `name`."""
        put_staged(self._outputs.store, self.pub, self._outputs.path(name, *args), data)

    def read_staged(self, reader: Callable[..., Any], *names: str) -> Any:
        """`reader(filesystem, [path], ...)` over the declared files `names` as staged so far (not yet
        in place): the rows' statistics computed over the rows just written (io/row_figures.py)."""
        staging = {final: tmp for tmp, final in self.pub.staged}
        return reader(self._outputs.store.fs, *([staging[self._outputs.path(name)]] for name in names))

    def put_in(self, name: str, rel: str, data: bytes) -> None:
        """The whole file `rel` inside the declared folder `name`."""
        put_staged(self._outputs.store, self.pub, self._outputs.path_in(name, rel), data)

    def parquet_in(self, name: str, rel: str, schema: pa.Schema, **kwargs):
        """A Parquet writer of the file `rel` inside the declared folder `name`."""
        return staged_parquet(self._outputs.store, self.pub, self._outputs.path_in(name, rel), schema, **kwargs)

    def remove_in(self, name: str, rel: str) -> None:
        """Delete the file `rel` inside the declared folder `name`, if there, when the publication commits."""
        path = self._outputs.path_in(name, rel)
        if self._outputs.store.exists(path):
            self.pub.remove_after([path])

    def card_checksum(self, text: str) -> None:
        """README.md's sha256 record, staged with README.md (io/checksums.py `stage_card_checksum`)."""
        stage_card_checksum(self._outputs.store, self.pub, text)

    def verdict(self, stage_name: str, key: str | None, failed: dict[str, str], allow_failing: bool) -> None:
        """The verdict of a stage's blocking checks on the files staged so far, moving into place with
        them (io/verdicts.py `stage_verdict`)."""
        store = self._outputs.store
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

