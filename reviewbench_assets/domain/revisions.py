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
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from partitions.catalogue import catalogue

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
