"""A fake `requests.Response` as `stages/pdf_fetch.py` reads a download: headers, the body in
chunks, a context manager. Shared by the PDF stage's tests and the crash-point pipeline."""
from __future__ import annotations


class Streamed:
    """``body`` streamed under a ``Content-Length`` of ``length`` (default: the body's own; a larger
    one is a connection that ended early)."""

    def __init__(self, body: bytes, length: int | None = None):
        self.body = body
        self.headers = {"Content-Length": str(len(body) if length is None else length)}

    def iter_content(self, size: int):
        return (self.body[i:i + size] for i in range(0, len(self.body), size))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
