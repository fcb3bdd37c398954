"""Fixtures: the real recorded OpenReview payloads (tests/fixtures/openreview-samples/, provenance in its README)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from partitions import catalogue

SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "openreview-samples"

V1_REPLIES = SAMPLES / "iclr2020_ryxz8CVYDH_v1_details_replies.json"
V2_FORUM = SAMPLES / "iclr2026_zzo3Sy3NSX_v2_submission_vars_with_replies.json"
V2_TRACKER = SAMPLES / "iclr2026_16_forums_tracker_directReplies.json"


def _load(path: Path):
    if not path.is_file():
        pytest.skip(f"recorded sample missing: {path}")
    return json.loads(path.read_text())


@pytest.fixture(scope="session")
def _v1_replies() -> list[dict]:
    return _load(V1_REPLIES)


@pytest.fixture(scope="session")
def _v2_forum() -> dict:
    return _load(V2_FORUM)


@pytest.fixture(scope="session")
def tracker_forums() -> list[dict]:
    """16 ICLR 2026 forums as the tracker recorded them (`details=directReplies`; raw replies)."""
    return _load(V2_TRACKER)


@pytest.fixture
def iclr2020_raw(_v1_replies) -> dict:
    """The v1 blind submission of openreview-api.md §1.9 (values as recorded there; the elided
    long strings filled in) around the 9 recorded replies (`details=replies`)."""
    return {
        "id": "ryxz8CVYDH", "original": "HJeyo0Luwr", "number": 1130,
        "cdate": 1569439305770, "tcdate": 1569439305770, "tmdate": 1576800921248,
        "pdate": 1576800921248, "odate": 1569439306025, "ddate": None,
        "forum": "ryxz8CVYDH", "replyto": None,
        "invitation": "ICLR.cc/2020/Conference/-/Blind_Submission",
        "signatures": ["ICLR.cc/2020/Conference"], "readers": ["everyone"],
        "content": {
            "title": "Learning to Learn by Zeroth-Order Oracle",
            "authors": ["Yangjun Ruan", "Yuanhao Xiong", "Sashank Reddi", "Sanjiv Kumar",
                        "Cho-Jui Hsieh"],
            "authorids": ["a@example.org", "b@example.org", "c@example.org", "d@example.org",
                          "e@example.org"],
            "keywords": ["learning to learn", "zeroth-order optimization", "black-box adversarial attack"],
            "TL;DR": "We extend the L2L framework to zeroth-order optimization setting.",
            "abstract": "In the learning to learn (L2L) framework, we cast the design of optimization "
                        "algorithms as a machine learning problem ...",
            "pdf": "/pdf/82af16aa.pdf",
            "original_pdf": "/attachment/3075a428235509855db7834a4ed978b6fcf08b55.pdf",
            "code": "https://github.com/example/ZO-L2L",
            "paperhash": "ruan|learning_to_learn_by_zerothorder_oracle",
        },
        "details": {"replies": copy.deepcopy(_v1_replies)},
    }


@pytest.fixture
def iclr2026_raw(_v2_forum) -> dict:
    return copy.deepcopy(_v2_forum)


@pytest.fixture(scope="session")
def iclr2020():
    return catalogue().get("iclr-2020")


@pytest.fixture(scope="session")
def iclr2026():
    return catalogue().get("iclr-2026")


# ---- synthetic v2 forums --------------------------------------------------------------------

class ForumBuilder:
    """Builds a raw v2 forum (submission + details.replies) in the real API shape."""

    def __init__(self, venue_id: str = "ICLR.cc/2024/Conference", forum_id: str = "F0rum",
                 number: int = 7, content: dict | None = None, invitations: list[str] | None = None):
        self.venue_id, self.forum_id, self.number = venue_id, forum_id, number
        self.t = 1_700_000_000_000
        self.content = {"title": "A Paper", "abstract": "We study X.", "venue": "Submitted to X",
                        "venueid": f"{venue_id}/Submission", "pdf": "/pdf/abc.pdf",
                        **(content or {})}
        self.invitations = invitations or [f"{venue_id}/-/Submission"]
        self.replies: list[dict] = []

    def sig(self, who: str) -> str:
        if who.startswith("~"):
            return who
        if who == "pc":
            return f"{self.venue_id}/Program_Chairs"
        return f"{self.venue_id}/Submission{self.number}/{who}"

    def add(self, name: str, who: str, content: dict, replyto: str | None = None,
            note_id: str | None = None, dt: int = 60_000, ddate: int | None = None) -> str:
        self.t += dt
        note_id = note_id or f"n{len(self.replies):02d}"
        self.replies.append({
            "id": note_id, "forum": self.forum_id, "replyto": replyto or self.forum_id,
            "invitations": [f"{self.venue_id}/Submission{self.number}/-/{name}"],
            "parentInvitations": f"{self.venue_id}/-/{name}",
            "signatures": [self.sig(who)], "readers": ["everyone"],
            "content": {k: {"value": v} for k, v in content.items()},
            "domain": self.venue_id, "tcdate": self.t, "cdate": self.t, "tmdate": self.t,
            "mdate": self.t, "ddate": ddate, "number": len(self.replies) + 1, "version": 2,
        })
        return note_id

    def review(self, who: str, rating: int | str = 5, ddate: int | None = None, dt: int = 60_000,
               **fields) -> str:
        return self.add("Official_Review", who, {"summary": f"Review by {who}", "rating": rating,
                                                 "confidence": 3, **fields}, ddate=ddate, dt=dt)

    def comment(self, who: str, text: str, replyto: str | None = None, title: str | None = None,
                **kw) -> str:
        content = {"comment": text} if title is None else {"title": title, "comment": text}
        return self.add("Official_Comment", who, content, replyto=replyto, **kw)

    def build(self) -> dict:
        return {
            "id": self.forum_id, "forum": self.forum_id, "replyto": None, "number": self.number,
            "cdate": 1_690_000_000_000, "tcdate": 1_690_000_000_000, "mdate": self.t,
            "tmdate": self.t, "ddate": None, "invitations": self.invitations,
            "domain": self.venue_id, "signatures": [f"{self.venue_id}/Submission{self.number}/Authors"],
            "content": {k: {"value": v} for k, v in self.content.items()},
            "details": {"replies": copy.deepcopy(self.replies)},
        }


@pytest.fixture
def forum_builder():
    return ForumBuilder
