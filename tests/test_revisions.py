"""`choose_revision`: table-driven, one rule for the browser and the API path."""
import json
from datetime import UTC
from pathlib import Path

import pytest

from reviewbench_assets.domain.revisions import (
    Revision,
    choice_from_note,
    choose_revision,
    note_proves_unrevised,
    revisions_from_references,
)

DEADLINE = 1_000_000
V2_SUB = ["V/-/Submission", "V/-/Post_Submission"]
V2_REVISED = V2_SUB + ["V/Submission1/-/Rebuttal_Revision"]


def rev(rid, t, pdf=True):
    return Revision(revision_id=rid, tcdate=t, pdf_url=f"/x?id={rid}" if pdf else None)


@pytest.mark.parametrize("revs,deadline,invs,current,allow,expect", [
    # last PDF revision at or before the deadline wins; later ones never
    ([rev("a", 10), rev("b", DEADLINE), rev("c", DEADLINE + 1)], DEADLINE, V2_REVISED, "/pdf/x", False, ("initial", "b")),
    # revisions without a PDF (abstract-only, system references) are skipped
    ([rev("a", 10), rev("b", 20, pdf=False)], DEADLINE, V2_SUB, "/pdf/x", False, ("initial", "a")),
    # v2: nothing visible and no post-deadline invitation -> the current PDF is the submitted one
    ([], DEADLINE, V2_SUB, "/pdf/x", False, ("current_is_initial", None)),
    # v2: only post-deadline revisions visible -> unavailable, never the latest silently
    ([rev("c", DEADLINE + 5)], DEADLINE, V2_REVISED, "/pdf/x", False, ("unavailable", None)),
    # a revision invitation on the note without visible edits also rules out the current PDF
    ([], DEADLINE, V2_REVISED, "/pdf/x", False, ("unavailable", None)),
    # policy fallback, flagged
    ([rev("c", DEADLINE + 5), rev("d", DEADLINE + 9)], DEADLINE, V2_REVISED, "/pdf/x", True, ("earliest_public", "c")),
    # no PDF at all
    ([], DEADLINE, V2_SUB, None, False, ("unavailable", None)),
    # rolling venue (TMLR): the first released revision
    ([rev("b", 50), rev("a", 40)], None, ["TMLR/-/Submission"], "/pdf/x", False, ("initial", "a")),
])
def test_choose_revision(revs, deadline, invs, current, allow, expect):
    choice = choose_revision(revs, deadline, "F1", invs, current, allow_earliest_public=allow)
    assert (choice.rule, choice.revision_id) == expect
    assert choice.reason
    if choice.rule == "current_is_initial":
        assert choice.pdf_url == "/pdf?id=F1"
    if choice.rule == "unavailable":
        assert choice.pdf_url is None


def test_real_iclr2020_references_choose_the_pre_deadline_pdf():
    """The recorded ICLR 2020 history (openreview-api.md §3.2): By1iRL_PH is the initial PDF."""
    path = Path(__file__).parent / "fixtures/openreview-samples/iclr2020_ryxz8CVYDH_v1_references_original_true.json"
    data = json.loads(path.read_text())
    refs = data["references"] if isinstance(data, dict) else data
    from partitions import catalogue
    cutoff = catalogue().get("iclr-2020").cutoff_ms  # Sep 25, 2019 6:00 PM EAT (15:00Z) + 30 min grace
    assert cutoff == 1569425400000
    choice = choose_revision(revisions_from_references(refs), cutoff, "ryxz8CVYDH",
                             ["ICLR.cc/2020/Conference/-/Blind_Submission"], "/pdf/82af.pdf")
    assert choice.rule == "initial"
    assert choice.revision_id == "By1iRL_PH"
    assert choice.pdf_url == "/references/pdf?id=By1iRL_PH"


def test_a_revision_without_pdf_is_never_why_a_forum_is_unavailable():
    # pre-cutoff revisions without a PDF (abstract registration, Post_Submission) beside a PDF note
    revs = [rev("abs", 10, pdf=False), rev("post", DEADLINE + 5, pdf=False)]
    choice = choose_revision(revs, DEADLINE, "F1", V2_SUB, "/pdf/x")
    assert choice.rule == "current_is_initial"
    # with a PDF before the cutoff, PDF-less revisions after it change nothing
    choice = choose_revision([rev("a", 10), rev("late", DEADLINE + 5, pdf=False)], DEADLINE, "F1", V2_SUB, "/pdf/x")
    assert (choice.rule, choice.revision_id) == ("initial", "a")


