"""The announced deadline against the submission invitation, and the cutoff each forum is judged by."""
import pytest

from partitions import catalogue
from resources.openreview_api import OpenReviewError
from reviewbench_assets.stages.deadline_check import deadline_cross_check, venue_deadline_check

H, M = 3_600_000, 60_000


class FakeApi:
    """Answers `/invitations?id=` from a dict (None: NotFound), counting requests."""

    def __init__(self, invitations: dict):
        self.invitations, self.calls = invitations, 0

    def get_json(self, path, params):
        self.calls += 1
        assert path == "/invitations" and params["expired"] == "true"
        inv = self.invitations.get(params["id"])
        if inv is None:
            raise OpenReviewError("NotFoundError", "no such invitation", 404, path)
        return {"invitations": [inv]}


def test_agreeing_invitation_gives_its_expdate_as_cutoff():
    v = catalogue().get("iclr-2023")
    inv_id = "ICLR.cc/2023/Conference/-/Submission"
    api = FakeApi({inv_id: {"duedate": v.deadline_ms, "expdate": v.deadline_ms + 30 * M}})
    out = venue_deadline_check(api, v)
    assert out["status"] == "agree" and out["disagreement_h"] == 0.0 and api.calls == 1
    assert (out["cutoff_rule"], out["cutoff_ms"]) == ("invitation_expdate", v.cutoff_ms)
    # a venue that set its own expiration: that is what OpenReview enforced
    api = FakeApi({inv_id: {"duedate": v.deadline_ms, "expdate": v.deadline_ms + 2 * H}})
    assert venue_deadline_check(api, v)["cutoff_ms"] == v.deadline_ms + 2 * H


def test_a_deadline_read_as_utc_is_12_hours_off_and_flagged():
    v = catalogue().get("iclr-2024")
    naive = v.deadline_ms - 12 * H  # "Sep 28 23:59:59Z" instead of AoE
    api = FakeApi({"ICLR.cc/2024/Conference/-/Submission": {"duedate": naive, "expdate": naive + 30 * M}})
    out = venue_deadline_check(api, v)
    assert out["status"] == "mismatch" and out["disagreement_h"] == 12.0
    assert "+12.00 h" in out["problems"][0]
    assert (out["cutoff_rule"], out["cutoff_ms"]) == ("announced_plus_grace", v.cutoff_ms)


def test_two_stage_venue_whose_invitation_shows_the_abstract_deadline():
    v = catalogue().get("iclr-2024")
    ab = v.deadline.abstract_ms
    assert ab == 1695556799000  # Sep 23, 2023 AoE
    api = FakeApi({"ICLR.cc/2024/Conference/-/Submission": {"duedate": ab, "expdate": ab + 30 * M}})
    out = venue_deadline_check(api, v)
    assert out["status"] == "agree_abstract" and out["invitations"][0]["matches"] == "abstract deadline"
    assert (out["cutoff_rule"], out["cutoff_ms"]) == ("announced_plus_grace", v.cutoff_ms)


@pytest.mark.parametrize("invitations,status", [({}, "unreadable"),
                                                ({"X/-/Submission": {"duedate": None, "expdate": None}}, "mismatch")])
def test_unreadable_or_dateless_invitation(invitations, status):
    out = deadline_cross_check(FakeApi(invitations), ["X/-/Submission"], 10 * H)
    assert out["status"] == status and out["cutoff_rule"] == "announced_plus_grace"
    assert out["cutoff_ms"] == 10 * H + 30 * M


def test_rolling_venue_reads_nothing():
    api = FakeApi({})
    out = venue_deadline_check(api, catalogue().get("tmlr"))
    assert out["status"] == "rolling" and out["cutoff_ms"] is None and api.calls == 0
