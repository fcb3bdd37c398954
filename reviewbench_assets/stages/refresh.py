"""Crawl or refresh one venue-year's forums into `raw/forums/<pk>.jsonl`: the logic of the
`openreview_forums` asset, free of Dagster so that it can be tested with a fake API and a store.

The first run crawls the venue in batches (`details=replies`, 1000 forums a request). Later runs of
an API v2 venue are incremental: a `tmdate` cursor over every note of the venue finds the forums
with something new, only those are fetched, and they are merged into the stored file (one line per
forum, rewritten atomically). API v1 has no `domain` filter to run such a cursor over a venue's
notes, and its venue-years are closed: a refresh re-reads the submission pages and counts as
touched only the forums whose notes changed."""
from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from partitions.catalogue import VenueYear
from resources.openreview_api import OpenReviewApi
from resources.store import CorruptFileError, Store
from reviewbench_assets import paths
from reviewbench_assets.domain.ids import id_problem
from reviewbench_assets.domain.posts import field_value
from reviewbench_assets.domain.quarantine import oddity_reasons, quarantine_reasons
from reviewbench_assets.stages.crawl import (
    CURSOR_MARGIN_MS,
    REFRESH_MAX_SHARE,
    REFRESH_MIN_FORUMS,
    changed_forums,
    crawl_forums,
    fetch_forum,
    fetch_review_edits,
    note_tmdates,
    query_label,
)
from reviewbench_assets.stages.progress import Progress


@dataclass
class CrawlResult:
    """What one crawl or refresh of a venue-year wrote and did."""
    forums: int                       # forums in the stored file
    mode: str                         # "full" or "incremental"
    status: Counter                   # new / changed / unchanged / removed against what was stored
    touched: list[str]                # forum ids new or changed
    refresh: dict                     # cursor figures of an incremental refresh ({} for a full crawl)
    forums_by_query: dict
    errors: list[dict]                # unusable notes (kept with their reason)
    quarantined: list[dict]           # {"forum_id", "reasons"[, "raw"]}
    previews: list[dict] = field(default_factory=list)
    requests: int = 0
    review_edit_requests: int = 0
    review_edits_resumed: int = 0  # forums whose edit histories came from a checkpoint of a killed run
    elapsed_s: float = 0.0
    raw_path: str = ""
    quarantine_path: str = ""

    @property
    def quarantined_share(self) -> float:
        return len(self.quarantined) / max(self.forums + len(self.errors), 1)


def forum_record(item: dict, api: str, fetched_at: float) -> tuple[dict | None, dict | None]:
    """A raw forum line, or an error line when the note is unusable (kept, never crashes)."""
    note = item["note"]
    if not isinstance(note, dict) or not note.get("id"):
        return None, {"query": item["query"], "reason": "note without id", "raw": note}
    problem = id_problem(note["id"])
    if problem:  # never becomes a path (checkpoints, PDFs): quarantined with the reason
        return None, {"query": item["query"], "reason": problem, "raw": note}
    if not isinstance(note.get("content"), dict):
        return None, {"forum_id": note["id"], "query": item["query"], "reason": "note without content",
                      "raw": note}
    return {"forum_id": note["id"], "query": item["query"], "api": api,
            "fetched_at": round(fetched_at, 3), "note": note}, None


def _incremental(api: OpenReviewApi, venue: VenueYear, stored: list[dict], since: int,
                 errors: list[dict], log: Callable[[str], None]) -> tuple[list[dict] | None, dict]:
    """The stored forums with the changed ones re-fetched, or None when too many changed."""
    known: dict[str, int] = {}
    for r in stored:
        known.update(note_tmdates(r["note"]))
    changes = changed_forums(api, venue, since, known)
    refresh = {"cursor_ms": since, "notes_newer_than_cursor": changes.notes_seen,
               "cursor_requests": changes.requests}
    limit = max(REFRESH_MIN_FORUMS, int(REFRESH_MAX_SHARE * len(stored)))
    if len(changes.changed) > limit:
        log(f"{venue.key}: {len(changes.changed)} forums changed (> {limit}): full crawl")
        return None, refresh
    merged = {r["forum_id"]: r for r in stored}
    for fid in changes.deleted:
        merged.pop(fid, None)
    for fid in sorted(changes.changed):
        note = fetch_forum(api, fid)
        label = query_label(note, venue) if note else None
        if note is None or note.get("ddate") or label is None:
            merged.pop(fid, None)
            continue
        record, error = forum_record({"query": label, "note": note}, venue.api, time.time())
        if error:
            errors.append(error)
            continue
        merged[fid] = record
    return list(merged.values()), refresh


