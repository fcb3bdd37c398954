"""Which PDF is the initial submission: one rule, used by the browser and the API path alike.

The initial submission is the last PDF revision at or before the venue-year's cutoff: the
announced deadline plus OpenReview's upload grace (the submission invitation's expdate). What a
reader can see differs by API (openreview-api.md §0.4, §3), so the rule that chose the PDF is
recorded with it and the latest PDF is never taken silently:
  initial             a visible revision at or before the deadline (v1 references, TMLR history,
                      v2 venues that publish revision history)
  current_is_initial  no revision is visible and nothing on the note says it was revised after
                      the deadline, so the current PDF is the one submitted
  earliest_public     the initial submission is not public: the earliest public PDF (the first
                      visible PDF revision, else the note's current PDF), flagged; the default,
                      `initial_only` turns it off
  unavailable         none of the above

The cutoff the choice applies is decided once per venue by `judge_deadline` (below): the announced
deadline against what OpenReview enforced, as the PDF stage read it (stages/deadline_check.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from partitions.catalogue import catalogue
from reviewbench_assets.domain.posts import field_value

Rule = Literal["initial", "current_is_initial", "earliest_public", "unavailable"]
# The invitation names that mean "the PDF changed after submission" (v2 `invitations` of the note)
# and those that edit or mark a note without a new PDF are the catalogue's
# (`vocabulary.revision_invitations` in partitions/venues.yaml: post_deadline, unrevised_note).


class Revision(BaseModel):
    revision_id: str
    tcdate: int  # ms; v1 references carry the note's cdate, so tcdate is the revision time
    invitation: str = ""
    pdf_url: str | None = None  # API path (+query) of this revision's PDF, None if no PDF


class RevisionChoice(BaseModel):
    rule: Rule
    revision_id: str | None = None
    revision_tcdate: int | None = None
    deadline_ms: int | None = None  # the cutoff the choice applied (deadline + OpenReview's grace)
    pdf_url: str | None = None
    reason: str = ""


def _revised_after_submission(invitations: list[str]) -> list[str]:
    return [inv.rsplit("/-/", 1)[-1] for inv in invitations
            if inv.rsplit("/-/", 1)[-1] in catalogue().vocabulary.revision_invitations.post_deadline]


def _file_key(value: str | None) -> str | None:
    """`/pdf/<hex>.pdf` and `/attachment/<hex>.pdf` name the same stored file when their <hex>
    agree (seen in the real ICLR 2020 references, docs/openreview-api.md §1.5)."""
    if not value:
        return None
    return value.rsplit("/", 1)[-1].rsplit(".", 1)[0] or None


def note_proves_unrevised(note_invitations: list[str], current_pdf: str | None, cutoff_ms: int | None,
                          api_version: str, original_pdf: str | None = None) -> bool:
    """True when the submission note alone shows its current PDF is the submitted one, so reading
    its revision history could not change which PDF is taken. Never for a rolling venue (TMLR: no
    cutoff, the first released revision is the submission) nor a note without a PDF.

    API v2: a note lists every invitation that ever edited it, private edits included (OpenReview
    docs, `reference/api-v2/entities/note/fields.md`; docs/openreview-api.md §1.8), so a note whose
    every invitation is an `unrevised_note` one (catalogue vocabulary) was last given a PDF before the cutoff.
    An invitation this list does not know sends the forum to its history.
    API v1 (a note names only its own invitation): where the venue kept the submitted file as
    `original_pdf` (ICLR 2020, openreview-py issue 2782), a current `pdf` that is the same file
    was not replaced after submission, whichever upload `original_pdf` recorded."""
    if cutoff_ms is None or not current_pdf:
        return False
    if api_version == "v1":
        return _file_key(original_pdf) is not None and _file_key(original_pdf) == _file_key(current_pdf)
    if api_version != "v2" or not note_invitations:
        return False
    unrevised = catalogue().vocabulary.revision_invitations.unrevised_note
    return all(inv.rsplit("/-/", 1)[-1] in unrevised for inv in note_invitations)


def choice_from_note(forum_id: str, cutoff_ms: int | None, note_invitations: list[str],
                     api_version: str = "v2") -> RevisionChoice:
    """The choice for a note `note_proves_unrevised` accepted, with what it was judged on."""
    if api_version == "v1":
        why = "the note's current pdf is its original_pdf (the same file)"
    else:
        names = ", ".join(sorted({inv.rsplit("/-/", 1)[-1] for inv in note_invitations}))
        why = f"the note was never edited by a revision invitation (its invitations: {names})"
    return RevisionChoice(rule="current_is_initial", pdf_url=f"/pdf?id={forum_id}", deadline_ms=cutoff_ms,
                          reason=f"{why}: its current PDF is the one submitted; revision history not read")


def seen_summary(revisions: list[Revision], cutoff_ms: int | None, current_pdf: str | None,
                 note_invitations: list[str]) -> str:
    """What the reader actually saw, for the record's reason (never a guess about what it did not)."""
    with_pdf = [r for r in revisions if r.pdf_url]
    if cutoff_ms is None:
        timing = f"{len(with_pdf)} with a PDF"
    else:
        before = sum(1 for r in with_pdf if r.tcdate <= cutoff_ms)
        timing = f"{len(with_pdf)} with a PDF: {before} at or before the cutoff, {len(with_pdf) - before} after"
    revised = _revised_after_submission(note_invitations)
    return (f"saw {len(revisions)} revisions ({timing}; {len(revisions) - len(with_pdf)} without a PDF); "
            f"note PDF: {'yes' if current_pdf else 'none'}; post-deadline revision invitations on the note: "
            f"{', '.join(revised) or 'none'}")


