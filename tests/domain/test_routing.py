"""Every author and reviewer post accounted for (issue 10 point 3), on the real recorded forums and
on cases built from their replies.

The recorded samples hold no forum where a reviewer without an official review talks with the
authors, so `_exchange` builds one from the real ICLR 2026 sample (zzo3Sy3NSX): each added note is
a copy of a recorded `Official_Comment` of that forum (DZW9xjlKvJ for reviewers, nf3lHFfpVa for
authors: same keys, invitations, readers/writers shapes, domain, license) with its id, replyto,
signature, times and text changed. Area-chair / program-chair signatures and the group readers of
a comment addressed to all reviewers follow the v2 group layout of the same venue
(`<venue>/Submission<N>/Area_Chair_<id>`, `.../Reviewers`, openreview-api.md §1).
"""
from __future__ import annotations

import copy

import pytest

from reviewbench_assets.domain.dialogues import Dialogue, Turn, build_dialogues, rebuttal_record
from reviewbench_assets.domain.forum import row_fields
from reviewbench_assets.domain.routing import account_posts, coverage, route_posts
from tests.forums import parse_forum

VENUE = "ICLR.cc/2026/Conference"
PAPER = f"{VENUE}/Submission4956"


def _accounts(p):
    routing = route_posts(p)
    ds = build_dialogues(p, routing=routing)
    return ds, account_posts(p, ds, routing)


class _Exchange:
    def __init__(self, raw: dict):
        self.raw = raw
        replies = {r["id"]: r for r in raw["details"]["replies"]}
        self.reviewer_tpl, self.author_tpl = replies["DZW9xjlKvJ"], replies["nf3lHFfpVa"]
        self.t = 1764200000000
        self.n = 0

    def add(self, who: str, text: str, replyto: str, readers: list[str] | None = None,
            title: str | None = None) -> str:
        tpl = self.author_tpl if who == "Authors" else self.reviewer_tpl
        note = copy.deepcopy(tpl)
        self.n += 1
        self.t += 3_600_000
        sig = f"{VENUE}/Program_Chairs" if who == "Program_Chairs" else f"{PAPER}/{who}"
        note.update(id=f"x{self.n:02d}Q9xwNote"[:10], replyto=replyto, signatures=[sig],
                    writers=[VENUE, sig], tcdate=self.t, cdate=self.t, tmdate=self.t, mdate=self.t,
                    number=100 + self.n)
        note["content"] = {"comment": {"value": text}}
        if title:
            note["content"]["title"] = {"value": title}
        if readers:
            note["readers"] = readers
        self.raw["details"]["replies"].append(note)
        return note["id"]


@pytest.fixture
def exchange(iclr2026_raw):
    return _Exchange(iclr2026_raw)


def test_real_v2_forum_every_post_accounted(iclr2026_raw, iclr2026):
    p = parse_forum(iclr2026_raw, iclr2026)
    ds, accounts = _accounts(p)
    assert coverage(accounts) == (16, 16)  # 4 reviews, 2 reviewer comments, 10 author posts
    by_id = {a.note_id: a for a in accounts}
    assert by_id["f62LQEWDzg"].status == "excluded"
    assert "discussion summary" in by_id["f62LQEWDzg"].reason
    assert sum(a.status == "turn" for a in accounts) == 15
    assert all(d.root_kind == "review" for d in ds)


def test_real_v1_forum_every_post_accounted(iclr2020_raw, iclr2020):
    p = parse_forum(iclr2020_raw, iclr2020)
    _, accounts = _accounts(p)
    assert coverage(accounts) == (8, 8)  # 3 reviews + 5 author comments; the PC decision is no such post
    assert {a.status for a in accounts} == {"turn"}


