"""The replica, driven by the real openreview-py clients over HTTP."""

import io
import zipfile

import pypdfium2
import pytest
import requests
from openreview import OpenReviewException

from openreview_replica import FaultConfig, build_fixtures
from openreview_replica.venues import DEADLINE_BOUNDARY_FORUMS
from tests.pdf_text import pdf_text

V24 = "ICLR.cc/2024/Conference"
V20 = "ICLR.cc/2020/Conference"


def test_fixtures_deterministic_and_ground_truth(fx):
    again = build_fixtures(["iclr-2024", "iclr-2020"], seed=0, n_forums=32)
    for key in ("iclr-2024", "iclr-2020"):
        a, b = fx.venues[key], again.venues[key]
        assert list(a.forums) == list(b.forums)
        assert a.submissions == b.submissions
    v24, v20 = fx.venues["iclr-2024"], fx.venues["iclr-2020"]
    # the replica's own venue data: 2023-09-29T11:59:59Z (Sep 28 AoE), 2019-09-25T15:00:00Z (6 PM EAT)
    assert v24.deadline_ms == 1695988799000 and v20.deadline_ms == 1569423600000
    assert v24.expdate_ms == v24.deadline_ms + 30 * 60_000  # openreview-py SHORT_BUFFER_MIN
    assert len(v24.forums) >= 30 and len(v20.forums) >= 30
    rules24 = {f.expected_rule for f in v24.forums.values()}
    assert rules24 == {"initial", "current_is_initial", "earliest_public", "unavailable"}  # unavailable: no PDF
    assert {f.strict_rule or f.expected_rule for f in v24.forums.values()} == {"initial", "current_is_initial",
                                                                              "unavailable"}
    assert all(f.has_pdf for f in v24.forums.values() if f.expected_rule == "earliest_public")
    assert {f.status for f in v24.forums.values()} == {"active", "withdrawn", "desk_rejected"}
    # most forums have a post-deadline PDF revision (a chosen earliest public one is not among the markers)
    assert sum(bool(f.post_deadline_markers) or f.expected_rule == "earliest_public"
               for f in v24.forums.values()) > len(v24.forums) / 2
    assert all(f.expected_rule == "initial" for f in v20.forums.values() if f.has_pdf)
    hidden = v24.forums_with("hidden_reviews")[0]
    assert hidden.num_reviews == 0
    # content-addressed pdf values
    sub = v24.notes[hidden.forum_id]
    sha = sub["content"]["pdf"]["value"].split("/")[-1][:-4]
    import hashlib
    assert hashlib.sha1(fx.pdf_bytes(sha)).hexdigest() == sha


def test_v2_get_all_notes_pages_with_after_and_full_threads(rep, c2, fx):
    v = fx.venues["iclr-2024"]
    notes = c2.get_all_notes(invitation=f"{V24}/-/Submission", details="replies")
    assert {n.id for n in notes} == set(v.forums)
    afters = [r for r in rep.request_log if r.path == "/notes" and "after" in r.params]
    assert len(afters) >= 4  # 32 forums / page size 7
    for n in notes:
        truth = v.forums[n.id]
        replies = n.details["replies"]
        assert len(replies) == truth.num_replies
        reviews = [r for r in replies if r["invitations"][0].endswith("/-/Official_Review")]
        assert len(reviews) == truth.num_reviews
        assert all(r["version"] == 2 and "parentInvitations" in r for r in replies)
    sample = notes[0]
    assert sample.content["venueid"]["value"].startswith(V24)
    raw = requests.get(f"{rep.api_v2_url}/notes", params={"id": notes[0].id},
                       headers={"Authorization": f"Bearer {c2.token}"}).json()["notes"][0]
    for k in ("id", "number", "cdate", "tcdate", "tmdate", "mdate", "odate", "pdate", "ddate", "content", "forum",
              "replyto", "readers", "nonreaders", "signatures", "writers", "invitations", "domain", "license",
              "version"):
        assert k in raw
    # string scores as in ICLR 2024
    review = next(r for n in notes for r in n.details["replies"] if r["invitations"][0].endswith("Official_Review"))
    assert review["content"]["rating"]["value"].split(":")[0].isdigit()
    assert review["content"]["soundness"]["value"][0].isdigit()
    assert "/Reviewer_" in review["signatures"][0]


