"""The `openreview_forums` stage: crawl or refresh one venue-year's forums into
`raw/forums/<pk>.jsonl`, with its OpenReview requests and waits and the `quarantined_share` check
(blocking: a partition over the share does not reach the splits); free of Dagster so that it can be
tested with a fake API and a store (the requests themselves are `stages/crawl.py`'s).


The first run crawls the venue in batches (`details=replies`, 1000 forums a request). Later runs of
an API v2 venue are incremental: a `tmdate` cursor over every note of the venue finds the forums
with something new, only those are fetched, and they are merged into the stored file (one line per
forum, rewritten atomically). API v1 has no `domain` filter to run such a cursor over a venue's
notes, and its venue-years are closed: a later run takes the stored crawl as the venue's final
listing without a request (`listing_final`), and `full_refresh` re-reads the submission pages and
counts as touched only the forums whose notes changed."""
from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Iterator

from partitions.catalogue import VenueYear
from resources.openreview_api import OpenReviewApi
from resources.store import CorruptFileError, dumps_json
from reviewbench_assets.domain.posts import field_value, id_problem
from reviewbench_assets.domain.routing import oddity_reasons
from reviewbench_assets.io.stage_io import Folder, Inputs, Outputs, Staging
from reviewbench_assets.io.upstream import JsonlLines, Spool
from reviewbench_assets.stages.crawl import (
    CURSOR_MARGIN_MS,
    REFRESH_MAX_SHARE,
    REFRESH_MIN_FORUMS,
    StoredForum,
    changed_forums,
    crawl_forums,
    fetch_forum,
    fetch_review_edits,
    note_tmdates,
    query_label,
    times_listed,
)
from reviewbench_assets.stages.crawl_compare import first_pass, index_stored, needs_edits
from reviewbench_assets.stages.figures import CRAWL, QUARANTINE, ROW_COUNT, Table, iso_utc
from reviewbench_assets.stages.progress import Progress
from reviewbench_assets.stages.stage import Stage

QUARANTINE_CHECK = QUARANTINE
QUARANTINE_CHECK_DESCRIPTION = "share of quarantined forums stays under the configured max_quarantined_share"
# oddity_reasons' codes (domain/routing.py); a quarantined forum's reasons come with their codes, set
# by the rule that decided each (nothing cuts the words back into a code)
ODDITY_CODES = ("oversized_field", "absurd_count", "duplicate_submission")
UNCODED = "uncoded"  # an error kept from a crawl file written before codes

class CrawlStage(Stage):
    """The crawl's options; `run` is `refresh_venue` and the client's request and wait figures."""

    name = CRAWL
    writes = ("raw_forums", "crawl_errors", "quarantine", "crawl_cursor", "crawl_checkpoints",
              "review_edit_checkpoints")

    def __init__(self, venue: VenueYear, v2: OpenReviewApi, api: OpenReviewApi, *,
                 max_quarantined_share: float = 0.05, full_refresh: bool = False, review_edits: bool = True,
                 log: Callable[[str], None] = lambda _m: None,
                 progress: Callable[[str, int], Progress] | None = None, attempt_continues: bool | None = None,
                 listing_final: bool = False):
        super().__init__(venue.key)
        self.attempt_continues = attempt_continues  # io/attempt.py, open_attempt: the published pages' fate
        # a closed API v1 venue-year (VenueYear.closed_at): its stored crawl is its final listing
        self.listing_final = listing_final
        self.venue, self.v2, self.api, self.log, self.progress = venue, v2, api, log, progress
        self.max_quarantined_share, self.full_refresh, self.review_edits = (max_quarantined_share, full_refresh,
                                                                             review_edits)

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        refresh_venue(self, outputs)
        s = self.api.stats
        self.stat("rate_limited", s["rate_limited"])
        self.stat("rate_limit_wait_s", round(s["rate_limit_wait_s"], 1))
        self.stat("retries", s["retries"])
        self.stat("retries_by_cause", {k[8:]: v for k, v in s.items() if k.startswith("retries_")})
        self.stat("server_errors_after_retries", s["server_errors"])

    def record_quarantine(self, quarantined: list[dict], forums: int) -> None:
        """The quarantine's figures and the `quarantined_share` check, over `forums` (usable and not)."""
        share = len(quarantined) / max(forums, 1)
        kinds = Counter(code for q in quarantined for code in q["codes"])
        self.stat("quarantined_forums", len(quarantined))
        self.stat("quarantine_reasons", dict(kinds.most_common()))
        self.stat("oddities", {k: n for k, n in kinds.most_common() if k in ODDITY_CODES})
        limit = self.max_quarantined_share
        self.check(QUARANTINE_CHECK, share <= limit, description=f"{self.key}: {QUARANTINE_CHECK_DESCRIPTION}", metadata={
            "partition": self.key, "share": round(share, 4), "threshold": f"<= {limit}", "quarantined": len(quarantined),
            "codes": dict(kinds.most_common()),
            "examples": Table([{"forum_id": q["forum_id"], "reason": q["reasons"][0][:200]} for q in quarantined[:10]],
                              ["forum_id", "reason"], what="quarantined forums")})



