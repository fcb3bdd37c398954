"""Readable Dagster metadata from pyarrow tables and plain counts."""
from __future__ import annotations

import dagster as dg
import pyarrow as pa

from reviewbench_assets.domain.schema import COLUMN_DESCRIPTIONS

_TYPE_NAMES = {pa.string(): "string", pa.int32(): "int32", pa.int64(): "int64",
               pa.bool_(): "bool", pa.float64(): "float64"}


def column_schema(schema: pa.Schema, descriptions: dict[str, str] | None = None) -> dg.TableSchema:
    """The schema with each column's description: `descriptions`, else the corpus columns' own
    (domain/schema.py COLUMN_DESCRIPTIONS, the text of the dataset card's Schema table)."""
    notes = {**COLUMN_DESCRIPTIONS, **(descriptions or {})}
    return dg.TableSchema(columns=[dg.TableColumn(f.name, _TYPE_NAMES.get(f.type, str(f.type)),
                                                  description=notes.get(f.name))
                                   for f in schema])


def preview(rows: list[dict], columns: list[str], limit: int = 10, width: int = 60,
            what: str = "rows") -> dg.MetadataValue:
    """A small markdown table of the first rows, cells cut to `width` characters, headed by how many
    of how many it shows; an empty cell is shown as "–" rather than left blank."""
    def cell(v) -> str:
        text = "–" if v is None or v == "" else str(v)
        text = text.replace("|", "\\|").replace("\n", " ")
        return text if len(text) <= width else text[: width - 1] + "…"

    shown = min(limit, len(rows))
    head = f"{shown} of {len(rows)} {what}" + (" (all)" if shown == len(rows) else "")
    lines = [head, "", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(r.get(c)) for c in columns) + " |" for r in rows[:limit]]
    return dg.MetadataValue.md("\n".join(lines))


def figures_table(stage: str, checks: tuple[str, ...] = ()) -> dict:
    """An asset's definition metadata: the figures its stage records and its checks' metadata keys,
    each with its type, unit and description (stages/figures.yaml), shown on the asset's page."""
    from reviewbench_assets.stages.stage import figures_markdown

    return {"figures": dg.MetadataValue.md(figures_markdown(stage, checks))}


def figure_value(name: str, value, where: str):
    """A recorded figure as the metadata value its declared type asks for (stages/figures.yaml)."""
    from reviewbench_assets.stages.stage import Markdown, Table, declared

    figure = declared(name, where)
    if isinstance(value, Table):
        return preview(value.rows, value.columns, limit=value.limit, what=value.what)
    if isinstance(value, Markdown):
        return dg.MetadataValue.md(value.text)
    if figure.type == "path" and value is not None:
        return dg.MetadataValue.path(value)
    return value


def materialize(result, store=None, allow_failing: bool = False, extra: dict | None = None) -> dg.MaterializeResult:
    """A stage's `StageResult` (stages/stage.py) as the asset's `MaterializeResult`: each figure as
    the metadata value its declared type asks for, and its checks as check results, made
    non-blocking where the run's config allows it on purpose and, given the `store`, recorded
    under `checks/<partition>/<stage>` so downstream assets see a failed blocking check
    (`reviewbench_assets/checks.py`)."""
    from reviewbench_assets.checks import guarded, record_checks

    meta = {k: figure_value(k, v, result.stage) for k, v in {**result.figures, **(extra or {})}.items()}
    checks = [dg.AssetCheckResult(check_name=c.name, passed=c.passed,
                                  metadata={k: figure_value(k, v, c.name) for k, v in c.metadata.items()},
                                  severity=dg.AssetCheckSeverity(c.severity), description=c.description)
              for c in result.checks]
    if checks:
        checks = guarded(checks, allow_failing)
        if store is not None and result.key is not None:
            record_checks(store, result.key, result.stage, checks, allow_failing)
    return dg.MaterializeResult(metadata=meta, check_results=checks or None)