def choose_revision(revisions: list[Revision], cutoff_ms: int | None, forum_id: str,
                    note_invitations: list[str], current_pdf: str | None,
                    allow_earliest_public: bool = False) -> RevisionChoice:
    """`cutoff_ms`: the last instant an upload counted as submitted (the announced deadline plus
    OpenReview's grace, i.e. the submission invitation's expdate); None for a rolling venue.
    Revisions without a PDF never decide anything: only PDF revisions are candidates, and only
    PDF revisions after the cutoff count as evidence that the current PDF is not the submitted one."""
    with_pdf = sorted((r for r in revisions if r.pdf_url), key=lambda r: (r.tcdate, r.revision_id))
    base = {"deadline_ms": cutoff_ms}
    if cutoff_ms is None:  # rolling venue (TMLR): the first released revision is the submission
        if with_pdf:
            first = with_pdf[0]
            return RevisionChoice(rule="initial", revision_id=first.revision_id,
                                  revision_tcdate=first.tcdate, pdf_url=first.pdf_url, **base,
                                  reason="rolling venue: first released revision")
    else:
        before = [r for r in with_pdf if r.tcdate <= cutoff_ms]
        if before:
            last = before[-1]
            return RevisionChoice(rule="initial", revision_id=last.revision_id,
                                  revision_tcdate=last.tcdate, pdf_url=last.pdf_url, **base,
                                  reason=f"last of {len(before)} PDF revisions at or before the cutoff")
    after = [r for r in with_pdf if cutoff_ms is not None and r.tcdate > cutoff_ms]
    seen = seen_summary(revisions, cutoff_ms, current_pdf, note_invitations)
    if current_pdf and not after and not _revised_after_submission(note_invitations):
        return RevisionChoice(rule="current_is_initial", pdf_url=f"/pdf?id={forum_id}", **base,
                              reason=f"no PDF revision visible and nothing says the PDF changed after the "
                                     f"cutoff: {seen}")
    if allow_earliest_public and with_pdf:
        first = with_pdf[0]
        return RevisionChoice(rule="earliest_public", revision_id=first.revision_id,
                              revision_tcdate=first.tcdate, pdf_url=first.pdf_url, **base,
                              reason=f"initial submission not public: earliest visible PDF revision "
                                     f"(after the cutoff): {seen}")
    if allow_earliest_public and current_pdf:
        # API v2 venues keep pre-deadline edits private (openreview-py issue 2782, openreview/openreview
        # issue 258): the note's current PDF is then the only public one.
        return RevisionChoice(rule="earliest_public", pdf_url=f"/pdf?id={forum_id}", **base,
                              reason=f"initial submission not public and no PDF revision visible: the "
                                     f"note's current PDF, the only public one: {seen}")
    if not current_pdf and not with_pdf:
        why = "no PDF anywhere"
    elif after:
        why = "every visible PDF revision is after the cutoff"
    else:
        why = "the note was revised after the cutoff and no earlier PDF revision is visible"
    return RevisionChoice(rule="unavailable", **base, reason=f"{why}: {seen}")


# ---------------------------------------------------------------------------------------------
# One forum's inputs and the choice its note alone settles (the PDF stage's records)


def forum_meta(note: dict) -> dict:
    """What revision choice needs from a raw submission note (v1 or v2)."""
    invitations = note.get("invitations") or ([note["invitation"]] if note.get("invitation") else [])
    content = note.get("content") or {}
    return {"forum_id": note["id"], "invitations": invitations,
            "pdf": field_value(content.get("pdf")), "original_pdf": field_value(content.get("original_pdf")),
            "tmdate": note.get("tmdate") or note.get("mdate") or 0}


def fingerprint(meta: dict, cutoff_ms: int | None) -> str:
    """Changes when the note or the cutoff changes, so only those forums are redone."""
    return f"{meta['tmdate']}|{cutoff_ms}"


