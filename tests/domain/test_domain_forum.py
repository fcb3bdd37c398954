"""forum.py on the real recorded samples and on small synthetic forums."""
from __future__ import annotations

import json

import pytest

from partitions import catalogue
from reviewbench_assets.domain.forum import MalformedForumError, ParsedForum, role_of, row_fields
from reviewbench_assets.domain.reviews import reviews_json
from reviewbench_assets.domain.schema import REVIEW_FIELDS, REVIEWBENCH_COLUMNS
from tests.forums import parse_forum

V1_REVIEWS = {  # review id -> (signature tail, rating, author replies under it in time order)
    "HylOroWRYB": ("AnonReviewer3", 6.0, ["ryePwUAsjS", "Byxm28RjoB"]),
    "BJgs4nvCFB": ("AnonReviewer2", 8.0, ["Hkxl6r0isr"]),
    "rylVGWoAFB": ("AnonReviewer1", 6.0, ["HJx62E0siH", "rJlWfrRoir"]),
}


# ---- ICLR 2020, API v1 ----------------------------------------------------------------------

def test_iclr2020_v1_forum(iclr2020_raw, iclr2020):
    p = parse_forum(iclr2020_raw, iclr2020)
    assert isinstance(p, ParsedForum) and p.warnings == []
    assert (p.forum_id, p.number, p.api) == ("ryxz8CVYDH", 1130, "v1")
    assert (p.venue_id, p.track, p.status) == ("ICLR.cc/2020/Conference", "main", "active")
    assert p.title == "Learning to Learn by Zeroth-Order Oracle"
    assert p.authors[0] == "Yangjun Ruan" and len(p.authors) == 5
    assert p.keywords == ["learning to learn", "zeroth-order optimization",
                          "black-box adversarial attack"]
    assert p.tldr == "We extend the L2L framework to zeroth-order optimization setting."
    assert (p.primary_area, p.venue) == ("", "")
    assert p.pdf == "/pdf/82af16aa.pdf"
    assert p.invitations == ["ICLR.cc/2020/Conference/-/Blind_Submission"]
    assert p.decision == "Accept (Poster)"
    assert p.decision_comment.startswith(
        "This paper proposes to extend learning to learn framework based on zeroth-order")
    assert p.author_rebuttal == ""  # every author response is threaded under a review

    # posts: all 9, time-ordered, classified by invitation suffix, roles from signatures
    assert [q.note_id for q in p.posts][:3] == ["HylOroWRYB", "BJgs4nvCFB", "rylVGWoAFB"]
    assert [q.tcdate for q in p.posts] == sorted(q.tcdate for q in p.posts)
    kinds = {q.note_id: (q.kind, q.role) for q in p.posts}
    assert kinds["DWWOyAyYBN"] == ("decision", "program_chairs")
    assert sum(1 for k in kinds.values() if k == ("review", "reviewer")) == 3
    assert sum(1 for k in kinds.values() if k == ("comment", "author")) == 5
    c = p.post("HJx62E0siH")
    assert c.title == "Response to Reviewer #1 (2/2)" and c.replyto == "rylVGWoAFB"
    assert c.text.startswith("Thank you for your comments and suggestions!")
    assert c.invitation == "ICLR.cc/2020/Conference/Paper1130/-/Official_Comment"
    assert (c.tcdate, c.cdate, c.deleted) == (1573803189481, 1573803189481, False)

    # reviews: union dicts, ratings parsed, threaded author comments land in the right rebuttal
    assert len(p.reviews) == 3
    by_id = {r["review_id"]: r for r in p.reviews}
    texts = {q.note_id: q.text for q in p.posts}
    for rid, (reviewer, rating, replies) in V1_REVIEWS.items():
        r = by_id[rid]
        assert list(r) == REVIEW_FIELDS
        assert (r["reviewer"], r["rating"]) == (reviewer, rating)
        assert r["rebuttal"] == "\n\n".join(texts[n] for n in replies)
        assert r["extra_text"]["rating_text"] in ("6: Weak Accept", "8: Accept")
        assert r["review"] == p.post(rid).content["review"]  # the body, in the union (issue 10 point 7)
        assert "review" not in r["extra_text"]
        assert r["extra_text"]["experience_assessment"]
        assert r["confidence"] is None and r["soundness"] is None
    assert by_id["BJgs4nvCFB"]["rebuttal"].startswith("Thank you for the suggestion!")


