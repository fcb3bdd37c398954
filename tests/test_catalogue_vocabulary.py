"""The field vocabulary is catalogue data (issue 28.4): review-form aliases, each post kind's text
fields, signature patterns and revision invitation names live in `vocabulary:` of venues.yaml,
are validated like the rest (errors name the file, the line and the field), and the parser reads
them from there."""
from __future__ import annotations

import pytest
import yaml

from partitions.catalogue import CATALOGUE_PATH, CatalogueError, catalogue, load_catalogue, parse_catalogue
from reviewbench_assets.domain.schema import REVIEW_SCORE_FIELDS, REVIEW_TEXT_FIELDS


def _vocabulary_with(change) -> dict:
    doc = yaml.safe_load(CATALOGUE_PATH.read_text())
    change(doc["vocabulary"])
    return doc


def test_every_alias_names_a_union_field():
    union = set(REVIEW_TEXT_FIELDS) | set(REVIEW_SCORE_FIELDS)
    v = catalogue().vocabulary
    targets = set(v.field_aliases.values()) | {t for table in v.family_field_aliases.values()
                                                for t in table.values() if t is not None}
    assert targets and targets <= union, targets - union
    assert set(v.family_field_aliases) <= set(catalogue().families)


@pytest.mark.parametrize("change,needle", [
    (lambda v: v["field_aliases"].update({"Recommendation": "rating"}),
     "vocabulary.field_aliases.Recommendation.[key]: Value error, 'Recommendation' is not a lower-case form field"),
    (lambda v: v["family_field_aliases"].update(uai={"rating": "rating"}),
     "vocabulary.family_field_aliases: 'uai' is not a family"),
    (lambda v: v["text_fields"].pop("other"), "vocabulary.text_fields: Value error, kind 'other'"),
    (lambda v: v["signatures"].update(reviewer="Reviewer_[^/"), "vocabulary.signatures: Value error, reviewer: not a regular"),
    (lambda v: v["signatures"].update(chair="Chairs"), "unknown roles ['chair']"),
    (lambda v: v["revision_invitations"].update(post_deadline=["Revision", "-/Revision"]),
     "vocabulary.revision_invitations.post_deadline: Value error, not invitation names"),
    (lambda v: v.update(aliases={}), "vocabulary.aliases: Extra inputs are not permitted"),
    # the review union (issue 28.3): the typed columns are built from it, so it must be one union
    (lambda v: v["review_fields"]["scores"].append("summary"), "fields listed twice (text and scores are one union)"),
    (lambda v: v["review_fields"]["text"].append("reviewer"), "['reviewer'] are the normaliser's own fields"),
    (lambda v: v["field_aliases"].update(novelty="novelty_score"),
     "aliases name fields outside review_fields: ['novelty_score']"),
])
def test_a_wrong_vocabulary_names_the_field(change, needle):
    with pytest.raises(CatalogueError) as exc:
        parse_catalogue(_vocabulary_with(change), source="venues.yaml")
    assert needle in str(exc.value)


def test_errors_name_the_line(tmp_path):
    text = CATALOGUE_PATH.read_text()
    broken = text.replace("    summary_of_contributions: summary\n", "    Summary_Of_Contributions: summary\n", 1)
    path = tmp_path / "venues.yaml"
    path.write_text(broken)
    with pytest.raises(CatalogueError) as exc:
        load_catalogue(path)
    line = broken[:broken.index("Summary_Of_Contributions")].count("\n") + 1
    assert f"{path}:{line}: vocabulary.field_aliases.Summary_Of_Contributions" in str(exc.value)


def test_the_parser_reads_the_vocabulary_from_the_catalogue(monkeypatch):
    """A catalogue that names another alias, text field, signature or revision name changes what the
    parser does: the vocabulary is read from the catalogue, not from code."""
    from reviewbench_assets.domain import posts
    from reviewbench_assets.domain.reviews import union_field
    from reviewbench_assets.domain.revisions import note_proves_unrevised

    def change(v):
        v["field_aliases"]["overall_merit"] = "rating"
        v["text_fields"]["comment"] = ["reply"]
        v["signatures"]["reviewer"] = "Referee_[^/]+"
        v["revision_invitations"]["unrevised_note"] = ["Submission"]

    other = parse_catalogue(_vocabulary_with(change))
    assert union_field("Overall_Merit") is None and posts.role_of("V/Paper1/Referee_x") == "public"
    for module in ("reviewbench_assets.domain.reviews", "reviewbench_assets.domain.posts",
                   "reviewbench_assets.domain.revisions"):
        monkeypatch.setattr(f"{module}.catalogue", lambda: other)
    posts._signature_patterns.cache_clear()
    try:
        assert union_field("Overall_Merit") == "rating"
        assert posts.main_text("comment", {"comment": "no", "reply": "yes"}) == "yes"
        assert posts.role_of("V/Paper1/Referee_x") == "reviewer" and posts.role_of("V/Paper1/Reviewer_x") == "public"
        assert not note_proves_unrevised(["V/-/Submission", "V/-/Withdrawal"], "/pdf/x.pdf", 10, "v2")
    finally:
        posts._signature_patterns.cache_clear()
