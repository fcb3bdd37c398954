"""The venue catalogue: `venues.yaml` validated by pydantic.

One catalogue drives partitions, crawling, splits, deadlines and score scales. Conference families,
tracks, split names and rating scales are data in the catalogue (a new venue-year, a workshop or a new
conference is an entry, not code), checked for consistency. A wrong entry fails at import time with a
message that names the entry (its key or position) and the field.

`REVIEWBENCH_CATALOGUE` names another catalogue file (tests, a private deployment); it is read once
per process, before the Dagster partitions are built from it.
"""
from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta
from datetime import date as Date
from datetime import time as Time
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from partitions.catalogue_yaml import Where, read_catalogue_yaml
from partitions.vocabulary import Vocabulary, parse_vocabulary
from partitions.windows import Discussion
from partitions.zones import zone

CATALOGUE_PATH = Path(__file__).with_name("venues.yaml")
CATALOGUE_ENV = "REVIEWBENCH_CATALOGUE"
# <conference>-<year>[-<track>[-<name>]]: the optional name tells apart several venues of one track
# and year (the workshops of a conference).
_KEY_RE = re.compile(r"^(?P<conf>[a-z][a-z0-9]*)(-(?P<year>\d{4}))?(-(?P<track>[a-z_]+)(-(?P<name>[a-z0-9_]+))?)?$")
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")

# OpenReview accepts uploads until the submission invitation's expdate, which its venue code sets to
# the deadline + 30 minutes unless the venue set another (openreview-py: openreview/venue/invitation.py
# and openreview/conference/invitation.py, SHORT_BUFFER_MIN = 30).
DEFAULT_GRACE_MINUTES = 30


class CatalogueError(ValueError):
    """A catalogue entry is invalid; the message names the entry and the field."""


class Deadline(BaseModel):
    """A full-paper deadline as the venue announced it (local date, time and zone), with its source.

    `utc` is computed here, once, when the entry is validated (the stages read instants, never convert);
    nobody writes a hand-converted instant. `grace_minutes` is OpenReview's upload grace after the
    deadline (the invitation's expdate); a venue that set another states it.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    date: Date
    time: Time = Time(23, 59, 59)
    tz: str
    source: str = Field(min_length=3)
    confidence: Literal["high", "medium", "low"]
    note: str = ""
    grace_minutes: int = Field(default=DEFAULT_GRACE_MINUTES, ge=0, le=24 * 60)
    # Two-stage venues: the abstract deadline, same zone. OpenReview's venue code may put it on the
    # submission invitation as its duedate (openreview-py SubmissionStage: due_date = the first
    # deadline, second_due_date = the full paper), so the cross-check recognises it.
    abstract_date: Date | None = None
    abstract_time: Time = Time(23, 59, 59)

    @field_validator("tz")
    @classmethod
    def _known_zone(cls, v: str) -> str:
        zone(v)
        return v

    _utc: datetime = PrivateAttr()
    _abstract_ms: int | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _instants(self) -> Deadline:
        """The announced local times as instants (zone() converts daylight saving too)."""
        self._utc = datetime.combine(self.date, self.time).replace(tzinfo=zone(self.tz)).astimezone(UTC)
        if self.abstract_date is not None:
            abstract = datetime.combine(self.abstract_date, self.abstract_time).replace(tzinfo=zone(self.tz))
            self._abstract_ms = int(abstract.timestamp() * 1000)
            if self._abstract_ms >= self.ms:
                raise ValueError("the abstract deadline must come before the full-paper deadline")
        return self

    @property
    def utc(self) -> datetime:
        return self._utc

    @property
    def ms(self) -> int:
        return int(self._utc.timestamp() * 1000)

    @property
    def abstract_ms(self) -> int | None:
        return self._abstract_ms

    @property
    def cutoff_ms(self) -> int:
        """The last instant OpenReview accepted an upload: deadline + grace (the expdate)."""
        return self.ms + self.grace_minutes * 60_000

    @property
    def announced(self) -> str:
        return f"{self.date.isoformat()} {self.time.isoformat()} {self.tz}"


class Invitations(BaseModel):
    """Where a venue's notes live. Reply names are matched on the invitation suffix `/-/<Name>`."""

    model_config = ConfigDict(extra="forbid")
    submission: str
    # The invitation authors submitted to, which carries duedate/expdate (v1: the original
    # `<venue>/-/Submission`, not the dateless Blind_Submission copy).
    deadline: str
    withdrawn_submission: str
    desk_rejected_submission: str
    review: list[str]
    meta_review: list[str]
    decision: list[str]
    rebuttal: list[str]
    comment: list[str]
    withdrawal: list[str]
    desk_rejection: list[str]
    # other reply names a forum of this venue may hold without needing a look (domain/routing.py)
    known_other: list[str] = Field(default_factory=list)


