"""The chosen revision's PDF of each forum, as the PDF stage fetches it (stages/pdf_stage.py decides
what to fetch; each forum's revision history is asked and kept by stages/revision_answers.py, the
venue's deadline is stages/deadline_check.py's), kept so that nothing is asked twice, even by the
re-run of a killed run (issue 29.3):
- the chosen revision's PDF: one note's PDF per request, or the current PDFs of up to 50 v2 notes in
  one `/attachment?ids=` zip; every PDF validated (`inspect_pdf`) and stored by sha256, with its
  source record written first so a stored PDF is never downloaded twice, even by a run killed
  before its checkpoint.

The bytes are checked (`inspect_pdf`) before they enter the store: a stage helper, not a domain rule,
since it opens the bytes with PDFium. The checks and their reasons are ocr_ray's (one rule for "is
this a usable PDF", used where PDFs are stored and where they are read), run here under a lock:
PDFium is not thread-safe, not even across documents (pypdfium2 docs), and downloads run in a
thread pool. Parsing is milliseconds per PDF; the downloads around it are what the pool overlaps.

A download is staged as it arrives (`fetch_staged`; the staged files are io/pdf_files.py's `PdfFiles`:
`receiving`, `staged`, `drop`), so that an answer OpenReview
sent whole is never asked again, even by the re-run of a run killed before the PDF was validated
and stored (the downloads in flight at a kill were asked again, 6 in one trial). Once the answer's
headers are in, `pdf_staging/<key>.json` records its key, its announced length (Content-Length) and
the requests it cost; then the body is streamed into `pdf_staging/<key>.bin`, so the write of its
last byte is the answer's last write: a run that finds a record and a file of that length (and of
its sha256, which the record gets once the body is whole) uses it without a request; a body cut
short is asked again. A zip of a batch is staged so, then each of its PDFs under its own forum's
key before any is stored: the re-run's batch holds only the forums not done (another key), and
still takes the PDFs the killed run received. The staged files go once the PDF is stored (or its
error recorded). The window left: between the recv() that brings the body's last byte into this
process and that byte's write into the staging file (issue 38.7; docs/storage.md). A run killed
after its PDF moved into the store and before its record was deleted leaves a record without a body,
which no re-run would delete (it finds the PDF stored): `PdfFiles.sweep_staging_records` deletes those when
the stage starts (a record without its body is never an answer; a live run has one only between its
PDF's move and its own `drop`, which tolerates the record being gone).
"""
from __future__ import annotations

import hashlib
import io
import threading
import zipfile
from urllib.parse import parse_qsl, urlsplit

import requests

from ocr_ray.pdf_pages import PdfReadError, check_page_count, check_pdf_bytes, open_pdf
from resources.openreview_api import OpenReviewApi, OpenReviewError, is_retryable, stops_the_run
from reviewbench_assets.io.pdf_files import PdfFiles

# The PDF stage's files kept by its fetching (PdfStage declares them among its `writes`).
FETCH_WRITES = ("revision_checkpoints", "pdf_source", "pdf_staging")


# ---------------------------------------------------------------------------------------------
# the chosen revision's PDF: fetched (through its staging), checked, stored


ATTACHMENT_BATCH = 50  # the API's maximum number of ids per /attachment?ids= request


# A record's `error_code` (the figures count these) with its words in `error`:
REVISIONS_UNREADABLE = "revision_history_unreadable"  # the forum's revision history could not be read
PDF_DOWNLOAD_FAILED = "pdf_download_failed"  # the chosen revision's PDF could not be downloaded
PDF_INVALID = "pdf_invalid"  # the bytes downloaded are not a readable PDF within the caps (inspect_pdf)


def error_fields(code: str, prefix: str, exc: BaseException) -> dict:
    """`error_code`, `error` (its words) and `error_final` of a record (transient API errors are not final)."""
    return {"error_code": code, "error": f"{prefix}{exc}"[:300], "error_final": not is_retryable(exc)}


def fetch_pdf(api: OpenReviewApi, files: PdfFiles, key: str, url_path: str) -> tuple[bytes, float]:
    """The file at `url_path` (through its staging: `fetch_staged`) and the requests it cost now
    beyond the thread's count (those of a staged answer a killed run received)."""
    got = files.staged(key)
    if got is not None:
        return got
    parts = urlsplit(url_path)
    return fetch_staged(api, files, key, parts.path, dict(parse_qsl(parts.query))), 0


def _source_key(record: dict, pdf_url: str) -> str:
    return hashlib.sha256(f"{pdf_url}|{record.get('fingerprint')}".encode()).hexdigest()[:24]