def test_reviewer_without_review_gets_a_thread(exchange, iclr2026):
    """A 12-note exchange between the authors and a reviewer who posted no official review
    (issue 10: 6 of its author posts used to end up in no dialogue and no rebuttal field)."""
    prev = exchange.add("Reviewer_Q9xw", "I was added as an emergency reviewer; my concerns: A, B.",
                        exchange.raw["id"])
    first = prev
    ids = [prev]
    for k in range(11):
        who = "Authors" if k % 2 == 0 else "Reviewer_Q9xw"
        prev = exchange.add(who, f"Point {k}: a detailed answer about the ablation number {k}.", prev,
                            title="Response to Reviewer Q9xw" if who == "Authors" else None)
        ids.append(prev)
    p = parse_forum(exchange.raw, iclr2026)
    ds, accounts = _accounts(p)
    assert coverage(accounts) == (28, 28)
    threads = {d.review_id: d for d in ds}
    d = threads[first]
    assert d.root_kind == "reviewer_comment" and d.reviewer == "Reviewer_Q9xw"
    assert [t.note_ids for t in d.turns if t.kind == "turn"] == [[i] for i in ids]
    assert [t.role for t in d.turns if t.kind == "turn"] == ["reviewer", "author"] * 6
    # the Re^2 rebuttal record: the reviewer speaks as the assistant from the first message on
    rec = rebuttal_record(d, p, "iclr", 2026)
    roles = [m["role"] for m in rec["messages"]]
    assert roles[:3] == ["system", "user", "assistant"]
    assert all(a != b for a, b in zip(roles[1:], roles[2:], strict=False))  # alternating
    assert rec["review_id"] == first and rec["reviewer_id"] == "Reviewer_Q9xw"
    assert rec["root_kind"] == "reviewer_comment"
    # the discussion summary to the ACs stays out, as reference context nowhere
    assert all("f62LQEWDzg" not in t.note_ids for x in ds for t in x.turns)


def test_reviewer_top_level_comment_joins_their_review_thread(exchange, iclr2026):
    c = exchange.add("Reviewer_6VkV", "A follow-up question to the authors on Table 2.", exchange.raw["id"])
    a = exchange.add("Authors", "Table 2 reports the mean over five seeds.", c)
    p = parse_forum(exchange.raw, iclr2026)
    ds, accounts = _accounts(p)
    assert coverage(accounts) == (18, 18)
    thread = next(d for d in ds if d.review_id == "Lnhvlyc5v6")
    ids = [n for t in thread.turns for n in t.note_ids]
    assert ids.index(c) < ids.index(a) and len(ds) == 4
    # and the author's answer is in that review's rebuttal field of reviews_json
    review = next(r for r in p.reviews if r["review_id"] == "Lnhvlyc5v6")
    assert "mean over five seeds" in review["rebuttal"]


def test_group_addressed_comments(exchange, iclr2026):
    group = ["ICLR.cc/2026/Conference/Program_Chairs", f"{PAPER}/Area_Chairs", f"{PAPER}/Reviewers",
             f"{PAPER}/Authors"]
    ac = exchange.add("Area_Chair_Xy12", "Dear reviewers, please acknowledge the rebuttal.", exchange.raw["id"],
                      readers=group)
    to_ac = exchange.add("Authors", "We thank the AC; all reviewers' points are answered below.", ac,
                         readers=group)
    pub = exchange.add("Reviewer_zm69", "x", exchange.raw["id"])  # placeholder, replaced below
    note = next(r for r in exchange.raw["details"]["replies"] if r["id"] == pub)
    note["signatures"] = ["~Jane_Public1"]
    note["writers"] = [VENUE, "~Jane_Public1"]
    note["invitations"] = [f"{PAPER}/-/Public_Comment"]
    note["parentInvitations"] = f"{VENUE}/-/Public_Comment"
    to_pub = exchange.add("Authors", "Thanks for your interest; the code is released.", pub)
    pc = exchange.add("Program_Chairs", "Please fix the page limit.", exchange.raw["id"])
    to_pc = exchange.add("Authors", "Fixed in the revision.", pc)
    p = parse_forum(exchange.raw, iclr2026)
    ds, accounts = _accounts(p)
    assert coverage(accounts) == (19, 19)
    by_id = {a.note_id: a for a in accounts}
    assert by_id[to_ac].status == "reference_context"
    assert all(to_ac in {n for t in d.turns if t.kind == "reference_context" for n in t.note_ids} for d in ds)
    # the authors' open answer to a public comment is for the whole discussion: reference context
    assert by_id[to_pub].status == "reference_context"
    assert all(to_pub in {n for t in d.turns if t.kind == "reference_context" for n in t.note_ids} for d in ds)
    assert route_posts(p).excluded[pub] == "public comment"  # the public comment itself stays out
    assert by_id[to_pc].status == "excluded" and "program-chair" in by_id[to_pc].reason
    # the reply to the AC's note is a general author statement: in the row's author_rebuttal
    assert "We thank the AC" in row_fields(p, "iclr", 2026)["author_rebuttal"]


