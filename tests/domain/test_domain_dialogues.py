"""dialogues.py: Re^2 threads on the real samples and on synthetic forums."""
from __future__ import annotations

from reviewbench_assets.domain.dialogues import Dialogue, build_dialogues, is_reminder
from reviewbench_assets.domain.forum import parse_routed
from reviewbench_assets.domain.routing import route_posts
from tests.forums import parse_forum


def _shape(d: Dialogue) -> list[tuple[str, str, list[str]]]:
    return [(t.role, t.kind, t.note_ids) for t in d.turns]


def test_iclr2020_v1_dialogues(iclr2020_raw, iclr2020):
    p = parse_forum(iclr2020_raw, iclr2020)
    ds = {d.review_id: d for d in build_dialogues(p, route_posts(p))}
    assert set(ds) == {"HylOroWRYB", "BJgs4nvCFB", "rylVGWoAFB"}
    d1 = ds["rylVGWoAFB"]
    assert (d1.forum_id, d1.reviewer, d1.merged_by, d1.dropped_reminders) == (
        "ryxz8CVYDH", "AnonReviewer1", "rule-based", 0)
    # "(2/2)" was posted before "(1/2)": one merged author turn, parts in part order
    assert _shape(d1) == [("reviewer", "turn", ["rylVGWoAFB"]),
                          ("author", "turn", ["rJlWfrRoir", "HJx62E0siH"])]
    merged = d1.turns[1]
    assert merged.titles == ["Response to Reviewer #1 (1/2)", "Response to Reviewer #1 (2/2)"]
    assert merged.title == "Response to Reviewer #1 (1/2) / Response to Reviewer #1 (2/2)"
    assert merged.text == p.post("rJlWfrRoir").text + "\n\n" + p.post("HJx62E0siH").text
    assert merged.tcdate == p.post("HJx62E0siH").tcdate  # the first part posted
    assert d1.turns[0].title == "Official Blind Review #1"
    assert "Rating: 6: Weak Accept" in d1.turns[0].text
    assert p.post("rylVGWoAFB").content["review"] in d1.turns[0].text
    assert _shape(ds["HylOroWRYB"]) == [("reviewer", "turn", ["HylOroWRYB"]),
                                        ("author", "turn", ["Byxm28RjoB", "ryePwUAsjS"])]
    assert _shape(ds["BJgs4nvCFB"]) == [("reviewer", "turn", ["BJgs4nvCFB"]),
                                        ("author", "turn", ["Hkxl6r0isr"])]
    # the decision is in no thread
    assert all("DWWOyAyYBN" not in t.note_ids for d in ds.values() for t in d.turns)


def test_iclr2026_v2_dialogues(iclr2026_raw, iclr2026):
    p = parse_forum(iclr2026_raw, iclr2026)
    ds = {d.review_id: d for d in build_dialogues(p, route_posts(p))}
    assert len(ds) == 4
    assert _shape(ds["f8eJZxPaAh"]) == [
        ("reviewer", "turn", ["f8eJZxPaAh"]),
        ("author", "turn", ["vklsxCdcEv", "MbSLUafgYh"]),
        ("reviewer", "turn", ["DZW9xjlKvJ"]),
        ("author", "turn", ["nf3lHFfpVa"]),  # a thank-you, not a reminder: kept
    ]
    assert _shape(ds["Lnhvlyc5v6"]) == [
        ("reviewer", "turn", ["Lnhvlyc5v6"]),
        ("author", "turn", ["aViSOtgxBP", "3K6qBSYEKk"]),
        ("reviewer", "turn", ["foJKGySKoD"]),
        ("author", "turn", ["QivTpwbH8L"]),
    ]
    assert _shape(ds["g5Lcq9Ibpi"])[1] == ("author", "turn", ["Si179CT3jZ", "J3I88wt40y"])
    assert _shape(ds["Z0VNpRRiMJ"]) == [("reviewer", "turn", ["Z0VNpRRiMJ"]),
                                        ("author", "turn", ["c8dYllAinO"])]
    assert ds["f8eJZxPaAh"].turns[1].title == (
        "Response to Reviewer NkPg (Part 1) / Response to Reviewer NkPg (Part 2)")
    assert "Soundness: 2" in ds["f8eJZxPaAh"].turns[0].text
    # 12 comments: 11 in threads, the authors' "Discussion Summary" to the ACs in none
    in_threads = [n for d in ds.values() for t in d.turns[1:] for n in t.note_ids]
    assert len(in_threads) == 11 and "f62LQEWDzg" not in in_threads
    assert all(d.dropped_reminders == 0 and d.reviewer.startswith("Reviewer_") for d in ds.values())


