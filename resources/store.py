"""One storage root, local or S3, behind `pyarrow.fs` (same code path for both).

Every writer publishes through ONE primitive, `Store.publish()`: each file is written under a
staging name unique to this publication (`.<name>.tmp-<token>` beside its final name) and, when the
block ends without an error, every staged file is moved into place (a rename locally, a
server-side copy on S3) and the files marked stale are deleted; on an error only this
publication's own staged files are removed. A reader never sees a half file.

Paths: `Store.path()` resolves parts under the root and refuses anything that would leave it
(`..`, absolute parts, NUL), on local disk and S3 alike; `Store.rel()` gives the root-relative form
that records store. Ids that become path parts are checked by the crawl (`domain/posts.py` `id_problem`).

Integrity: Parquet is written with page CRC checksums and read with verification; any read error
(corrupt Parquet, truncated JSON, a PDF whose bytes do not match its sha256) is a `CorruptFileError`
naming the file. JSON is written UTF-8 with lone surrogates kept as `\\udXXX` escapes, so any text
the API returned round-trips and never fails a write.
PDFs are content-addressed by sha256 and verified when found in the store.
"""
from __future__ import annotations

import hashlib
import io
import json
import posixpath
import re
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from resources.store_locks import lock_for, slot_for
from resources.store_publish import Publication, recover_publications, remove_dead_staging
from resources.store_read import Pin, PinnedHandler, pin_snapshot

# Page CRCs (Parquet's optional page checksum): written by every writer, verified by every reader.
PARQUET_WRITE_OPTIONS = {"write_page_checksum": True}


class PathEscapeError(ValueError):
    """A storage path would leave the storage root."""


