"""The PDF stage's reference paths that production does not take (issue 39 item 5: no production
function with only test callers): one forum at a time, one request at a time (`bench_revisions`'
sequential baseline, and the tests' reference for the concurrent path), and the cutoff from the
catalogue alone, without reading the submission invitation (the stage reads it:
`stages/deadline_check.venue_deadline_check`, then `Cutoff.from_check`).
"""
from __future__ import annotations

from resources.openreview_api import OpenReviewApi
from resources.store import Store
from reviewbench_assets.domain.revisions import Cutoff, Revision, choose_from_note, history_needed
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.stages.pdf_fetch import download_one
from reviewbench_assets.stages.pdf_stage import choose_for_forum


def catalogue_cutoff(venue) -> Cutoff:
    """From the catalogue alone: the announced deadline + the venue's grace (no invitation read)."""
    if venue.deadline is None:
        return Cutoff(None, None, "rolling")
    return Cutoff(venue.deadline_ms, venue.cutoff_ms, "announced_plus_grace")


def initial_submission_record(api: OpenReviewApi, store: Store, meta: dict, deadline: Cutoff | int | None,
                              browser_result: list[Revision] | Exception | None,
                              cross_check: bool, allow_earliest_public: bool, page_requests: int = 0,
                              read_every_history: bool = False) -> dict:
    """One forum, one request at a time (the sequential path and the benchmark's baseline)."""
    if not read_every_history and not history_needed(meta, deadline, api.api):
        record, choice = choose_from_note(meta, deadline, api.api)
    else:
        record, choice = choose_for_forum(api, meta, deadline, browser_result, cross_check,
                                          allow_earliest_public, page_requests)
    if choice is None or not choice.pdf_url:
        return record
    return download_one(api, PdfFiles(store), record, choice.pdf_url)