def test_direct_replies_drops_threaded_author_replies(c2, fx):
    v = fx.venues["iclr-2024"]
    split = v.forums_with("split_rebuttal")[0]
    full = c2.get_notes(id=split.forum_id, details="replies")[0].details["replies"]
    direct = c2.get_notes(id=split.forum_id, details="directReplies")[0].details["directReplies"]
    assert len(direct) == split.num_direct_replies < len(full) == split.num_replies
    titles = [r["content"].get("title", {}).get("value", "") for r in full]
    assert any(t.endswith("(1/2)") for t in titles) and any(t.endswith("(2/2)") for t in titles)
    assert not any(r["replyto"] != split.forum_id for r in direct)
    threaded_author = [r for r in full if r["signatures"][0].endswith("/Authors") and r["replyto"] != split.forum_id]
    assert threaded_author and not {r["id"] for r in threaded_author} & {r["id"] for r in direct}
    gen = v.forums_with("general_response")[0]
    greplies = c2.get_notes(id=gen.forum_id, details="directReplies")[0].details["directReplies"]
    assert any(r["signatures"][0].endswith("/Authors") for r in greplies)


def test_v2_edits_visibility(c2, fx):
    v = fx.venues["iclr-2024"]
    for f in v.forums.values():
        edits = c2.get_note_edits(note_id=f.forum_id, sort="tcdate:asc")
        ids = {e.id for e in edits}
        visible = {r.revision_id for r in f.revisions if r.visible}
        assert visible <= ids
        pre = [e for e in edits if e.tcdate <= v.expdate_ms]
        if any(t.startswith("history_public") or t in DEADLINE_BOUNDARY_FORUMS for t in f.tags):
            assert pre and f.expected_rule == "initial" and f.expected_revision_id in ids
        else:
            assert not pre  # pre-deadline edits are author-only
        post_pdf = [e for e in edits if e.tcdate > v.expdate_ms and "pdf" in e.note.content]
        # the earliest public PDF (after the deadline) is the chosen one, not among the markers to avoid
        assert len(post_pdf) == len(f.post_deadline_markers) + (f.expected_rule == "earliest_public")
    f = next(f for f in v.forums.values() if f.strict_rule == "unavailable" and f.post_deadline_markers)
    edit = next(r for r in f.revisions if not r.pre_deadline and r.has_pdf)
    r = c2.session.get(f"{c2.baseurl}/notes/edits/attachment", params={"id": edit.revision_id, "name": "pdf"},
                       headers=c2.headers)
    assert r.status_code == 200 and edit.marker in pdf_text(r.content)
    hidden_edit = next(r for r in f.revisions if r.pre_deadline)
    r = c2.session.get(f"{c2.baseurl}/notes/edits/attachment", params={"id": hidden_edit.revision_id, "name": "pdf"},
                       headers=c2.headers)
    assert r.status_code == 403 and r.json()["name"] == "ForbiddenError"


def test_v2_current_pdf_marker_and_rules(c2, fx):
    v = fx.venues["iclr-2024"]
    f = next(f for f in v.forums.values() if f.expected_rule == "current_is_initial")
    text = pdf_text(c2.get_pdf(f.forum_id))
    assert f.expected_marker in text and "Page 2 of revision" in text
    note = c2.get_note(f.forum_id)
    assert not any(i.endswith("_Revision") for i in note.invitations)
    u = next(f for f in v.forums.values() if f.strict_rule == "unavailable" and f.has_pdf)
    assert any(i.endswith("_Revision") for i in c2.get_note(u.forum_id).invitations)
    nopdf = v.forums_with("no_pdf")[0]
    with pytest.raises(OpenReviewException) as e:
        c2.get_pdf(nopdf.forum_id)
    assert e.value.args[0]["name"] == "NotFoundError"
    with pytest.raises(OpenReviewException) as e:
        c2.get_note("doesNotExist")
    assert e.value.args[0]["status"] == 404


def test_v2_withdrawn_desk_rejected_group_invitation(c2, fx):
    v = fx.venues["iclr-2024"]
    w = c2.get_note(v.forums_with("withdrawn")[0].forum_id)
    assert w.content["venueid"]["value"] == f"{V24}/Withdrawn_Submission"
    assert w.content["venue"]["value"] == "ICLR 2024 Conference Withdrawn Submission"
    replies = c2.get_notes(forum=w.id)
    assert any(r.invitations[0].endswith("/-/Withdrawal") for r in replies)
    d = c2.get_note(v.forums_with("desk_rejected")[0].forum_id)
    assert d.content["venueid"]["value"] == f"{V24}/Desk_Rejected_Submission"
    g = c2.get_group(V24)
    assert g.domain == V24 and g.content["submission_id"]["value"] == f"{V24}/-/Submission"
    inv = c2.get_invitation(f"{V24}/-/Submission")
    assert inv.duedate == v.deadline_ms and inv.expdate == v.deadline_ms + 30 * 60 * 1000
    accepted = c2.get_all_notes(content={"venueid": V24})
    assert accepted and all(n.content["venueid"]["value"] == V24 for n in accepted)


