"""The crawl's own view of stored forums (the line reading itself is `io.upstream.JsonlLines`):

- `StoredForum`: what a refresh needs of one stored forum without holding it;
- `tmdates_digest`: the digest that tells a changed forum from an unchanged one;
- `notes_page`: one page of `/notes` as the API sent it, checked.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import NamedTuple


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
