"""The corpus folder's shard files: how the conference split names and finds its shards
(`data/<split>-00000-of-0000n.parquet`, `next_generation` of a venue-year part), lists the published
ones (`corpus_listing`, `read_parts`), and joins `pyarrow.fs` paths (local or S3). Dagster-free."""
from __future__ import annotations

import re

import pyarrow.fs as pafs

from reviewbench_assets.io.layout import paths

# HF split names must match r"^\w+(\.\w+)*$"; we also forbid "." and "-" so that the
# `data/<split>-*` glob of one split can never match another split's shards.
NAME_RE = re.compile(r"^[A-Za-z0-9_]+$")


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


def next_generation(listing: dict[str, int], split: str, pk: str, previous: str | None) -> str:
    """The generation tag of a venue-year part about to be written (its shards are named
    `<split>[_train|_test]-<pk>-g<n>-i-of-n.parquet`): one more than the part's previous generation
    and than any of its shards still on disk (`listing`: `corpus_listing`), so a part written again
    never replaces a file that README.md lists (the split's publication switches README.md to the new
    names, then deletes the old ones), and two runs of the same history name their files alike."""
    name = re.compile(rf"^{re.escape(split)}(?:_[A-Za-z]+)?-{re.escape(pk)}-g(\d+)-\d{{5}}-of-\d{{5}}\.parquet$")
    seen = [int(m.group(1)) for p in listing if (m := name.match(p.rsplit("/", 1)[-1]))]
    if previous and previous.startswith("g") and previous[1:].isdigit():
        seen.append(int(previous[1:]))
    return f"g{max(seen, default=0) + 1:06d}"


def part_of_shard(rel: str, split: str) -> str | None:
    """The venue-year whose part of conference split `split` a corpus-relative shard path is
    (`<config>/<split>[_train|_test]-<pk>-g<n>-i-of-n.parquet`), or None."""
    m = re.match(rf"^{re.escape(split)}(?:_train|_test)?-(.+)-g\d{{6}}-\d{{5}}-of-\d{{5}}\.parquet$", rel.rsplit("/", 1)[-1])
    return m.group(1) if m else None


# The corpus folders that hold shards (the default config's `data` and the extra configs).
CORPUS_SHARD_DIRS = ("data", "reviews", "provenance", "review", "rebuttal")


def corpus_listing(store, corpus: str) -> dict[str, int]:
    """{corpus-relative path: size} of every published file of the shard folders (one listing per
    folder; staging names, which start with '.', left out as `datasets` leaves hidden files out)."""
    return {f"{folder}/{info.base_name}": int(info.size or 0) for folder in CORPUS_SHARD_DIRS
            for info in list_files(store.fs, join_path(corpus, folder)) if not info.base_name.startswith(".")}


def part_record_files(store, split: str) -> list[pafs.FileInfo]:
    """The files of a conference split's part records folder (`corpus_stats/<split>/`)."""
    return list_files(store.fs, store.path(paths.split_part_dir(split)))


def read_parts(store, split: str) -> list[dict]:
    """A conference split's part records as published (`corpus_stats/<split>/<pk>.json`), by key."""
    return [store.read_json(i.path) for i in sorted(list_files(store.fs, store.path(paths.split_part_dir(split))),
                                                  key=lambda i: i.base_name) if i.base_name.endswith(".json")]


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
