"""The venue-years the replica serves, as data: one :class:`VenueSpec` per venue-year in
:data:`VENUE_SPECS` (the spec's shape is in venue_spec.py, the forms' choice scales in review_scales.py).
"""

from __future__ import annotations

from dataclasses import replace as _replace

from .review_scales import (
    COLM_RATING,
    CONF5,
    CORL_QUAL,
    CORL_REC,
    EMNLP_CONF,
    EMNLP_EXC,
    EMNLP_REPRO,
    EMNLP_SOUND,
    ICLR22_REC,
    ICLR24_CONF,
    ICLR24_RATING,
    NEURIPS23_RATING,
    RATING10,
    SPC,
)
from .venue_spec import DEADLINE_BOUNDARY_FORUMS, OPENREVIEW_LICENSES, SHORT_BUFFER_MIN, FieldSpec, VenueSpec, iso_to_ms

__all__ = ["VENUE_SPECS", "VenueSpec", "FieldSpec", "DEADLINE_BOUNDARY_FORUMS", "SHORT_BUFFER_MIN", "iso_to_ms"]


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
        FieldSpec("soundness", "choice", SPC),
        FieldSpec("presentation", "choice", SPC),
        FieldSpec("contribution", "choice", SPC),
        FieldSpec("strengths"),
        FieldSpec("weaknesses"),
        FieldSpec("questions"),
        FieldSpec("flag_for_ethics_review", "list", value="No ethics review needed."),
        FieldSpec("rating", "choice", ICLR24_RATING),
        FieldSpec("confidence", "choice", ICLR24_CONF),
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
# UTC instants the venues' OpenReview invitations carry (researched in docs/deadlines.md),
# written here independently of the catalogue's announced local times (benchmarks/bench_deadlines.py
# measures the agreement).
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
    # licenses: the venue's default (openreview-py venue/venue.py:82, 'CC BY 4.0') and every other value
    # venue_request.py:1469 offers, chosen by a few authors (venue_spec.note_license). The ICLR specs keep
    # the default alone: the recorded ICLR 2026 forums' 86 notes are all 'CC BY 4.0'.
    base = dict(key=key, venue_id=venue_id, api_version=2, short_name=short, deadline=deadline, year=year,
                license_choices=OPENREVIEW_LICENSES,
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
                   _T("rating", "choice", RATING10), _T("confidence", "choice", CONF5)),
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
    _T("recommendation", "choice", ICLR22_REC), _T("confidence", "choice", CONF5),
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
                   _T("needs_ethics_review", "const", value="No"), _T("rating", "choice", RATING10),
                   _T("confidence", "choice", CONF5), _T("code_of_conduct", "const", value="While performing my duties as a reviewer (including writing reviews and participating in discussions), I have and will continue to abide by the NeurIPS code of conduct.")),
    meta_review_name="Meta_Review", meta_review_fields=(_T("metareview"), _T("recommendation", "choice", ("Accept", "Reject"))),
    decision_options=("Accept (Oral)", "Accept (Spotlight)", "Accept (Poster)", "Reject"),
    **_venue_strings("NeurIPS 2021", {"Accept (Oral)": "NeurIPS 2021 Oral", "Accept (Spotlight)": "NeurIPS 2021 Spotlight",
                                      "Accept (Poster)": "NeurIPS 2021 Poster"}),
    subtitle="Neural Information Processing Systems", t_decision=120)
NEURIPS_2022 = _replace(
    NEURIPS_2021, key="neurips-2022", venue_id="NeurIPS.cc/2022/Conference", short_name="NeurIPS 2022",
    deadline="2022-05-19T20:00:00Z", year=2022,
    review_fields=(_T("summary"), _T("strengths_and_weaknesses"), _T("questions"), _T("limitations"),
                   _T("ethics_flag", "const", value="No"), _T("soundness", "choice", SPC),
                   _T("presentation", "choice", SPC), _T("contribution", "choice", SPC),
                   _T("rating", "choice", RATING10), _T("confidence", "choice", CONF5)),
    decision_options=("Accept", "Reject"),
    **_venue_strings("NeurIPS 2022", {"Accept": "NeurIPS 2022 Accept"}))
_NEURIPS23_REVIEW = (
    _T("summary"), _T("soundness", "choice", SPC), _T("presentation", "choice", SPC),
    _T("contribution", "choice", SPC), _T("strengths"), _T("weaknesses"), _T("questions"), _T("limitations"),
    _T("flag_for_ethics_review", "list", value="No ethics review needed."),
    _T("rating", "choice", NEURIPS23_RATING), _T("confidence", "choice", CONF5),
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
    license="CC BY-SA 4.0",  # a journal's default: openreview-py e25fd7d journal/journal.py:661
    review_release_edit=False,  # TMLR: no release edit seen in real data; rolling, per paper
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
                   _T("Soundness", "choice", EMNLP_SOUND), _T("Excitement", "choice", EMNLP_EXC),
                   _T("Reproducibility", "choice", EMNLP_REPRO), _T("Ethical_Concerns", "const", value="No"),
                   _T("Reviewer_Confidence", "choice", EMNLP_CONF)),
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
    _T("technical_quality", "choice", CORL_QUAL), _T("clarity_of_presentation", "choice", CORL_QUAL),
    _T("potential_impact", "choice", CORL_QUAL), _T("robotics_focus"),
    _T("recommendation", "choice", CORL_REC),
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
                   _T("rating", "choice", COLM_RATING), _T("confidence", "choice", CONF5),
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
