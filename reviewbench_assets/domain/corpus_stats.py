"""Statistics of the published corpus (per venue-year and per split): what the dataset card and the
split assets' metadata report. Pure: the figures, their merge and their JSON form, the venue-year key
and the acceptance rule; they are computed by SQL over the rows (stages/rows_stage.py)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pyarrow as pa

from partitions.catalogue import catalogue

_REJECT_MARKERS = ("reject", "withdrawn", "desk rejected", "submitted to")


# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------


def venue_year_key(conference: str | None, year: int | None, track: str | None) -> str:
    """``f"{conference}-{year}"``, plus ``f"-{track}"`` when the track is not ``main``/empty.

    Matches the partition keys (``iclr-2024``, ``neurips-2023-datasets_and_benchmarks``; EMNLP's
    Findings track gives ``emnlp-2023-findings`` inside partition ``emnlp-2023``). A rolling venue
    (a catalogue entry without a year: TMLR) is one partition whatever the rows' years, and is keyed
    by that partition (``tmlr``), not by a year it does not have.
    """
    key = conference or "unknown"
    rolling = _rolling_keys()
    if key in rolling:
        return rolling[key]
    if year is not None:
        key = f"{key}-{year}"
    if track and track != "main":
        key = f"{key}-{track}"
    return key


def _rolling_keys() -> dict[str, str]:
    return {v.conference: v.key for v in catalogue().venues if v.year is None}


def is_accepted(decision: str | None, venue: str | None) -> bool:
    """The acceptance rule used for the card's acceptance rates.

    1. A non-empty ``decision`` wins: accepted iff it starts with "Accept" (case-insensitive;
       covers "Accept (poster)", "Accept-Findings", TMLR "Accept with minor revision"), rejected
       if it mentions reject/withdraw.
    2. Otherwise (no or unrecognised decision, e.g. "Poster") the final ``venue`` string decides:
       accepted iff it is non-empty and contains none of "Reject", "Withdrawn", "Desk Rejected",
       "Submitted to" (case-insensitive) — OpenReview leaves "Submitted to X" on papers that were
       not accepted.
    """
    d = (decision or "").strip().lower()
    if d.startswith("accept"):
        return True
    if "reject" in d or "withdraw" in d:
        return False
    v = (venue or "").strip().lower()
    if not v:
        return False
    return not any(marker in v for marker in _REJECT_MARKERS)


@dataclass
class VenueYearStats:
    key: str
    conference: str
    year: int | None
    track: str
    papers: int = 0
    reviews: int = 0  # sum of num_reviews
    pages: int = 0  # markdown.count(PAGE_SEPARATOR) + 1 for non-empty markdown
    papers_with_markdown: int = 0
    accepted: int = 0  # see is_accepted()
    rating_counts: dict[float, int] = field(default_factory=dict)  # rating value -> reviews
    # How ratings moved during the discussion, over the reviews whose trajectory is known
    # (`score_history` with a numeric rating at both ends): tracked, edited (more than one point),
    # changed / up / down (last rating against the first), and the sums of first and last ratings.
    moves: dict[str, float] = field(default_factory=dict)
    # Which revision each paper's full text comes from (provenance ``revision_rule``: initial,
    # current_is_initial, earliest_public, unavailable) -> papers; filled from the provenance config.
    text_rules: dict[str, int] = field(default_factory=dict)
    # The records' own licenses (provenance `license`, reviews config `license`) -> papers / reviews
    paper_licenses: dict[str, int] = field(default_factory=dict)
    review_licenses: dict[str, int] = field(default_factory=dict)

    @property
    def num_ratings(self) -> int:
        return sum(self.rating_counts.values())

    @property
    def mean_rating(self) -> float | None:
        n = self.num_ratings
        return sum(v * c for v, c in self.rating_counts.items()) / n if n else None

    def merge(self, other: VenueYearStats) -> None:
        self.papers += other.papers
        self.reviews += other.reviews
        self.pages += other.pages
        self.papers_with_markdown += other.papers_with_markdown
        self.accepted += other.accepted
        for v, c in other.rating_counts.items():
            self.rating_counts[v] = self.rating_counts.get(v, 0) + c
        for k, v in other.moves.items():
            self.moves[k] = self.moves.get(k, 0) + v
        for k, v in other.text_rules.items():
            self.text_rules[k] = self.text_rules.get(k, 0) + v
        for mine, theirs in ((self.paper_licenses, other.paper_licenses), (self.review_licenses, other.review_licenses)):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v

    def to_dict(self) -> dict:
        return {
            "key": self.key,
            "conference": self.conference,
            "year": self.year,
            "track": self.track,
            "papers": self.papers,
            "reviews": self.reviews,
            "pages": self.pages,
            "papers_with_markdown": self.papers_with_markdown,
            "accepted": self.accepted,
            # JSON keys are strings; sorted for stable output.
            "rating_counts": {repr(float(k)): v for k, v in sorted(self.rating_counts.items())},
            "moves": dict(sorted(self.moves.items())),
            "text_rules": dict(sorted(self.text_rules.items())),
            "paper_licenses": dict(sorted(self.paper_licenses.items())),
            "review_licenses": dict(sorted(self.review_licenses.items())),
        }

    @classmethod
    def from_dict(cls, d: dict) -> VenueYearStats:
        d = dict(d)
        d["rating_counts"] = {float(k): int(v) for k, v in d.get("rating_counts", {}).items()}
        return cls(**d)


@dataclass
class SplitStats:
    split: str
    num_examples: int
    num_bytes: int  # sum of the shard files' sizes (what is stored / downloaded)
    files: list[str]  # final shard paths, in shard order
    venue_years: dict[str, VenueYearStats]
    # Uncompressed Arrow size estimate (HF `dataset_info.splits[].num_bytes` semantics).
    dataset_bytes: int = 0

    @property
    def papers(self) -> int:
        return sum(v.papers for v in self.venue_years.values())

    @property
    def reviews(self) -> int:
        return sum(v.reviews for v in self.venue_years.values())

    @property
    def pages(self) -> int:
        return sum(v.pages for v in self.venue_years.values())

    @property
    def accepted(self) -> int:
        return sum(v.accepted for v in self.venue_years.values())

    def rating_counts(self) -> dict[float, int]:
        out: Counter = Counter()
        for v in self.venue_years.values():
            out.update(v.rating_counts)
        return dict(out)

    def to_dict(self) -> dict:
        return {
            "split": self.split,
            "num_examples": self.num_examples,
            "num_bytes": self.num_bytes,
            "dataset_bytes": self.dataset_bytes,
            "files": list(self.files),
            "venue_years": {k: v.to_dict() for k, v in sorted(self.venue_years.items())},
        }

    @classmethod
    def from_dict(cls, d: dict) -> SplitStats:
        return cls(
            split=d["split"],
            num_examples=int(d["num_examples"]),
            num_bytes=int(d["num_bytes"]),
            files=list(d.get("files", [])),
            venue_years={
                k: VenueYearStats.from_dict(v) for k, v in d.get("venue_years", {}).items()
            },
            dataset_bytes=int(d.get("dataset_bytes", 0)),
        )


@dataclass
class ConfigFileStats:
    config_name: str
    split: str
    path: str
    num_examples: int
    num_bytes: int
    schema: pa.Schema