def test_accounting_catches_lost_and_duplicated_posts(iclr2026_raw, iclr2026):
    p = parse_forum(iclr2026_raw, iclr2026)
    routing = route_posts(p)
    ds = build_dialogues(p, routing=routing)
    lost = [d.model_copy(update={"turns": d.turns[:1]}) for d in ds]  # author turns dropped
    done, total = coverage(account_posts(p, lost, routing))
    assert (done, total) == (5, 16)  # the 4 reviews and the excluded summary only
    twice = ds + [Dialogue(forum_id=p.forum_id, review_id="dup", reviewer="Reviewer_x",
                           turns=[Turn(role="author", note_ids=["c8dYllAinO"])])]
    accounts = account_posts(p, twice, routing)
    bad = [a for a in accounts if a.status == "unaccounted"]
    assert [(a.note_id, a.reason) for a in bad] == [("c8dYllAinO", "a turn of 2 dialogues")]


def test_deleted_and_orphans_have_reasons(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    r = b.review("Reviewer_aaaa", rating=6)
    gone = b.comment("Authors", "first answer", replyto=r, ddate=1_700_000_900_000)
    b.comment("Reviewer_aaaa", "a reply to the deleted answer", replyto=gone)
    b.comment("Authors", "a reply to a note we do not hold", replyto="missingX")
    p = parse_forum(b.build(), iclr2026)
    _, accounts = _accounts(p)
    by = {a.note_id: a for a in accounts}
    assert by[gone].status == "excluded" and by[gone].reason == "deleted"
    assert by["n02"].status == "turn"  # its live child stays in the review's thread
    assert by["n03"].status == "excluded" and by["n03"].reason.startswith("orphan")
    assert coverage(accounts) == (4, 4)


def test_a_post_to_the_ac_and_referees_is_for_everyone(exchange, iclr2026):
    """The real ICLR 2026 wording: an author post to everyone that opens "Dear AC and Referees" is a
    response to all reviewers (reference context of every thread), not a summary for the ACs only."""
    to_all = exchange.add("Authors", "Dear AC and Referees,\n\nWe thank you all for the constructive "
                                     "feedback; the revision adds the requested ablations.", exchange.raw["id"])
    to_acs = exchange.add("Authors", "Dear ACs,\n\nwe would like to summarize the discussion.", exchange.raw["id"])
    p = parse_forum(exchange.raw, iclr2026)
    ds, accounts = _accounts(p)
    by_id = {a.note_id: a for a in accounts}
    assert by_id[to_all].status == "reference_context"
    assert all(to_all in {n for t in d.turns if t.kind == "reference_context" for n in t.note_ids} for d in ds)
    assert by_id[to_acs].status == "excluded" and "discussion summary" in by_id[to_acs].reason
    assert coverage(accounts) == (18, 18)


def test_a_reply_cycle_has_its_own_reason(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    b.review("Reviewer_aaaa", rating=6)
    b.comment("Authors", "points at the next reply", replyto="n02")  # n01
    b.comment("Authors", "points back at the previous one", replyto="n01")  # n02
    p = parse_forum(b.build(), iclr2026)
    _, accounts = _accounts(p)
    by = {a.note_id: a for a in accounts}
    for nid in ("n01", "n02"):
        assert by[nid].status == "excluded" and by[nid].reason.startswith("reply cycle")
        assert "orphan" not in by[nid].reason
    assert coverage(accounts) == (3, 3)
