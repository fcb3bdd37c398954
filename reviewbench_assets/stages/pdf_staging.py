"""A file download kept in storage as it arrives, so that an answer OpenReview sent whole is never
asked again, even by the re-run of a run killed before the PDF was validated and stored (issue
29.3: the downloads in flight at a kill were asked again, 6 in one trial).

The body is streamed into `pdf_staging/<key>.bin`; once the last byte is in and its length equals
the answer's Content-Length, `<key>.json` records its length, sha256 and the requests it cost: that
record is what makes the staged answer complete. A run that finds a complete staged answer (the
record, and a file of that length and hash) uses it without a request; a body cut short leaves no
record and is asked again. The staged files go once the PDF is stored (or its error recorded). The
remaining window is the instant between the last byte's arrival and the record's write.

A run killed after its PDF moved into the store (the body is gone from here) and before its record
was deleted leaves a record without a body, which no re-run would delete (it finds the PDF stored
and never stages that answer again): `sweep` deletes such records when the stage starts. A record
without its body is never an answer (`staged` needs both), and a live run has one only between its
PDF's move and its own `drop`, which tolerates the record being gone.
"""
from __future__ import annotations

import hashlib
import json
import posixpath

import requests

from resources.openreview_api import OpenReviewApi, OpenReviewError
from resources.store import Store
from reviewbench_assets.io.layout import paths

CHUNK = 1 << 16


def _paths(store: Store, key: str) -> tuple[str, str]:
    # one folder: staged answers live only while their PDF is stored, so it holds a few at a time
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return store.path(paths.pdf_staging(f"{digest}.bin")), store.path(paths.pdf_staging(f"{digest}.json"))


def data_path(store: Store, key: str) -> str:
    """Where the body of `key` is staged (the PDF store moves it into place: Store.put_pdf)."""
    return _paths(store, key)[0]


def staged(store: Store, key: str) -> tuple[bytes, int] | None:
    """(body, requests it cost) of a complete staged answer for `key`, or None."""
    data_path, meta_path = _paths(store, key)
    meta = store.read_json_or_none(meta_path)
    if not isinstance(meta, dict) or meta.get("key") != key:
        return None
    try:
        data = store.read_bytes(data_path) if store.exists(data_path) else None
    except OSError:
        return None
    if data is None or len(data) != meta.get("length") or hashlib.sha256(data).hexdigest() != meta.get("sha256"):
        return None
    return data, int(meta.get("requests") or 1)


def fetch_staged(api: OpenReviewApi, store: Store, key: str, path: str, params: dict) -> bytes:
    """`GET path?params` streamed into the staging file of `key`, recorded complete when whole."""
    data_path, meta_path = _paths(store, key)
    store.fs.create_dir(posixpath.dirname(data_path), recursive=True)
    before = api.thread_requests()
    resp = api.get_stream(path, params)
    h, chunks, n = hashlib.sha256(), [], 0
    try:
        with resp, store.fs.open_output_stream(data_path) as out:
            for chunk in resp.iter_content(CHUNK):
                out.write(chunk)
                h.update(chunk)
                chunks.append(chunk)
                n += len(chunk)
    except requests.RequestException as exc:  # the connection dropped mid-body: asked again
        raise OpenReviewError("IncompleteBody", f"after {n} bytes: {exc}", None, path) from exc
    expected = resp.headers.get("Content-Length")
    # Content-Length counts the bytes as sent: comparable only when they were not encoded (gzip)
    if resp.headers.get("Content-Encoding", "identity") == "identity" and expected and expected.isdigit() \
            and int(expected) != n:  # a cut answer: not recorded, asked again (like a dropped connection)
        raise OpenReviewError("IncompleteBody", f"{n} of {expected} bytes", None, path)
    # Written at once, directly (not through a publication: no rename, no folder listing), to keep
    # the window between the answer's last byte and its record short; a record cut by a kill does
    # not parse, so it is a miss, never a false answer.
    record = json.dumps({"key": key, "length": n, "sha256": h.hexdigest(),
                         "requests": api.thread_requests() - before}).encode()
    with store.fs.open_output_stream(meta_path) as f:
        f.write(record)
    return b"".join(chunks)


def drop(store: Store, key: str) -> None:
    """The answer is stored (or its error recorded): its staged files go."""
    for p in _paths(store, key)[::-1]:  # the record first: a kill between leaves a miss, not a lie
        try:
            store.fs.delete_file(p)
        except (FileNotFoundError, OSError):
            pass


def sweep(store: Store) -> int:
    """Delete the records whose body is gone (see the module docstring); returns how many."""
    import pyarrow.fs as pafs

    folder = store.path(paths.pdf_staging("").rstrip("/"))
    names = {i.base_name for i in store.fs.get_file_info(pafs.FileSelector(folder, allow_not_found=True))
             if i.type == pafs.FileType.File}
    orphans = [n for n in names if n.endswith(".json") and f"{n.removesuffix('.json')}.bin" not in names]
    for name in orphans:
        try:
            store.fs.delete_file(posixpath.join(folder, name))
        except (FileNotFoundError, OSError):
            pass
    return len(orphans)
