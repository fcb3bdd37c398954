"""The venue's deadline as OpenReview enforced it, for the PDF stage: its submission invitations read
once per venue and judged against the catalogue's announced deadline (domain/revisions.py
`judge_deadline`, where the cutoff rules are), which decides the cutoff every forum is judged by
(`Cutoff.from_check`).
"""
from __future__ import annotations

from collections.abc import Iterable

from resources.openreview_api import OpenReviewApi, OpenReviewError, stops_the_run
from reviewbench_assets.domain.revisions import HOUR_MS, judge_deadline


def deadline_request(invitation_id: str) -> tuple[str, dict]:
    """The request that reads a submission invitation's deadlines (path, parameters), asked of the
    venue's API."""
    return "/invitations", {"id": invitation_id, "expired": "true"}


def invitation_deadlines(api: OpenReviewApi, invitation_id: str) -> dict:
    """`duedate` (advertised) and `expdate` (hard cutoff) of a submission invitation, in ms."""
    path, params = deadline_request(invitation_id)
    body = api.get_json(path, params)
    invs = body.get("invitations") or []
    if not invs:
        raise OpenReviewError("NotFoundError", f"no invitation {invitation_id}", 404, "/invitations")
    inv = invs[0]
    return {"invitation": invitation_id, "duedate_ms": inv.get("duedate"), "expdate_ms": inv.get("expdate")}


def _read_invitation(api: OpenReviewApi, invitation_id: str) -> dict:
    """Its deadlines, or the error that kept them from us (the check reports it as unreadable)."""
    try:
        return invitation_deadlines(api, invitation_id)
    except OpenReviewError as exc:
        if stops_the_run(exc):  # credentials, a long rate-limit window: no forum gets past it
            raise
        return {"invitation": invitation_id, "error": str(exc)[:200]}


def deadline_cross_check(api: OpenReviewApi, invitation_ids: Iterable[str], announced_ms: int | None,
                         grace_ms: int = 30 * 60_000, tolerance_ms: int = HOUR_MS,
                         abstract_ms: int | None = None) -> dict:
    """Read the submission invitation(s) and judge them against the announced deadline
    (`judge_deadline`: the statuses, the cutoff and its rule); a rolling venue reads nothing."""
    readings = [] if announced_ms is None else [_read_invitation(api, i) for i in invitation_ids]
    return judge_deadline(readings, announced_ms, grace_ms, tolerance_ms, abstract_ms)


def venue_deadline_check(api: OpenReviewApi, venue) -> dict:
    """`deadline_cross_check` for a catalogue entry (its dated invitations, its grace)."""
    if venue.deadline is None:
        return deadline_cross_check(api, [], None)
    return deadline_cross_check(api, venue.deadline_invitations(), venue.deadline_ms,
                                grace_ms=venue.deadline.grace_minutes * 60_000,
                                abstract_ms=venue.deadline.abstract_ms)