def _full_crawl(api: OpenReviewApi, venue: VenueYear, store: Store, errors: list[dict],
                log: Callable[[str], None]) -> list[dict]:
    checkpoint = store.path(paths.crawl_checkpoints(venue.key))
    records, listed = [], {}
    for item in crawl_forums(api, venue, store, checkpoint,
                             progress=lambda label, n: log(f"{venue.key}: {label} page of {n}"), listed=listed):
        record, error = forum_record(item, venue.api, time.time())
        if error:
            errors.append(error)
        else:
            records.append(record)
    most = {}  # forum id -> the most times one query listed it
    for key, n in listed.items():
        fid = key.split("\t", 1)[1]
        most[fid] = max(most.get(fid, 0), n)
    for rec in records:
        if most.get(rec["forum_id"], 1) > 1:
            rec["listed"] = most[rec["forum_id"]]
    store.delete_dir(checkpoint)  # finished: the next materialization starts from the cursor
    return records


def _compare(records: list[dict], stored_by_id: dict[str, dict]) -> tuple[Counter, list[str]]:
    """new / changed / unchanged / removed, against what was stored; unchanged forums keep their
    stored review edit histories."""
    status: Counter = Counter()
    ids, touched = set(), []
    for rec in records:
        ids.add(rec["forum_id"])
        old = stored_by_id.get(rec["forum_id"])
        if old is None:
            status["new"] += 1
        elif old is rec or note_tmdates(old["note"]) == note_tmdates(rec["note"]):
            status["unchanged"] += 1
            if old is not rec and "review_edits" in old:
                rec["review_edits"] = old["review_edits"]
            continue
        else:
            status["changed"] += 1
        touched.append(rec["forum_id"])
    status["removed"] = sum(1 for fid in stored_by_id if fid not in ids)
    return status, touched


def _quarantine(records: list[dict], errors: list[dict], venue: VenueYear) -> tuple[list[dict], Counter, list[dict]]:
    quarantined, counts, previews = [], Counter(), []
    for rec in records:
        counts[rec["query"]] += 1
        reasons = quarantine_reasons(rec["note"], venue) + oddity_reasons(rec["note"], venue, rec.get("listed", 1))
        if reasons:
            quarantined.append({"forum_id": rec["forum_id"], "reasons": reasons})
        if len(previews) < 10:
            title = rec["note"]["content"].get("title")
            previews.append({"forum_id": rec["forum_id"], "query": rec["query"],
                             "title": field_value(title),
                             "replies": len((rec["note"].get("details") or {}).get("replies") or [])})
    quarantined += [{"forum_id": e.get("forum_id"), "reasons": [e["reason"]], "raw": e.get("raw")} for e in errors]
    return quarantined, counts, previews


