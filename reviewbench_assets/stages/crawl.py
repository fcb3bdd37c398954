"""Crawl a venue-year's forums in batches: submissions with `details=replies`, 1000 per page.

`details=replies` (never `directReplies`, which drops author answers threaded under reviews,
openreview-api.md §0.5) gives every note of each forum in the same request, so a venue costs
O(papers / 1000) requests. Withdrawn and desk-rejected papers are asked for explicitly because
they drop out of the default submission query. Pages are checkpointed so a killed crawl resumes.

Also here: the crawl's own view of what it stored and received (the line reading itself is
`io.upstream.JsonlLines`'): `StoredForum`, what a refresh needs of one stored forum without holding it;
`tmdates_digest`, which tells a changed forum from an unchanged one; `notes_page`, one page of
`/notes` as the API sent it, checked.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from partitions.catalogue import VenueYear
from resources.openreview_api import OpenReviewApi, OpenReviewError, stops_the_run
from reviewbench_assets.domain.posts import authors_first_post, changed_during_rebuttal, field_value, int_or_none
from reviewbench_assets.io.stage_io import Folder

PAGE_SIZE = 1000


class ApiVersionMismatch(RuntimeError):
    pass


@dataclass(frozen=True)
class Query:
    """One paged `GET /notes` query; `label` says why it is asked (submissions, withdrawn...)."""

    label: str
    params: tuple[tuple[str, str], ...]

    @property
    def digest(self) -> str:
        return hashlib.sha1(json.dumps(self.params).encode()).hexdigest()[:12]


def venue_group_request(venue_id: str) -> tuple[str, dict]:
    """The domain test's request (path, parameters), always asked of API v2."""
    return "/groups", {"id": venue_id}


def detect_api_version(v2: OpenReviewApi, venue_id: str) -> str:
    """The `domain` test (openreview-api.md §0.3): a v2 venue group has `domain` set."""
    path, params = venue_group_request(venue_id)
    try:
        groups = v2.get_json(path, params).get("groups") or []
    except OpenReviewError as exc:
        if exc.status == 404:
            return "v1"
        raise
    return "v2" if groups and groups[0].get("domain") else "v1"


def check_api_version(v2: OpenReviewApi, venue: VenueYear) -> None:
    for venue_id in venue.venue_ids:
        found = detect_api_version(v2, venue_id)
        if found != venue.api:
            raise ApiVersionMismatch(
                f"venue {venue.key}: catalogue says API {venue.api} but OpenReview's domain test "
                f"for {venue_id} says {found}; fix partitions/venues.yaml")


def submission_queries(venue: VenueYear) -> list[Query]:
    inv = venue.invitations
    queries: list[Query] = []
    for venue_id in venue.venue_ids:
        fmt = {"venue_id": venue_id}
        queries.append(Query("submissions", (("invitation", inv.submission.format(**fmt)),)))
        if venue.api == "v1":  # v1 keeps withdrawn/desk-rejected under their own invitations
            queries.append(Query("withdrawn", (("invitation", inv.withdrawn_submission.format(**fmt)),)))
            queries.append(Query("desk_rejected",
                                 (("invitation", inv.desk_rejected_submission.format(**fmt)),)))
        else:  # v2 marks them with content.venueid
            queries.append(Query("withdrawn", (("content.venueid", inv.withdrawn_submission.format(**fmt)),)))
            queries.append(Query("desk_rejected",
                                 (("content.venueid", inv.desk_rejected_submission.format(**fmt)),)))
    return queries


class CrawlShortfall(RuntimeError):
    """The API stopped returning notes before the `count` it reported."""


