"""What a stage run returns (`StageResult`: its figures and checks) and the values a figure or a
check's metadata can hold besides numbers, text and JSON: a preview `Table`, rendered `Markdown`.
`reviewbench_assets.metadata.materialize` turns a `StageResult` into the asset's
`MaterializeResult`, so an asset file is its decorator, its config and one stage call."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from reviewbench_assets.stages.figures import ROW_COUNT


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
    """What a stage run recorded (stages/stage.py): its figures (name -> value, every name declared
    in stages/figures.py) and the outcomes of its data checks."""
    stage: str
    key: str | None = None  # the partition (venue-year), the split; None for the card
    figures: dict[str, Any] = field(default_factory=dict)
    checks: list[CheckOutcome] = field(default_factory=list)

    @property
    def row_count(self) -> int | None:
        return self.figures.get(ROW_COUNT)

    def check(self, name: str) -> CheckOutcome:
        return next(c for c in self.checks if c.name == name)