def forum_record(item: dict, api: str, fetched_at: float) -> tuple[dict | None, dict | None]:
    """A raw forum line, or an error line when the note is unusable (kept, never crashes)."""
    note = item["note"]
    if not isinstance(note, dict) or not note.get("id"):
        return None, {"query": item["query"], "code": "note_without_id", "reason": "note without id", "raw": note}
    problem = id_problem(note["id"])
    if problem:  # never becomes a path (checkpoints, PDFs): quarantined with the reason
        return None, {"query": item["query"], "code": "invalid_id", "reason": problem, "raw": note}
    if not isinstance(note.get("content"), dict):
        return None, {"forum_id": note["id"], "query": item["query"], "code": "note_without_content",
                      "reason": "note without content",
                      "raw": note}
    return {"forum_id": note["id"], "query": item["query"], "api": api,
            "fetched_at": round(fetched_at, 3), "note": note}, None


def _incremental(api: OpenReviewApi, venue: VenueYear, stored: dict[str, StoredForum], known: dict[str, int],
                 lines: JsonlLines, fetched: Spool, since: int, errors: list[dict],
                 log: Callable[[str], None]) -> tuple[Iterator[dict] | None, dict]:
    """The stored forums in their order with the changed ones re-fetched (new ones last, by id), or
    None when too many changed. The changed forums are fetched first, into `fetched`; the stored
    ones are then streamed from the stored file, one at a time."""
    changes = changed_forums(api, venue, since, known)
    refresh = {"cursor_ms": since, "notes_newer_than_cursor": changes.notes_seen,
               "cursor_requests": changes.requests}
    limit = max(REFRESH_MIN_FORUMS, int(REFRESH_MAX_SHARE * len(stored)))
    if len(changes.changed) > limit:
        log(f"{venue.key}: {len(changes.changed)} forums changed (> {limit}): full crawl")
        return None, refresh
    got: dict[str, tuple[int, int] | None] = {}  # changed forum -> its fetched line; None: gone
    for fid in sorted(changes.changed):
        note = fetch_forum(api, fid)
        label = query_label(note, venue) if note else None
        if note is None or note.get("ddate") or label is None:
            got[fid] = None
            continue
        record, error = forum_record({"query": label, "note": note}, venue.api, time.time())
        if error:  # the stored version stays
            errors.append(error)
            continue
        got[fid] = fetched.append(record)

    def merged() -> Iterator[dict]:
        for _offset, _length, rec in lines.scan():
            fid = rec["forum_id"]
            if fid in changes.deleted:
                continue
            if fid in got:
                if got[fid] is not None:
                    yield fetched.read(*got[fid])
                continue
            yield rec
        for fid in sorted(changes.changed):
            if fid not in stored and got.get(fid) is not None:
                yield fetched.read(*got[fid])

    return merged(), refresh


def _full_crawl(api: OpenReviewApi, venue: VenueYear, pages: Folder, errors: list[dict], listed: dict[str, int],
                log: Callable[[str], None]) -> Iterator[dict]:
    """Each forum as its page arrives (pages are checkpointed by `crawl_forums` in `pages`); `listed`
    fills in as the pages come, so `times_listed` is whole once this is exhausted."""
    for item in crawl_forums(api, venue, pages,
                             progress=lambda label, n: log(f"{venue.key}: {label} page of {n}"), listed=listed):
        record, error = forum_record(item, venue.api, time.time())
        if error:
            errors.append(error)
        else:
            yield record


class _Quarantine:
    """The quarantine, one forum at a time: every quarantined forum with its reasons, forums per
    query, and a preview of the first ten."""

    def __init__(self, venue: VenueYear):
        self.venue, self.quarantined, self.counts, self.previews = venue, [], Counter(), []

    def add(self, rec: dict) -> dict | None:
        self.counts[rec["query"]] += 1
        note = rec["note"]
        # What the crawl itself can see; what the parser finds is parsed_forums' quarantine (the parser's only caller)
        reasons = oddity_reasons(note, self.venue, rec.get("listed", 1))
        if len(self.previews) < 10:
            self.previews.append({"forum_id": rec["forum_id"], "query": rec["query"],
                                  "title": field_value(note["content"].get("title")),
                                  "replies": len((note.get("details") or {}).get("replies") or [])})
        if not reasons:
            return None
        self.quarantined.append({"forum_id": rec["forum_id"], "reasons": reasons, "codes": [r.code for r in reasons]})
        return self.quarantined[-1]

    def add_errors(self, errors: list[dict]) -> list[dict]:
        out = [{"forum_id": e.get("forum_id"), "reasons": [e["reason"]], "codes": [e.get("code", UNCODED)],
                "raw": e.get("raw")} for e in errors]
        self.quarantined += out
        return out


