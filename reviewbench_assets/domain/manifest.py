"""The corpus manifest: what README.md's YAML header tells `datasets.load_dataset(<root>/corpus)` to
read (`configs[].data_files`) and how many rows to expect (`dataset_info.splits`), for one conference
split at a time (issue 29.4, docs/storage.md "What a reader gets").

`datasets` resolves each `data_files` path with an fsspec glob and then reads every file found; a
non-streaming load also compares the rows it built per split with `dataset_info.splits[].num_examples`
(`verify_splits`, NonMatchingSplitsSizesError). A split's venue-year shards are named by their
generation and replaced by a new generation in one journaled publication, so the header lists each
split's exact files (never a glob that would find two generations at once) and its row count, and it
is rewritten in the same publication as the shards it lists. `set_split` is that rewrite; the split
stage applies it to the README it publishes with a venue-year's shards, the card stage to the header
it renders, both from the split's part records. Pure: no storage access (the caller lists the shard
folders once, `listing`)."""
from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Mapping

from .card import TRAIN_TEST_CONFIGS, hf_features, ordered_splits
from .dialogues import TRAIN_TEST_SPLITS

__all__ = ["DEFAULT_CONFIG_DIR", "owned_by", "part_files", "set_split", "listed_files"]

CORPUS_PREFIX = "corpus/"  # part records name their files relative to the storage root
DEFAULT_CONFIG_DIR = "data"  # the default config's folder; every other config's folder is its name


def owned_by(rel: str, split: str) -> bool:
    """Whether a corpus-relative shard path belongs to conference split `split`: its name starts with
    `<split>-` (data, reviews, provenance) or `<split>_train-` / `<split>_test-` (Re^2 configs)."""
    base = posixpath.basename(rel)
    return any(base.startswith(f"{split}{tail}-") for tail in ("", *(f"_{p}" for p in TRAIN_TEST_SPLITS)))


def _config_name(folder: str) -> str:
    return "default" if folder == DEFAULT_CONFIG_DIR else folder


def part_files(split: str, parts: list[dict]) -> dict[str, dict[str, list[str]]]:
    """{config name: {config split: corpus-relative files}} of a conference split's part records, in
    the parts' order (a part's `files`, root-relative: `corpus/data/iclr-<pk>-g<n>-…` -> the default
    config's split `iclr`; `corpus/review/iclr_train-<pk>-…` -> config `review`, split `train`)."""
    out: dict[str, dict[str, list[str]]] = {}
    for part in parts:
        for f in part["files"]:
            rel = f.removeprefix(CORPUS_PREFIX)
            folder, base = posixpath.split(rel)
            name = next((p for p in TRAIN_TEST_SPLITS if base.startswith(f"{split}_{p}-")), split)
            out.setdefault(_config_name(folder), {}).setdefault(name, []).append(rel)
    return out


def _paths(entry_path) -> list[str]:
    return [entry_path] if isinstance(entry_path, str) else list(entry_path or [])


def _expand(paths: list[str], listing: Mapping[str, int]) -> list[str]:
    """Globs resolved over the listing as datasets resolves them (`*` within one folder, hidden names
    left out: the listing has none); exact paths kept as they are."""
    out: list[str] = []
    for p in paths:
        if any(c in p for c in "*?["):
            folder, pattern = posixpath.split(p)
            out += sorted(f for f in listing if posixpath.dirname(f) == folder
                          and fnmatch.fnmatchcase(posixpath.basename(f), pattern))
        else:
            out.append(p)
    return out


def _entry_order(names) -> list[str]:
    """train, test, then conference splits in the catalogue's order (what card.py renders)."""
    names = list(names)
    return [n for n in TRAIN_TEST_SPLITS[::-1] if n in names] + ordered_splits(
        n for n in names if n not in TRAIN_TEST_SPLITS)


def listed_files(header: dict, config: str = "default") -> dict[str, list[str]]:
    """{split: its data_files paths or globs} of one config of a header."""
    for c in header.get("configs") or []:
        if c.get("config_name") == config:
            return {e["split"]: _paths(e.get("path")) for e in c.get("data_files") or []}
    return {}


def set_split(header: dict, split: str, parts: list[dict], listing: Mapping[str, int]) -> dict:
    """`header` (a card's YAML front matter as a dict) with conference split `split` made to read
    exactly the files of `parts` (its part records: every venue-year of the split as published, []
    when the split has none) and to expect their row count. Every config's entry for `split` is
    replaced; in the Re^2 configs' shared `train`/`test` entries the split's files replace those it
    had there (globs are first resolved over `listing`, {corpus-relative shard path: size in bytes},
    so another split's files stay listed). Entries and configs left empty go. `dataset_info`: the
    split's `num_examples` and `num_bytes` (the parts' uncompressed Arrow estimate, as the card),
    `dataset_size` their sum over splits, `download_size` the listed default-config files' sizes."""
    mine = part_files(split, parts)
    configs = {c["config_name"]: dict(c) for c in header.get("configs") or []}
    for name in mine:
        configs.setdefault(name, {"config_name": name, **({"default": True} if name == "default" else {}),
                                  "data_files": []})
    for name, config in configs.items():
        entries = {e["split"]: _paths(e.get("path")) for e in config.get("data_files") or []}
        for sn in set(entries) | set(mine.get(name, {})):
            if sn != split and sn not in mine.get(name, {}) and not (
                    name in TRAIN_TEST_CONFIGS and sn in TRAIN_TEST_SPLITS):
                continue  # another conference's entry
            others = [p for p in _expand(entries.get(sn, []), listing) if not owned_by(p, split)]
            entries[sn] = sorted(set(others + mine.get(name, {}).get(sn, [])))  # the glob's order: by name
        config["data_files"] = [{"split": sn, "path": entries[sn]} for sn in _entry_order(entries) if entries[sn]]
    out = dict(header)
    out["configs"] = [configs[n] for n in sorted(configs, key=lambda n: (n != "default", n))
                      if configs[n]["data_files"]]
    info = dict(out.get("dataset_info") or {})
    sizes = {s["name"]: s for s in info.get("splits") or []}
    examples = sum(int(p["stats"]["num_examples"]) for p in parts)
    if examples:
        sizes[split] = {"name": split, "num_bytes": sum(int(p["stats"].get("dataset_bytes") or p["stats"]["num_bytes"])
                                                        for p in parts), "num_examples": examples}
    else:
        sizes.pop(split, None)
    default = set(listed_files(out))
    sizes = {n: s for n, s in sizes.items() if n in default}  # verify_splits: the same splits as the files
    if not sizes:
        out.pop("dataset_info", None)
        return out
    info.setdefault("features", hf_features())
    info["splits"] = [sizes[n] for n in sorted(sizes)]
    # the Parquet bytes of the default config's files: this split's from its parts (not published yet
    # when the split stages this header), the others' from the listing
    info["download_size"] = int(sum(listing.get(p, 0) for sn, ps in listed_files(out).items() if sn != split
                                    for p in _expand(ps, listing)) + sum(int(p["stats"]["num_bytes"]) for p in parts))
    info["dataset_size"] = int(sum(s["num_bytes"] for s in info["splits"]))
    out["dataset_info"] = info
    return out
