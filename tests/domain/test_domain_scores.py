"""scores.py: parse_score and the review-union normaliser."""
from __future__ import annotations

import math

import pytest

from reviewbench_assets.domain.reviews import normalize_review, parse_score, reviewer_id
from reviewbench_assets.domain.schema import REVIEW_FIELDS


@pytest.mark.parametrize("value, expected", [
    (6, 6.0), (4.5, 4.5), ("6: marginally above the acceptance threshold", 6.0),
    ("3 good", 3.0), ("4: The reviewer is confident but not absolutely certain", 4.0),
    ("8: Accept", 8.0), ("10", 10.0), ("  2: fair ", 2.0), ("-1: unsure", -1.0),
    (["3 good"], 3.0), ({"value": 5}, 5.0),
    (None, None), ("", None), ("N/A", None), ("Strong Accept", None), (True, None),
    ([1, 2], None), (float("nan"), None), ({"a": 1}, None),
])
def test_parse_score(value, expected):
    got = parse_score(value)
    assert got == expected and (got is None or isinstance(got, float))


def test_reviewer_id_is_last_segment():
    assert reviewer_id("ICLR.cc/2026/Conference/Submission4956/Reviewer_T1BF") == "Reviewer_T1BF"
    assert reviewer_id("ICLR.cc/2020/Conference/Paper1130/AnonReviewer1") == "AnonReviewer1"


def test_union_keys_exactly_and_v2_strings_kept():
    # ICLR 2024 style: scores are strings
    r = normalize_review("rid", "V/Submission1/Reviewer_abCd", {
        "summary": "S", "soundness": "3 good", "presentation": "2 fair", "contribution": "4 excellent",
        "rating": "6: marginally above the acceptance threshold",
        "confidence": "4: You are confident in your assessment",
        "flag_for_ethics_review": ["No ethics review needed."], "code_of_conduct": "Yes",
    })
    assert list(r) == REVIEW_FIELDS
    assert (r["review_id"], r["reviewer"]) == ("rid", "Reviewer_abCd")
    assert (r["rating"], r["confidence"], r["soundness"], r["presentation"], r["contribution"]) == (
        6.0, 4.0, 3.0, 2.0, 4.0)
    assert r["extra_text"]["rating_text"] == "6: marginally above the acceptance threshold"
    assert r["extra_text"]["soundness_text"] == "3 good"
    assert r["extra_text"]["flag_for_ethics_review"] == "No ethics review needed."
    assert r["summary"] == "S" and r["rebuttal"] == "" and r["was_revised"] is None


def test_iclr_2023_v1_aliases_and_extras():
    r = normalize_review("x", "ICLR.cc/2023/Conference/Paper9/Reviewer_Ab12", {
        "summary_of_the_paper": "SP", "strength_and_weaknesses": "SW",
        "clarity,_quality,_novelty_and_reproducibility": "Clear.",
        "summary_of_the_review": "Fine.", "correctness": "3: Some of the paper's claims have minor issues.",
        "technical_novelty_and_significance": "2: The contributions are only marginally significant.",
        "recommendation": "5: marginally below the acceptance threshold",
        "confidence": "3: You are fairly confident",
        "flag_for_ethics_review": ["NO."],
    })
    assert r["summary"] == "SP" and r["strengths_and_weaknesses"] == "SW"
    assert r["rating"] == 5.0 and r["confidence"] == 3.0
    assert r["extra_scores"] == {"correctness": 3.0, "technical_novelty_and_significance": 2.0}
    assert r["extra_text"]["correctness_text"].startswith("3: Some")
    # the body of the form is in the union, not in extra_text (issue 10 point 7)
    assert r["clarity_quality_novelty_and_reproducibility"] == "Clear."
    assert r["summary_of_the_review"] == "Fine."
    assert set(r["extra_text"]) == {"correctness_text", "technical_novelty_and_significance_text",
                                    "rating_text", "confidence_text", "flag_for_ethics_review"}
    assert r["extra_text"]["rating_text"].startswith("5: marginally")


def test_emnlp_capitalised_form():
    r = normalize_review("e", "EMNLP/2023/Conference/Submission1/Reviewer_q1", {
        "Paper_Topic_and_Main_Contributions": "Topic", "Reasons_to_accept": "Acc",
        "Reasons_to_reject": "Rej", "Questions_for_the_Authors": "Q?",
        "Soundness": "4: Strong: This study provides sufficient support",
        "Excitement": "3: Ambivalent", "Reproducibility": "4: Could mostly reproduce",
        "Reviewer_Confidence": "3: Pretty sure", "Ethical_Concerns": "No",
        "Missing_References": "None", "Typos_Grammar_Style_And_Presentation_Improvements": "few",
    }, conference="emnlp")
    assert r["paper_topic_and_main_contributions"] == "Topic"
    assert (r["reasons_to_accept"], r["reasons_to_reject"], r["questions"]) == ("Acc", "Rej", "Q?")
    assert (r["soundness"], r["excitement"], r["reproducibility"], r["confidence"]) == (4.0, 3.0, 4.0, 3.0)
    assert r["ethical_concerns"] == "No"
    assert r["missing_references"] == "None"
    assert r["typos_grammar_style_and_presentation_improvements"] == "few"
    assert not any(k[0].isupper() for k in r["extra_text"])  # every raw field found its union key