def crawl_forums(api: OpenReviewApi, venue: VenueYear, pages: Folder,
                 progress: Callable[[str, int], None] = lambda label, n: None,
                 listed: dict[str, int] | None = None) -> Iterator[dict]:
    """Yield each raw forum once (deduplicated by id; `listed` counts how often each query listed each
    id, "<query>\t<id>" -> n, so a duplicate submission id is recorded as a quarantine reason), resuming from page checkpoints.

    Pages are asked for until the query's `count` (sent with `count=true` on the first page,
    openreview-api.md: v2 returns a total only when asked) is reached, whatever size each page
    has: a server answering fewer than `limit` notes per page is paged on, not taken as the end.
    An empty page before `count` is a CrawlShortfall with the numbers. Without a count (an old
    server) a short page ends the query as before. `pages`: the folder the pages are checkpointed in."""
    seen: set[str] = set()
    for query in submission_queries(venue):
        offset, total = 0, None
        while True:
            page_name = f"{query.label}-{query.digest}-{offset:08d}.json"
            page = _checkpointed_page(pages, page_name)  # a corrupt checkpoint is a miss: fetched again
            if page is None:
                params = dict(query.params) | {"details": "replies", "limit": str(PAGE_SIZE),
                                               "offset": str(offset), "sort": "number:asc", "count": "true"}
                # The page as the API sent it, checkpointed as is and read one note at a time
                # (notes_page below): a 1000-forum page parsed whole would be ~100 MB. Written
                # before it is read: a kill while a large page is parsed must not lose an answer
                # the server has delivered (issue 38.7); a body that does not parse is a corrupt
                # checkpoint, which the next run fetches again (_checkpointed_page).
                body = api.get_bytes("/notes", params)
                pages.write_bytes(page_name, body)
                page = notes_page(body.decode("utf-8"))
                del body
            if isinstance(page.count, int):
                total = page.count
            n_notes = len(page.spans)
            for note in page.notes():
                note_id = note.get("id") if isinstance(note, dict) else None
                if note_id is not None and listed is not None:
                    # How often one query lists it: the queries overlap by design (a v2 withdrawn
                    # paper keeps its Submission invitation and matches the venueid query too), but
                    # one query listing an id twice is a duplicate submission id.
                    key = f"{query.label}\t{note_id}"
                    listed[key] = listed.get(key, 0) + 1
                if note_id is None or note_id not in seen:
                    if note_id is not None:
                        seen.add(note_id)
                    yield {"query": query.label, "note": note}
            del page
            progress(query.label, n_notes)
            offset += n_notes
            if total is None:
                if n_notes < PAGE_SIZE:
                    break
                continue
            if offset >= total:
                break
            if not n_notes:
                raise CrawlShortfall(
                    f"{venue.key}: query {query.label} {dict(query.params)} reported count={total} but "
                    f"the API returned only {offset} notes (an empty page at offset {offset}); "
                    "nothing was published, re-run to resume from the checkpointed pages")


def times_listed(listed: dict[str, int]) -> dict[str, int]:
    """forum id -> the most times one query listed it, for the forums listed more than once."""
    most: dict[str, int] = {}
    for key, n in listed.items():
        if n > 1:
            fid = key.split("\t", 1)[1]
            most[fid] = max(most.get(fid, 0), n)
    return most


def _checkpointed_page(pages: Folder, name: str) -> NotesPage | None:
    """A page checkpoint, or None when it is missing, truncated or corrupt (a miss: asked again)."""
    try:
        body = pages.read_bytes(name)
        return notes_page(body.decode("utf-8"), require_notes=True) if body is not None else None
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return None


# ---------------------------------------------------------------------------------------------
# Incremental refresh (v2): a `tmdate` cursor over every note of the venue.
#
# OpenReview does not bump a submission's tmdate when a reply is posted, so the cursor runs over
# all notes of the venue, not only submissions: `GET /notes?domain=<venue>&sort=tmdate:desc
# &trash=true` (every parameter is one openreview-py's `get_notes` sends: domain, sort with the
# documented value `tmdate`, trash; their combination without an `invitation` is not verified
# against the live API), paged until a note is older than the cursor. A note whose (id, tmdate)
# we already hold is skipped, so the cursor can overlap the last crawl by a safety margin without
# re-fetching anything. Changed forums are then fetched one by one (`GET /notes?id=&details=
# replies`); when more changed than REFRESH_MAX_SHARE of the venue, a full batched crawl is cheaper.

CURSOR_MARGIN_MS = 60 * 60 * 1000  # overlap with the last crawl (clock skew, replication lag)
REFRESH_MAX_SHARE = 0.10
REFRESH_MIN_FORUMS = 100


def note_tmdates(note: dict) -> dict[str, int]:
    """(note id -> tmdate) of a stored forum: the submission and every reply."""
    out = {}
    for n in [note, *((note.get("details") or {}).get("replies") or [])]:
        if isinstance(n, dict) and n.get("id"):
            out[n["id"]] = int(n.get("tmdate") or n.get("tcdate") or 0)
    return out


@dataclass
class ChangeSet:
    changed: set  # forum ids with a new or modified note (new forums included)
    deleted: set  # forum ids whose submission note is deleted (ddate set)
    notes_seen: int = 0
    requests: int = 0


