"""The catalogue's field vocabulary (`vocabulary:` in venues.yaml): the names OpenReview's forms and
signatures use, which the parser maps onto the corpus (issue 28.4). Data, not code, so a venue whose
form renames a field, or a family that signs its reviewers otherwise, is a catalogue change:

- `field_aliases`: review-form field (lower-cased) -> union field of `reviews_json`; identity
  mappings are implicit (domain/reviews.py);
- `family_field_aliases`: per conference family, applied before `field_aliases`; null means "not a
  union field in this family";
- `text_fields`: per post kind, the content fields that hold its text, first present wins (`other`
  is the fallback kind; domain/posts.py `main_text`);
- `signatures`: per role, the pattern a signature ends with (`/Reviewer_abCd`; domain/posts.py `role_of`);
- `revision_invitations`: the invitation names that revise a submission after its deadline
  (`post_deadline`) and those that edit or mark it without a new PDF (`unrevised_note`;
  domain/revisions.py);
- `review_fields`: the union every review form maps onto (issue 28.3), in the card's order: the
  `text` fields and the `scores` (numbers); the typed review struct of the parsed table, the
  `reviews` config's columns and the keys of `reviews_json` are built from it (domain/schema.py).

Validated like the rest of the catalogue: every error names the file, the line and the field.
"""
from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from partitions.catalogue_yaml import Where

_FIELD_RE = re.compile(r"^[a-z0-9_,:]+$")  # form fields as lower-cased (ICLR 2023's carries commas)
_INVITATION_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
ROLES = ("reviewer", "area_chair", "program_chairs")


def _lower_field(name: str) -> str:
    if not _FIELD_RE.match(name):
        raise ValueError(f"{name!r} is not a lower-case form field name (fields are matched lower-cased)")
    return name


# checked one by one, so an error's place is the entry's own line
FieldName = Annotated[str, AfterValidator(_lower_field)]


class RevisionInvitations(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    post_deadline: tuple[str, ...]
    unrevised_note: tuple[str, ...]

    @field_validator("post_deadline", "unrevised_note")
    @classmethod
    def _names(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        bad = [n for n in names if not _INVITATION_RE.match(n)]
        if bad:
            raise ValueError(f"not invitation names (the `/-/<Name>` suffix): {bad}")
        return names


class ReviewFields(BaseModel):
    """The review union's form fields (the normaliser's own `review_id`, `reviewer`, `rebuttal`,
    `was_revised`, `extra_scores`, `extra_text`, `score_history` are schema, not vocabulary)."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    text: tuple[FieldName, ...] = ()
    scores: tuple[FieldName, ...] = ()

    @model_validator(mode="after")
    def _distinct(self) -> ReviewFields:
        names = [*self.text, *self.scores]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(f"fields listed twice (text and scores are one union): {repeated}")
        reserved = sorted(set(names) & set(RESERVED_REVIEW_FIELDS))
        if reserved:
            raise ValueError(f"{reserved} are the normaliser's own fields, not form fields")
        return self


# The review fields the normaliser fills itself (domain/reviews.py, domain/schema.py).
RESERVED_REVIEW_FIELDS = ("review_id", "reviewer", "rebuttal", "was_revised", "extra_scores", "extra_text",
                          "score_history")


class Vocabulary(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    field_aliases: dict[FieldName, FieldName] = Field(default_factory=dict)
    family_field_aliases: dict[str, dict[FieldName, FieldName | None]] = Field(default_factory=dict)
    text_fields: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    signatures: dict[str, str] = Field(default_factory=dict)
    revision_invitations: RevisionInvitations = RevisionInvitations(post_deadline=(), unrevised_note=())
    review_fields: ReviewFields = ReviewFields()

    @model_validator(mode="after")
    def _aliases_name_union_fields(self) -> Vocabulary:
        union = {*self.review_fields.text, *self.review_fields.scores}
        if not union:
            return self
        targets = set(self.field_aliases.values()) | {t for table in self.family_field_aliases.values()
                                                      for t in table.values() if t is not None}
        unknown = sorted(targets - union)
        if unknown:
            raise ValueError(f"aliases name fields outside review_fields: {unknown}")
        return self

    @field_validator("text_fields")
    @classmethod
    def _text_fields(cls, kinds: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        if kinds and "other" not in kinds:
            raise ValueError("kind 'other' (the fallback of every kind not listed) is required")
        for fields in kinds.values():
            if not fields:
                raise ValueError("every kind names at least one field")
        return kinds

    @field_validator("signatures")
    @classmethod
    def _signatures(cls, patterns: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(patterns) - set(ROLES))
        if unknown:
            raise ValueError(f"unknown roles {unknown}; known: {', '.join(ROLES)}")
        for role, pattern in patterns.items():
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"{role}: not a regular expression ({exc})") from None
        return patterns


def parse_vocabulary(raw: object, families: list[str], where: Where, problems: list[str]) -> Vocabulary:
    """The `vocabulary:` section (absent: empty); each problem names the line and the field."""
    if raw is None:
        return Vocabulary()
    if not isinstance(raw, dict):
        problems.append(f"{where('vocabulary')}: vocabulary: a mapping is required")
        return Vocabulary()
    for family in raw.get("family_field_aliases") or {}:
        if family not in families:
            problems.append(f"{where('vocabulary', 'family_field_aliases', family)}: vocabulary.family_field_aliases: "
                            f"{family!r} is not a family; known: {', '.join(families)}")
    try:
        return Vocabulary.model_validate(raw)
    except ValidationError as exc:
        for err in exc.errors():
            loc = tuple(err["loc"])
            problems.append(f"{where('vocabulary', *loc)}: vocabulary.{'.'.join(str(p) for p in loc)}: {err['msg']}")
        return Vocabulary()
