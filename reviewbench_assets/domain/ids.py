"""Which ids may become part of a storage path.

OpenReview note, forum and edit ids are short strings of letters, digits, `_` and `-` (e.g.
`ryxz8CVYDH` on API v1, `zzo3Sy3NSX` on v2, 10 characters in practice; the live samples in
tests/fixtures/openreview-samples hold nothing else). Anything else (path separators, `..`, NUL,
400 characters) is not an id we will ever write a file for: the note is quarantined with
`id_problem(...)` as its reason instead.
"""
from __future__ import annotations

import re

MAX_ID_LEN = 64
_ID_RE = re.compile(rf"^[A-Za-z0-9_-]{{1,{MAX_ID_LEN}}}$")


def id_problem(value) -> str | None:
    """None for a usable id, else why it is not one (for the quarantine reason)."""
    if not isinstance(value, str):
        return f"id is {type(value).__name__}, not a string"
    if _ID_RE.match(value):
        return None
    shown = value[:40].encode("unicode_escape").decode("ascii")
    if len(value) > MAX_ID_LEN:
        return f"invalid id {shown!r}...: {len(value)} characters (at most {MAX_ID_LEN})"
    return f"invalid id {shown!r}: only letters, digits, '_' and '-' are allowed"


class InvalidIdError(ValueError):
    pass


def check_id(value) -> str:
    problem = id_problem(value)
    if problem:
        raise InvalidIdError(problem)
    return value
