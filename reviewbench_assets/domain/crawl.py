"""Crawl a venue-year's forums in batches: submissions with `details=replies`, 1000 per page.

`details=replies` (never `directReplies`, which drops author answers threaded under reviews,
openreview-api.md §0.5) gives every note of each forum in the same request, so a venue costs
O(papers / 1000) requests. Withdrawn and desk-rejected papers are asked for explicitly because
they drop out of the default submission query. Pages are checkpointed so a killed crawl resumes.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from partitions.catalogue import VenueYear
from reviewbench_assets.domain.openreview_api import OpenReviewApi, OpenReviewError
from reviewbench_assets.domain.store import Store

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


def detect_api_version(v2: OpenReviewApi, venue_id: str) -> str:
    """The `domain` test (openreview-api.md §0.3): a v2 venue group has `domain` set."""
    try:
        groups = v2.get_json("/groups", {"id": venue_id}).get("groups") or []
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


def crawl_forums(api: OpenReviewApi, venue: VenueYear, store: Store, checkpoint_dir: str,
                 progress: Callable[[str, int], None] = lambda label, n: None) -> Iterator[dict]:
    """Yield each raw forum once (deduplicated by id), resuming from page checkpoints."""
    seen: set[str] = set()
    for query in submission_queries(venue):
        offset = 0
        while True:
            page_path = f"{checkpoint_dir}/{query.label}-{query.digest}-{offset:08d}.json"
            if store.exists(page_path):
                notes = store.read_json(page_path)
            else:
                params = dict(query.params) | {"details": "replies", "limit": str(PAGE_SIZE),
                                               "offset": str(offset), "sort": "number:asc"}
                notes = api.get_json("/notes", params).get("notes") or []
                store.write_json(page_path, notes)
            for note in notes:
                note_id = note.get("id") if isinstance(note, dict) else None
                if note_id is None or note_id not in seen:
                    if note_id is not None:
                        seen.add(note_id)
                    yield {"query": query.label, "note": note}
            progress(query.label, len(notes))
            if len(notes) < PAGE_SIZE:
                break
            offset += PAGE_SIZE
