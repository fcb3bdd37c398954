"""The resubmission linking rule on records written by hand (issue 37 items 2-3): which pairs are
versions of one paper is stated here by the author of each case, not derived from the rule."""
from __future__ import annotations

import doctest

from reviewbench_assets.domain import resubmissions
from reviewbench_assets.domain.resubmissions import Submission, chain_split, link_resubmissions

# a paper and what its author wrote for the next venue (first sentence rewritten, a result added, a
# number updated): the same hand-written versions the stage's tests link
from tests.stages.resubmission_inputs import ABSTRACT_V1, ABSTRACT_V2

# same area, same keywords, a different paper
DISTRACTOR = (
    "Large language models often fail to follow multi-step instructions. We propose a decoding method "
    "that verifies each step against the instruction before continuing, and show on three compositional "
    "benchmarks that it reduces step omissions by a third without any fine-tuning of the model.")

V1 = Submission(id="iclr24_a", venue_year="iclr-2024", time=1_695_000_000_000,
                title="Curriculum Learning for Compositional Instruction Following", abstract=ABSTRACT_V1,
                authors=("Maria Lopez", "Jun Park"), decision="Reject")
V2 = Submission(id="nips24_b", venue_year="neurips-2024", time=1_715_000_000_000,
                title="Ordering Instructions by Dependency Depth Helps Language Models Compose",
                abstract=ABSTRACT_V2, authors=("Jun Park", "Maria Lopez", "Wei Chen"), decision="Reject")
V3 = Submission(id="iclr25_c", venue_year="iclr-2025", time=1_727_000_000_000,
                title="Ordering Instructions by Dependency Depth Helps Language Models Compose",
                abstract=ABSTRACT_V2, authors=("J. Park", "M. Lopez", "W. Chen"), decision="Accept (Poster)")
OTHER = Submission(id="nips24_x", venue_year="neurips-2024", time=1_715_100_000_000,
                   title="Step Verification Decoding for Compositional Instruction Following",
                   abstract=DISTRACTOR, authors=("Maria Lopez", "Sam Roy"), decision="Accept (Poster)")


def test_a_retitled_rewritten_resubmission_chain_is_linked_in_time_order_with_its_decisions():
    got = link_resubmissions([V3, OTHER, V1, V2])
    assert {(l.earlier, l.later) for l in got.links} == {("iclr24_a", "nips24_b"), ("nips24_b", "iclr25_c"),
                                                        ("iclr24_a", "iclr25_c")}
    assert all(l.kind == "resubmission" for l in got.links)
    (chain,) = got.chains
    assert chain.chain_id == "iclr24_a"
    assert [(s.id, s.decision) for s in chain.steps] == [
        ("iclr24_a", "Reject"), ("nips24_b", "Reject"), ("iclr25_c", "Accept (Poster)")]
    first = next(l for l in got.links if l.later == "nips24_b")
    assert set(first.signals) == {"title", "abstract", "abstract_words", "abstract_distinct", "authors"} and first.signals["authors"] == 1.0
    assert 0 < first.confidence <= 1


def test_a_same_area_paper_sharing_keywords_and_an_author_is_not_linked():
    got = link_resubmissions([V1, OTHER])
    assert got.links == [] and got.chains == []


def test_an_identical_submission_in_one_venue_year_is_a_dual_submission():
    twin = V1.model_copy(update={"id": "iclr24_twin", "title": V1.title + ".", "time": V1.time + 3600_000})
    got = link_resubmissions([V1, twin, OTHER])
    assert [(l.earlier, l.later, l.kind) for l in got.links] == [("iclr24_a", "iclr24_twin", "dual_submission")]


def test_a_rewritten_version_in_the_same_venue_year_is_no_link():
    other_track = V2.model_copy(update={"id": "iclr24_w", "venue_year": "iclr-2024"})
    assert link_resubmissions([V1, other_track]).links == []


def test_an_explicit_tmlr_link_holds_without_any_text():
    a = Submission(id="tmlr_a", venue_year="tmlr", time=1, title="X", decision="Reject")
    b = Submission(id="tmlr_b", venue_year="tmlr", time=2, title="Y", resubmission_of="tmlr_a",
                   decision="Accept")
    got = link_resubmissions([a, b])
    assert [(l.earlier, l.later, l.evidence, l.confidence) for l in got.links] == [
        ("tmlr_a", "tmlr_b", "explicit:resubmission_of", 1.0)]


def test_degenerate_records_are_left_alone_with_a_reason_or_linked_by_what_they_carry():
    no_abstract = Submission(id="n1", venue_year="iclr-2023", time=1, title="Transformers", authors=("A B",))
    no_abstract2 = Submission(id="n2", venue_year="iclr-2024", time=2, title="Transformers", authors=("A B",))
    empty = Submission(id="e", venue_year="iclr-2024", time=3)
    empty_text = Submission(id="t", venue_year="iclr-2024", time=4, title="On", full_text="")
    one_word_with_abstract = V2.model_copy(update={"id": "w", "title": "Compose"})
    got = link_resubmissions([no_abstract, no_abstract2, empty, empty_text, V1, one_word_with_abstract])
    assert {(x.id, x.reason) for x in got.left_alone} == {("n1", "too_little_text"), ("n2", "too_little_text"),
                                                          ("e", "too_little_text"), ("t", "too_little_text")}
    assert [(l.earlier, l.later) for l in got.links] == [("iclr24_a", "w")]


def test_a_title_and_authors_link_a_version_without_abstract():
    bare = V3.model_copy(update={"id": "bare", "abstract": "", "venue_year": "icml-2025"})
    got = link_resubmissions([V2, bare])
    assert [(l.earlier, l.later, l.evidence) for l in got.links] == [
        ("nips24_b", "bare", "title+authors_without_abstract")]


def test_only_links_touching_a_changed_venue_year_are_scored():
    got = link_resubmissions([V1, V2, V3], touching=["iclr-2025"])
    assert {(l.earlier, l.later) for l in got.links} == {("nips24_b", "iclr25_c"), ("iclr24_a", "iclr25_c")}


def test_a_chain_is_on_one_side_and_a_test_paper_stays_in_test_as_chains_grow():
    share = 0.05
    test_ids = [f"f{i}" for i in range(400) if resubmissions.forum_in_test(f"f{i}", share)]
    train_ids = [f"f{i}" for i in range(400) if not resubmissions.forum_in_test(f"f{i}", share)]
    assert chain_split([train_ids[0], train_ids[1]], share) == "train"
    assert chain_split([train_ids[0], test_ids[0]], share) == "test"
    assert chain_split([test_ids[0], train_ids[0]], share) == "test"  # order-free
    # two earlier chains, one in test, joined by a new version: the whole chain is in test
    assert chain_split([train_ids[2], train_ids[3], train_ids[4], test_ids[1]], share) == "test"
    (chain,) = link_resubmissions([V1, V2, V3]).chains  # one chain, so one side (domain/resubmission_rows.chain_sides)
    assert {s.id for s in chain.steps} == {"iclr24_a", "nips24_b", "iclr25_c"}


def test_the_module_example_runs():
    assert doctest.testmod(resubmissions).failed == 0
