"""Per-forum initial-submission record: choose the revision, fetch its PDF once, say why.

Used by the `initial_submission_pdfs` asset; no Dagster here. The record is the provenance that
travels with the paper (rule, revision, deadline, sha256, size, pages, error).
"""
from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pyarrow as pa

from reviewbench_assets.domain.openreview_api import OpenReviewApi, OpenReviewError
from reviewbench_assets.domain.pdfs import BadPdf, inspect_pdf
from reviewbench_assets.domain.revisions import (Revision, RevisionChoice, choose_revision,
                                                 revisions_from_edits, revisions_from_references)
from reviewbench_assets.domain.store import Store

SUBMISSIONS_SCHEMA = pa.schema([
    ("forum_id", pa.string()), ("rule", pa.string()), ("reason", pa.string()),
    ("revision_id", pa.string()), ("revision_tcdate", pa.int64()), ("deadline_ms", pa.int64()),
    ("revision_source", pa.string()), ("cross_check", pa.string()),
    ("pdf_sha256", pa.string()), ("pdf_size", pa.int64()), ("pdf_pages", pa.int32()),
    ("pdf_path", pa.string()), ("error", pa.string()), ("fingerprint", pa.string()),
])


def _value(v):
    return v.get("value") if isinstance(v, dict) and "value" in v else v


def forum_meta(note: dict) -> dict:
    """What revision choice needs from a raw submission note (v1 or v2)."""
    invitations = note.get("invitations") or ([note["invitation"]] if note.get("invitation") else [])
    return {"forum_id": note["id"], "invitations": invitations,
            "pdf": _value((note.get("content") or {}).get("pdf")),
            "tmdate": note.get("tmdate") or note.get("mdate") or 0}


def fingerprint(meta: dict, deadline_ms: int | None) -> str:
    """Changes when the note or the deadline changes, so only those forums are redone."""
    return f"{meta['tmdate']}|{deadline_ms}"


def api_revisions(api: OpenReviewApi, forum_id: str) -> list[Revision]:
    """The API recipe (openreview-api.md §3.2): v2 note edits, v1 references with original=true."""
    if api.api == "v2":
        edits = api.get_json("/notes/edits", {"note.id": forum_id, "sort": "tcdate:asc"}).get("edits") or []
        return revisions_from_edits(edits)
    refs = api.get_json("/references", {"referent": forum_id, "original": "true"}).get("references") or []
    return revisions_from_references(refs)


def fetch_pdf(api: OpenReviewApi, url_path: str) -> bytes:
    parts = urlsplit(url_path)
    return api.get_bytes(parts.path, dict(parse_qsl(parts.query)))


def initial_submission_record(api: OpenReviewApi, store: Store, meta: dict, deadline_ms: int | None,
                              browser_result: list[Revision] | Exception | None,
                              cross_check: bool, allow_earliest_public: bool) -> dict:
    forum_id = meta["forum_id"]
    record = {"forum_id": forum_id, "deadline_ms": deadline_ms, "error": None,
              "fingerprint": fingerprint(meta, deadline_ms), "cross_check": None}

    def choose(revs: list[Revision]) -> RevisionChoice:
        return choose_revision(revs, deadline_ms, forum_id, meta["invitations"], meta["pdf"],
                               allow_earliest_public)

    try:
        if isinstance(browser_result, list):
            choice, record["revision_source"] = choose(browser_result), "browser"
            if cross_check:
                api_choice = choose(api_revisions(api, forum_id))
                same = (api_choice.rule, api_choice.revision_id) == (choice.rule, choice.revision_id)
                record["cross_check"] = "agree" if same else (
                    f"disagree: api chose {api_choice.rule}/{api_choice.revision_id}")
        else:  # the browser failed for this forum: the API recipe gives the same answer
            choice, record["revision_source"] = choose(api_revisions(api, forum_id)), "api"
            if browser_result is not None:
                record["cross_check"] = f"browser failed: {browser_result}"[:300]
    except OpenReviewError as exc:
        return record | {"rule": "unavailable", "reason": "revision history unreadable",
                         "revision_source": "none", "error": str(exc)[:300]}
    record |= {"rule": choice.rule, "reason": choice.reason, "revision_id": choice.revision_id,
               "revision_tcdate": choice.revision_tcdate}
    if not choice.pdf_url:
        return record
    try:
        data = fetch_pdf(api, choice.pdf_url)
        pages = inspect_pdf(data)
    except (OpenReviewError, BadPdf) as exc:
        return record | {"error": f"pdf: {exc}"[:300]}
    sha, path, _ = store.put_pdf(data)
    return record | {"pdf_sha256": sha, "pdf_size": len(data), "pdf_pages": pages, "pdf_path": path}


def records_table(records: list[dict]) -> pa.Table:
    cols = SUBMISSIONS_SCHEMA.names
    return pa.Table.from_pylist([{c: r.get(c) for c in cols} for r in records], schema=SUBMISSIONS_SCHEMA)
