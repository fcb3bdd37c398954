"""The venue catalogue: `venues.yaml` validated by pydantic.

One catalogue drives partitions, crawling and splits. A wrong entry fails at import time with a
message that names the entry (its key or position) and the field.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

SPLITS: tuple[str, ...] = ("neurips", "iclr", "icml", "tmlr", "emnlp", "corl", "colm")
TRACKS: tuple[str, ...] = ("main", "datasets_and_benchmarks", "findings")
CATALOGUE_PATH = Path(__file__).with_name("venues.yaml")
_KEY_RE = re.compile(r"^(?P<conf>[a-z]+)(-(?P<year>\d{4}))?(-(?P<track>[a-z_]+))?$")


class CatalogueError(ValueError):
    """A catalogue entry is invalid; the message names the entry and the field."""


class Invitations(BaseModel):
    """Where a venue's notes live. Reply names are matched on the invitation suffix `/-/<Name>`."""

    model_config = ConfigDict(extra="forbid")
    submission: str
    withdrawn_submission: str
    desk_rejected_submission: str
    reply_group: Literal["Paper", "Submission"]
    review: list[str]
    meta_review: list[str]
    decision: list[str]
    rebuttal: list[str]
    comment: list[str]
    withdrawal: list[str]
    desk_rejection: list[str]


class VenueYear(BaseModel):
    """One partition: a conference's venue-year (or TMLR's rolling venue)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    key: str
    conference: Literal["neurips", "iclr", "icml", "tmlr", "emnlp", "corl", "colm"]
    year: int | None = Field(default=None, ge=2017, le=2100)
    api: Literal["v1", "v2"]
    tracks: dict[str, str]
    track_from_venue: dict[str, str] = Field(default_factory=dict)
    submission_deadline: datetime | None
    invitations: Invitations

    @property
    def split(self) -> str:
        return self.conference

    @property
    def venue_ids(self) -> list[str]:
        """Distinct OpenReview venue ids, in catalogue order."""
        return list(dict.fromkeys(self.tracks.values()))

    @property
    def deadline_ms(self) -> int | None:
        d = self.submission_deadline
        return None if d is None else int(d.timestamp() * 1000)

    def submission_invitations(self, venue_id: str) -> list[str]:
        inv = self.invitations
        return [inv.submission.format(venue_id=venue_id)]

    @field_validator("tracks")
    @classmethod
    def _tracks_known(cls, v: dict[str, str]) -> dict[str, str]:
        if not v:
            raise ValueError("at least one track is required")
        for name in v:
            if name not in TRACKS:
                raise ValueError(f"unknown track {name!r}; known: {', '.join(TRACKS)}")
        return v

    @field_validator("submission_deadline")
    @classmethod
    def _deadline_utc(cls, v: datetime | None) -> datetime | None:
        if v is not None and (v.tzinfo is None or v.utcoffset() != timezone.utc.utcoffset(None)):
            raise ValueError("submission_deadline must be given in UTC (suffix Z)")
        return v

    @model_validator(mode="after")
    def _key_matches(self) -> "VenueYear":
        m = _KEY_RE.match(self.key)
        if not m:
            raise ValueError(f"key {self.key!r} is not <conference>-<year>[-<track>]")
        if m["conf"] != self.conference:
            raise ValueError(f"key {self.key!r} does not start with conference {self.conference!r}")
        if self.conference == "tmlr":
            if self.year is not None or self.submission_deadline is not None:
                raise ValueError("tmlr is rolling: year and submission_deadline must be null")
        else:
            if self.year is None or m["year"] is None or int(m["year"]) != self.year:
                raise ValueError(f"key {self.key!r} does not carry year {self.year}")
            if self.submission_deadline is None:
                raise ValueError("submission_deadline is required for a venue-year")
        if m["track"] and m["track"] not in self.tracks:
            raise ValueError(f"key track {m['track']!r} is not among tracks {list(self.tracks)}")
        for track in self.track_from_venue:
            if track not in self.tracks:
                raise ValueError(f"track_from_venue names unknown track {track!r}")
        return self


class Catalogue(BaseModel):
    model_config = ConfigDict(frozen=True)
    venues: tuple[VenueYear, ...]

    @property
    def keys(self) -> list[str]:
        return [v.key for v in self.venues]

    def get(self, key: str) -> VenueYear:
        for v in self.venues:
            if v.key == key:
                return v
        raise KeyError(f"unknown venue-year partition {key!r}; known: {', '.join(self.keys)}")

    def keys_for_split(self, split: str) -> list[str]:
        return [v.key for v in self.venues if v.split == split]

    @property
    def splits(self) -> list[str]:
        return [s for s in SPLITS if self.keys_for_split(s)]


def _entry_label(raw: dict, index: int) -> str:
    key = raw.get("key") if isinstance(raw, dict) else None
    return f"entry #{index} (key={key!r})" if key else f"entry #{index}"


def parse_catalogue(doc: dict, source: str = "<catalogue>") -> Catalogue:
    """Validate a catalogue document; errors name the entry and the field."""
    defaults = doc.get("defaults", {})
    venues, problems, seen = [], [], set()
    for i, raw in enumerate(doc.get("venues") or []):
        label = _entry_label(raw, i)
        try:
            if not isinstance(raw, dict):
                raise CatalogueError(f"{source}: {label}: must be a mapping")
            api = raw.get("api")
            base = dict(defaults.get(api, {})) if api in ("v1", "v2") else {}
            base.update(raw.get("invitations") or {})
            entry = VenueYear.model_validate({**raw, "invitations": base})
        except ValidationError as exc:
            for err in exc.errors():
                field = ".".join(str(p) for p in err["loc"]) or "(entry)"
                problems.append(f"{source}: {label}: field {field}: {err['msg']}")
            continue
        except CatalogueError as exc:
            problems.append(str(exc))
            continue
        if entry.key in seen:
            problems.append(f"{source}: {label}: field key: duplicate key {entry.key!r}")
        seen.add(entry.key)
        venues.append(entry)
    if not venues and not problems:
        problems.append(f"{source}: no venues")
    if problems:
        raise CatalogueError("invalid venue catalogue:\n  " + "\n  ".join(problems))
    return Catalogue(venues=tuple(venues))


def load_catalogue(path: Path | str = CATALOGUE_PATH) -> Catalogue:
    path = Path(path)
    return parse_catalogue(yaml.safe_load(path.read_text()), source=path.name)


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The project's catalogue, validated once per process."""
    return load_catalogue()
