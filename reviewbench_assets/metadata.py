"""Readable Dagster metadata from pyarrow tables and plain counts."""
from __future__ import annotations

import dagster as dg
import pyarrow as pa

_TYPE_NAMES = {pa.string(): "string", pa.int32(): "int32", pa.int64(): "int64",
               pa.bool_(): "bool", pa.float64(): "float64"}


def column_schema(schema: pa.Schema) -> dg.TableSchema:
    return dg.TableSchema(columns=[dg.TableColumn(f.name, _TYPE_NAMES.get(f.type, str(f.type)))
                                   for f in schema])


def preview(rows: list[dict], columns: list[str], limit: int = 10, width: int = 60) -> dg.MetadataValue:
    """A small markdown table of the first rows, cells cut to `width` characters."""
    def cell(v) -> str:
        text = "" if v is None else str(v)
        text = text.replace("|", "\\|").replace("\n", " ")
        return text if len(text) <= width else text[: width - 1] + "…"

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(r.get(c)) for c in columns) + " |" for r in rows[:limit]]
    return dg.MetadataValue.md("\n".join(lines))


def table_metadata(table_or_schema: pa.Schema, num_rows: int, path: str) -> dict:
    return {"dagster/row_count": num_rows, "dagster/column_schema": column_schema(table_or_schema),
            "path": dg.MetadataValue.path(path)}