class _ReviewEdits:
    """Review edit histories of one forum, checkpointed per forum and keyed by the tmdates of its
    notes: a run killed after hours of edit-history requests resumes at the first forum it had not
    done (a 429 or an outage raises before anything is written, so only answers are checkpointed)."""

    def __init__(self, api: OpenReviewApi, venue: VenueYear, checkpoints: Folder, progress: Progress | None):
        self.api, self.venue, self.checkpoints, self.progress = api, venue, checkpoints, progress
        self.resumed = 0

    def fill(self, rec: dict) -> None:
        ckpt = f"{rec['forum_id']}.json"  # the folder refuses an id that would leave it
        key = hashlib.sha256(json.dumps(note_tmdates(rec["note"]), sort_keys=True).encode()).hexdigest()
        prev = self.checkpoints.read_json(ckpt)
        if isinstance(prev, dict) and prev.get("key") == key and isinstance(prev.get("edits"), dict):
            rec["review_edits"] = prev["edits"]
            self.resumed += 1
        else:
            rec["review_edits"] = fetch_review_edits(self.api, rec["note"], self.venue.invitations.review,
                                                     self.venue.api)
            self.checkpoints.write_json(ckpt, {"key": key, "edits": rec["review_edits"]})
        if self.progress is not None:
            self.progress.advance()