class CorruptFileError(IOError):
    """A stored file cannot be read as what it should be; `path` names it."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path, self.problem = path, problem


def dumps_json(obj) -> bytes:
    """JSON as UTF-8; a lone surrogate (valid JSON, invalid UTF-8) stays a `\\ud800` escape, which
    `json.loads` reads back as the same string (a backslash before it is itself escaped by dumps)."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True).encode("utf-8", "backslashreplace")


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _scrub(obj):
    """`obj` with every lone surrogate replaced by U+FFFD (pairs were joined by json.loads)."""
    if isinstance(obj, str):
        try:
            obj.encode("utf-8")
            return obj
        except UnicodeEncodeError:
            return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in obj)
    if isinstance(obj, dict):
        return {k: _scrub(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_scrub(v) for v in obj]
    return obj


def open_parquet(fs: pafs.FileSystem, path: str, f=None) -> pq.ParquetFile:
    """A ParquetFile that verifies page checksums (footer errors name the file)."""
    try:
        return pq.ParquetFile(f if f is not None else fs.open_input_file(path), page_checksum_verification=True)
    except (OSError, pa.ArrowException) as exc:
        raise CorruptFileError(path, f"not a readable Parquet file ({exc})") from exc


def parquet_writer(fs: pafs.FileSystem, path: str, schema: pa.Schema, **kwargs) -> pq.ParquetWriter:
    return pq.ParquetWriter(path, schema, filesystem=fs, **PARQUET_WRITE_OPTIONS, **kwargs)


def read_parquet_verified(fs: pafs.FileSystem, path: str, columns: list[str] | None = None) -> pa.Table:
    try:
        return pq.read_table(path, filesystem=fs, columns=columns, page_checksum_verification=True)
    except (OSError, pa.ArrowException, UnicodeDecodeError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise CorruptFileError(path, f"corrupt Parquet ({exc})") from exc


@dataclass(frozen=True)
class Store:
    fs: pafs.FileSystem
    root: str  # local absolute path, or "bucket/prefix" for S3
    s3_client_factory: object = None  # () -> boto3 S3 client, for locks on S3 roots (optional)

    @property
    def is_local(self) -> bool:
        return isinstance(self.fs, pafs.LocalFileSystem)

    @property
    def uri(self) -> str:
        return self.root if self.is_local else f"s3://{self.root}"

    # ---- paths ---------------------------------------------------------------------------
    def path(self, *parts: str) -> str:
        """`root/parts...`, refusing any part that would leave the root (PathEscapeError)."""
        for part in parts:
            if "\x00" in part or part.startswith("/") or "\\" in part:
                raise PathEscapeError(f"path part {part!r} is not a relative storage path")
            if any(seg == ".." for seg in part.split("/")):
                raise PathEscapeError(f"path part {part!r} leaves the storage root {self.uri}")
        return self.check(posixpath.join(self.root, *parts))

    def check(self, path: str) -> str:
        """`path` itself if it lies under the root (normalised), else PathEscapeError."""
        norm = posixpath.normpath(path)
        root = posixpath.normpath(self.root)
        if root == ".":  # a SubTreeFileSystem rooted at "": any relative path that stays inside
            if norm.startswith("/") or norm == ".." or norm.startswith("../"):
                raise PathEscapeError(f"{path!r} is outside the storage root")
            return path
        if norm != root and not norm.startswith(root.rstrip("/") + "/"):
            raise PathEscapeError(f"{path!r} is outside the storage root {self.uri}")
        return path

    def rel(self, path: str) -> str:
        """Root-relative form of a path under the root (what records store)."""
        norm = posixpath.normpath(self.check(path))
        return posixpath.relpath(norm, posixpath.normpath(self.root))

    def exists(self, path: str) -> bool:
        return self.fs.get_file_info(self.check(path)).type == pafs.FileType.File

    def read_bytes(self, path: str) -> bytes:
        with self.fs.open_input_stream(self.check(path)) as f:
            return f.read()

    def read_json(self, path: str):
        data = self.read_bytes(path)
        try:
            return json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise CorruptFileError(path, f"not valid JSON ({exc})") from exc

    def read_json_or_none(self, path: str):
        """A cache or checkpoint entry: None when missing, truncated or corrupt (a miss)."""
        try:
            return self.read_json(path) if self.exists(path) else None
        except (CorruptFileError, OSError):
            return None

    def iter_jsonl(self, path: str, scrub_surrogates: bool = False) -> Iterator[dict]:
        """Lines of a JSONL file; a bad line raises CorruptFileError naming file and line.
        `scrub_surrogates`: lone surrogates (kept as `\\udXXX` escapes in the file, as the API sent
        them) come back as U+FFFD, for readers that parse text into Parquet (which needs UTF-8)."""
        with self.fs.open_input_stream(self.check(path)) as f:
            try:
                for n, line in enumerate(io.TextIOWrapper(f, encoding="utf-8", errors="strict"), start=1):
                    if line.strip():
                        try:
                            obj = json.loads(line)
                        except ValueError as exc:
                            raise CorruptFileError(path, f"line {n} is not valid JSON ({exc})") from exc
                        yield _scrub(obj) if scrub_surrogates and _SURROGATE_ESCAPE.search(line) else obj
            except UnicodeDecodeError as exc:
                raise CorruptFileError(path, f"not UTF-8 ({exc})") from exc

    def read_parquet(self, path: str, columns: list[str] | None = None) -> pa.Table:
        return read_parquet_verified(self.fs, self.check(path), columns)

    def sha256(self, path: str) -> str:
        """The sha256 of a stored file's bytes, read in 1 MiB blocks."""
        digest = hashlib.sha256()
        with self.fs.open_input_stream(self.check(path)) as f:
            while block := f.read(1 << 20):
                digest.update(block)
        return digest.hexdigest()

    def list_files(self, prefix: str) -> list[str]:
        sel = pafs.FileSelector(self.check(prefix), recursive=True, allow_not_found=True)
        return sorted(i.path for i in self.fs.get_file_info(sel) if i.type == pafs.FileType.File)

    # ---- atomic publishing: the one primitive ----------------------------------------------
    def ensure_parent(self, path: str) -> None:
        fs = self.fs.base_fs if isinstance(self.fs, pafs.SubTreeFileSystem) else self.fs
        if not isinstance(fs, pafs.S3FileSystem):  # S3 has no folders to make
            self.fs.create_dir(posixpath.dirname(path), recursive=True)

    @contextmanager
    def publish(self) -> Iterator[Publication]:
        """Publish several files together: `pub.target(final)` gives each its staging path; on
        success all are moved into place (then `remove_after` paths are deleted), on any error
        this publication's staged files are deleted and nothing else is touched."""
        pub = Publication(self)
        try:
            yield pub
        except BaseException:
            pub.abort()
            raise
        pub.commit()

    def sweep_staging(self, folder: str) -> int:
        """Delete the staging files of dead runs under `folder`, sub-folders included (for a writer
        whose runs each stage into a new folder, where no later publication would clean them)."""
        return remove_dead_staging(self, self.check(folder), recursive=True)

    def recover(self) -> dict[str, int]:
        """Finish the publications of runs that died while moving their files into place (their
        journal lists every move), so a set of files is whole again before anyone reads it; see
        resources/store_publish.py. Returns {"recovered": publications, "moved": files}."""
        return recover_publications(self)

    def snapshot(self, paths: Iterable[str] = (), prefixes: Iterable[str] = (), wait_s: float = 600.0,
                 on_wait=None, cache: dict | None = None) -> SnapshotStore:
        """The files `paths` and those under the folders `prefixes` as of one moment: never half a
        publication (resources/store_read.py, `pin_snapshot`). Returns this store seen through the
        snapshot: reads of those files come from the pinned versions (a file absent then is absent),
        every other call goes to the store itself (so a writer can read its inputs from the snapshot
        and publish through the same object). Close it (or use it in a `with` block) to let the pins
        go; a view dropped without closing lets them go when it is collected. `cache`: a polling
        reader's, see `pin_snapshot`."""
        base = self.base if isinstance(self, SnapshotStore) else self
        prefixes = tuple(base.check(p).rstrip("/") + "/" for p in prefixes)
        pins = pin_snapshot(base, [base.check(p) for p in paths], prefixes, wait_s, on_wait, cache=cache)
        handler = PinnedHandler(base.fs, pins, frozenset(base.check(p) for p in paths), prefixes)
        view = SnapshotStore(pafs.PyFileSystem(handler), base.root, base.s3_client_factory, base)
        weakref.finalize(handler, _close_pins, list(pins.values()))
        return view

    @contextmanager
    def lock(self, name: str, timeout_s: float = 3600.0):
        """Exclusive lock `name` for every process sharing this root (see resources/store_locks.py).
        Taking it finishes dead runs' publications first: a holder killed mid-publication left its
        journal, and the new holder must read what it published, and no later replay may move its
        older files over the new holder's."""
        with lock_for(self, name, timeout_s):
            self.recover()
            yield

    @contextmanager
    def slot(self, name: str, slots: int, timeout_s: float = 24 * 3600.0, on_wait=None):
        """One of `slots` shared slots `name` (at most `slots` holders across processes)."""
        with slot_for(self, name, slots, timeout_s, on_wait):
            yield

    def write_with(self, path: str, writer) -> None:
        """Call `writer(target_path)` and publish the file at `path` atomically."""
        with self.publish() as pub:
            writer(pub.target(path))

    def write_bytes(self, path: str, data: bytes) -> None:
        def _w(target: str) -> None:
            with self.fs.open_output_stream(target) as f:
                f.write(data)

        self.write_with(path, _w)

    def write_json(self, path: str, obj) -> None:
        self.write_bytes(path, dumps_json(obj))

    def write_parquet(self, path: str, table: pa.Table, row_group_size: int | None = None) -> None:
        self.write_with(path, lambda target: pq.write_table(table, target, filesystem=self.fs,
                                                            row_group_size=row_group_size, **PARQUET_WRITE_OPTIONS))

    def delete_dir(self, path: str) -> None:
        if self.fs.get_file_info(self.check(path)).type == pafs.FileType.Directory:
            self.fs.delete_dir(path)

    # ---- content-addressed PDFs ----------------------------------------------------------
    def pdf_path(self, sha256: str) -> str:
        if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
            raise PathEscapeError(f"{sha256!r} is not a sha256 hex digest")
        return self.path("pdfs", sha256[:2], f"{sha256}.pdf")

    def pdf_ok(self, sha256: str) -> bool:
        """The stored PDF exists and its bytes hash to `sha256`."""
        path = self.pdf_path(sha256)
        try:
            return self.exists(path) and hashlib.sha256(self.read_bytes(path)).hexdigest() == sha256
        except OSError:
            return False

    def put_pdf(self, data: bytes, staged: str | None = None) -> tuple[str, str, bool]:
        """Store PDF bytes once. Returns (sha256, path, newly_written); a stored copy whose bytes
        do not match its name (bit rot, a partial copy) is replaced. `staged`: a file under the
        root holding exactly `data` (a download's staging file), moved into place instead of
        writing the bytes again (a rename locally, a server-side copy on S3: no second upload)."""
        sha = hashlib.sha256(data).hexdigest()
        path = self.pdf_path(sha)
        if self.pdf_ok(sha):
            return sha, path, False
        if staged is not None and self.exists(staged):
            self.fs.create_dir(posixpath.dirname(path), recursive=True)
            self.fs.move(self.check(staged), path)
        else:
            self.write_bytes(path, data)
        return sha, path, True


def _close_pins(pins: list[Pin]) -> None:
    for pin in pins:
        pin.close()


@dataclass(frozen=True)
class SnapshotStore(Store):
    """A store seen through a snapshot (`Store.snapshot`): locks, folders and recovery are the
    store's own."""

    base: Store = None

    @property
    def is_local(self) -> bool:
        return self.base.is_local

    def ensure_parent(self, path: str) -> None:
        self.base.ensure_parent(path)

    def recover(self) -> dict[str, int]:
        return self.base.recover()

    def close(self) -> None:
        _close_pins(list(self.fs.handler.pins.values()))

    def __enter__(self) -> SnapshotStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def store_from_uri(root: str, s3_options: dict | None = None, s3_client_factory=None,
                   recover: bool = True) -> Store:
    """`/abs/dir` or `s3://bucket/prefix` -> Store. `s3_options` go to pyarrow's S3FileSystem.
    Every way of opening a root (the assets' `StorageResource.store()`, scripts, benches) goes
    through here, so each reader first finishes the publications of runs that died mid-publish
    (`Store.recover()`); `recover=False` only for tests that look at a dead run's leftovers."""
    if root.startswith("s3://"):
        fs = pafs.S3FileSystem(**(s3_options or {}))
        store = Store(fs, root[len("s3://"):].rstrip("/"), s3_client_factory)
    else:
        local = pafs.LocalFileSystem()
        path = posixpath.abspath(root)
        local.create_dir(path, recursive=True)
        store = Store(local, path)
    if recover:
        store.recover()
    return store
