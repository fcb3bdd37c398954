"""The table of every figure a stage may record (`FIGURES`, loaded from `stages/figures.yaml`), the
names of the stages and checks that record them, and the values a figure can hold besides numbers,
text and JSON (`Table`, `Markdown`).

Every figure and check metadata key is declared, once, in `stages/figures.yaml` (type, unit,
description), validated here when the module loads: `Stage.stat` refuses an undeclared name
(`declared`), so a new figure cannot reach the UI without its description. Dagster-free."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, TypeAdapter, field_validator

# ---- the figures table (stages/figures.yaml) ----------------------------------------------------

CRAWL, PARSE, CHANGES = "openreview_forums", "parsed_forums", "venue_changes"
PDFS, MARKDOWN, DIALOGUES = "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues"
ROWS, SPLIT, CARD = "reviewbench_split", "conference_split", "dataset_card"
RESUBMISSIONS = "resubmissions"  # corpus-level: every venue-year's submissions linked
STAGES = (CRAWL, PARSE, CHANGES, PDFS, MARKDOWN, DIALOGUES, RESUBMISSIONS, ROWS, SPLIT, CARD)
# the checks, by name (`quarantined_share` is the crawl's and the parser's, with their own examples)
QUARANTINE, DEADLINE, COVERAGE = "quarantined_share", "deadline_agrees_with_invitation", "dialogue_coverage"
UNIQUE, REVIEWS_MATCH, CHARS_MATCH = "unique_forum_id", "num_reviews_matches_reviews_json", "markdown_chars_matches_markdown"
TITLE, EMPTY_SHARE = "no_empty_title", "empty_markdown_share"
ROW_CHECKS = (UNIQUE, REVIEWS_MATCH, CHARS_MATCH, TITLE, EMPTY_SHARE)
BLOCKING = (QUARANTINE, COVERAGE, UNIQUE, EMPTY_SHARE)  # reviewbench_assets/dagster_step.py BLOCKING_CHECKS
ROW_COUNT = "dagster/row_count"
# the progress a long step reports while it runs (`Progress`, as observations of its asset)
PROGRESS, REPORTS_PROGRESS = "progress", (CRAWL, PDFS)
# the failure a downstream asset raises on a partition whose upstream failed a blocking check
GUARD = "upstream_guard"
# who may record a key (a figure's `where`): the stages, the checks, the progress and the guard
RECORDERS = frozenset({*STAGES, DEADLINE, COVERAGE, *BLOCKING, *ROW_CHECKS, PROGRESS, GUARD})
# the conditions under which a figure is recorded (a figure's `when`, empty: at every run of its stages)
CURSOR, LLM = "a refresh that read the tmdate cursor", "an LLM merged the dialogues"
FAILED = "the blocking check failed"
FIGURES_FILE = Path(__file__).with_name("figures.yaml")


class Figure(BaseModel):
    """One declared metadata key: what the UI shows about it."""
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["int", "float", "bool", "text", "json", "path", "table", "md", "schema"]
    unit: str = ""
    where: tuple[str, ...]
    description: str
    when: str = ""  # recorded only then (empty: at every run of its stages)

    @field_validator("where", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return (value,) if isinstance(value, str) else value

    @field_validator("where")
    @classmethod
    def _known_recorders(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(value) - RECORDERS)
        if unknown or not value:
            raise ValueError(f"where names no known stage or check: {unknown or 'empty'}")
        return value

    @field_validator("when")
    @classmethod
    def _known_condition(cls, value: str) -> str:
        if value not in ("", CURSOR, LLM, FAILED):
            raise ValueError(f"when is none of the known conditions: {value!r}")
        return value


def load_figures(path: Path = FIGURES_FILE) -> dict[str, Figure]:
    """The table, validated: an unknown type, stage or field fails at import, naming the key."""
    try:
        return TypeAdapter(dict[str, Figure]).validate_python(yaml.safe_load(path.read_text(encoding="utf-8")))
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from exc


FIGURES: dict[str, Figure] = load_figures()



class UndeclaredFigure(KeyError):
    """A stage recorded a figure (or a check a metadata key) that stages/figures.yaml does not declare for it."""


def declared(name: str, where: str) -> Figure:
    """The declaration of `name` for the stage or check `where`; an undeclared one is an error."""
    figure = FIGURES.get(name)
    if figure is None or where not in figure.where:
        raise UndeclaredFigure(f"{where} records {name!r}, which stages/figures.yaml does not declare for it: "
                               "add it there with its type, unit and description")
    return figure


def figures_of(where: str) -> dict[str, Figure]:
    return {k: f for k, f in FIGURES.items() if where in f.where}


def figures_markdown(where: str, checks: tuple[str, ...] = ()) -> str:
    """The stage's figures (its checks' metadata, its progress observations) as a markdown table,
    for the asset's page in the UI."""
    def row(key: str, f: Figure) -> str:
        return f"| `{key}` | {f.type} | {f.unit} | {f.description}{f' (only when {f.when})' if f.when else ''} |"

    lines = ["| key | type | unit | what it is |", "|---|---|---|---|"]
    lines += [row(k, f) for k, f in figures_of(where).items()]
    for check in checks:
        lines += [row(f"{check}: {k}", f) for k, f in figures_of(check).items()]
    if where in REPORTS_PROGRESS:
        lines += [row(f"observation: {k}", f) for k, f in figures_of(PROGRESS).items()]
    return "\n".join(lines)


# ---- the values a figure can hold besides numbers, text and JSON ------------------------------------

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