class Scale(BaseModel):
    """One score field of a review form: its range and the labels that carry no leading number."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    min: float
    max: float
    labels: dict[str, float] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _ordered(self) -> Scale:
        if self.min >= self.max:
            raise ValueError(f"scale min {self.min} must be below max {self.max}")
        for label, n in self.labels.items():
            if not self.min <= n <= self.max:
                raise ValueError(f"label {label!r} = {n} lies outside [{self.min}, {self.max}]")
        return self


class Family(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    split: str
    name: str


class VenueYear(BaseModel):
    """One partition: a conference's venue-year (or TMLR's rolling venue)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    key: str
    conference: str
    year: int | None = Field(default=None, ge=2013, le=2100)
    api: Literal["v1", "v2"]
    tracks: dict[str, str]
    track_from_venue: dict[str, str] = Field(default_factory=dict)
    rolling: bool = False  # a journal without a venue deadline (TMLR)
    deadline: Deadline | None = None
    discussion: Discussion | None = None  # the announced author-reviewer discussion (refreshed daily inside it)
    split_name: str = Field(default="", alias="split")  # filled from the family when not given
    rating_scales: dict[str, Scale] = Field(default_factory=dict)  # union score field -> scale
    invitations: Invitations

    @property
    def split(self) -> str:
        return self.split_name

    @property
    def venue_ids(self) -> list[str]:
        """Distinct OpenReview venue ids, in catalogue order."""
        return list(dict.fromkeys(self.tracks.values()))

    @property
    def submission_deadline(self) -> datetime | None:
        return None if self.deadline is None else self.deadline.utc

    @property
    def deadline_ms(self) -> int | None:
        return None if self.deadline is None else self.deadline.ms

    @property
    def cutoff_ms(self) -> int | None:
        return None if self.deadline is None else self.deadline.cutoff_ms

    @property
    def followed_live(self) -> bool:
        """Refreshed daily at some time: a rolling venue, or one with a discussion window."""
        return self.rolling or self.discussion is not None

    def open_at(self, at: datetime) -> bool:
        """Whether `at` (aware) falls while the venue is open: always for a rolling venue, else inside
        its discussion window."""
        return self.rolling or (self.discussion is not None and self.discussion.contains(at))

    def closed_at(self, at: datetime) -> bool:
        """Whether the venue-year is over at `at` (aware): its uploads closed (deadline + grace passed)
        and no daily refresh is due any more (no discussion window, or the night after it has passed,
        schedules.py). A rolling venue never closes. A closed venue-year's venue-level answers are final."""
        if self.rolling or self.deadline is None or at.timestamp() * 1000 <= self.deadline.cutoff_ms:
            return False
        return self.discussion is None or at - timedelta(days=1) > self.discussion.bounds_utc()[1]

    def deadline_invitations(self) -> list[str]:
        """The invitation(s) whose duedate/expdate OpenReview enforced, one per venue id."""
        return [self.invitations.deadline.format(venue_id=vid) for vid in self.venue_ids]

    @field_validator("tracks")
    @classmethod
    def _tracks_present(cls, v: dict[str, str]) -> dict[str, str]:
        if not v:
            raise ValueError("at least one track is required")
        return v

    @model_validator(mode="after")
    def _key_matches(self) -> VenueYear:
        m = _KEY_RE.match(self.key)
        if not m:
            raise ValueError(f"key {self.key!r} is not <conference>-<year>[-<track>[-<name>]]")
        if m["conf"] != self.conference:
            raise ValueError(f"key {self.key!r} does not start with conference {self.conference!r}")
        if self.rolling:
            if self.year is not None or self.deadline is not None:
                raise ValueError("a rolling venue has no year and no deadline (both null)")
            if self.discussion is not None:
                raise ValueError("a rolling venue is always open: it has no discussion window")
        else:
            if self.year is None or m["year"] is None or int(m["year"]) != self.year:
                raise ValueError(f"key {self.key!r} does not carry year {self.year}")
            if self.deadline is None:
                raise ValueError("deadline is required for a venue-year (date, time, tz, source, confidence)")
            _deadline_near_year(self.deadline.date, self.year)
            if self.discussion is not None and self.discussion.start <= self.deadline.date:
                raise ValueError(f"discussion starts {self.discussion.start}, not after the deadline "
                                 f"{self.deadline.date}")
        if m["track"] and m["track"] not in self.tracks:
            raise ValueError(f"key track {m['track']!r} is not among tracks {list(self.tracks)}")
        for track in self.track_from_venue:
            if track not in self.tracks:
                raise ValueError(f"track_from_venue names unknown track {track!r}")
        return self