def _staging_key(files: PdfFiles, record: dict, pdf_url: str) -> str:
    # one staging per forum, revision URL and note version: the source record's
    return files.source_rel(record["forum_id"], _source_key(record, pdf_url))


def stored_source(files: PdfFiles, record: dict, pdf_url: str, how: str) -> dict | None:
    """The record of a PDF already stored for this forum, revision URL and note version (a run
    killed between the PDF and its checkpoint), so it is not downloaded again; None otherwise."""
    src = files.source(record["forum_id"], _source_key(record, pdf_url))
    if not isinstance(src, dict) or not src.get("pdf_sha256") or not files.pdf_ok(src["pdf_sha256"]):
        return None
    return record | {k: src[k] for k in ("pdf_sha256", "pdf_size", "pdf_pages", "pdf_path")} | {
        "pdf_fetch": f"{how}, stored before"}


def store_pdf(files: PdfFiles, record: dict, data: bytes, how: str, pdf_url: str, staged: str | None = None) -> dict:
    """Validate the bytes and put them in the content-addressed store; errors become the record's.
    The source record (forum, revision URL, note version -> sha256) is written before the PDF: a
    kill after it leaves a stored PDF that the next run finds without a request, a kill before
    it leaves nothing stored (a source whose PDF is missing is a miss). `staged`: the key of the
    download staged with these bytes (moved into the store, not written again)."""
    try:
        pages = inspect_pdf(data)
    except BadPdf as exc:
        return record | {"error_code": PDF_INVALID, "error": f"pdf: {exc}"[:300], "error_final": True, "pdf_fetch": how}
    sha = hashlib.sha256(data).hexdigest()
    found = {"pdf_sha256": sha, "pdf_size": len(data), "pdf_pages": pages,
             "pdf_path": files.pdf_rel(sha)}  # relative: the root may move
    files.write_source(record["forum_id"], _source_key(record, pdf_url), found | {"pdf_url": pdf_url})
    files.put_pdf(data, staged)  # (kill tests stop between these writes: tests/faults/kill_points.py)
    return record | found | {"pdf_fetch": how}


def download_one(api: OpenReviewApi, files: PdfFiles, record: dict, pdf_url: str) -> dict:
    stored = stored_source(files, record, pdf_url, "single")
    if stored is not None:
        return stored | {"pdf_requests": record.get("pdf_requests") or 0.0}
    before, earlier = api.thread_requests(), 0
    key = _staging_key(files, record, pdf_url)
    try:
        data, earlier = fetch_pdf(api, files, key, pdf_url)
    except OpenReviewError as exc:
        files.drop(key)  # a body cut short, if any
        if stops_the_run(exc):
            raise
        out = record | {**error_fields(PDF_DOWNLOAD_FAILED, "pdf: ", exc), "pdf_fetch": "single"}
    else:
        out = store_pdf(files, record, data, "single", pdf_url, key)
        files.drop(key)
    return out | {"pdf_requests": (record.get("pdf_requests") or 0.0) + earlier + api.thread_requests() - before}


def _current(r: dict) -> str:
    return f"/pdf?id={r['forum_id']}"  # a note's current PDF


def download_batch(api: OpenReviewApi, files: PdfFiles, records: list[dict]) -> list[dict]:
    """Current PDFs of up to 50 notes in one `/attachment?ids=` request (v2); a note missing from
    the zip, or a batch that fails as a whole, falls back to one request per note. The zip is staged
    whole, then each of its PDFs under its forum's own key, before any is stored: a run killed while
    they are stored leaves every one it received, and its re-run (whose batch then holds only the
    forums not stored: another key) takes them without asking again."""
    out, rest = [], []
    for r in records:  # found again after a kill: stored
        found = stored_source(files, r, _current(r), "batch")
        (rest if found is None else out).append(r if found is None else found | {"pdf_requests": 0.0})
    key = "batch|" + "|".join(_staging_key(files, r, _current(r)) for r in rest)
    if rest and files.staged(key) is None:  # no zip staged for them (killed while its PDFs were staged)
        got = [files.staged(_staging_key(files, r, _current(r))) for r in rest]
        out += [_store_staged(files, r | {"pdf_requests": g[1]}, g[0]) for r, g in zip(rest, got, strict=True) if g]
        rest = [r for r, g in zip(rest, got, strict=True) if g is None]
        key = "batch|" + "|".join(_staging_key(files, r, _current(r)) for r in rest)
    if not rest:
        return out
    ids = [r["forum_id"] for r in rest]
    before, earlier = api.thread_requests(), 0
    try:
        data, earlier = fetch_pdf(api, files, key, f"/attachment?ids={','.join(ids)}&name=pdf")
        members: dict[str, bytes] = {}
        if data[:4] == b"PK\x03\x04":
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                for name in zf.namelist():
                    members[name.rsplit("/", 1)[-1].rsplit(".", 1)[0]] = zf.read(name)
        elif len(ids) == 1:  # one id: the API answers the file itself
            members[ids[0]] = data
        else:
            raise OpenReviewError("BadZip", "expected a zip from /attachment?ids=", None, "/attachment")
    except (OpenReviewError, zipfile.BadZipFile) as exc:
        if stops_the_run(exc):
            raise
        files.drop(key)
        share = (earlier + api.thread_requests() - before) / len(rest)
        return out + [download_one(api, files, r | {"pdf_requests": share}, _current(r)) for r in rest]
    share = (earlier + api.thread_requests() - before) / len(rest)
    rest = [r | {"pdf_requests": share} for r in rest]
    for r in rest:
        if r["forum_id"] in members:
            files.stage_answer(_staging_key(files, r, _current(r)), members[r["forum_id"]], share)
    files.drop(key)  # its PDFs are staged each under its own key
    return out + [_store_staged(files, r, members[r["forum_id"]]) if r["forum_id"] in members
                  else download_one(api, files, r, _current(r)) for r in rest]