def test_iclr2020_row_fields(iclr2020_raw, iclr2020):
    p = parse_forum(iclr2020_raw, iclr2020)
    row = row_fields(p, "iclr", 2020)
    assert list(row) == [c if c != "reviews_json" else "reviews" for c in REVIEWBENCH_COLUMNS
                         if c not in ("markdown", "markdown_chars")]
    assert (row["forum_id"], row["conference"], row["year"], row["paper_number"]) == (
        "ryxz8CVYDH", "iclr", 2020, 1130)
    assert row["num_reviews"] == 3 == len(row["reviews"])
    assert json.loads(reviews_json(row["reviews"])) == p.reviews
    assert row["decision"] == "Accept (Poster)"


# ---- ICLR 2026, API v2 ----------------------------------------------------------------------

V2_REVIEWS = {  # id -> reviewer, rating, confidence, soundness, presentation, contribution
    "f8eJZxPaAh": ("Reviewer_NkPg", 4.0, 2.0, 2.0, 1.0, 2.0),
    "Lnhvlyc5v6": ("Reviewer_6VkV", 4.0, 4.0, 2.0, 3.0, 2.0),
    "g5Lcq9Ibpi": ("Reviewer_zm69", 4.0, 4.0, 3.0, 3.0, 2.0),
    "Z0VNpRRiMJ": ("Reviewer_T1BF", 6.0, 3.0, 3.0, 3.0, 3.0),
}


def test_iclr2026_v2_forum(iclr2026_raw, iclr2026):
    p = parse_forum(iclr2026_raw, iclr2026)
    assert p.warnings == []
    assert (p.forum_id, p.number, p.api) == ("zzo3Sy3NSX", 4956, "v2")
    assert (p.venue_id, p.track, p.status) == ("ICLR.cc/2026/Conference", "main", "active")
    assert p.title == "Your Language Model Secretly Contains Personality Subnetworks"
    assert p.abstract.startswith("Large Language Models (LLMs) demonstrate")
    assert p.keywords == ["Large Language Models", "Persona Modeling"]
    assert p.authors == []  # hidden while under review
    assert p.primary_area == "foundation or frontier models, including LLMs"
    assert p.venue == "ICLR 2026 Conference Submission"
    assert p.pdf == "/pdf/f18f38d0b99d4b080ee5b966ef84649fffefaccb.pdf"
    assert p.invitations[0] == "ICLR.cc/2026/Conference/-/Submission" and len(p.invitations) == 4
    assert (p.decision, p.decision_comment, p.tldr) == ("", "", "")
    assert (p.tcdate, p.tmdate) == (1757819760402, 1764610470222)

    assert len(p.posts) == 16
    reviews = [q for q in p.posts if q.kind == "review"]
    comments = [q for q in p.posts if q.kind == "comment"]
    assert len(reviews) == 4 and len(comments) == 12
    rv = p.post("Z0VNpRRiMJ")
    assert rv.invitation == "ICLR.cc/2026/Conference/Submission4956/-/Official_Review"
    assert rv.parent_invitations == ["ICLR.cc/2026/Conference/-/Official_Review"]
    assert rv.content["rating"] == 6 and rv.role == "reviewer"
    assert {q.role for q in comments} == {"author", "reviewer"}
    assert p.post("DZW9xjlKvJ").role == "reviewer"

    # "Discussion Summary" (authors -> ACs, replyto = forum): not a general rebuttal
    assert p.discussion_summary_ids == ["f62LQEWDzg"]
    assert p.global_response_ids == [] and p.author_rebuttal == ""

    assert [r["review_id"] for r in p.reviews] == list(V2_REVIEWS)  # time order
    by_id = {r["review_id"]: r for r in p.reviews}
    assert set(by_id) == set(V2_REVIEWS)
    assert sorted(r["rating"] for r in p.reviews) == [4.0, 4.0, 4.0, 6.0]
    for rid, (reviewer, rating, conf, snd, pres, contr) in V2_REVIEWS.items():
        r = by_id[rid]
        assert list(r) == REVIEW_FIELDS
        assert (r["reviewer"], r["rating"], r["confidence"]) == (reviewer, rating, conf)
        assert (r["soundness"], r["presentation"], r["contribution"]) == (snd, pres, contr)
        assert r["summary"] and r["strengths"] and r["weaknesses"] and r["questions"]
        assert r["extra_text"] == {"flag_for_ethics_review": "No ethics review needed.",
                                   "code_of_conduct": "Yes"}
        assert r["extra_scores"] == {"rating_max": 10.0, "confidence_max": 5.0, "soundness_max": 4.0,
                                     "presentation_max": 4.0, "contribution_max": 4.0}  # scale table
    # threaded rebuttals: transitively, authors only, time order
    nkpg = by_id["f8eJZxPaAh"]["rebuttal"]
    parts = [p.post(n).text for n in ("vklsxCdcEv", "MbSLUafgYh", "nf3lHFfpVa")]
    assert nkpg == "\n\n".join(parts)
    assert "Thank you very much for your reply" not in nkpg  # the reviewer's comment
    assert by_id["Z0VNpRRiMJ"]["rebuttal"] == p.post("c8dYllAinO").text
    assert all("Dear ACs" not in r["rebuttal"] for r in p.reviews)

    row = row_fields(p, "iclr", 2026)
    assert row["num_reviews"] == 4 and row["year"] == 2026 and row["paper_number"] == 4956


