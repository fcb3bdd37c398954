"""Scale maxima per review form land in each review's extra_scores; label-only scores get a number."""
from partitions import catalogue
from reviewbench_assets.domain.reviews import attach_scales, normalize_review


def test_iclr_2024_string_rating_keeps_text_and_gets_its_scale():
    review = normalize_review("r1", "ICLR.cc/2024/Conference/Submission1/Reviewer_abCd",
                              {"rating": "6: marginally above the acceptance threshold",
                               "soundness": "3 good"}, conference="iclr")
    review = attach_scales(review, catalogue().get("iclr-2024").rating_scales)
    assert review["rating"] == 6 and review["extra_scores"]["rating_max"] == 10
    assert review["soundness"] == 3 and review["extra_scores"]["soundness_max"] == 4
    assert review["extra_text"]["rating_text"].startswith("6: marginally")


def test_corl_label_rating_gets_a_number_from_the_scale_table():
    assert "corl-2022" in catalogue().keys
    review = normalize_review("r2", "robot-learning.org/CoRL/2022/Conference/Paper3/Reviewer_x1",
                              {"recommendation": "Strong accept"}, conference="corl")
    review = attach_scales(review, catalogue().get("corl-2022").rating_scales)
    assert review["rating"] == 4.0 and review["extra_scores"]["rating_max"] == 4.0


def test_a_venue_without_scales_adds_no_scale():
    review = attach_scales(normalize_review("r3", "X/Reviewer_1", {"rating": 5}), {})
    assert review["rating"] == 5 and "rating_max" not in review["extra_scores"]
