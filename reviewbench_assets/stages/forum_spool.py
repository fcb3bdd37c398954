"""Forums one at a time: a venue-year's forums (with every reply, tens of KB each) are never all held
in memory, so the crawl and the stages after it stay flat in memory from hundreds of forums to a
whole venue-year (19,631 for ICLR 2026).

- `JsonlLines`: a stored JSONL file read line by line with each line's byte offset, and any line
  read again later by its offset (what a compact index of the stored forums points at).
- `Spool`: a local scratch file of JSON lines that a stage writes as the forums arrive and reads
  back in order (or one line by offset). It is an unnamed temporary file: the OS removes it
  whatever ends the process, and nothing in it is a result (results are published by the store).
- `StoredForum`: what a refresh needs of one stored forum without holding it.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
import tempfile
from collections.abc import Iterator
from typing import NamedTuple

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


def tmdates_digest(tmdates: dict[str, int]) -> bytes:
    """A short digest of a forum's (note id -> tmdate): equal digests, same notes unchanged."""
    return hashlib.sha1(json.dumps(sorted(tmdates.items())).encode()).digest()[:12]


class StoredForum(NamedTuple):
    """One forum of the stored crawl: where its line is, its notes' digest, whether it carries
    review edit histories (kept for an unchanged forum without re-reading them)."""
    offset: int
    length: int
    digest: bytes
    has_edits: bool


_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class NotesPage(NamedTuple):
    """One `GET /notes` answer kept as its text: where each note is, and the `count` it reported.
    A page of 1000 forums with their replies is ~20 MB of JSON but ~100 MB once parsed whole; the
    notes are parsed one at a time instead (`notes()`)."""
    text: str
    spans: list[tuple[int, int]]
    count: int | None

    def notes(self) -> Iterator:
        for start, _end in self.spans:
            yield _DECODER.raw_decode(self.text, start)[0]


def notes_page(text: str, require_notes: bool = False) -> NotesPage:
    """Read a `GET /notes` body (`{"notes": [...], "count": n, ...}`): every value is parsed once, to
    check the whole body, and dropped; a note is kept only as its span. ValueError when the body is
    not such an object (`require_notes`: its `notes` must be a list, as a checkpoint's is)."""
    def ws(i: int) -> int:
        return _WS.match(text, i).end()

    def expect(i: int, chars: str) -> str:
        if text[i:i + 1] not in chars or i >= len(text):
            raise ValueError(f"expected one of {chars!r} at character {i} of a /notes page")
        return text[i]

    spans: list[tuple[int, int]] = []
    count, has_notes = None, False
    i = ws(0)
    expect(i, "{")
    i = ws(i + 1)
    if text[i:i + 1] != "}":
        while True:
            key, i = _DECODER.raw_decode(text, i)
            i = ws(i)
            expect(i, ":")
            i = ws(i + 1)
            if key == "notes" and text[i:i + 1] == "[":
                spans, has_notes, i = [], True, ws(i + 1)
                while text[i:i + 1] != "]":
                    _note, end = _DECODER.raw_decode(text, i)  # parsed to check it, then dropped
                    spans.append((i, end))
                    i = ws(end)
                    if expect(i, ",]") == ",":
                        i = ws(i + 1)
                i += 1
            else:
                value, i = _DECODER.raw_decode(text, i)
                if key == "count":
                    count = value if isinstance(value, int) else None
                elif key == "notes":
                    spans, has_notes = [], value is None and not require_notes
            i = ws(i)
            if expect(i, ",}") == "}":
                break
            i = ws(i + 1)
    if ws(i + 1) != len(text):
        raise ValueError("trailing data after a /notes page")
    if require_notes and not has_notes:
        raise ValueError("a /notes page without a notes list")
    return NotesPage(text, spans, count)