def _store_staged(files: PdfFiles, record: dict, data: bytes) -> dict:
    """A batch's PDF staged under its forum's key: stored (moved from its staging), its staging gone."""
    key = _staging_key(files, record, _current(record))
    stored = store_pdf(files, record, data, "batch", _current(record), key)
    files.drop(key)
    return stored


# ---------------------------------------------------------------------------------------------
# the bytes checked before they enter the store


_PDFIUM_LOCK = threading.Lock()


class BadPdf(ValueError):
    """The bytes are not a usable PDF; the message is the reason recorded for the paper."""


def inspect_pdf(data: bytes) -> int:
    """Return the page count, or raise BadPdf with the reason (not a PDF, truncated, encrypted,
    zero pages, corrupt, over a cap: inflated streams, image size, pages)."""
    with _PDFIUM_LOCK:
        try:
            check_pdf_bytes(data)
            doc = open_pdf(data)
        except PdfReadError as exc:
            raise BadPdf(str(exc)) from None
        try:
            pages = len(doc)
        finally:
            doc.close()
    if pages == 0:
        raise BadPdf("PDF has zero pages")
    try:
        check_page_count(pages)
    except PdfReadError as exc:
        raise BadPdf(str(exc)) from None
    return pages


# ---------------------------------------------------------------------------------------------
# a download staged as it arrives


CHUNK = 1 << 16


def _announced_length(resp: requests.Response) -> int | None:
    # Content-Length counts the bytes as sent: the body's length only when they were not encoded (gzip)
    expected = resp.headers.get("Content-Length")
    if resp.headers.get("Content-Encoding", "identity") == "identity" and expected and expected.isdigit():
        return int(expected)
    return None


def fetch_staged(api: OpenReviewApi, files: PdfFiles, key: str, path: str, params: dict) -> bytes:
    """`GET path?params` streamed into the staging file of `key`. When the answer announces its
    length, the record (key, length, requests) is written before the body, so that the last byte's
    write is the answer's last write: a body whose bytes all reached the file is complete, whatever
    is killed after it (see the module docstring). Without a length, the record follows the body."""
    before = api.thread_requests()
    resp = api.get_stream(path, params)
    announced = _announced_length(resp)
    h, chunks, n = hashlib.sha256(), [], 0
    try:
        with resp, files.receiving(key) as out:  # the body's file emptied before its record
            if announced is not None:
                out.record({"key": key, "length": announced, "requests": api.thread_requests() - before})
            for chunk in resp.iter_content(CHUNK):
                out.write(chunk)
                h.update(chunk)
                chunks.append(chunk)
                n += len(chunk)
    except requests.RequestException as exc:  # the connection dropped mid-body: asked again
        raise OpenReviewError("IncompleteBody", f"after {n} bytes: {exc}", None, path) from exc
    if announced is not None and announced != n:  # a cut answer: a miss, asked again (like a dropped connection)
        raise OpenReviewError("IncompleteBody", f"{n} of {announced} bytes", None, path)
    # the record completed with the body's hash (a staged file damaged since is then a miss)
    files.record(key, {"key": key, "length": n, "sha256": h.hexdigest(), "requests": api.thread_requests() - before})
    return b"".join(chunks)