def refresh_venue(venue: VenueYear, store: Store, v2: OpenReviewApi, api: OpenReviewApi, *,
                  full_refresh: bool = False, review_edits: bool = True,
                  log: Callable[[str], None] = lambda _m: None,
                  progress: Callable[[str, int], Progress] | None = None) -> CrawlResult:
    """Crawl (or incrementally refresh) `venue` through `api` (`v2` is the v2 client, the same object
    for a v2 venue), write the raw forums, errors, quarantine and cursor, and say what happened."""
    started, started_ms = time.time(), int(time.time() * 1000)
    raw_path, cur_path = store.path(paths.raw_forums(venue.key)), store.path(paths.crawl_cursor(venue.key))
    stored = _read_stored(store, raw_path, full_refresh, log)
    stored_by_id = {r["forum_id"]: r for r in stored or []}

    mode, errors, refresh, records = "full", [], {}, None
    cursor = store.read_json_or_none(cur_path) if stored is not None and not full_refresh else None
    if cursor is not None and not isinstance(cursor.get("crawl_started_ms"), int):
        log(f"{venue.key}: crawl cursor {cur_path} unreadable ({cursor!r:.100}): full crawl")
        cursor = None
    if stored is not None and venue.api == "v2" and cursor is not None:
        since = cursor["crawl_started_ms"] - CURSOR_MARGIN_MS
        records, refresh = _incremental(api, venue, stored, since, errors, log)
        if records is not None:
            mode = "incremental"
            errors[:0] = _kept_errors(store, paths.crawl_errors(venue.key), records, errors)
    if records is None:
        records = _full_crawl(api, venue, store, errors, log)
    status, touched = _compare(records, stored_by_id)

    # review edit history (initial ratings) for the forums that are new or changed
    edit_requests_before, edits_resumed = api.stats["requests"], 0
    if review_edits:
        fresh = set(touched)
        todo = [rec for rec in records if rec["forum_id"] in fresh or "review_edits" not in rec]
        edits_progress = progress("forums (review edit histories)", len(todo)) if progress and todo else None
        ckpt_dir = paths.review_edit_checkpoints(venue.key)
        for rec in todo:
            # One checkpoint per forum, keyed by the tmdates of its notes: a run killed after hours of
            # edit-history requests resumes at the first forum it had not done (a 429 or an outage
            # raises before anything is written, so only answers are checkpointed).
            ckpt = store.path(ckpt_dir, f"{rec['forum_id']}.json")
            key = hashlib.sha256(json.dumps(note_tmdates(rec["note"]), sort_keys=True).encode()).hexdigest()
            prev = store.read_json_or_none(ckpt)
            if isinstance(prev, dict) and prev.get("key") == key and isinstance(prev.get("edits"), dict):
                rec["review_edits"] = prev["edits"]
                edits_resumed += 1
            else:
                rec["review_edits"] = fetch_review_edits(api, rec["note"], venue.invitations.review, venue.api)
                store.write_json(ckpt, {"key": key, "edits": rec["review_edits"]})
            if edits_progress is not None:
                edits_progress.advance()
    edit_requests = api.stats["requests"] - edit_requests_before

    quarantined, counts, previews = _quarantine(records, errors, venue)
    quarantine_path = store.path(paths.quarantine(venue.key))
    with store.publish() as pub:  # forums, errors, quarantine and cursor move into place together
        n = _write_jsonl(store, pub.target(raw_path), records)
        _write_jsonl(store, pub.target(store.path(paths.crawl_errors(venue.key))), errors)
        _write_jsonl(store, pub.target(quarantine_path), quarantined)
        if venue.api == "v2":
            prev = cursor if mode == "incremental" else None
            # incremental: the cursor moves to this run's start; full: likewise
            _write_jsonl(store, pub.target(cur_path), None, {"crawl_started_ms": started_ms, "mode": mode,
                                                             "previous": prev and prev.get("crawl_started_ms")})
    requests = v2.stats["requests"] + (api.stats["requests"] if api is not v2 else 0)
    return CrawlResult(forums=n, mode=mode, status=status, touched=touched, refresh=refresh,
                       forums_by_query=dict(counts), errors=errors, quarantined=quarantined,
                       previews=previews, requests=requests, review_edit_requests=edit_requests,
                       review_edits_resumed=edits_resumed,
                       elapsed_s=time.time() - started, raw_path=raw_path, quarantine_path=quarantine_path)


def _read_stored(store: Store, raw_path: str, full_refresh: bool, log: Callable[[str], None]) -> list[dict] | None:
    """The stored forums, None when there are none. A corrupt file is named; with `full_refresh`
    it is re-crawled (repaired), otherwise the error says how to repair it."""
    if not store.exists(raw_path):
        return None
    try:
        return list(store.iter_jsonl(raw_path))
    except (CorruptFileError, UnicodeDecodeError) as exc:
        if full_refresh:
            log(f"stored crawl is corrupt, re-crawling it (full_refresh): {exc}")
            return None
        raise CorruptFileError(raw_path, f"{exc}; re-materialize openreview_forums with config "
                                         "full_refresh: true to re-crawl and replace it") from exc


def _write_jsonl(store: Store, target: str, rows: list[dict] | None, obj: dict | None = None) -> int:
    """Write lines (or one JSON object) to a staging path of a publication."""
    from resources.store import dumps_json

    with store.fs.open_output_stream(target) as f:
        if obj is not None:
            f.write(dumps_json(obj))
            return 1
        for row in rows:
            f.write(dumps_json(row) + b"\n")
    return len(rows)


def _error_key(e: dict) -> str:
    raw = e.get("raw")
    return str(e.get("forum_id") or (raw.get("id") if isinstance(raw, dict) else None) or repr(raw)[:200])


def _kept_errors(store: Store, rel: str, records: list[dict], fresh: list[dict]) -> list[dict]:
    """An incremental refresh re-fetches only changed forums: the unusable notes of the last crawl
    stay quarantined unless their forum is now a usable record or errs again."""
    try:
        prev = list(store.iter_jsonl(store.path(rel))) if store.exists(store.path(rel)) else []
    except CorruptFileError:
        return []
    ok = {r["forum_id"] for r in records} | {_error_key(e) for e in fresh}
    return [e for e in prev if _error_key(e) not in ok]
