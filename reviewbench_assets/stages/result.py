"""The one shape every stage entry function returns: what it wrote, its figures, a few sample rows
for the UI preview, and the outcomes of its data checks. `reviewbench_assets.metadata.materialize`
turns any of them into the asset's `MaterializeResult`, so an asset file is its decorator, its
config and one call (a new stage returns a `StageResult` and needs no metadata code of its own)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any


def iso_utc(epoch_ms: int | None) -> str | None:
    """An epoch-milliseconds time (OpenReview's dates, our cursors) as an ISO date in UTC, for metadata."""
    return None if epoch_ms is None else datetime.fromtimestamp(epoch_ms / 1000, tz=UTC).isoformat(timespec="seconds")


@dataclass
class Table:
    """Rows shown as a small preview table in the UI (metadata or a check's metadata)."""
    rows: list[dict]
    columns: list[str]
    limit: int = 10  # rows shown; the header says how many of how many
    what: str = "rows"  # what a row is, for that header ("20 of 7,404 forums")


@dataclass
class Markdown:
    """Text shown rendered as markdown in the UI (a plain string is shown as text)."""
    text: str


@dataclass
class CheckOutcome:
    name: str
    passed: bool
    metadata: dict[str, Any] = field(default_factory=dict)
    severity: str = "ERROR"  # "WARN": a failure is reported, not an error (a data-guarding check blocks)
    description: str | None = None  # what this result checked (the partition, the rule), shown in the UI


@dataclass
class StageResult:
    written: dict[str, str] = field(default_factory=dict)  # what -> path under the storage root
    counts: dict[str, Any] = field(default_factory=dict)  # figures shown as metadata (numbers, small dicts)
    samples: list[dict] = field(default_factory=list)  # up to 10 rows for the preview table
    sample_columns: list[str] = field(default_factory=list)
    checks: list[CheckOutcome] = field(default_factory=list)
    row_count: int | None = None  # dagster/row_count of the main output
