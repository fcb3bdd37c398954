"""Fetching a chosen revision's PDF and storing it (stages/pdf_choice.py decides which): one note's
PDF per request, or the current PDFs of up to 50 v2 notes in one `/attachment?ids=` zip; every PDF
validated (stages/pdf_check.py) and stored by sha256, with its source record written first so a
stored PDF is never downloaded twice, even by a run killed before its checkpoint."""
from __future__ import annotations

import hashlib
import io
import zipfile
from urllib.parse import parse_qsl, urlsplit

from resources.openreview_api import OpenReviewApi, OpenReviewError, is_retryable, stops_the_run
from resources.store import Store
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages import pdf_staging
from reviewbench_assets.stages.pdf_check import BadPdf, inspect_pdf

ATTACHMENT_BATCH = 50  # the API's maximum number of ids per /attachment?ids= request


def error_fields(prefix: str, exc: BaseException) -> dict:
    """`error` and `error_final` of a record (transient API errors are not final)."""
    return {"error": f"{prefix}{exc}"[:300], "error_final": not is_retryable(exc)}


def fetch_pdf(api: OpenReviewApi, store: Store, key: str, url_path: str) -> tuple[bytes, int]:
    """The file at `url_path` (through its staging: pdf_staging.py) and the requests it cost now
    beyond the thread's count (those of a staged answer a killed run received)."""
    got = pdf_staging.staged(store, key)
    if got is not None:
        return got
    parts = urlsplit(url_path)
    return pdf_staging.fetch_staged(api, store, key, parts.path, dict(parse_qsl(parts.query))), 0


def _source_path(store: Store, record: dict, pdf_url: str) -> str:
    key = hashlib.sha256(f"{pdf_url}|{record.get('fingerprint')}".encode()).hexdigest()[:24]
    return store.path(paths.pdf_source(record["forum_id"], key))


def stored_source(store: Store, record: dict, pdf_url: str, how: str) -> dict | None:
    """The record of a PDF already stored for this forum, revision URL and note version (a run
    killed between the PDF and its checkpoint), so it is not downloaded again; None otherwise."""
    src = store.read_json_or_none(_source_path(store, record, pdf_url))
    if not isinstance(src, dict) or not src.get("pdf_sha256") or not store.pdf_ok(src["pdf_sha256"]):
        return None
    return record | {k: src[k] for k in ("pdf_sha256", "pdf_size", "pdf_pages", "pdf_path")} | {
        "pdf_fetch": f"{how}, stored before"}


def store_pdf(store: Store, record: dict, data: bytes, how: str, pdf_url: str, staged: str | None = None) -> dict:
    """Validate the bytes and put them in the content-addressed store; errors become the record's.
    The source record (forum, revision URL, note version -> sha256) is written before the PDF: a
    kill after it leaves a stored PDF that the next run finds without a request, a kill before
    it leaves nothing stored (a source whose PDF is missing is a miss)."""
    try:
        pages = inspect_pdf(data)
    except BadPdf as exc:
        return record | {"error": f"pdf: {exc}"[:300], "error_final": True, "pdf_fetch": how}
    sha = hashlib.sha256(data).hexdigest()
    found = {"pdf_sha256": sha, "pdf_size": len(data), "pdf_pages": pages,
             "pdf_path": store.rel(store.pdf_path(sha))}  # relative: the root may move
    store.write_json(_source_path(store, record, pdf_url), found | {"pdf_url": pdf_url})
    store.put_pdf(data, staged)  # (kill tests stop between these writes: tests/faults/kill_points.py)
    return record | found | {"pdf_fetch": how}


def download_one(api: OpenReviewApi, store: Store, record: dict, pdf_url: str) -> dict:
    stored = stored_source(store, record, pdf_url, "single")
    if stored is not None:
        return stored | {"pdf_requests": record.get("pdf_requests") or 0.0}
    before, earlier = api.thread_requests(), 0
    key = store.rel(_source_path(store, record, pdf_url))  # one staging per forum, revision URL, note version
    try:
        data, earlier = fetch_pdf(api, store, key, pdf_url)
    except OpenReviewError as exc:
        pdf_staging.drop(store, key)  # a body cut short, if any
        if stops_the_run(exc):
            raise
        out = record | {**error_fields("pdf: ", exc), "pdf_fetch": "single"}
    else:
        out = store_pdf(store, record, data, "single", pdf_url, pdf_staging.data_path(store, key))
        pdf_staging.drop(store, key)
    return out | {"pdf_requests": (record.get("pdf_requests") or 0.0) + earlier + api.thread_requests() - before}


def download_batch(api: OpenReviewApi, store: Store, records: list[dict]) -> list[dict]:
    """Current PDFs of up to 50 notes in one `/attachment?ids=` request (v2); a note missing from
    the zip, or a batch that fails as a whole, falls back to one request per note."""
    stored = [stored_source(store, r, f"/pdf?id={r['forum_id']}", "batch") for r in records]
    if any(stored):  # found again after a kill: only the others are asked for
        rest = [r for r, s in zip(records, stored, strict=True) if s is None]
        return ([s | {"pdf_requests": 0.0} for s in stored if s is not None]
                + (download_batch(api, store, rest) if rest else []))
    ids = [r["forum_id"] for r in records]
    before, earlier = api.thread_requests(), 0
    key = "batch|" + "|".join(store.rel(_source_path(store, r, f"/pdf?id={r['forum_id']}")) for r in records)
    try:
        data, earlier = fetch_pdf(api, store, key, f"/attachment?ids={','.join(ids)}&name=pdf")
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
        pdf_staging.drop(store, key)
        share = (earlier + api.thread_requests() - before) / len(records)
        return [download_one(api, store, r | {"pdf_requests": share}, f"/pdf?id={r['forum_id']}")
                for r in records]
    share = (earlier + api.thread_requests() - before) / len(records)
    records = [r | {"pdf_requests": share} for r in records]
    out = []
    for r in records:
        if r["forum_id"] in members:
            out.append(store_pdf(store, r, members[r["forum_id"]], "batch", f"/pdf?id={r['forum_id']}"))
        else:
            out.append(download_one(api, store, r, f"/pdf?id={r['forum_id']}"))
    pdf_staging.drop(store, key)
    return out