# ---- synthetic ------------------------------------------------------------------------------

def test_malformed_forums_raise_with_forum_id(iclr2026):
    with pytest.raises(MalformedForumError, match="no id"):
        parse_forum({"content": {}}, iclr2026)
    with pytest.raises(MalformedForumError, match="Abc123.*content"):
        parse_forum({"id": "Abc123"}, iclr2026)
    with pytest.raises(MalformedForumError, match="Abc123.*replies is not a list"):
        parse_forum({"id": "Abc123", "content": {}, "details": {"replies": {"a": 1}}}, iclr2026)
    with pytest.raises(MalformedForumError):
        parse_forum(["not", "a", "forum"], iclr2026)  # type: ignore[arg-type]


def test_bad_reply_is_skipped_and_warned(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    b.review("Reviewer_aaaa", rating=6)
    raw = b.build()
    raw["details"]["replies"] += [{"forum": "F0rum", "content": {}}, "junk",
                                  {"id": "noContent", "forum": "F0rum"}]
    p = parse_forum(raw, iclr2026)
    assert len(p.reviews) == 1 and len(p.posts) == 1
    assert len(p.warnings) == 3 and all("F0rum" in w for w in p.warnings)
    assert any("no id" in w for w in p.warnings)


def test_hidden_or_deleted_review_counts_follow(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    b.review("Reviewer_aaaa", rating=6)
    b.review("Reviewer_bbbb", rating=3, ddate=1)  # deleted
    # a third reviewer's review is hidden: simply absent from the replies
    p = parse_forum(b.build(), iclr2026)
    assert [r["reviewer"] for r in p.reviews] == ["Reviewer_aaaa"]
    row = row_fields(p, "iclr", 2026)
    assert row["num_reviews"] == 1 == len(row["reviews"])
    assert len(p.posts) == 2 and p.posts[1].deleted


def test_general_rebuttal_and_meta_review(forum_builder):
    venue = catalogue().get("neurips-2023")
    b = forum_builder("NeurIPS.cc/2023/Conference")
    r1 = b.review("Reviewer_aaaa", rating="7: Accept: Technically solid paper",
                  soundness="3 good")
    b.add("Rebuttal", "Authors", {"rebuttal": "Per-review answer."}, replyto=r1)
    b.add("Author_Rebuttal", "Authors", {"rebuttal": "Global answer.", "pdf": "/pdf/x.pdf"})
    b.comment("Authors", "Another general note to all reviewers.")
    b.comment("~Jane_Doe1", "A public question.")
    b.add("Meta_Review", "Area_Chair_xYz1", {"metareview": "AC says accept.",
                                             "recommendation": "Accept (poster)"})
    b.add("Decision", "pc", {"title": "Paper Decision", "decision": "Accept (poster)",
                             "comment": ""})
    p = parse_forum(b.build(), venue)
    assert p.author_rebuttal == "Global answer.\n\nAnother general note to all reviewers."
    assert len(p.global_response_ids) == 2
    assert p.reviews[0]["rebuttal"] == "Per-review answer."
    assert p.reviews[0]["rating"] == 7.0 and p.reviews[0]["soundness"] == 3.0
    assert (p.decision, p.decision_comment) == ("Accept (poster)", "AC says accept.")
    roles = {q.text: q.role for q in p.posts}
    assert roles["A public question."] == "public"
    assert roles["AC says accept."] == "area_chair"
    kinds = [q.kind for q in p.posts]
    assert kinds == ["review", "rebuttal", "rebuttal", "comment", "comment", "meta_review",
                     "decision"]


def test_iclr_2023_v1_decision_metareview_field():
    venue = catalogue().get("iclr-2023")
    raw = {"id": "F", "number": 3, "invitation": "ICLR.cc/2023/Conference/-/Blind_Submission",
           "content": {"title": "T", "venue": "ICLR 2023 poster", "venueid": "ICLR.cc/2023/Conference"},
           "details": {"replies": [{
               "id": "D", "forum": "F", "replyto": "F", "tcdate": 5,
               "invitation": "ICLR.cc/2023/Conference/Paper3/-/Decision",
               "signatures": ["ICLR.cc/2023/Conference/Program_Chairs"],
               "content": {"decision": "Accept: poster",
                           "metareview:_summary,_strengths_and_weaknesses": "MR text",
                           "justification_for_why_not_higher_score": "J"}}]}}
    p = parse_forum(raw, venue)
    assert (p.decision, p.decision_comment, p.venue) == ("Accept: poster", "MR text", "ICLR 2023 poster")


@pytest.mark.parametrize("how", ["v2_venueid", "withdrawal_reply", "venue_string"])
def test_withdrawn_status_v2(forum_builder, iclr2026, how):
    b = forum_builder("ICLR.cc/2026/Conference")
    b.review("Reviewer_aaaa")
    if how == "v2_venueid":
        b.content["venueid"] = "ICLR.cc/2026/Conference/Withdrawn_Submission"
    elif how == "withdrawal_reply":
        b.add("Withdrawal", "Authors", {"withdrawal_confirmation": "I have read and agree"})
    else:
        b.content["venue"] = "ICLR 2026 Conference Withdrawn Submission"
    p = parse_forum(b.build(), iclr2026)
    assert p.status == "withdrawn"
    if how == "withdrawal_reply":
        assert p.posts[-1].kind == "withdrawal" and p.posts[-1].role == "author"


def test_withdrawn_and_desk_rejected_v1(iclr2020_raw, iclr2020):
    raw = dict(iclr2020_raw, invitation="ICLR.cc/2020/Conference/-/Withdrawn_Submission")
    assert parse_forum(raw, iclr2020).status == "withdrawn"
    raw = dict(iclr2020_raw, invitation="ICLR.cc/2020/Conference/-/Desk_Rejected_Submission")
    assert parse_forum(raw, iclr2020).status == "desk_rejected"


def test_desk_rejected_v2(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    b.content["venueid"] = "ICLR.cc/2026/Conference/Desk_Rejected_Submission"
    assert parse_forum(b.build(), iclr2026).status == "desk_rejected"


@pytest.mark.parametrize("venue_string, decision, track", [
    ("EMNLP 2023 Findings", "Accept-Findings", "findings"),
    ("EMNLP 2023 Main", "Accept-Main", "main"),
    ("", "Regular Long Paper Accept-Findings", "findings"),
    ("Submitted to EMNLP 2023", "Reject", "main"),
])
def test_emnlp_findings_track(forum_builder, venue_string, decision, track):
    venue = catalogue().get("emnlp-2023")
    b = forum_builder("EMNLP/2023/Conference", content={"venue": venue_string})
    b.add("Official_Review", "Reviewer_q1w2", {
        "Paper_Topic_and_Main_Contributions": "T", "Soundness": "4: Strong", "Excitement": "3: Ambivalent",
        "Reproducibility": "4: Could mostly reproduce", "Reviewer_Confidence": "3: Pretty sure"})
    b.add("Decision", "pc", {"decision": decision})
    p = parse_forum(b.build(), venue)
    assert (p.venue_id, p.track, p.decision) == ("EMNLP/2023/Conference", track, decision)
    r = p.reviews[0]
    assert (r["soundness"], r["excitement"], r["reproducibility"], r["confidence"]) == (4.0, 3.0, 4.0, 3.0)
    assert r["paper_topic_and_main_contributions"] == "T"


def test_tmlr_year_from_submission_cdate(forum_builder):
    venue = catalogue().get("tmlr")
    b = forum_builder("TMLR", content={"venue": "Accepted by TMLR", "venueid": "TMLR"})
    b.invitations = ["TMLR/-/Submission"]
    raw = b.build()
    raw["cdate"] = 1_672_531_200_000 + 86_400_000  # 2023-01-02 UTC
    p = parse_forum(raw, venue)
    row = row_fields(p, "tmlr", None)
    assert (row["year"], row["track"], row["venue_id"]) == (2023, "main", "TMLR")


@pytest.mark.parametrize("sig, role", [
    ("ICLR.cc/2026/Conference/Submission1/Reviewer_T1BF", "reviewer"),
    ("ICLR.cc/2020/Conference/Paper1130/AnonReviewer2", "reviewer"),
    ("ICLR.cc/2020/Conference/Paper1130/Authors", "author"),
    ("ICLR.cc/2026/Conference/Submission1/Area_Chair_Ab12", "area_chair"),
    ("ICLR.cc/2020/Conference/Program_Chairs", "program_chairs"),
    ("~Jane_Doe1", "public"),
])
def test_role_of(sig, role):
    assert role_of(sig) == role


def test_orphan_reply_is_warned_not_fatal(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    b.review("Reviewer_aaaa")
    b.comment("Authors", "reply to a vanished note", replyto="gone")
    p = parse_forum(b.build(), iclr2026)
    assert len(p.posts) == 2 and any("orphan" in w for w in p.warnings)
    assert p.reviews[0]["rebuttal"] == "" and p.author_rebuttal == ""
