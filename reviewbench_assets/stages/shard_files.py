"""The corpus folder's files: shard names and listing, path joining on `pyarrow.fs` paths, and the
check that an input Parquet file has exactly the ReviewBench schema."""
from __future__ import annotations

import re

import pyarrow as pa
import pyarrow.fs as pafs

from reviewbench_assets.domain.schema import REVIEWBENCH_SCHEMA

# HF split names must match r"^\w+(\.\w+)*$"; we also forbid "." and "-" so that the
# `data/<split>-*` glob of one split can never match another split's shards.
NAME_RE = re.compile(r"^[A-Za-z0-9_]+$")


class SchemaMismatchError(ValueError):
    """An input Parquet file is not in REVIEWBENCH_SCHEMA; the message names file and column."""

    def __init__(self, path: str, column: str, problem: str):
        self.path = path
        self.column = column
        self.problem = problem
        super().__init__(f"{path}: column {column!r}: {problem}")




# --------------------------------------------------------------------------------------------
# Paths and listing
# --------------------------------------------------------------------------------------------


def join_path(*parts: str) -> str:
    """Join filesystem path parts with "/" (pyarrow paths are always "/"-separated), skipping
    empty parts so that a ``SubTreeFileSystem`` root "" works."""
    out = ""
    for part in parts:
        if not part:
            continue
        out = part if not out else f"{out.rstrip('/')}/{part.lstrip('/')}"
    return out


def shard_name(split: str, index: int, count: int) -> str:
    return f"{split}-{index:05d}-of-{count:05d}.parquet"


def shard_pattern(prefix: str) -> re.Pattern:
    return re.compile(rf"^{re.escape(prefix)}-\d{{5}}-of-\d{{5}}\.parquet$")


def list_files(fs: pafs.FileSystem, directory: str) -> list[pafs.FileInfo]:
    sel = pafs.FileSelector(directory, allow_not_found=True, recursive=False)
    return [i for i in fs.get_file_info(sel) if i.type == pafs.FileType.File]


def list_split_shards(fs: pafs.FileSystem, out_dir: str, split: str) -> list[str]:
    """Final shard paths of ``split`` under ``out_dir/data``, sorted by name (= shard order)."""
    pat = shard_pattern(split)
    return sorted(
        i.path for i in list_files(fs, join_path(out_dir, "data")) if pat.match(i.base_name)
    )


def check_name(kind: str, name: str) -> None:
    if not NAME_RE.match(name or ""):
        raise ValueError(f"invalid {kind} name {name!r}: use letters, digits and '_' only")


PREFIX_RE = re.compile(r"^[A-Za-z0-9_]+(-[A-Za-z0-9_]+)*$")


def check_prefix(prefix: str) -> str:
    """A shard name prefix: a split name, or split and venue-year joined by '-' (no '/', no '..')."""
    if not PREFIX_RE.match(prefix or ""):
        raise ValueError(f"invalid shard prefix {prefix!r}: use letters, digits, '_' and single '-'")
    return prefix


def file_size(fs: pafs.FileSystem, path: str) -> int:
    return int(fs.get_file_info(path).size or 0)


# --------------------------------------------------------------------------------------------
# Schema validation
# --------------------------------------------------------------------------------------------


def _types_compatible(actual: pa.DataType, expected: pa.DataType) -> bool:
    if actual.equals(expected):
        return True
    # Parquet round trips may name the list item "element" instead of "item".
    if pa.types.is_list(actual) and pa.types.is_list(expected):
        return _types_compatible(actual.value_type, expected.value_type)
    return False


def validate_parquet_schema(
    schema: pa.Schema, path: str, expected: pa.Schema = REVIEWBENCH_SCHEMA
) -> None:
    """Raise SchemaMismatchError (naming ``path`` and the first offending column) unless
    ``schema`` has exactly the columns of ``expected``, in order, with the same types."""
    expected_names = expected.names
    for name in schema.names:
        if name not in expected_names:
            raise SchemaMismatchError(path, name, "unexpected column (not in REVIEWBENCH_SCHEMA)")
    for exp in expected:
        idx = schema.get_field_index(exp.name)
        if idx < 0:
            if exp.name in schema.names:  # duplicated name
                raise SchemaMismatchError(path, exp.name, "column appears more than once")
            raise SchemaMismatchError(path, exp.name, "missing column")
        actual = schema.field(idx).type
        if not _types_compatible(actual, exp.type):
            raise SchemaMismatchError(path, exp.name, f"type {actual}, expected {exp.type}")
    if schema.names != expected_names:
        for i, (got, want) in enumerate(zip(schema.names, expected_names, strict=False)):
            if got != want:
                raise SchemaMismatchError(
                    path, got, f"out of order: position {i}, expected {want!r} there"
                )