def test_corl_tmlr_neurips2025_icml_forms():
    corl = normalize_review("c", "x/Reviewer_1", {
        "summary_of_paper": "SoP", "summary_of_recommendation": "SoR", "robotics_focus": "yes",
        "technical_quality": "3: Good", "clarity_of_presentation": 4, "potential_impact": "2",
        "recommendation": "Strong Accept"}, conference="corl")
    assert (corl["summary_of_paper"], corl["summary_of_recommendation"], corl["robotics_focus"]) == (
        "SoP", "SoR", "yes")
    assert (corl["technical_quality"], corl["clarity_of_presentation"], corl["potential_impact"]) == (
        3.0, 4.0, 2.0)
    assert corl["rating"] is None and corl["extra_text"]["rating_text"] == "Strong Accept"

    tmlr = normalize_review("t", "TMLR/Paper1/Reviewer_x", {
        "summary_of_contributions": "C", "strengths_and_weaknesses": "SW",
        "requested_changes": "RC", "broader_impact_concerns": "none",
        "claims_and_evidence": "Yes", "audience": "Yes"}, conference="tmlr")
    assert (tmlr["summary"], tmlr["strengths_and_weaknesses"], tmlr["claims_and_evidence"]) == (
        "C", "SW", "Yes")
    assert (tmlr["requested_changes"], tmlr["broader_impact_concerns"]) == ("RC", "none")
    assert tmlr["extra_text"] == {"audience": "Yes"}

    nips = normalize_review("n", "x/Reviewer_2", {
        "summary": "S", "strengths_and_weaknesses": "SW", "quality": 3, "clarity": 2,
        "significance": 3, "originality": 4, "rating": 5, "confidence": 4,
        "final_justification": "Raised after rebuttal."}, conference="neurips")
    assert (nips["quality"], nips["clarity"], nips["significance"], nips["originality"]) == (
        3.0, 2.0, 3.0, 4.0)
    assert nips["final_justification"] == "Raised after rebuttal." and nips["was_revised"] is True

    icml = normalize_review("i", "x/Reviewer_3", {
        "claims_and_evidence": "CE", "theoretical_claims": "TC",
        "experimental_designs_or_analyses": "ED",
        "relation_to_broader_scientific_literature": "RL",
        "essential_references_not_discussed": "ER", "questions_for_authors": "Q",
        "overall_recommendation": "4: Accept", "novelty": 3}, conference="icml")
    assert icml["questions"] == "Q" and icml["rating"] == 4.0
    assert icml["extra_scores"] == {"novelty": 3.0}
    assert all(icml[f] for f in ("claims_and_evidence", "theoretical_claims",
                                 "experimental_designs_or_analyses",
                                 "relation_to_broader_scientific_literature",
                                 "essential_references_not_discussed"))


def test_no_field_is_dropped_and_prose_is_not_a_score():
    content = {"strengths": "1. The idea", "weird_field": "1. The idea is good", "score_x": 7,
               "comment_y": "2 issues:\nfirst", "list_z": ["a", "b"], "title": "T"}
    r = normalize_review("z", "s/Reviewer_9", content)
    assert r["strengths"] == "1. The idea"
    assert r["extra_scores"] == {"score_x": 7.0}
    assert r["extra_text"] == {"weird_field": "1. The idea is good", "comment_y": "2 issues:\nfirst",
                               "list_z": "a; b", "title": "T"}
    mapped = {"strengths"} | set(r["extra_scores"]) | set(r["extra_text"])
    assert set(content) <= mapped
    assert not any(isinstance(v, float) and math.isnan(v) for v in r.values())


def test_score_history_replays_partial_edits():
    """v1 references and v2 edits set only the fields they change: the form is replayed edit by
    edit, so a later edit that changes only the rating keeps the earlier confidence."""
    from reviewbench_assets.domain.reviews import score_history

    edits = [
        {"id": "e1", "tcdate": 100, "content": {"rating": "3: reject", "confidence": "4: confident"}},
        {"id": "e2", "tcdate": 200, "note": {"content": {"rating": {"value": 6}}}},
        {"id": "e3", "tcdate": 300, "content": {"review": "typo fixed"}},
    ]
    hist = score_history({"rating": 6.0, "confidence": 4.0}, edits, {}, "iclr", 100, True)
    assert hist == [{"time": 100, "rating": 3.0, "confidence": 4.0, "edit_id": "e1"},
                    {"time": 200, "rating": 6.0, "confidence": 4.0, "edit_id": "e2"},
                    {"time": 300, "rating": 6.0, "confidence": 4.0, "edit_id": "e3"}]
    # never edited: one point at posting time; edited without a crawled history: unknown
    assert score_history({"rating": 5.0, "confidence": None}, [], {}, "iclr", 42, False) == [
        {"time": 42, "rating": 5.0, "confidence": None, "edit_id": None}]
    assert score_history({"rating": 5.0}, [], {}, "iclr", 42, True) == []
