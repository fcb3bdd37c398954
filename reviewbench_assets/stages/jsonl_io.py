"""JSON lines one at a time, shared by the stages (as `parquet_io` is for Parquet): a venue-year's
forums (tens of KB each) are never all held in memory, so the stages stay flat in memory from hundreds
of forums to a whole venue-year (19,631 for ICLR 2026).

- `JsonlLines`: a stored JSONL file read line by line with each line's byte offset, and any line
  read again later by its offset (what a compact index of the stored forums points at).
- `Spool`: a local scratch file of JSON lines that a stage writes as its items arrive and reads
  back in order (or one line by offset). It is an unnamed temporary file: the OS removes it
  whatever ends the process, and nothing in it is a result (results are published by the store).
"""
from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Iterator

from resources.store import CorruptFileError, Store, dumps_json


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