def test_trailing_reminder_dropped_and_counted(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    r = b.review("Reviewer_aaaa")
    a1 = b.comment("Authors", "Long answer part 1 " * 50, replyto=r, title="Response (1/2)")
    a2 = b.comment("Authors", "Long answer part 2 " * 50, replyto=a1, title="Response (2/2)")
    rem = b.comment("Authors", "Dear Reviewer aaaa, this is a gentle reminder: as the discussion "
                    "period is ending soon, we would appreciate your feedback. Have we addressed "
                    "your concerns?", replyto=r, title="Gentle reminder")
    p = parse_forum(b.build(), iclr2026)
    (d,) = build_dialogues(p, route_posts(p))
    assert _shape(d) == [("reviewer", "turn", [r]), ("author", "turn", [a1, a2])]
    assert (d.dropped_reminders, d.dropped_reminder_ids) == (1, [rem])
    assert "gentle reminder" not in d.turns[1].text
    # the review's `rebuttal` column stays the raw author text under the review (all of it)
    assert p.reviews[0]["rebuttal"].endswith("Have we addressed your concerns?")


def test_reminder_after_reviewer_reply_and_midthread(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    r = b.review("Reviewer_aaaa")
    a1 = b.comment("Authors", "Answer " * 300, replyto=r)
    nudge = b.comment("Authors", "Kind reminder: we look forward to hearing from you.", replyto=r)
    rv = b.comment("Reviewer_aaaa", "Sorry for the delay; I keep my score.", replyto=a1)
    a2 = b.comment("Authors", "Thank you for engaging.", replyto=rv)
    nudge2 = b.comment("Authors", "Could you let us know if there are remaining questions? Since "
                       "the discussion period ends tomorrow, a kind reminder.", replyto=rv)
    (d,) = build_dialogues(*parse_routed(b.build(), iclr2026))
    assert _shape(d) == [("reviewer", "turn", [r]), ("author", "turn", [a1]),
                         ("reviewer", "turn", [rv]), ("author", "turn", [a2])]
    assert d.dropped_reminder_ids == [nudge, nudge2]


def test_reminder_only_run_kept_when_reviewer_answers_it(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    r = b.review("Reviewer_aaaa")
    nudge = b.comment("Authors", "Gentle reminder: have we addressed your concerns?", replyto=r)
    rv = b.comment("Reviewer_aaaa", "Yes, thanks.", replyto=nudge)
    (d,) = build_dialogues(*parse_routed(b.build(), iclr2026))
    assert _shape(d) == [("reviewer", "turn", [r]), ("author", "turn", [nudge]),
                         ("reviewer", "turn", [rv])]
    assert d.dropped_reminders == 0


def test_is_reminder_is_conservative(iclr2026_raw, iclr2026):
    p = parse_forum(iclr2026_raw, iclr2026)
    assert not any(is_reminder(q) for q in p.posts)  # no real post in the sample is a nudge


def test_global_response_inserted_as_reference_context(forum_builder):
    from partitions import catalogue
    venue = catalogue().get("neurips-2023")
    b = forum_builder("NeurIPS.cc/2023/Conference")
    r1 = b.review("Reviewer_aaaa")
    r2 = b.review("Reviewer_bbbb")
    a1 = b.add("Rebuttal", "Authors", {"rebuttal": "Answer to aaaa."}, replyto=r1)
    g = b.add("Author_Rebuttal", "Authors", {"title": "General response", "rebuttal": "To all."})
    a2 = b.add("Rebuttal", "Authors", {"rebuttal": "Answer to bbbb."}, replyto=r2)
    c1 = b.comment("Reviewer_aaaa", "Thanks, raising.", replyto=a1)
    ac = b.comment("Area_Chair_Zz99", "Please engage.", replyto=r2)
    deleted = b.comment("Reviewer_bbbb", "oops", replyto=a2, ddate=1)
    child = b.comment("Authors", "Reply under a deleted note.", replyto=deleted)
    p = parse_forum(b.build(), venue)
    assert p.global_response_ids == [g] and p.author_rebuttal == "To all."
    d1, d2 = build_dialogues(p, route_posts(p))
    assert _shape(d1) == [("reviewer", "turn", [r1]), ("author", "turn", [a1]),
                          ("author", "reference_context", [g]), ("reviewer", "turn", [c1])]
    ref = d1.turns[2]
    assert (ref.title, ref.text) == ("General response", "To all.")
    # the global response precedes a2 in time; deleted note dropped, its live child kept
    assert _shape(d2) == [("reviewer", "turn", [r2]), ("author", "reference_context", [g]),
                          ("author", "turn", [a2]), ("area_chair", "turn", [ac]),
                          ("author", "turn", [child])]
    assert all(t.kind == "turn" for t in d2.turns if g not in t.note_ids)


def test_global_response_before_review_goes_after_it(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    r1 = b.review("Reviewer_aaaa")
    g = b.comment("Authors", "Summary of revisions for all reviewers.", title="General response")
    r2 = b.review("Reviewer_bbbb")
    a = b.comment("Authors", "Answer.", replyto=r2)
    d1, d2 = build_dialogues(*parse_routed(b.build(), iclr2026))
    assert _shape(d1) == [("reviewer", "turn", [r1]), ("author", "reference_context", [g])]
    assert _shape(d2) == [("reviewer", "turn", [r2]), ("author", "reference_context", [g]),
                          ("author", "turn", [a])]


def test_consecutive_reviewer_posts_merge(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    r = b.review("Reviewer_aaaa")
    c = b.comment("Reviewer_aaaa", "One more question.", replyto=r, title="Addendum")
    (d,) = build_dialogues(*parse_routed(b.build(), iclr2026))
    assert _shape(d) == [("reviewer", "turn", [r, c])]
    assert d.turns[0].text.endswith("\n\nOne more question.")
    assert d.turns[0].title == "Addendum" and d.turns[0].titles == ["", "Addendum"]


def test_no_reviews_no_dialogues(forum_builder, iclr2026):
    b = forum_builder("ICLR.cc/2026/Conference")
    b.comment("Authors", "General note.")
    assert build_dialogues(*parse_routed(b.build(), iclr2026)) == []
