"""Quarantine reasons carry the code of the rule that made them (issue 28.4): nothing reads the code
back out of the text, so a text that happens to contain another rule's words keeps its own code."""
from __future__ import annotations

import pickle

import pytest

from partitions.catalogue import catalogue
from reviewbench_assets.domain.posts import MalformedForumError, ParsedForum, Reason
from reviewbench_assets.domain.routing import oddity_reasons, reasons_of_parsed
from reviewbench_assets.stages.parse_stage import forum_problems
from tests.forums import parse_forum

VENUE = catalogue().get("iclr-2024")


def test_a_reason_is_its_text_with_the_code_of_its_rule():
    r = Reason("orphan_reply", "F: reply n1 is an orphan (replyto x absent)")
    assert r == "F: reply n1 is an orphan (replyto x absent)" and "orphan" in r and r.code == "orphan_reply"
    again = pickle.loads(pickle.dumps(r))
    assert again == r and again.code == "orphan_reply"


def test_an_invitation_named_like_another_rule_keeps_its_own_code(forum_builder):
    """A reply under an unknown invitation whose name reads like another rule's text ("no
    details.replies", what a forum fetched without its replies is refused for): the regex over the
    text classed it `no_replies`; the rule that found it says `unknown_invitation`."""
    b = forum_builder()
    b.review("Reviewer_a")
    b.add("no details.replies", "Reviewer_a", {"comment": "?"})
    _, problems = forum_problems({"forum_id": "F0rum", "note": b.build()}, VENUE)
    assert [(p["code"], p["parsed"]) for p in problems] == [("unknown_invitation", True)]
    assert "no details.replies" in problems[0]["detail"]


def test_each_rule_names_its_code(forum_builder):
    b = forum_builder()
    b.review("Reviewer_a")
    b.comment("Authors", "thanks", replyto="gone")  # replyto absent: an orphan
    raw = b.build()
    raw["details"]["replies"].append({"id": "n9", "forum": "F0rum"})  # no content object
    raw["details"]["replies"].append(dict(raw["details"]["replies"][0]))  # the review twice
    codes = sorted(r.code for r in reasons_of_parsed(parse_forum(raw, VENUE), VENUE))
    assert codes == ["duplicate_reply", "orphan_reply", "reply_skipped"]
    raw["content"]["title"] = {"value": "x" * 20_000}
    assert [r.code for r in oddity_reasons(raw, VENUE, listed=2)] == ["duplicate_submission", "oversized_field"]
    with pytest.raises(MalformedForumError) as exc:
        parse_forum({**raw, "details": {"directReplies": []}}, VENUE)
    assert exc.value.code == "no_replies"


def test_a_forum_read_back_from_json_is_refused_not_guessed(forum_builder):
    b = forum_builder()
    b.comment("Authors", "thanks", replyto="gone")
    parsed = parse_forum(b.build(), VENUE)
    assert [w.code for w in parsed.warnings] == ["orphan_reply"]
    again = ParsedForum.model_validate_json(parsed.model_dump_json())
    assert again.warnings == parsed.warnings  # the texts survive, their codes do not
    with pytest.raises(TypeError, match="without their codes"):
        reasons_of_parsed(again, VENUE)