def test_v1_notes_references_and_pdfs(rep, c1, fx):
    v = fx.venues["iclr-2020"]
    notes = c1.get_all_notes(invitation=f"{V20}/-/Blind_Submission", details="replies")
    active = {f.forum_id for f in v.forums.values() if f.status == "active"}
    assert {n.id for n in notes} == active
    n = notes[0]
    assert n.invitation == f"{V20}/-/Blind_Submission" and n.original and isinstance(n.content["title"], str)
    for n in notes:
        assert len(n.details["replies"]) == v.forums[n.id].num_replies
    rev = next(r for r in n.details["replies"] if r["invitation"].endswith("Official_Review"))
    assert "/AnonReviewer" in rev["signatures"][0] and rev["content"]["rating"] in (
        "1: Reject", "3: Weak Reject", "6: Weak Accept", "8: Accept")
    dec = next(r for r in n.details["replies"] if r["invitation"].endswith("/-/Decision"))
    assert dec["signatures"] == [f"{V20}/Program_Chairs"] and {"decision", "comment"} <= set(dec["content"])
    withdrawn = c1.get_all_notes(invitation=f"{V20}/-/Withdrawn_Submission")
    assert [w.id for w in withdrawn] == [f.forum_id for f in v.forums_with("withdrawn")]

    f = next(f for f in v.forums.values() if f.expected_rule == "initial" and f.post_deadline_markers)
    refs = c1.get_all_references(referent=f.forum_id, original=True)
    assert {r.id for r in refs} == {r.revision_id for r in f.revisions} | {
        r["id"] for r in v.refs_by_referent[f.forum_id]}
    pdf_refs = sorted([r for r in refs if r.content.get("pdf")], key=lambda r: r.tcdate)
    pre = [r for r in pdf_refs if r.tcdate <= v.expdate_ms]
    assert pre and pre[-1].id == f.expected_revision_id
    assert any(not r.content.get("pdf") for r in refs)  # system refs without pdf
    text = pdf_text(c1.get_pdf(f.expected_revision_id, is_reference=True))
    assert f.expected_marker in text
    assert f.latest_marker in pdf_text(c1.get_pdf(f.forum_id))
    assert not [r for r in c1.get_references(referent=f.forum_id) if r.content.get("pdf")]
    # dated like openreview-py's v1 conference builder: the original Submission invitation carries
    # duedate/expdate, the Blind_Submission copy none
    inv = c1.get_invitations(id=f"{V20}/-/Submission", expired=True)[0]
    assert inv.duedate == v.deadline_ms and inv.expdate == v.expdate_ms == v.deadline_ms + 30 * 60_000
    blind = c1.get_invitations(id=f"{V20}/-/Blind_Submission", expired=True)[0]
    assert blind.duedate is None and blind.expdate is None
    assert c1.get_group(V20).id == V20


def test_anonymous_is_challenged(rep, fx):
    import openreview.api

    anon = openreview.api.OpenReviewClient(baseurl=rep.api_v2_url)
    with pytest.raises(OpenReviewException) as e:
        anon.get_notes(invitation=f"{V24}/-/Submission")
    assert e.value.args[0]["name"] == "ChallengeRequiredError" and e.value.args[0]["status"] == 403
    for base, path in ((rep.api_v1_url, "/references"), (rep.api_v2_url, "/pdf"), (rep.api_v1_url, "/notes")):
        r = requests.get(base + path, params={"id": "x"})
        assert r.status_code == 403 and r.json()["name"] == "ChallengeRequiredError"
    r = requests.post(rep.api_v2_url + "/login", json={"id": rep.username, "password": "wrong"})
    assert r.status_code == 400 and set(r.json()) == {"name", "message", "status", "details"}


def test_rate_limit_is_retried_by_client(rep, c2, capsys):
    rep.set_faults(FaultConfig(rate_limit_first_n=2, path_prefix="/notes"))
    notes = c2.get_notes(invitation=f"{V24}/-/Submission", limit=3)
    assert len(notes) == 3
    statuses = [r.status for r in rep.request_log if r.path == "/notes"]
    assert statuses == [429, 429, 200]
    rep.set_faults(FaultConfig(rate_limit_first_n=1))
    r = requests.get(rep.api_v2_url + "/notes", params={"id": "x"})
    body = r.json()
    assert r.status_code == 429 and body["name"] == "RateLimitError" and r.headers["Retry-After"] == "1"
    assert body["details"]["resetTime"].endswith("Z") and body["details"]["remaining"] == 0


