"""One storage root, local or S3, behind `pyarrow.fs` (same code path for both).

Every write goes to a temporary name and is moved into place (a rename locally, a server-side
copy on S3), so a reader never sees a half file.
PDFs are content-addressed by sha256 and written once.
"""
from __future__ import annotations

import hashlib
import io
import json
import posixpath
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq


@dataclass(frozen=True)
class Store:
    fs: pafs.FileSystem
    root: str  # local absolute path, or "bucket/prefix" for S3

    @property
    def is_local(self) -> bool:
        return isinstance(self.fs, pafs.LocalFileSystem)

    @property
    def uri(self) -> str:
        return self.root if self.is_local else f"s3://{self.root}"

    def path(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)

    # ---- reading -------------------------------------------------------------------------
    def exists(self, path: str) -> bool:
        return self.fs.get_file_info(path).type == pafs.FileType.File

    def read_bytes(self, path: str) -> bytes:
        with self.fs.open_input_stream(path) as f:
            return f.read()

    def read_json(self, path: str):
        return json.loads(self.read_bytes(path))

    def iter_jsonl(self, path: str) -> Iterator[dict]:
        with self.fs.open_input_stream(path) as f:
            for line in io.TextIOWrapper(f, encoding="utf-8"):
                if line.strip():
                    yield json.loads(line)

    def read_parquet(self, path: str, columns: list[str] | None = None) -> pa.Table:
        return pq.read_table(path, filesystem=self.fs, columns=columns)

    def list_files(self, prefix: str) -> list[str]:
        sel = pafs.FileSelector(prefix, recursive=True, allow_not_found=True)
        return sorted(i.path for i in self.fs.get_file_info(sel) if i.type == pafs.FileType.File)

    # ---- atomic writing ------------------------------------------------------------------
    def _tmp_for(self, path: str) -> str:
        head, tail = posixpath.split(path)
        return posixpath.join(head, f".{tail}.tmp-{uuid.uuid4().hex[:8]}")

    def _ensure_parent(self, path: str) -> None:
        if self.is_local:
            self.fs.create_dir(posixpath.dirname(path), recursive=True)

    def write_with(self, path: str, writer) -> None:
        """Call `writer(target_path)` and publish the file at `path` atomically."""
        # S3 too: pyarrow completes an upload when the stream closes, even on an exception,
        # so the object is written under a temporary key and copied into place.
        self._ensure_parent(path)
        tmp = self._tmp_for(path)
        try:
            writer(tmp)
            self.fs.move(tmp, path)
        except BaseException:
            if self.fs.get_file_info(tmp).type == pafs.FileType.File:
                self.fs.delete_file(tmp)
            raise

    def write_bytes(self, path: str, data: bytes) -> None:
        def _w(target: str) -> None:
            with self.fs.open_output_stream(target) as f:
                f.write(data)

        self.write_with(path, _w)

    def write_json(self, path: str, obj) -> None:
        self.write_bytes(path, json.dumps(obj, ensure_ascii=False, sort_keys=True).encode())

    def write_jsonl(self, path: str, rows: Iterable[dict]) -> int:
        count = 0

        def _w(target: str) -> None:
            nonlocal count
            with self.fs.open_output_stream(target) as f:
                for row in rows:
                    f.write((json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n").encode())
                    count += 1

        self.write_with(path, _w)
        return count

    def write_parquet(self, path: str, table: pa.Table) -> None:
        self.write_with(path, lambda target: pq.write_table(table, target, filesystem=self.fs))

    def delete_dir(self, path: str) -> None:
        if self.fs.get_file_info(path).type == pafs.FileType.Directory:
            self.fs.delete_dir(path)

    # ---- content-addressed PDFs ----------------------------------------------------------
    def pdf_path(self, sha256: str) -> str:
        return self.path("pdfs", sha256[:2], f"{sha256}.pdf")

    def put_pdf(self, data: bytes) -> tuple[str, str, bool]:
        """Store PDF bytes once. Returns (sha256, path, newly_written)."""
        sha = hashlib.sha256(data).hexdigest()
        path = self.pdf_path(sha)
        if self.exists(path):
            return sha, path, False
        self.write_bytes(path, data)
        return sha, path, True


def store_from_uri(root: str, s3_options: dict | None = None) -> Store:
    """`/abs/dir` or `s3://bucket/prefix` -> Store. `s3_options` go to pyarrow's S3FileSystem."""
    if root.startswith("s3://"):
        fs = pafs.S3FileSystem(**(s3_options or {}))
        return Store(fs, root[len("s3://"):].rstrip("/"))
    local = pafs.LocalFileSystem()
    path = posixpath.abspath(root)
    local.create_dir(path, recursive=True)
    return Store(local, path)
