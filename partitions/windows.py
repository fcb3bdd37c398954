"""A venue-year's discussion window: the dates its reviews are public and authors and reviewers
talk (issue 30), as the venue announced them, with the source. While a venue-year is inside its
window it is refreshed daily (reviewbench_assets/schedules.py); a rolling venue (TMLR) is always open.

The window is a pair of announced days in the venue's zone (AoE unless stated): open from the start
day's first second to the end day's last, converted here, never by hand."""
from __future__ import annotations

from datetime import UTC, datetime
from datetime import date as Date
from datetime import time as Time
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from partitions.zones import zone


class Discussion(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    start: Date  # first day reviews are visible to the authors and they may answer
    end: Date  # last day of the author-reviewer discussion
    tz: str = "AoE"
    source: str = Field(min_length=3)
    confidence: Literal["high", "medium", "low"]

    @model_validator(mode="after")
    def _ordered(self) -> Discussion:
        zone(self.tz)
        if self.end < self.start:
            raise ValueError(f"discussion ends ({self.end}) before it starts ({self.start})")
        if (self.end - self.start).days > 120:
            raise ValueError(f"a discussion of {(self.end - self.start).days} days ({self.start} .. {self.end}): "
                             "a typo in a date? (at most 120 days)")
        return self

    def bounds_utc(self) -> tuple[datetime, datetime]:
        tz = zone(self.tz)
        first = datetime.combine(self.start, Time(0, 0, 0)).replace(tzinfo=tz)
        last = datetime.combine(self.end, Time(23, 59, 59)).replace(tzinfo=tz)
        return first.astimezone(UTC), last.astimezone(UTC)

    def contains(self, at: datetime) -> bool:
        first, last = self.bounds_utc()
        return first <= at.astimezone(UTC) <= last
