"""The PDF stage's files kept by its fetching (what `Outputs.pdf_files()` hands it; the stage never
holds the store nor its filesystem, issue 39 item 1):
- the content-addressed PDFs (`pdfs/<sha[:2]>/<sha>.pdf`: `pdf_ok`, `put_pdf`, `pdf_rel`);
- each forum's source record (which stored PDF a revision URL and note version resolved to:
  `source`, `write_source`), written before its PDF;
- a download staged as it arrives (`pdf_staging/`: `receiving`, `staged`, `stage_answer`, `drop`,
  `sweep_staging_records`), so that an answer OpenReview sent whole is never asked again.

Why a download is staged so, and in this order, is stages/pdf_fetch.py's module docstring: once the
answer's headers are in, `<digest>.json` records its key, announced length and the requests it cost;
then the body is streamed into `<digest>.bin`, so the write of its last byte is the answer's last
write. Both are written in place (`direct_stream`: no rename between the last byte and the record)."""
from __future__ import annotations

import hashlib
import json
import posixpath
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from resources.store import Store
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.shards import list_files


def direct_stream(store: Store, path: str):
    """An output stream of the file `path` (full path) written in place, outside any publication:
    a stage's own resume files that are never published data (the PDF stage's download staging,
    whose record must follow the answer's last byte without a rename in between)."""
    return store.fs.open_output_stream(path)


def _record(store: Store, meta_path: str, record: dict) -> None:
    # Written at once, directly (not through a publication: no rename, no folder listing); a record
    # cut by a kill does not parse, so it is a miss, never a false answer.
    with direct_stream(store, meta_path) as f:
        f.write(json.dumps(record).encode())


class Receiving:
    """A download of `key` being staged: its record (`record`) and its body's bytes (`write`), in the
    order the caller writes them."""

    def __init__(self, store: Store, meta_path: str, out):
        self._store, self._meta_path, self._out = store, meta_path, out

    def record(self, record: dict) -> None:
        _record(self._store, self._meta_path, record)

    def write(self, chunk: bytes) -> None:
        self._out.write(chunk)


class PdfFiles:
    """The PDF stage's stored PDFs, source records and download staging in `store`."""

    def __init__(self, store: Store):
        self._store = store

    # ---- the content-addressed PDFs
    def pdf_ok(self, sha256: str) -> bool:
        """The stored PDF exists and its bytes hash to `sha256`."""
        return self._store.pdf_ok(sha256)

    def pdf_rel(self, sha256: str) -> str:
        """The stored PDF's root-relative path (what a record keeps: the root may move)."""
        return self._store.rel(self._store.pdf_path(sha256))

    def put_pdf(self, data: bytes, staged_key: str | None = None) -> None:
        """Store the PDF once; `staged_key`: the download staged under that key holds exactly `data`,
        moved into place instead of writing the bytes again (`Store.put_pdf`)."""
        self._store.put_pdf(data, None if staged_key is None else self.data_path(staged_key))

    # ---- source records: forum, revision URL and note version -> the stored PDF
    def source_rel(self, forum_id: str, key: str) -> str:
        """Root-relative path of the source record (the forum id checked: it names a folder)."""
        return self._store.rel(self._store.path(paths.pdf_source(forum_id, key)))

    def source(self, forum_id: str, key: str) -> Any:
        """The source record, None when absent or damaged (a miss)."""
        return self._store.read_json_or_none(self._store.path(self.source_rel(forum_id, key)))

    def write_source(self, forum_id: str, key: str, record: dict) -> None:
        self._store.write_json(self._store.path(self.source_rel(forum_id, key)), record)

    # ---- downloads staged as they arrive
    def _paths(self, key: str) -> tuple[str, str]:
        # one folder: staged answers live only while their PDF is stored, so it holds a few at a time
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]
        return (self._store.path(paths.pdf_staging(f"{digest}.bin")),
                self._store.path(paths.pdf_staging(f"{digest}.json")))

    def data_path(self, key: str) -> str:
        """Where the body of `key` is staged (the PDF store moves it into place: Store.put_pdf)."""
        return self._paths(key)[0]

    def staged(self, key: str) -> tuple[bytes, float] | None:
        """(body, requests it cost) of a complete staged answer for `key`, or None: its record names the
        key and the body's length, the file has that length, and its sha256 when the record has one."""
        store = self._store
        data_path, meta_path = self._paths(key)
        meta = store.read_json_or_none(meta_path)
        if not isinstance(meta, dict) or meta.get("key") != key or not isinstance(meta.get("length"), int):
            return None
        try:
            data = store.read_bytes(data_path) if store.exists(data_path) else None
        except OSError:
            return None
        if data is None or len(data) != meta["length"] or (
                "sha256" in meta and hashlib.sha256(data).hexdigest() != meta["sha256"]):
            return None
        requests_ = meta.get("requests")
        return data, (requests_ if isinstance(requests_, int | float) and requests_ >= 0 else 1)

    @contextmanager
    def receiving(self, key: str) -> Iterator[Receiving]:
        """The staging of `key`'s answer: its body's file emptied (opened) before anything is recorded."""
        data_path, meta_path = self._paths(key)
        self._store.fs.create_dir(posixpath.dirname(data_path), recursive=True)
        with direct_stream(self._store, data_path) as out:
            yield Receiving(self._store, meta_path, out)

    def record(self, key: str, record: dict) -> None:
        """The staging record of `key` (after its body: the answer is complete)."""
        _record(self._store, self._paths(key)[1], record)

    def stage_answer(self, key: str, data: bytes, requests_: float) -> None:
        """Stage `data` as the complete answer of `key` (a PDF of a batch's zip, under its forum's own key:
        a re-run finds it whatever batch it then forms)."""
        with self.receiving(key) as rx:
            rx.write(data)
        self.record(key, {"key": key, "length": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                          "requests": requests_})

    def drop(self, key: str) -> None:
        """The answer is stored (or its error recorded): its staged files go."""
        for p in self._paths(key):  # the body first: a kill between leaves a record alone (a miss, swept)
            try:
                self._store.fs.delete_file(p)
            except (FileNotFoundError, OSError):
                pass

    def sweep_staging_records(self) -> int:
        """Delete the staging records whose body is gone (a run killed after its PDF moved into the
        store and before its record was deleted); returns how many."""
        fs = self._store.fs
        folder = self._store.path(paths.pdf_staging("")).rstrip("/")
        names = {i.base_name for i in list_files(fs, folder)}
        orphans = [n for n in names if n.endswith(".json") and f"{n.removesuffix('.json')}.bin" not in names]
        for name in orphans:
            try:
                fs.delete_file(posixpath.join(folder, name))
            except (FileNotFoundError, OSError):
                pass
        return len(orphans)
