"""Data-driven venue shapes.

A new venue shape (NeurIPS 2021 v1, TMLR v2, EMNLP 2023 v2, ...) is a new
:class:`VenueSpec` entry in :data:`VENUE_SPECS`; the generator in
``fixtures.py`` only reads these fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone


def iso_to_ms(s: str) -> int:
    return int(datetime.fromisoformat(s.replace("Z", "+00:00")).astimezone(timezone.utc).timestamp() * 1000)


@dataclass(frozen=True)
class FieldSpec:
    """One content field of a reply form.

    kind: "choice" (pick from choices; the first char(s) parse as the score),
          "text" (generated prose), "const" (fixed value), "list" (value is [const]).
    """

    name: str
    kind: str = "text"
    choices: tuple = ()
    value: object = None


@dataclass(frozen=True)
class VenueSpec:
    key: str
    venue_id: str
    api_version: int  # 1 or 2
    short_name: str  # "ICLR 2024"
    deadline: str  # ISO UTC
    year: int
    # invitations / naming
    submission_name: str = "Submission"  # v2 super invitation tail: <venue>/-/Submission
    v1_submission_invitation_tail: str = "Blind_Submission"  # v1 forum notes
    v1_original_invitation_tail: str = "Submission"
    paper_prefix: str = "Submission"  # "Submission" (v2) or "Paper" (v1)
    reviewer_style: str = "anon_hash"  # "anon_hash" → Reviewer_abCd, "anon_index" → AnonReviewer1
    review_name: str = "Official_Review"
    comment_name: str = "Official_Comment"
    public_comment_name: str | None = "Public_Comment"
    meta_review_name: str | None = "Meta_Review"
    decision_name: str = "Decision"
    decision_field: str = "decision"
    withdrawal_name: str = "Withdrawal"
    desk_rejection_name: str = "Desk_Rejection"
    review_fields: tuple = ()
    meta_review_fields: tuple = ()
    decision_options: tuple = ("Accept (poster)", "Reject")
    decision_extra_fields: tuple = ("comment",)
    accept_venue_strings: dict = field(default_factory=dict)  # decision -> venue string
    rejected_venue_string: str = ""
    withdrawn_venue_string: str = ""
    desk_rejected_venue_string: str = ""
    # post-deadline revision invitations (v2: per-paper invitation tails)
    rebuttal_revision_name: str = "Rebuttal_Revision"
    camera_ready_revision_name: str = "Camera_Ready_Revision"
    submission_content_fields: tuple = ("title", "authors", "authorids", "keywords", "TLDR", "abstract",
                                        "primary_area", "venue", "venueid", "pdf", "_bibtex")
    tldr_field: str = "TLDR"
    license: str | None = "CC BY 4.0"
    allow_anonymous: bool = False
    # timeline offsets from the deadline, in days
    t_public: float = 6
    t_reviews: tuple = (24, 34)
    t_rebuttal: tuple = (44, 54)
    t_meta: tuple = (70, 80)
    t_decision: float = 110
    t_camera_ready: tuple = (135, 150)
    # per-forum special cases, assigned to forums 0..len-1 in order
    special_forums: tuple = ()
    p_post_deadline_revision: float = 0.7
    p_public_comment: float = 0.25
    primary_areas: tuple = ("general machine learning",)


_ICLR24_RATING = (
    "1: strong reject", "3: reject, not good enough", "5: marginally below the acceptance threshold",
    "6: marginally above the acceptance threshold", "8: accept, good paper",
    "10: strong accept, should be highlighted at the conference",
)
_SPC = ("1 poor", "2 fair", "3 good", "4 excellent")
_ICLR24_CONF = (
    "2: You are willing to defend your assessment, but it is quite likely that you did not understand the central parts of the submission or that you are unfamiliar with some pieces of related work. Math/other details were not carefully checked.",
    "3: You are fairly confident in your assessment. It is possible that you did not understand some parts of the submission or that you are unfamiliar with some pieces of related work. Math/other details were not carefully checked.",
    "4: You are confident in your assessment, but not absolutely certain. It is unlikely, but not impossible, that you did not understand some parts of the submission or that you are unfamiliar with some pieces of related work.",
    "5: You are absolutely certain about your assessment. You are very familiar with the related work and checked the math/other key details carefully.",
)

ICLR_2024 = VenueSpec(
    key="iclr-2024",
    venue_id="ICLR.cc/2024/Conference",
    api_version=2,
    short_name="ICLR 2024",
    deadline="2023-09-28T23:59:59Z",
    year=2024,
    paper_prefix="Submission",
    reviewer_style="anon_hash",
    review_fields=(
        FieldSpec("summary"),
        FieldSpec("soundness", "choice", _SPC),
        FieldSpec("presentation", "choice", _SPC),
        FieldSpec("contribution", "choice", _SPC),
        FieldSpec("strengths"),
        FieldSpec("weaknesses"),
        FieldSpec("questions"),
        FieldSpec("flag_for_ethics_review", "list", value="No ethics review needed."),
        FieldSpec("rating", "choice", _ICLR24_RATING),
        FieldSpec("confidence", "choice", _ICLR24_CONF),
        FieldSpec("code_of_conduct", "const", value="Yes"),
    ),
    meta_review_fields=(
        FieldSpec("metareview"),
        FieldSpec("justification_for_why_not_higher_score"),
        FieldSpec("justification_for_why_not_lower_score"),
    ),
    decision_options=("Accept (oral)", "Accept (spotlight)", "Accept (poster)", "Reject"),
    decision_extra_fields=("title", "comment"),
    accept_venue_strings={"Accept (oral)": "ICLR 2024 oral", "Accept (spotlight)": "ICLR 2024 spotlight",
                          "Accept (poster)": "ICLR 2024 poster"},
    rejected_venue_string="Submitted to ICLR 2024",
    withdrawn_venue_string="ICLR 2024 Conference Withdrawn Submission",
    desk_rejected_venue_string="ICLR 2024 Conference Desk Rejected Submission",
    t_decision=108,  # 2024-01-16
    special_forums=("hidden_reviews", "no_pdf", "split_rebuttal", "general_response", "withdrawn",
                    "desk_rejected", "history_public", "history_public_no_revision", "no_revision"),
    primary_areas=("representation learning for computer vision, audio, language, and other modalities",
                   "generative models", "optimization", "reinforcement learning",
                   "learning theory", "datasets and benchmarks"),
)

ICLR_2020 = VenueSpec(
    key="iclr-2020",
    venue_id="ICLR.cc/2020/Conference",
    api_version=1,
    short_name="ICLR 2020",
    deadline="2019-09-25T23:59:59Z",
    year=2020,
    paper_prefix="Paper",
    reviewer_style="anon_index",
    public_comment_name="Public_Comment",
    meta_review_name=None,  # the decision note carries the meta-review in `comment`
    review_fields=(
        FieldSpec("experience_assessment", "choice", (
            "I do not know much about this area.", "I have read many papers in this area.",
            "I have published one or two papers in this area.",
            "I have published in this field for several years.")),
        FieldSpec("rating", "choice", ("1: Reject", "3: Weak Reject", "6: Weak Accept", "8: Accept")),
        FieldSpec("review_assessment:_checking_correctness_of_experiments", "choice", (
            "I carefully checked the experiments.", "I assessed the sensibility of the experiments.",
            "N/A")),
        FieldSpec("review_assessment:_thoroughness_in_paper_reading", "choice", (
            "I read the paper thoroughly.",
            "I read the paper at least twice and used my best judgement in assessing the paper.")),
        FieldSpec("title", "const", value="Official Blind Review #{k}"),
        FieldSpec("review"),
        FieldSpec("review_assessment:_checking_correctness_of_derivations_and_theory", "choice", (
            "I carefully checked the derivations and theory.",
            "I assessed the sensibility of the derivations and theory.", "N/A")),
    ),
    decision_options=("Accept (Talk)", "Accept (Spotlight)", "Accept (Poster)", "Reject"),
    decision_extra_fields=("comment", "title"),
    accept_venue_strings={"Accept (Talk)": "ICLR 2020", "Accept (Spotlight)": "ICLR 2020",
                          "Accept (Poster)": "ICLR 2020"},
    submission_content_fields=("title", "authors", "authorids", "keywords", "TL;DR", "abstract", "pdf",
                               "original_pdf", "code", "paperhash", "_bibtex"),
    tldr_field="TL;DR",
    license=None,
    t_decision=84,  # 2019-12-19
    t_camera_ready=(130, 140),
    special_forums=("hidden_reviews", "no_pdf", "split_rebuttal", "general_response", "withdrawn",
                    "desk_rejected", "abstract_only_first", "no_revision"),
)

VENUE_SPECS: dict[str, VenueSpec] = {s.key: s for s in (ICLR_2024, ICLR_2020)}
