"""Data-driven venue shapes.

A new venue shape (NeurIPS 2021 v1, TMLR v2, EMNLP 2023 v2, ...) is a new
:class:`VenueSpec` entry in :data:`VENUE_SPECS`; the generator in
``fixtures.py`` only reads these fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone


SHORT_BUFFER_MIN = 30  # openreview-py's grace after a submission deadline


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


# Forums whose last uploads sit at the deadline's edges (their revision history is readable):
#   grace_upload  the last PDF uploaded 10 minutes after duedate, inside OpenReview's grace (expdate)
#   after_grace   a PDF revision one minute after expdate (not part of the submission)
#   aoe_boundary  the last PDF 20 minutes before an AoE deadline's instant, i.e. long after
#                 23:59 UTC of the announced day (a deadline misread as UTC would reject it)
DEADLINE_BOUNDARY_FORUMS = ("grace_upload", "after_grace", "aoe_boundary")


@dataclass(frozen=True)
class VenueSpec:
    key: str
    venue_id: str
    api_version: int  # 1 or 2
    short_name: str  # "ICLR 2024"
    # The submission deadline as the program chairs entered it in OpenReview's venue request form
    # (UTC, like the form's "Submission Deadline" field); None = rolling venue (TMLR): each paper's
    # first revision is initial. This is the replica's own venue data: the invitations' duedate and
    # expdate are derived from it the way openreview-py's venue code does (fixtures.venue_objects),
    # never copied from the project's catalogue.
    deadline: str | None
    year: int | None
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
    # ---- family conventions (defaults = the ICLR 2024 shape; every default keeps the random
    # stream of the original iclr-2024/iclr-2020 fixtures unchanged) ----
    anchor: str | None = None  # rolling venues: timeline start (ISO UTC); papers are staggered
    rolling_gap_days: float = 9.0  # rolling venues: days between consecutive papers' review start
    history_public: bool = False  # v2: every edit readable by everyone (TMLR after Under_Review)
    post_submission_name: str = "Post_Submission"  # v2 edit right after the deadline
    author_rebuttal_name: str | None = None  # general rebuttal note (replyto forum, field `rebuttal`)
    rebuttal_style: str = "comment"  # "comment": Official_Comment under the review;
    #                                  "per_review": <P>/Official_Review<M>/-/Rebuttal (field `rebuttal`)
    p_general_response: float = 0.2  # author Official_Comment to the forum ("General Response")
    p_review_edit: float = 0.0  # v2: share of reviews edited after the rebuttal (note edits kept)
    review_edit_fields: tuple = ()  # fields added by that edit (NeurIPS 2025 final_justification)
    meta_review_by: str = "area_chair"  # or "reviewers" (TMLR Official_Recommendation, one each)
    decision_signer: str = "program_chairs"  # or "action_editors" (TMLR)
    decision_on_meta: bool = False  # no Decision note: the meta-review carries `decision` (CoRL 2022)
    track_of_decision: dict = field(default_factory=dict)  # decision -> track (EMNLP Findings)
    rejected_venueid: str | None = None  # default <venue>/Rejected_Submission
    withdrawn_venueid: str | None = None
    desk_rejected_venueid: str | None = None
    subtitle: str = "International Conference on Learning Representations"
    track: str = "main"  # catalogue track of the venue's papers (track_of_decision overrides)
    # The venue request form's "Submission Expiration Date" (UTC), when the PCs set one; otherwise
    # openreview-py sets expdate = duedate + SHORT_BUFFER_MIN (30) minutes.
    submission_expiration: str | None = None

    @property
    def rolling(self) -> bool:
        return self.deadline is None

    @property
    def duedate_ms(self) -> int | None:
        return None if self.deadline is None else iso_to_ms(self.deadline)

    @property
    def expdate_ms(self) -> int | None:
        """openreview-py: `expdate = due_date + timedelta(minutes=SHORT_BUFFER_MIN)` unless the venue
        set an expiration date (openreview/venue/invitation.py, openreview/conference/invitation.py)."""
        if self.deadline is None:
            return None
        if self.submission_expiration:
            return iso_to_ms(self.submission_expiration)
        return self.duedate_ms + SHORT_BUFFER_MIN * 60_000


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
    deadline="2023-09-29T11:59:59Z",
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
                    "desk_rejected", "history_public", "history_public_no_revision", "no_revision",
                    *DEADLINE_BOUNDARY_FORUMS),
    primary_areas=("representation learning for computer vision, audio, language, and other modalities",
                   "generative models", "optimization", "reinforcement learning",
                   "learning theory", "datasets and benchmarks"),
)

ICLR_2020 = VenueSpec(
    key="iclr-2020",
    venue_id="ICLR.cc/2020/Conference",
    api_version=1,
    short_name="ICLR 2020",
    deadline="2019-09-25T15:00:00Z",
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
                    "desk_rejected", "abstract_only_first", "no_revision", *DEADLINE_BOUNDARY_FORUMS),
)


# ---------------------------------------------------------------------------------------------
# Every other ReviewBench venue-year. Forms follow openreview-api.md §2 (sources there; fields
# marked [guess] in that table are guesses here too). Keys equal the catalogue's; deadlines are the
# UTC instants the venues' OpenReview invitations carry (researched in ../shared/design/deadlines.md),
# written here independently of the catalogue's announced local times (benchmarks/bench_deadlines.py
# measures the agreement).
from dataclasses import replace as _replace  # noqa: E402

_CONF5 = (
    "2: You are willing to defend your assessment, but it is quite likely that you did not understand the central parts of the submission or that you are unfamiliar with some pieces of related work. Math/other details were not carefully checked.",
    "3: You are fairly confident in your assessment. It is possible that you did not understand some parts of the submission or that you are unfamiliar with some pieces of related work. Math/other details were not carefully checked.",
    "4: You are confident in your assessment, but not absolutely certain. It is unlikely, but not impossible, that you did not understand some parts of the submission or that you are unfamiliar with some pieces of related work.",
    "5: You are absolutely certain about your assessment. You are very familiar with the related work and checked the math/other key details carefully.",
)
_RATING10 = (
    "3: Clear rejection", "4: Ok but not good enough - rejection", "5: Marginally below acceptance threshold",
    "6: Marginally above acceptance threshold", "7: Good paper, accept", "8: Top 50% of accepted papers, clear accept",
)
_ICLR22_REC = ("1: strong reject", "3: reject, not good enough", "5: marginally below the acceptance threshold",
               "6: marginally above the acceptance threshold", "8: accept, good paper",
               "10: strong accept, should be highlighted at the conference")
_NEURIPS23_RATING = (
    "3: Reject: For instance, a paper with technical flaws, weak evaluation, inadequate reproducibility and incompletely addressed ethical considerations.",
    "4: Borderline reject: Technically solid paper where reasons to reject, e.g., limited evaluation, outweigh reasons to accept, e.g., good evaluation. Please use sparingly.",
    "5: Borderline accept: Technically solid paper where reasons to accept outweigh reasons to reject, e.g., limited evaluation. Please use sparingly.",
    "6: Weak Accept: Technically solid, moderate-to-high impact paper, with no major concerns with respect to evaluation, resources, reproducibility, ethical considerations.",
    "7: Accept: Technically solid paper, with high impact on at least one sub-area, or moderate-to-high impact on more than one areas, with good-to-excellent evaluation, resources, reproducibility, and no unaddressed ethical considerations.",
    "8: Strong Accept: Technically strong paper with, with novel ideas, excellent impact on at least one area, or high-to-excellent impact on multiple areas, with excellent evaluation, resources, and reproducibility, and no unaddressed ethical considerations.",
)
_CORL_REC = ("Strong reject", "Weak reject", "Weak accept", "Strong accept")
_CORL_QUAL = ("Poor", "Fair", "Good", "Excellent")
_EMNLP_SOUND = ("2: Borderline: Some of the main claims/arguments are not sufficiently supported, there are major technical/methodological problems",
                "3: Good: This study provides sufficient support for its major claims/arguments, some minor points may need extra support or details.",
                "4: Strong: This study provides sufficient support for all of its claims/arguments. ")
_EMNLP_EXC = ("2: Mediocre: This paper makes marginal contributions (vs non-contemporaneous work), so I would rather not see it in the conference.",
              "3: Ambivalent: It has merits (e.g., it reports state-of-the-art results, the idea is nice), but there are key weaknesses (e.g., it describes incremental work), and it can significantly benefit from another round of revision. However, I won't object to accepting it if my co-reviewers champion it.",
              "4: Strong: This paper deepens the understanding of some phenomenon or lowers the barriers to an existing research direction.")
_EMNLP_REPRO = ("3: Could reproduce the results with some difficulty. The settings of parameters are underspecified or subjectively determined; the training/evaluation data are not widely available.",
                "4: Could mostly reproduce the results, but there may be some variation because of sample variance or minor variations in their interpretation of the protocol or method.")
_EMNLP_CONF = ("2: Willing to defend my evaluation, but it is fairly likely that I missed some details, didn't understand some central points, or can't be sure about the novelty of the work.",
               "3: Pretty sure, but there's a chance I missed something. Although I have a good feel for this area in general, I did not carefully check the paper's details, e.g., the math, experimental design, or novelty.",
               "4: Quite sure. I tried to check the important points carefully. It's unlikely, though conceivable, that I missed something that should affect my ratings.")
_COLM_RATING = ("3: Clear rejection", "4: Ok but not good enough - rejection", "5: Marginally below acceptance threshold",
                "6: Marginally above acceptance threshold", "7: Good paper, accept", "8: Top 50% of accepted papers, clear accept")

_T = FieldSpec  # brevity


def _v1(key, venue_id, short, deadline, year, **kw) -> VenueSpec:
    base = dict(key=key, venue_id=venue_id, api_version=1, short_name=short, deadline=deadline, year=year,
                paper_prefix="Paper", reviewer_style="anon_hash", meta_review_name=None,
                submission_content_fields=("title", "authors", "authorids", "keywords", "TL;DR", "abstract",
                                           "pdf", "paperhash", "_bibtex"),
                tldr_field="TL;DR", license=None, decision_extra_fields=("title", "comment"),
                special_forums=("hidden_reviews", "no_pdf", "split_rebuttal", "general_response", "withdrawn",
                                "desk_rejected", "abstract_only_first", "no_revision", *DEADLINE_BOUNDARY_FORUMS))
    base.update(kw)
    return VenueSpec(**base)


def _v2(key, venue_id, short, deadline, year, **kw) -> VenueSpec:
    base = dict(key=key, venue_id=venue_id, api_version=2, short_name=short, deadline=deadline, year=year,
                special_forums=("hidden_reviews", "no_pdf", "split_rebuttal", "general_response", "withdrawn",
                                "desk_rejected", "history_public", "history_public_no_revision", "no_revision",
                                *DEADLINE_BOUNDARY_FORUMS))
    base.update(kw)
    return VenueSpec(**base)


def _venue_strings(short: str, accepts: dict) -> dict:
    return dict(accept_venue_strings=accepts, rejected_venue_string=f"Submitted to {short}",
                withdrawn_venue_string=f"{short} Conference Withdrawn Submission",
                desk_rejected_venue_string=f"{short} Conference Desk Rejected Submission")


# ---- ICLR (v1 2021-2023) ---------------------------------------------------------------------
ICLR_2021 = _v1(
    "iclr-2021", "ICLR.cc/2021/Conference", "ICLR 2021", "2020-10-02T15:00:00Z", 2021,
    review_fields=(_T("title", "const", value="Official Review of Paper #{k}"), _T("review"),
                   _T("rating", "choice", _RATING10), _T("confidence", "choice", _CONF5)),
    decision_options=("Accept (Oral)", "Accept (Spotlight)", "Accept (Poster)", "Reject"),
    **_venue_strings("ICLR 2021", {"Accept (Oral)": "ICLR 2021 Oral", "Accept (Spotlight)": "ICLR 2021 Spotlight",
                                   "Accept (Poster)": "ICLR 2021 Poster"}),
    t_decision=105)
_ICLR22_REVIEW = (
    _T("summary_of_the_paper"), _T("main_review"), _T("summary_of_the_review"),
    _T("correctness", "choice", ("2: Several of the paper’s claims are incorrect or not well-supported.",
                                 "3: Some of the paper’s claims have minor issues. A few statements are not well-supported, or require small changes to be made correct.",
                                 "4: All of the claims and statements are well-supported and correct.")),
    _T("technical_novelty_and_significance", "choice", (
        "2: The contributions are only marginally significant or novel.",
        "3: The contributions are significant and somewhat new. Aspects of the contributions exist in prior work.")),
    _T("empirical_novelty_and_significance", "choice", (
        "2: The contributions are only marginally significant or novel.", "Not applicable")),
    _T("flag_for_ethics_review", "list", value="NO."),
    _T("recommendation", "choice", _ICLR22_REC), _T("confidence", "choice", _CONF5),
)
ICLR_2022 = _v1(
    "iclr-2022", "ICLR.cc/2022/Conference", "ICLR 2022", "2021-10-06T00:00:00Z", 2022,
    review_fields=_ICLR22_REVIEW,
    decision_options=("Accept (Oral)", "Accept (Spotlight)", "Accept (Poster)", "Reject"),
    **_venue_strings("ICLR 2022", {"Accept (Oral)": "ICLR 2022 Oral", "Accept (Spotlight)": "ICLR 2022 Spotlight",
                                   "Accept (Poster)": "ICLR 2022 Poster"}),
    t_decision=112)
ICLR_2023 = _v1(
    "iclr-2023", "ICLR.cc/2023/Conference", "ICLR 2023", "2022-09-29T11:59:59Z", 2023,
    review_fields=(_T("summary_of_the_paper"), _T("strength_and_weaknesses"),
                   _T("clarity,_quality,_novelty_and_reproducibility"), _T("summary_of_the_review"),
                   *_ICLR22_REVIEW[3:]),
    decision_options=("Accept: notable-top-5%", "Accept: notable-top-25%", "Accept: poster", "Reject"),
    decision_extra_fields=("title", "metareview:_summary,_strengths_and_weaknesses",
                           "justification_for_why_not_higher_score", "justification_for_why_not_lower_score"),
    **_venue_strings("ICLR 2023", {"Accept: notable-top-5%": "ICLR 2023 notable top 5%",
                                   "Accept: notable-top-25%": "ICLR 2023 notable top 25%",
                                   "Accept: poster": "ICLR 2023 poster"}),
    t_decision=140)

# ---- ICLR (v2 2025-2026: integer scores) -----------------------------------------------------
_ICLR_INT_REVIEW = (
    _T("summary"), _T("soundness", "choice", (1, 2, 3, 4)), _T("presentation", "choice", (1, 2, 3, 4)),
    _T("contribution", "choice", (1, 2, 3, 4)), _T("strengths"), _T("weaknesses"), _T("questions"),
    _T("flag_for_ethics_review", "list", value="No ethics review needed."),
    _T("rating", "choice", (1, 3, 5, 6, 8, 10)), _T("confidence", "choice", (2, 3, 4, 5)),
    _T("code_of_conduct", "const", value="Yes"),
)
ICLR_2025 = _replace(
    ICLR_2024, key="iclr-2025", venue_id="ICLR.cc/2025/Conference", short_name="ICLR 2025",
    deadline="2024-10-02T11:59:59Z", year=2025, review_fields=_ICLR_INT_REVIEW,
    meta_review_fields=(_T("metareview"), _T("additional_comments_on_reviewer_discussion")),
    **_venue_strings("ICLR 2025", {"Accept (Oral)": "ICLR 2025 Oral", "Accept (Spotlight)": "ICLR 2025 Spotlight",
                                   "Accept (Poster)": "ICLR 2025 Poster"}),
    decision_options=("Accept (Oral)", "Accept (Spotlight)", "Accept (Poster)", "Reject"),
    p_review_edit=0.35, t_decision=112)
ICLR_2026 = _replace(
    ICLR_2025, key="iclr-2026", venue_id="ICLR.cc/2026/Conference", short_name="ICLR 2026",
    deadline="2025-09-25T11:59:59Z", year=2026, rebuttal_revision_name="Rebuttal_Revision",
    **_venue_strings("ICLR 2026", {"Accept (Oral)": "ICLR 2026 Oral", "Accept (Spotlight)": "ICLR 2026 Spotlight",
                                   "Accept (Poster)": "ICLR 2026 Poster"}))

# ---- NeurIPS ---------------------------------------------------------------------------------
NEURIPS_2021 = _v1(
    "neurips-2021", "NeurIPS.cc/2021/Conference", "NeurIPS 2021", "2021-05-28T20:00:00Z", 2021,
    review_fields=(_T("summary"), _T("main_review"), _T("limitations_and_societal_impact"),
                   _T("needs_ethics_review", "const", value="No"), _T("rating", "choice", _RATING10),
                   _T("confidence", "choice", _CONF5), _T("code_of_conduct", "const", value="While performing my duties as a reviewer (including writing reviews and participating in discussions), I have and will continue to abide by the NeurIPS code of conduct.")),
    meta_review_name="Meta_Review", meta_review_fields=(_T("metareview"), _T("recommendation", "choice", ("Accept", "Reject"))),
    decision_options=("Accept (Oral)", "Accept (Spotlight)", "Accept (Poster)", "Reject"),
    **_venue_strings("NeurIPS 2021", {"Accept (Oral)": "NeurIPS 2021 Oral", "Accept (Spotlight)": "NeurIPS 2021 Spotlight",
                                      "Accept (Poster)": "NeurIPS 2021 Poster"}),
    subtitle="Neural Information Processing Systems", t_decision=120)
NEURIPS_2022 = _replace(
    NEURIPS_2021, key="neurips-2022", venue_id="NeurIPS.cc/2022/Conference", short_name="NeurIPS 2022",
    deadline="2022-05-19T20:00:00Z", year=2022,
    review_fields=(_T("summary"), _T("strengths_and_weaknesses"), _T("questions"), _T("limitations"),
                   _T("ethics_flag", "const", value="No"), _T("soundness", "choice", _SPC),
                   _T("presentation", "choice", _SPC), _T("contribution", "choice", _SPC),
                   _T("rating", "choice", _RATING10), _T("confidence", "choice", _CONF5)),
    decision_options=("Accept", "Reject"),
    **_venue_strings("NeurIPS 2022", {"Accept": "NeurIPS 2022 Accept"}))
_NEURIPS23_REVIEW = (
    _T("summary"), _T("soundness", "choice", _SPC), _T("presentation", "choice", _SPC),
    _T("contribution", "choice", _SPC), _T("strengths"), _T("weaknesses"), _T("questions"), _T("limitations"),
    _T("flag_for_ethics_review", "list", value="No ethics review needed."),
    _T("rating", "choice", _NEURIPS23_RATING), _T("confidence", "choice", _CONF5),
    _T("code_of_conduct", "const", value="Yes"),
)
NEURIPS_2023 = _v2(
    "neurips-2023", "NeurIPS.cc/2023/Conference", "NeurIPS 2023", "2023-05-17T20:00:00Z", 2023,
    review_fields=_NEURIPS23_REVIEW, author_rebuttal_name="Author_Rebuttal", rebuttal_style="per_review",
    p_general_response=0.0,
    meta_review_fields=(_T("metareview"), _T("recommendation", "choice", ("Accept (poster)", "Reject"))),
    decision_options=("Accept (oral)", "Accept (spotlight)", "Accept (poster)", "Reject"),
    decision_extra_fields=("title", "comment"),
    **_venue_strings("NeurIPS 2023", {"Accept (oral)": "NeurIPS 2023 oral", "Accept (spotlight)": "NeurIPS 2023 spotlight",
                                      "Accept (poster)": "NeurIPS 2023 poster"}),
    subtitle="Neural Information Processing Systems", t_decision=130,
    primary_areas=("",))
NEURIPS_2023_DB = _replace(
    NEURIPS_2023, key="neurips-2023-datasets_and_benchmarks",
    venue_id="NeurIPS.cc/2023/Track/Datasets_and_Benchmarks", short_name="NeurIPS 2023 Datasets and Benchmarks",
    track="datasets_and_benchmarks",
    deadline="2023-06-07T20:00:00Z",
    **_venue_strings("NeurIPS 2023 Datasets and Benchmarks",
                     {"Accept (oral)": "NeurIPS 2023 Datasets and Benchmarks Oral",
                      "Accept (spotlight)": "NeurIPS 2023 Datasets and Benchmarks Spotlight",
                      "Accept (poster)": "NeurIPS 2023 Datasets and Benchmarks Poster"}))
NEURIPS_2024 = _replace(
    NEURIPS_2023, key="neurips-2024", venue_id="NeurIPS.cc/2024/Conference", short_name="NeurIPS 2024",
    deadline="2024-05-22T20:00:00Z", year=2024, primary_areas=("machine_vision", "learning_theory", "optimization"),
    **_venue_strings("NeurIPS 2024", {"Accept (oral)": "NeurIPS 2024 oral", "Accept (spotlight)": "NeurIPS 2024 spotlight",
                                      "Accept (poster)": "NeurIPS 2024 poster"}))
NEURIPS_2025 = _v2(
    "neurips-2025", "NeurIPS.cc/2025/Conference", "NeurIPS 2025", "2025-05-16T11:59:59Z", 2025,
    # merged form [3rd-party field list, openreview-api.md §2]; integer scores [guess]
    review_fields=(_T("summary"), _T("strengths_and_weaknesses"), _T("quality", "choice", (1, 2, 3, 4)),
                   _T("clarity", "choice", (1, 2, 3, 4)), _T("significance", "choice", (1, 2, 3, 4)),
                   _T("originality", "choice", (1, 2, 3, 4)), _T("questions"), _T("limitations"),
                   _T("rating", "choice", (2, 3, 4, 5)), _T("confidence", "choice", (2, 3, 4, 5)),
                   _T("ethical_concerns", "const", value="NO or VERY MINOR ethics concerns only"),
                   _T("paper_formatting_concerns", "const", value="None"),
                   _T("code_of_conduct_acknowledgement", "const", value="Yes")),
    review_edit_fields=(_T("final_justification"),), p_review_edit=0.5,
    rebuttal_style="per_review", p_general_response=0.0,
    meta_review_fields=(_T("metareview"), _T("recommendation", "choice", ("Accept (poster)", "Reject"))),
    decision_options=("Accept (oral)", "Accept (spotlight)", "Accept (poster)", "Reject"),
    **_venue_strings("NeurIPS 2025", {"Accept (oral)": "NeurIPS 2025 oral", "Accept (spotlight)": "NeurIPS 2025 spotlight",
                                      "Accept (poster)": "NeurIPS 2025 poster"}),
    subtitle="Neural Information Processing Systems", t_decision=130,
    primary_areas=("Deep learning", "Theory", "Applications"))

# ---- ICML 2025 (field list [3rd-party, unverified]) ------------------------------------------
ICML_2025 = _v2(
    "icml-2025", "ICML.cc/2025/Conference", "ICML 2025", "2025-01-31T11:59:59Z", 2025,
    review_fields=(_T("summary"), _T("claims_and_evidence"), _T("methods_and_evaluation_criteria"),
                   _T("theoretical_claims"), _T("experimental_designs_or_analyses"),
                   _T("relation_to_broader_scientific_literature"), _T("essential_references_not_discussed"),
                   _T("other_strengths_and_weaknesses"), _T("other_comments_or_suggestions"),
                   _T("questions_for_authors"),
                   _T("overall_recommendation", "choice", ("1: Reject", "2: Weak reject (i.e., leaning towards reject, but could also be accepted)",
                                                           "3: Weak accept (i.e., leaning towards accept, but could also be rejected)", "4: Accept", "5: Strong accept"))),
    rebuttal_style="per_review", p_general_response=0.0,
    decision_options=("Accept (oral)", "Accept (spotlight poster)", "Accept (poster)", "Reject"),
    **_venue_strings("ICML 2025", {"Accept (oral)": "ICML 2025 oral", "Accept (spotlight poster)": "ICML 2025 spotlightposter",
                                   "Accept (poster)": "ICML 2025 poster"}),
    subtitle="International Conference on Machine Learning", t_decision=110)

# ---- TMLR (rolling journal) ------------------------------------------------------------------
TMLR_SPEC = VenueSpec(
    key="tmlr", venue_id="TMLR", api_version=2, short_name="TMLR", deadline=None, year=None,
    anchor="2023-01-10T00:00:00Z", rolling_gap_days=9.0, history_public=True, post_submission_name="Under_Review",
    paper_prefix="Paper", review_name="Review", comment_name="Official_Comment", public_comment_name="Public_Comment",
    meta_review_name="Official_Recommendation", meta_review_by="reviewers", decision_name="Decision",
    decision_field="recommendation", decision_signer="action_editors",
    review_fields=(_T("summary_of_contributions"), _T("strengths_and_weaknesses"), _T("requested_changes"),
                   _T("broader_impact_concerns"), _T("claims_and_evidence", "choice", ("Yes", "No")),
                   _T("audience", "choice", ("Yes", "No"))),
    meta_review_fields=(_T("claims_and_evidence", "choice", ("Yes", "No")), _T("audience", "choice", ("Yes", "No")),
                        _T("decision_recommendation", "choice", ("Accept", "Leaning Accept", "Leaning Reject", "Reject")),
                        _T("certification_recommendations", "list", value="Featured Certification"),
                        _T("comment")),
    decision_options=("Accept as is", "Accept with minor revision", "Reject"),
    decision_extra_fields=("claims_and_evidence", "audience", "comment"),
    accept_venue_strings={"Accept as is": "Accepted by TMLR", "Accept with minor revision": "Accepted by TMLR"},
    rejected_venue_string="Rejected by TMLR", withdrawn_venue_string="Withdrawn by Authors",
    desk_rejected_venue_string="Desk rejected by TMLR", rejected_venueid="TMLR/Rejected",
    rebuttal_revision_name="Revision", camera_ready_revision_name="Camera_Ready_Revision",
    submission_content_fields=("title", "authors", "authorids", "abstract", "pdf", "venue", "venueid", "_bibtex"),
    tldr_field="TLDR", withdrawal_name="Withdrawal", desk_rejection_name="Desk_Rejection",
    t_public=0, t_reviews=(14, 28), t_rebuttal=(30, 40), t_meta=(45, 55), t_decision=60, t_camera_ready=(70, 90),
    p_general_response=0.0, subtitle="Transactions on Machine Learning Research",
    special_forums=("hidden_reviews", "no_pdf", "split_rebuttal", "withdrawn", "desk_rejected", "no_revision"),
)

# ---- EMNLP 2023 (main + Findings in one venue) ----------------------------------------------
EMNLP_2023 = _v2(
    "emnlp-2023", "EMNLP/2023/Conference", "EMNLP 2023", "2023-06-24T11:59:59Z", 2023,
    review_fields=(_T("Paper_Topic_and_Main_Contributions"), _T("Reasons_To_Accept"), _T("Reasons_To_Reject"),
                   _T("Questions_For_The_Authors"), _T("Missing_References"),
                   _T("Typos_Grammar_Style_And_Presentation_Improvements"),
                   _T("Soundness", "choice", _EMNLP_SOUND), _T("Excitement", "choice", _EMNLP_EXC),
                   _T("Reproducibility", "choice", _EMNLP_REPRO), _T("Ethical_Concerns", "const", value="No"),
                   _T("Reviewer_Confidence", "choice", _EMNLP_CONF)),
    meta_review_fields=(_T("Metareview"), _T("Summary_Of_Reasons_To_Publish"), _T("Summary_Of_Suggested_Revisions")),
    decision_options=("Accept-Main", "Accept-Findings", "Reject"),
    decision_extra_fields=("title", "comment"),
    accept_venue_strings={"Accept-Main": "EMNLP 2023 Main", "Accept-Findings": "Findings of EMNLP 2023"},
    track_of_decision={"Accept-Findings": "findings"},
    rejected_venue_string="Submitted to EMNLP 2023", withdrawn_venue_string="EMNLP 2023 Conference Withdrawn Submission",
    desk_rejected_venue_string="EMNLP 2023 Conference Desk Rejected Submission",
    tldr_field="TLDR", primary_areas=("NLP Applications", "Machine Translation", "Interpretability"),
    subtitle="Empirical Methods in Natural Language Processing", t_decision=105)

# ---- CoRL (v1 2021-2023, v2 2024) ------------------------------------------------------------
_CORL_REVIEW = (
    _T("summary_of_paper"), _T("summary_of_recommendation"), _T("issues"),
    _T("technical_quality", "choice", _CORL_QUAL), _T("clarity_of_presentation", "choice", _CORL_QUAL),
    _T("potential_impact", "choice", _CORL_QUAL), _T("robotics_focus"),
    _T("recommendation", "choice", _CORL_REC),
    _T("confidence", "choice", ("Low", "Medium", "High")),
)
CORL_2021 = _v1(
    "corl-2021", "robot-learning.org/CoRL/2021/Conference", "CoRL 2021", "2021-06-19T06:59:59Z", 2021,
    review_fields=_CORL_REVIEW,
    decision_options=("Accept (Oral)", "Accept (Poster)", "Reject"),
    **_venue_strings("CoRL 2021", {"Accept (Oral)": "CoRL 2021 Oral", "Accept (Poster)": "CoRL 2021 Poster"}),
    subtitle="Conference on Robot Learning", t_decision=80)
CORL_2022 = _replace(
    CORL_2021, key="corl-2022", venue_id="robot-learning.org/CoRL/2022/Conference", short_name="CoRL 2022",
    deadline="2022-06-16T11:59:59Z", year=2022, meta_review_name="Meta_Review", decision_on_meta=True,
    meta_review_fields=(_T("metareview"),),
    **_venue_strings("CoRL 2022", {"Accept (Oral)": "CoRL 2022 Oral", "Accept (Poster)": "CoRL 2022 Poster"}))
CORL_2023 = _replace(
    CORL_2021, key="corl-2023", venue_id="robot-learning.org/CoRL/2023/Conference", short_name="CoRL 2023",
    deadline="2023-06-09T11:59:59Z", year=2023,
    **_venue_strings("CoRL 2023", {"Accept (Oral)": "CoRL 2023 Oral", "Accept (Poster)": "CoRL 2023 Poster"}))
CORL_2024 = _v2(
    "corl-2024", "robot-learning.org/CoRL/2024/Conference", "CoRL 2024", "2024-06-07T11:59:59Z", 2024,
    review_fields=_CORL_REVIEW, meta_review_name=None,
    decision_options=("Accept (Oral)", "Accept (Poster)", "Reject"), decision_extra_fields=("title", "comment"),
    **_venue_strings("CoRL 2024", {"Accept (Oral)": "CoRL 2024 Oral", "Accept (Poster)": "CoRL 2024 Poster"}),
    subtitle="Conference on Robot Learning", t_decision=80, primary_areas=("",))

# ---- COLM ------------------------------------------------------------------------------------
COLM_2024 = _v2(
    "colm-2024", "colmweb.org/COLM/2024/Conference", "COLM 2024", "2024-03-30T11:59:59Z", 2024,
    review_fields=(_T("summary"), _T("reasons_to_accept"), _T("reasons_to_reject"), _T("questions_to_authors"),
                   _T("rating", "choice", _COLM_RATING), _T("confidence", "choice", _CONF5),
                   _T("ethics_concerns", "const", value="None")),
    meta_review_fields=(_T("metareview"),),
    decision_options=("Accept", "Reject"), decision_extra_fields=("title", "comment"),
    **_venue_strings("COLM 2024", {"Accept": "COLM 2024"}),
    subtitle="Conference on Language Modeling", t_decision=100, primary_areas=("",))
COLM_2025 = _replace(
    COLM_2024, key="colm-2025", venue_id="colmweb.org/COLM/2025/Conference", short_name="COLM 2025",
    deadline="2025-03-29T11:59:59Z", year=2025, **_venue_strings("COLM 2025", {"Accept": "COLM 2025"}))

VENUE_SPECS: dict[str, VenueSpec] = {s.key: s for s in (
    ICLR_2024, ICLR_2020, ICLR_2021, ICLR_2022, ICLR_2023, ICLR_2025, ICLR_2026,
    NEURIPS_2021, NEURIPS_2022, NEURIPS_2023, NEURIPS_2023_DB, NEURIPS_2024, NEURIPS_2025, ICML_2025,
    TMLR_SPEC, EMNLP_2023, CORL_2021, CORL_2022, CORL_2023, CORL_2024, COLM_2024, COLM_2025)}