# A full-paper deadline lies months before the venue (ICLR 2024's: 2023-09-28) or, for a journal
# track, within its year; one further than this from the venue's calendar year is a typo (a 2032
# deadline for iclr-2024), and the cut-off it sets would choose the wrong revision for every paper.
MAX_DEADLINE_DISTANCE_DAYS = 548  # 18 months


def _deadline_near_year(day: Date, year: int) -> None:
    start, end = Date(year, 1, 1), Date(year, 12, 31)
    distance = (start - day).days if day < start else (day - end).days if day > end else 0
    if distance > MAX_DEADLINE_DISTANCE_DAYS:
        raise ValueError(f"deadline {day.isoformat()} lies {distance} days outside the venue's year {year} "
                         f"(at most {MAX_DEADLINE_DISTANCE_DAYS}, 18 months)")


class Catalogue(BaseModel):
    model_config = ConfigDict(frozen=True)
    venues: tuple[VenueYear, ...]
    split_order: tuple[str, ...] = ()
    families: dict[str, Family] = Field(default_factory=dict)
    track_names: tuple[str, ...] = ()
    vocabulary: Vocabulary = Field(default_factory=Vocabulary)  # form field and signature names (vocabulary.py)

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
        """Split names that have at least one venue-year, in the catalogue's order."""
        return [s for s in self.split_order if self.keys_for_split(s)]


TOP_LEVEL_FIELDS = ("splits", "tracks", "families", "rating_scales", "defaults", "vocabulary", "venues")


def _entry_label(raw: dict, index: int) -> str:
    key = raw.get("key") if isinstance(raw, dict) else None
    return f"entry #{index} (key={key!r})" if key else f"entry #{index}"


def _names(doc: dict, field: str, where: Where, problems: list[str]) -> list[str]:
    names = doc.get(field)
    if not isinstance(names, list) or not names:
        problems.append(f"{where(field)}: field {field}: a non-empty list of names is required")
        return []
    for n in names:
        if not isinstance(n, str) or not _NAME_RE.match(n):
            problems.append(f"{where(field)}: field {field}: {n!r} is not a lower-case name")
    if len(set(names)) != len(names):
        problems.append(f"{where(field)}: field {field}: duplicate names")
    return [n for n in names if isinstance(n, str)]


def _scales(doc: dict, where: Where, problems: list[str]) -> dict[str, dict[str, Scale]]:
    """Named scale sets: name -> {union score field: Scale}; `[min, max]` or `[min, max, {labels}]`."""
    out: dict[str, dict[str, Scale]] = {}
    for name, fields in (doc.get("rating_scales") or {}).items():
        out[name] = {}
        for field, spec in (fields or {}).items():
            try:
                if not isinstance(spec, list) or len(spec) not in (2, 3):
                    raise ValueError("give [min, max] or [min, max, {label: number}]")
                out[name][field] = Scale(min=spec[0], max=spec[1], labels=spec[2] if len(spec) == 3 else {})
            except (ValueError, ValidationError) as exc:
                problems.append(f"{where('rating_scales', name, field)}: rating_scales.{name}.{field}: {exc}")
    return out