def changed_forums(api: OpenReviewApi, venue: VenueYear, since_ms: int, known: dict[str, int]) -> ChangeSet:
    """Forums of `venue` with a note modified after `since_ms` that we do not hold already."""
    cs = ChangeSet(set(), set())
    for venue_id in venue.venue_ids:
        offset = 0
        while True:
            params = {"domain": venue_id, "sort": "tmdate:desc", "trash": "true", "limit": str(PAGE_SIZE),
                      "offset": str(offset), "count": "true"}
            body = api.get_json("/notes", params)
            notes, total = body.get("notes") or [], body.get("count")
            cs.requests += 1
            older = False
            for n in notes:
                tm = int(n.get("tmdate") or n.get("tcdate") or 0)
                if tm < since_ms:
                    older = True
                    break
                cs.notes_seen += 1
                if known.get(n.get("id")) == tm:
                    continue
                forum = n.get("forum") or n.get("id")
                if n.get("id") == forum and n.get("ddate"):
                    cs.deleted.add(forum)
                else:
                    cs.changed.add(forum)
            offset += len(notes)  # by what came back: a server may answer shorter pages than asked
            if older or not notes or (offset >= total if isinstance(total, int) else len(notes) < PAGE_SIZE):
                break
    cs.changed -= cs.deleted
    return cs


def query_label(note: dict, venue: VenueYear) -> str | None:
    """Which submission query would return this note (None: not a submission of the venue)."""
    inv = venue.invitations
    content = note.get("content") or {}
    venueid = content.get("venueid")
    venueid = field_value(venueid)
    invitations = note.get("invitations") or [note.get("invitation")]
    for venue_id in venue.venue_ids:
        fmt = {"venue_id": venue_id}
        if venueid == inv.withdrawn_submission.format(**fmt):
            return "withdrawn"
        if venueid == inv.desk_rejected_submission.format(**fmt):
            return "desk_rejected"
        if inv.submission.format(**fmt) in invitations:
            return "submissions"
    return None


def fetch_forum(api: OpenReviewApi, forum_id: str) -> dict | None:
    """One forum with every reply, or None when it is gone / not readable any more."""
    try:
        notes = api.get_json("/notes", {"id": forum_id, "details": "replies"}).get("notes") or []
    except OpenReviewError as exc:
        if exc.status in (403, 404) and not stops_the_run(exc):  # not a missing login: gone for us
            return None
        raise
    return notes[0] if notes else None


# ---------------------------------------------------------------------------------------------
# Review edit history (v2 note edits, v1 references): initial and final scores.
#
# A review modified after the authors' first post in its forum may hold a rating that changed
# during the rebuttal (`domain.posts.changed_during_rebuttal`: on v2 the venue's own release edits move every
# review's tmdate, so tmdate > tcdate alone would ask for every paper); its edits (`GET
# /notes/edits`) hold the rating before. One request per per-paper review invitation
# (`invitation=<venue>/Submission<N>/-/Official_Review`, a parameter openreview-py's
# `get_note_edits` sends) returns the edits of all of that paper's reviews; whether the live API
# also matches the venue-wide super-invitation (`<venue>/-/Official_Review`) is not known, so it is
# not relied upon.

def edited_reviews(note: dict, review_names: list[str]) -> dict[str, list[str]]:
    """review invitation -> ids of the reviews under it that may have changed during the rebuttal."""
    out: dict[str, list[str]] = {}
    replies = (note.get("details") or {}).get("replies") or []
    authors_first = authors_first_post(replies)
    for r in replies:
        invs = r.get("invitations") or ([r["invitation"]] if r.get("invitation") else [])
        if not invs or not any(i.rsplit("/-/", 1)[-1] in review_names for i in invs):
            continue
        if changed_during_rebuttal(int_or_none(r.get("tcdate")), int_or_none(r.get("tmdate")), authors_first):
            out.setdefault(invs[0], []).append(r["id"])
    return out


def fetch_review_edits(api: OpenReviewApi, note: dict, review_names: list[str],
                       api_version: str = "v2") -> dict[str, list[dict]]:
    """review id -> its edits (oldest first), raw JSON, for the edited reviews of one forum.
    API v1 keeps a note's history as references (`GET /references?invitation=<paper>/-/
    Official_Review`, a parameter openreview-py's v1 `get_references` sends; each reference holds
    the fields its edit set, the first one the review as posted); v2 as note edits."""
    out: dict[str, list[dict]] = {}
    for invitation, ids in edited_reviews(note, review_names).items():
        if api_version == "v1":
            edits = api.get_json("/references", {"invitation": invitation, "limit": str(PAGE_SIZE)}
                                 ).get("references") or []
        else:
            edits = api.get_json("/notes/edits", {"invitation": invitation, "sort": "tcdate:asc",
                                                  "limit": str(PAGE_SIZE)}).get("edits") or []
        wanted = set(ids)
        for e in sorted(edits, key=lambda e: (e.get("tcdate") or 0, e.get("id") or "")):
            nid = (e.get("note") or {}).get("id") if api_version != "v1" else e.get("referent")
            if nid in wanted:
                out.setdefault(nid, []).append(e)
    return out


# ---------------------------------------------------------------------------------------------
# stored forums and received pages, without holding them whole


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