def test_error_drop_slow_and_pdf_faults(rep, c2, fx):
    v = fx.venues["iclr-2024"]
    f = next(f for f in v.forums.values() if f.has_pdf)
    rep.set_faults({"error_first_n": 1, "error_status": 502, "path_prefix": "/pdf"})
    assert c2.get_pdf(f.forum_id)[:5] == b"%PDF-"
    assert [r.status for r in rep.request_log if r.path == "/pdf"] == [502, 200]
    rep.set_faults(FaultConfig(drop_first_n=1, path_prefix="/groups"))
    with pytest.raises(requests.ConnectionError):
        requests.get(rep.api_v2_url + "/groups", params={"id": V24})
    assert requests.get(rep.api_v2_url + "/groups", params={"id": V24}).status_code == 200
    rep.set_faults(FaultConfig(missing_pdfs=[f.forum_id]))
    with pytest.raises(OpenReviewException):
        c2.get_pdf(f.forum_id)
    rep.set_faults(FaultConfig(corrupt_pdfs=[f.forum_id]))
    data = c2.get_pdf(f.forum_id)
    assert data.startswith(b"%PDF") and b"%%EOF" not in data[-10:]
    with pytest.raises(pypdfium2.PdfiumError):
        pdf_text(data)
    # control endpoint + slow requests
    r = requests.post(rep.api_v2_url + "/_replica/faults", json={"slow_ms": 150, "path_prefix": "/groups"})
    assert r.status_code == 200 and rep.faults.slow_ms == 150
    import time
    t = time.monotonic()
    c2.get_group(V24)
    assert time.monotonic() - t >= 0.15
    assert all(len(x) == 7 and x.role in ("v1", "v2", "web") and isinstance(x.delivered, bool) for x in rep.request_log)


def test_attachment_ids_zip(c2, fx):
    v = fx.venues["iclr-2024"]
    ids = [f.forum_id for f in v.forums.values() if f.has_pdf][:5]
    data = c2.get_attachment("pdf", ids=ids)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = sorted(z.namelist())
        assert names == sorted(f"{i}.pdf" for i in ids)
        txt = pdf_text(z.read(f"{ids[0]}.pdf"))
    assert v.forums[ids[0]].latest_marker in txt
    single = c2.get_attachment("pdf", id=ids[1])
    assert single[:5] == b"%PDF-"
    with pytest.raises(OpenReviewException):
        c2.get_attachment("pdf", ids=[f"x{i}" for i in range(51)])


def test_v2_reviews_are_released_by_the_venues_meta_invitation_edit(c2, fx):
    """As in the real ICLR 2026 payloads (docs/openreview-api.md §1.8): each public v2 review carries
    `<venue>/-/Edit`, its tmdate moved by that edit, a forum's reviews within seconds, before the
    authors' first post; the edit is in the review's history (`note.id`) but not under the paper's
    review invitation, which holds the reviewers' own edits."""
    v24 = fx.venues["iclr-2024"]
    released = 0
    for sub in v24.submissions:
        replies = v24.replies_by_forum.get(sub["id"], [])
        reviews = [r for r in replies if r["invitations"][0].endswith("/-/Official_Review") and "everyone" in r["readers"]]
        if not reviews:
            continue
        assert all(f"{V24}/-/Edit" in r["invitations"] and r["tmdate"] > r["tcdate"] for r in reviews)
        release = [e["tcdate"] for r in reviews for e in v24.edits_by_note[r["id"]] if e["invitation"] == f"{V24}/-/Edit"]
        assert len(release) == len(reviews) and max(release) - min(release) <= 5_000
        authors = [r["tcdate"] for r in replies if r["signatures"][0].endswith("/Authors")]
        assert not authors or max(release) < min(authors)
        released += len(reviews)
    assert released >= 50
    review = next(r for s in v24.submissions for r in v24.replies_by_forum.get(s["id"], [])
                  if f"{V24}/-/Edit" in r["invitations"])
    by_note = c2.get_note_edits(note_id=review["id"])
    assert f"{V24}/-/Edit" in {e.invitation for e in by_note}
    by_inv = c2.get_note_edits(invitation=review["invitations"][0])
    assert f"{V24}/-/Edit" not in {e.invitation for e in by_inv}