def refresh_venue(stage: Stage, out: Outputs) -> None:
    """The crawl stage's work (`stage`: a `CrawlStage`, whose options it reads and
    whose `stat` it records with). Crawl (or incrementally refresh) the stage's venue through its
    `api` (`v2` is the v2 client, the same object for a v2 venue), write the raw forums, errors,
    quarantine and cursor, and record what happened.

    Forums stream through: the crawl (or the merge with the stored file) spools each forum to a
    local scratch file as it arrives, comparing it with a compact index of the stored file (offset,
    digest of its notes' tmdates); a second pass reads the spool back, adds the review edit
    histories and writes the published file and its quarantine line by line. Memory holds one page
    of the API (at most 1000 forums) and a few figures per forum id, whatever the venue's size.

    `stage.attempt_continues` (io/attempt.py, open_attempt; None: no attempt, the pages go once published):
    the listing pages of a published crawl are kept for the rest of the run's attempt, so the re-run
    of a run killed after its crawl reads them instead of asking again (True); a new attempt drops
    them and asks (False). The pages of an unpublished crawl are always resumed, whatever the attempt."""
    venue, v2, api, log, progress = stage.venue, stage.v2, stage.api, stage.log, stage.progress
    full_refresh, review_edits = stage.full_refresh, stage.review_edits
    attempt_continues = stage.attempt_continues
    started, started_ms = time.time(), int(time.time() * 1000)
    pages = out.folder("crawl_checkpoints")
    _drop_published_pages(pages, attempt_continues)
    raw_path, cur_path = out.path("raw_forums"), out.path("crawl_cursor")
    has_stored = out.exists("raw_forums")
    cursor = out.read_json("crawl_cursor") if has_stored and not full_refresh else None
    if cursor is not None and not isinstance(cursor.get("crawl_started_ms"), int):
        log(f"{venue.key}: crawl cursor {cur_path} unreadable ({cursor!r:.100}): full crawl")
        cursor = None
    incremental_possible = has_stored and venue.api == "v2" and cursor is not None
    known: dict[str, int] | None = {} if incremental_possible else None
    stored = {}
    if has_stored:
        with out.lines("raw_forums") as lines:
            stored = index_stored(lines, known, full_refresh, log)

    mode, errors, refresh, listed = "full", [], {}, {}
    with out.lines("raw_forums") as old, Spool() as fetched, Spool() as spool:
        records = None
        if incremental_possible and stored is not None:
            records, refresh = _incremental(api, venue, stored, known, old, fetched, cursor["crawl_started_ms"]
                                            - CURSOR_MARGIN_MS, errors, log)
            mode = "full" if records is None else "incremental"
        if records is None and stage.listing_final and stored and not full_refresh:
            # A closed API v1 venue-year: what changed could only be asked with the same listing
            # pages again, and a closed venue-year's answers are final: its stored crawl is taken
            # as it is (no request); `full_refresh` asks again.
            records, mode = (rec for _offset, _length, rec in old.scan()), "stored"
        if records is None:
            records = _full_crawl(api, venue, pages, errors, listed, log)
        compared = first_pass(records, stored or {}, old if stored else None, spool, review_edits)
        if mode in ("incremental", "stored"):
            errors[:0] = _kept_errors(out, compared.ids, errors)
        most = times_listed(listed)

        edit_requests_before = api.stats["requests"]
        edits = _ReviewEdits(api, venue, out.folder("review_edit_checkpoints"),
                             progress("forums (review edit histories)", compared.edits_todo)
                             if progress and compared.edits_todo else None)
        touched = compared.touched_set
        quarantine = _Quarantine(venue)
        quarantine_path = out.path("quarantine")
        with out.publish() as pub:  # forums, errors, quarantine and cursor move into place together
            with pub.stream("raw_forums") as forums_out, pub.stream("quarantine") as qout:
                for rec in spool:
                    if rec["forum_id"] in most:
                        rec["listed"] = most[rec["forum_id"]]
                    if review_edits and needs_edits(rec, touched):
                        edits.fill(rec)
                    forums_out.write(dumps_json(rec) + b"\n")
                    q = quarantine.add(rec)
                    if q is not None:
                        qout.write(dumps_json(q) + b"\n")
                for q in quarantine.add_errors(errors):
                    qout.write(dumps_json(q) + b"\n")
            _write_jsonl(pub, "crawl_errors", errors)
            if venue.api == "v2":
                prev = cursor if mode == "incremental" else None
                # incremental: the cursor moves to this run's start; full: likewise
                _write_jsonl(pub, "crawl_cursor", None, {"crawl_started_ms": started_ms, "mode": mode,
                                                         "previous": prev and prev.get("crawl_started_ms")})
        n = spool.lines
    if mode == "full":  # published: the next attempt starts from the cursor, not the pages
        if attempt_continues is None:
            pages.delete()
        else:
            pages.write_json(PUBLISHED, {"published_ms": started_ms})
    requests = v2.stats["requests"] + (api.stats["requests"] if api is not v2 else 0)
    stage.stat("path", raw_path)
    stage.stat("quarantine_path", quarantine_path)
    stage.stat(ROW_COUNT, n)
    stage.stat("mode", mode)
    stage.stat("forums_new", compared.status["new"])
    stage.stat("forums_changed", compared.status["changed"])
    stage.stat("forums_unchanged", compared.status["unchanged"])
    stage.stat("forums_removed", compared.status["removed"])
    stage.stat("touched_forums", compared.touched[:50])
    # an incremental refresh: what the cursor found, and the time it read changes since
    if refresh:
        stage.stat("notes_newer_than_cursor", refresh["notes_newer_than_cursor"])
        stage.stat("cursor_requests", refresh["cursor_requests"])
        stage.stat("changes_since", iso_utc(refresh["cursor_ms"]))
    stage.stat("forums_by_query", dict(quarantine.counts))
    stage.stat("malformed_notes", len(errors))
    stage.stat("preview", Table(quarantine.previews, ["forum_id", "query", "title", "replies"],
                                what="forums of this run"))
    stage.record_quarantine(quarantine.quarantined, n + len(errors))
    # The cost goal is about the forum JSON; review edit histories are one request per
    # paper with edited reviews (no batch form is known to work on the real API) and shown apart.
    edit_requests = api.stats["requests"] - edit_requests_before
    stage.stat("requests", requests)
    stage.stat("requests_per_forum", round((requests - edit_requests) / max(n, 1), 4))
    stage.stat("review_edit_requests", edit_requests)
    stage.stat("review_edits_resumed", edits.resumed)
    stage.stat("forums_per_s", round(n / max(time.time() - started, 1e-6), 2))


PUBLISHED = "published.json"  # in the crawl's checkpoint folder: its pages were published


def _drop_published_pages(pages: Folder, attempt_continues: bool | None) -> None:
    """The pages of a crawl published by an earlier attempt are not this run's to reuse."""
    if not attempt_continues and pages.exists(PUBLISHED):
        pages.delete()


def _write_jsonl(pub: Staging, name: str, rows: list[dict] | None, obj: dict | None = None) -> int:
    """Write lines (or one JSON object) to the declared file `name`, staged in the publication `pub`."""
    with pub.stream(name) as f:
        if obj is not None:
            f.write(dumps_json(obj))
            return 1
        for row in rows:
            f.write(dumps_json(row) + b"\n")
    return len(rows)


def _error_key(e: dict) -> str:
    raw = e.get("raw")
    return str(e.get("forum_id") or (raw.get("id") if isinstance(raw, dict) else None) or repr(raw)[:200])


def _kept_errors(out: Outputs, ids: set[str], fresh: list[dict]) -> list[dict]:
    """An incremental refresh re-fetches only changed forums: the unusable notes of the last crawl
    stay quarantined unless their forum is now a usable record or errs again."""
    try:
        prev = list(out.iter_jsonl("crawl_errors"))
    except CorruptFileError:
        return []
    ok = ids | {_error_key(e) for e in fresh}
    return [e for e in prev if _error_key(e) not in ok]
