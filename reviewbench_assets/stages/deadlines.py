"""The announced deadline against what OpenReview enforced, and the cutoff each forum is judged by.

Once per venue, the submission invitation's `duedate` (the deadline OpenReview showed) and `expdate`
(the last instant it accepted an upload) are read and compared with the catalogue's announced
deadline (converted from its local time zone). OpenReview's venue code sets `expdate` to the
deadline + 30 minutes unless the venue set another (openreview-py `openreview/venue/invitation.py`,
`openreview/conference/invitation.py`: SHORT_BUFFER_MIN = 30), so an upload in that window is part
of the submission. The cutoff per forum is therefore:
  invitation_expdate   the invitation's expdate, when its duedate agrees with the announced deadline
                       (within `tolerance`, one hour)
  announced_plus_grace the announced deadline + the catalogue's grace (30 min unless stated), when
                       the invitation is unreadable, has no dates, carries the abstract deadline of
                       a two-stage venue, or disagrees by more than an hour (the disagreement is
                       reported in metadata and by an asset check)
  rolling              a journal without a venue deadline (TMLR): first released revision
No Dagster here.
"""
from __future__ import annotations

from collections.abc import Iterable

from resources.openreview_api import OpenReviewApi, OpenReviewError, stops_the_run

HOUR_MS = 3_600_000


def invitation_deadlines(api: OpenReviewApi, invitation_id: str) -> dict:
    """`duedate` (advertised) and `expdate` (hard cutoff) of a submission invitation, in ms."""
    body = api.get_json("/invitations", {"id": invitation_id, "expired": "true"})
    invs = body.get("invitations") or []
    if not invs:
        raise OpenReviewError("NotFoundError", f"no invitation {invitation_id}", 404, "/invitations")
    inv = invs[0]
    return {"invitation": invitation_id, "duedate_ms": inv.get("duedate"), "expdate_ms": inv.get("expdate")}


def deadline_cross_check(api: OpenReviewApi, invitation_ids: Iterable[str], announced_ms: int | None,
                         grace_ms: int = 30 * 60_000, tolerance_ms: int = HOUR_MS,
                         abstract_ms: int | None = None) -> dict:
    """Compare the announced deadline with the submission invitation(s) and decide the cutoff.

    status: `agree` (every readable invitation's duedate within `tolerance_ms` of the announced
    deadline), `agree_abstract` (a two-stage venue whose invitation still carries the announced
    abstract deadline: consistent, but its expdate is not the paper's, so the cutoff is the
    announced deadline + grace), `mismatch` (one differs by more, or has no duedate),
    `unreadable` (none could be read), `rolling` (no venue deadline). `disagreement_h` is the largest |announced - duedate|
    (per invitation signed: > 0 when the announced deadline is later).
    """
    out: dict = {"announced_ms": announced_ms, "invitations": [], "status": "agree",
                 "disagreement_h": None, "cutoff_ms": None, "cutoff_rule": "rolling"}
    if announced_ms is None:
        out["status"] = "rolling"  # TMLR: no venue deadline
        return out
    problems, unreadable, expdates, worst, abstract = [], [], [], 0.0, []
    for inv_id in invitation_ids:
        try:
            dates = invitation_deadlines(api, inv_id)
        except OpenReviewError as exc:
            if stops_the_run(exc):  # credentials, a long rate-limit window: no forum gets past it
                raise
            out["invitations"].append({"invitation": inv_id, "error": str(exc)[:200]})
            unreadable.append(f"{inv_id}: unreadable")
            continue
        due, exp = dates["duedate_ms"], dates["expdate_ms"]
        if due is None:
            out["invitations"].append(dates)
            problems.append(f"{inv_id}: no duedate")
            continue
        off_h = (announced_ms - due) / HOUR_MS  # > 0: the announced deadline is later
        dates["disagreement_h"] = round(off_h, 3)
        out["invitations"].append(dates)
        if abstract_ms is not None and abs(due - abstract_ms) <= tolerance_ms < abs(due - announced_ms):
            dates["matches"] = "abstract deadline"
            abstract.append(inv_id)
            continue
        worst = max(worst, abs(off_h))
        if abs(due - announced_ms) > tolerance_ms:
            problems.append(f"{inv_id}: the announced deadline {announced_ms} is {off_h:+.2f} h from its duedate {due}")
        else:
            expdates.append(exp if exp is not None else due)
    if len(out["invitations"]) > len(unreadable):
        out["disagreement_h"] = round(worst, 3)
    if problems:
        out["status"] = "mismatch"
    elif unreadable:
        out["status"] = "unreadable"
    elif abstract:
        out["status"] = "agree_abstract"
    if problems or unreadable:
        out["problems"] = problems + unreadable
    if out["status"] == "agree" and expdates:
        out["cutoff_ms"], out["cutoff_rule"] = max(expdates), "invitation_expdate"
    else:
        out["cutoff_ms"], out["cutoff_rule"] = announced_ms + grace_ms, "announced_plus_grace"
    return out


def venue_deadline_check(api: OpenReviewApi, venue) -> dict:
    """`deadline_cross_check` for a catalogue entry (its dated invitations, its grace)."""
    if venue.deadline is None:
        return deadline_cross_check(api, [], None)
    return deadline_cross_check(api, venue.deadline_invitations(), venue.deadline_ms,
                                grace_ms=venue.deadline.grace_minutes * 60_000,
                                abstract_ms=venue.deadline.abstract_ms)