@dataclass(frozen=True)
class Cutoff:
    """What a forum's revisions are judged against: the announced deadline (ms, UTC), the cutoff
    actually applied (deadline + OpenReview's grace, or the invitation's expdate) and its rule."""
    deadline_ms: int | None
    cutoff_ms: int | None
    rule: str

    @classmethod
    def of(cls, value: Cutoff | int | None) -> Cutoff:
        """A bare instant is used as given (tests, benchmarks); None is a rolling venue."""
        if isinstance(value, Cutoff):
            return value
        return cls(value, value, "rolling" if value is None else "given")

    @classmethod
    def from_check(cls, check: dict) -> Cutoff:
        return cls(check.get("announced_ms"), check.get("cutoff_ms"), check.get("cutoff_rule") or "rolling")


def history_needed(meta: dict, deadline: Cutoff | int | None, api_version: str) -> bool:
    """False when the note alone settles the choice (`note_proves_unrevised`): no
    revision page, no API request; the forum's PDF is then its current one."""
    return not note_proves_unrevised(meta["invitations"], meta["pdf"], Cutoff.of(deadline).cutoff_ms, api_version,
                                     meta.get("original_pdf"))


def choose_from_note(meta: dict, deadline: Cutoff | int | None, api_version: str) -> tuple[dict, RevisionChoice]:
    """The record of a forum whose history is not read (`history_needed` False)."""
    forum_id, cut = meta["forum_id"], Cutoff.of(deadline)
    choice = choice_from_note(forum_id, cut.cutoff_ms, meta["invitations"], api_version)
    return {"forum_id": forum_id, "deadline_ms": cut.deadline_ms, "cutoff_ms": cut.cutoff_ms,
            "cutoff_rule": cut.rule, "error": None, "fingerprint": fingerprint(meta, cut.cutoff_ms),
            "cross_check": "not needed: the note settles the choice", "pdf_fetch": None,
            "revision_source": "note", "rule": choice.rule, "reason": choice.reason, "revision_id": None,
            "revision_tcdate": None, "revision_requests": 0.0}, choice


def revisions_from_edits(edits: list[dict]) -> list[Revision]:
    """v2 `GET /notes/edits` -> revisions; an edit's PDF is at /notes/edits/attachment."""
    out = []
    for e in edits:
        content = (e.get("note") or {}).get("content") or {}
        has_pdf = bool((content.get("pdf") or {}).get("value")) if isinstance(content.get("pdf"), dict) \
            else bool(content.get("pdf"))
        out.append(Revision(revision_id=e["id"], tcdate=int(e.get("tcdate") or e.get("cdate") or 0),
                            invitation=e.get("invitation", ""),
                            pdf_url=f"/notes/edits/attachment?id={e['id']}&name=pdf" if has_pdf else None))
    return out


def revisions_from_references(refs: list[dict]) -> list[Revision]:
    """v1 `GET /references?original=true` -> revisions; use tcdate, not the constant cdate."""
    return [Revision(revision_id=r["id"], tcdate=int(r.get("tcdate") or 0),
                     invitation=r.get("invitation", ""),
                     pdf_url=f"/references/pdf?id={r['id']}" if (r.get("content") or {}).get("pdf") else None)
            for r in refs]


def revisions_from_page(page: dict) -> list[Revision]:
    """What the revisions page received (resources.browser.RevisionPage: `kind` edits or
    references, `items` as the API returned them) -> revisions."""
    items = page.get("items") or []
    return revisions_from_edits(items) if page.get("kind") == "edits" else revisions_from_references(items)


# ---------------------------------------------------------------------------------------------
# The announced deadline against what OpenReview enforced, and the cutoff each forum is judged by.
#
# Once per venue, the submission invitation's `duedate` (the deadline OpenReview showed) and `expdate`
# (the last instant it accepted an upload) are read and compared with the catalogue's announced
# deadline (converted from its local time zone). OpenReview's venue code sets `expdate` to the
# deadline + 30 minutes unless the venue set another (openreview-py `openreview/venue/invitation.py`,
# `openreview/conference/invitation.py`: SHORT_BUFFER_MIN = 30), so an upload in that window is part
# of the submission. The cutoff per forum is therefore:
#   invitation_expdate   the invitation's expdate, when its duedate agrees with the announced deadline
#                        (within `tolerance`, one hour)
#   announced_plus_grace the announced deadline + the catalogue's grace (30 min unless stated), when
#                        the invitation is unreadable, has no dates, carries the abstract deadline of
#                        a two-stage venue, or disagrees by more than an hour (the disagreement is
#                        reported in metadata and by an asset check)
#   rolling              a journal without a venue deadline (TMLR): first released revision

HOUR_MS = 3_600_000


def judge_deadline(readings: list[dict], announced_ms: int | None, grace_ms: int = 30 * 60_000,
                   tolerance_ms: int = HOUR_MS, abstract_ms: int | None = None) -> dict:
    """Judge the announced deadline against the submission invitation(s) as read (`readings`: per
    invitation its `duedate_ms` and `expdate_ms`, or its `error`) and decide the cutoff.

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
    for dates in readings:
        inv_id = dates["invitation"]
        if "error" in dates:
            out["invitations"].append(dates)
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