def parse_catalogue(doc: dict, source: str = "<catalogue>", lines: dict[tuple, int] | None = None) -> Catalogue:
    """Validate a catalogue document; errors name the file (and line, given `lines`), the entry and the field."""
    where = Where(source, lines)
    if not isinstance(doc, dict):
        raise CatalogueError(f"invalid venue catalogue:\n  {where()}: "
                             + ("the file is empty" if doc is None else f"a mapping is required, got {type(doc).__name__}"))
    problems: list[str] = [f"{where(k)}: unknown top-level field {k!r}; known: {', '.join(TOP_LEVEL_FIELDS)}"
                           for k in doc if k not in TOP_LEVEL_FIELDS]
    split_order = _names(doc, "splits", where, problems)
    track_names = _names(doc, "tracks", where, problems)
    families: dict[str, Family] = {}
    for name, raw in (doc.get("families") or {}).items():
        try:
            fam = Family.model_validate(raw)
        except ValidationError as exc:
            problems.append(f"{where('families', name)}: families.{name}: {exc.errors()[0]['msg']}")
            continue
        if fam.split not in split_order:
            problems.append(f"{where('families', name)}: families.{name}: field split: {fam.split!r} is not among splits {split_order}")
        families[name] = fam
    scale_sets = _scales(doc, where, problems)
    vocabulary = parse_vocabulary(doc.get("vocabulary"), list(families), where, problems)
    defaults = doc.get("defaults", {})
    venues, seen = [], set()
    for i, raw in enumerate(doc.get("venues") or []):
        label = _entry_label(raw, i)
        if not isinstance(raw, dict):
            problems.append(f"{where('venues', i)}: {label}: must be a mapping")
            continue
        local: list[str] = []
        conf = raw.get("conference")
        if conf not in families:
            local.append(f"{where('venues', i, 'conference')}: {label}: field conference: {conf!r} is not a family; known: {', '.join(families)}")
        for track in raw.get("tracks") or {}:
            if track not in track_names:
                local.append(f"{where('venues', i, 'tracks', track)}: {label}: field tracks: unknown track {track!r}; known: {', '.join(track_names)}")
        split = raw.get("split") or (families[conf].split if conf in families else "")
        if split and split not in split_order:
            local.append(f"{where('venues', i, 'split')}: {label}: field split: {split!r} is not among splits {split_order}")
        scales: dict[str, Scale] = {}
        for sname in raw.get("scales") or []:
            if sname not in scale_sets:
                local.append(f"{where('venues', i, 'scales')}: {label}: field scales: unknown scale set {sname!r}; known: {', '.join(scale_sets)}")
            else:
                scales.update(scale_sets[sname])
        api = raw.get("api")
        base = dict(defaults.get(api, {})) if api in ("v1", "v2") else {}
        base.update(raw.get("invitations") or {})
        fields = {k: v for k, v in raw.items() if k not in ("scales", "split", "invitations")}
        try:
            entry = VenueYear.model_validate({**fields, "split": split, "rating_scales": scales,
                                              "invitations": base})
        except ValidationError as exc:
            for err in exc.errors():
                loc = tuple("split" if p == "split_name" else p for p in err["loc"])
                field = ".".join(str(p) for p in loc) or "(entry)"
                value = f" ({err['input']})" if isinstance(err.get("input"), str | int | float) else ""
                local.append(f"{where('venues', i, *loc)}: {label}: field {field}: {err['msg']}{value}")
            entry = None
        problems.extend(local)
        if entry is None or local:
            continue
        if entry.key in seen:
            problems.append(f"{where('venues', i, 'key')}: {label}: field key: duplicate key {entry.key!r}")
        seen.add(entry.key)
        venues.append(entry)
    if not venues and not problems:
        problems.append(f"{where()}: no venues")
    if problems:
        raise CatalogueError("invalid venue catalogue:\n  " + "\n  ".join(problems))
    return Catalogue(venues=tuple(venues), split_order=tuple(split_order), families=families,
                     track_names=tuple(track_names), vocabulary=vocabulary)


def load_catalogue(path: Path | str = CATALOGUE_PATH) -> Catalogue:
    """Read and validate a catalogue file; every error names the file, the line, the entry and the field."""
    path = Path(path)
    try:
        doc, lines = read_catalogue_yaml(path)
    except ValueError as exc:
        raise CatalogueError(f"invalid venue catalogue:\n  {exc}") from None
    return parse_catalogue(doc, source=str(path), lines=lines)


def catalogue_path() -> Path:
    """`REVIEWBENCH_CATALOGUE` when set (it must name an existing file), else partitions/venues.yaml."""
    override = os.environ.get(CATALOGUE_ENV, "").strip()
    if not override:
        return CATALOGUE_PATH
    path = Path(override).expanduser()
    if not path.is_file():
        raise CatalogueError(f"{CATALOGUE_ENV}={override!r} names no catalogue file")
    return path


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The project's catalogue (or the one `REVIEWBENCH_CATALOGUE` names), validated once per process."""
    return load_catalogue(catalogue_path())