@pytest.mark.parametrize("revs,invs,current,says", [
    ([rev("c", DEADLINE + 5), rev("n", 10, pdf=False)], V2_REVISED, "/pdf/x",
     "every visible PDF revision is after the cutoff: saw 2 revisions (1 with a PDF: 0 at or before the "
     "cutoff, 1 after; 1 without a PDF); note PDF: yes; post-deadline revision invitations on the note: "
     "Rebuttal_Revision"),
    ([], V2_REVISED, "/pdf/x", "the note was revised after the cutoff and no earlier PDF revision is visible: "
     "saw 0 revisions (0 with a PDF: 0 at or before the cutoff, 0 after; 0 without a PDF)"),
    ([rev("n", 10, pdf=False)], V2_SUB, None, "no PDF anywhere: saw 1 revisions (0 with a PDF"),
])
def test_unavailable_reason_says_what_was_seen(revs, invs, current, says):
    choice = choose_revision(revs, DEADLINE, "F1", invs, current)
    assert choice.rule == "unavailable" and choice.reason.startswith(says), choice.reason


def test_iclr_2023_upload_at_1140_utc_the_day_after_is_the_submission():
    """Issue 10: ICLR 2023 closed "Sep 28, 2022 AoE" = 2022-09-29T11:59:59Z; a PDF uploaded at
    11:40 UTC on Sep 29 is the initial submission (a 23:59:59Z reading made it `unavailable`)."""
    from datetime import datetime

    from partitions import catalogue

    def ms(s: str) -> int:
        return int(datetime.fromisoformat(s).replace(tzinfo=UTC).timestamp() * 1000)

    revs = [rev("early", ms("2022-09-27T10:00:00")), rev("last", ms("2022-09-29T11:40:00")),
            rev("rebuttal", ms("2022-11-18T09:00:00"))]
    venue = catalogue().get("iclr-2023")
    choice = choose_revision(revs, venue.cutoff_ms, "F", ["ICLR.cc/2023/Conference/-/Blind_Submission"], "/pdf/x")
    assert (choice.rule, choice.revision_id) == ("initial", "last")
    naive = choose_revision(revs, ms("2022-09-28T23:59:59"), "F", [], "/pdf/x")
    assert naive.revision_id == "early"  # what the hand-converted deadline picked


V2_NOTE = ["ICLR.cc/2024/Conference/-/Submission", "ICLR.cc/2024/Conference/-/Post_Submission"]


def test_a_v2_note_no_revision_invitation_touched_settles_the_choice():
    assert note_proves_unrevised(V2_NOTE, "/pdf/ab.pdf", 10, "v2")
    # ICLR 2026's two-stage deadline, and a withdrawal that only sets venue/venueid
    assert note_proves_unrevised(V2_NOTE + ["ICLR.cc/2026/Conference/Submission4956/-/Full_Submission",
                                            "ICLR.cc/2024/Conference/-/Withdrawn_Submission"], "/pdf/ab.pdf", 10, "v2")
    c = choice_from_note("F1", 10, V2_NOTE)
    assert (c.rule, c.pdf_url, c.revision_id, c.deadline_ms) == ("current_is_initial", "/pdf?id=F1", None, 10)
    assert "Post_Submission, Submission" in c.reason


def test_the_note_does_not_settle_a_revised_unknown_v1_rolling_or_pdfless_note():
    revised = V2_NOTE + ["ICLR.cc/2024/Conference/Submission7/-/Rebuttal_Revision"]
    assert not note_proves_unrevised(revised, "/pdf/ab.pdf", 10, "v2")
    # an invitation the rule does not know (a PC edit could have changed anything): read the history
    assert not note_proves_unrevised(V2_NOTE + ["ICLR.cc/2026/Conference/-/Edit"], "/pdf/ab.pdf", 10, "v2")
    assert not note_proves_unrevised(V2_NOTE, "/pdf/ab.pdf", 10, "v1")  # v1 names one invitation only
    assert not note_proves_unrevised(["TMLR/-/Submission"], "/pdf/ab.pdf", None, "v2")  # rolling
    assert not note_proves_unrevised(V2_NOTE, None, 10, "v2")  # no PDF: nothing to take
    assert not note_proves_unrevised([], "/pdf/ab.pdf", 10, "v2")  # no invitations: no evidence


def test_a_v1_note_whose_pdf_is_its_original_pdf_settles_the_choice():
    same = ("/pdf/3075a428235509855db7834a4ed978b6fcf08b55.pdf", "/attachment/3075a428235509855db7834a4ed978b6fcf08b55.pdf")
    inv = ["ICLR.cc/2020/Conference/-/Blind_Submission"]
    assert note_proves_unrevised(inv, same[0], 10, "v1", original_pdf=same[1])
    assert not note_proves_unrevised(inv, "/pdf/07a4b4b4.pdf", 10, "v1", original_pdf=same[1])  # replaced
    assert not note_proves_unrevised(inv, same[0], 10, "v1")  # no original_pdf kept: read the history
    assert not note_proves_unrevised(inv, same[0], None, "v1", original_pdf=same[1])  # rolling
    assert "original_pdf" in choice_from_note("F", 10, inv, "v1").reason
