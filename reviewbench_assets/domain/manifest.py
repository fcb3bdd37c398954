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
folders once, `listing`).

The rest of the header is here too (`card_front_matter`: the Hub's fields, `configs`, `dataset_info`
with the features of REVIEWBENCH_SCHEMA, after the ReviewBench card, docs/reviewbench-dataset-card.md),
and README.md's two parts (`card_parts`, `card_text`: the header as huggingface_hub reads it, and the
markdown after it), so the split stage, which writes only the header, needs nothing of the card's
markdown (domain/card.py renders that)."""
from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Iterable, Mapping

import pyarrow as pa

from partitions.catalogue import catalogue

from .corpus_stats import SplitStats
from .dialogues import TRAIN_TEST_SPLITS
from .licenses import card_license, split_licenses
from .schema import REVIEWBENCH_SCHEMA

__all__ = ["DEFAULT_CONFIG_DIR", "PRETTY_NAME", "owned_by", "part_files", "set_split", "listed_files", "hf_features",
           "size_category", "ordered_splits", "extra_config_splits", "card_front_matter", "card_parts", "card_text"]

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


# ---- the card's front matter: configs, dataset_info, the Hub's fields -----------------------------------

PRETTY_NAME = "ReviewBench A Multi-Conference Peer-Review Corpus"
TASK_CATEGORIES = ["text-generation", "text-classification", "summarization", "question-answering"]
TAGS = ["peer-review", "openreview", "scientific-papers", "nlp", "benchmarking", "meta-science"]


def _hf_dtype(t: pa.DataType) -> str:
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string"
    if pa.types.is_boolean(t):
        return "bool"
    for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        if getattr(pa.types, f"is_{name}")(t):
            return name
    if pa.types.is_float32(t):
        return "float32"
    if pa.types.is_float64(t):
        return "float64"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return "binary"
    if pa.types.is_timestamp(t):
        return f"timestamp[{t.unit}]" + (f", tz={t.tz}" if t.tz else "")
    raise TypeError(f"no Hugging Face dtype for Arrow type {t}")


def _hf_feature(name: str | None, t: pa.DataType) -> dict:
    out: dict = {} if name is None else {"name": name}
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        inner = t.value_type
        if pa.types.is_list(inner) or pa.types.is_struct(inner):
            out["list"] = _hf_feature(None, inner).get("struct") or [_hf_feature(None, inner)]
        else:
            out["list"] = _hf_dtype(inner)
    elif pa.types.is_struct(t):
        out["struct"] = [_hf_feature(f.name, f.type) for f in t]
    else:
        out["dtype"] = _hf_dtype(t)
    return out


def hf_features(schema: pa.Schema = REVIEWBENCH_SCHEMA) -> list[dict]:
    """``dataset_info.features`` in the card's notation (``dtype: int32``, ``list: string``)."""
    return [_hf_feature(f.name, f.type) for f in schema]


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket for ``n`` examples."""
    if n < 1_000:
        return "n<1K"
    bounds = [(10**4, "1K<n<10K"), (10**5, "10K<n<100K"), (10**6, "100K<n<1M"),
              (10**7, "1M<n<10M"), (10**8, "10M<n<100M"), (10**9, "100M<n<1B")]
    for bound, label in bounds:
        if n < bound:
            return label
    return "n>1B"


def ordered_splits(names: Iterable[str]) -> list[str]:
    """In the catalogue's split order (the conference list lives only there); others alphabetically."""
    order = catalogue().split_order
    names = list(dict.fromkeys(names))
    known = [s for s in order if s in names]
    return known + sorted(s for s in names if s not in order)


def config_files(name: str, splits: list[str] | dict[str, str]) -> list[dict]:
    """``data_files`` of an extra config: a list of split names means ``<name>/<split>-*``; a
    dict maps split name -> glob (e.g. ``train`` -> ``review/*_train-*``, gathered from the
    files every conference asset writes)."""
    if isinstance(splits, dict):
        return [{"split": s, "path": splits[s]} for s in sorted(splits, key=lambda x: (x != "train", x))]
    return [{"split": s, "path": f"{name}/{s}-*"} for s in ordered_splits(splits)]


# Extra configs whose files are per (conference, train/test) and whose splits are train/test.
TRAIN_TEST_CONFIGS = ("review", "rebuttal")


def extra_config_splits(configs: dict[str, dict[str, dict[str, int]]]) -> dict:
    """{config: {conference: {split: num_examples}}} (what the conference assets recorded) ->
    the ``extra_configs`` argument of ``render_dataset_card``."""
    out: dict = {}
    for name, per_conf in configs.items():
        if name in TRAIN_TEST_CONFIGS:
            parts = sorted({p for counts in per_conf.values() for p in counts})
            out[name] = {p: f"{name}/*_{p}-*" for p in parts}
        else:
            out[name] = sorted(per_conf)
    return out


def with_data(stats: dict[str, SplitStats]) -> list[SplitStats]:
    return [stats[s] for s in ordered_splits(stats) if stats[s].num_examples > 0]


def card_front_matter(
    stats: dict[str, SplitStats],
    extra_configs: dict[str, list[str]] | None = None,
    pretty_name: str = PRETTY_NAME,
) -> dict:
    """The YAML header as a dict (see module docstring)."""
    splits = with_data(stats)
    total = sum(s.num_examples for s in splits)
    configs: list[dict] = []
    if splits:
        configs.append(
            {
                "config_name": "default",
                "default": True,
                "data_files": [
                    {"split": s.split, "path": f"data/{s.split}-*"} for s in splits
                ],
            }
        )
    for name in sorted(extra_configs or {}):
        files = config_files(name, (extra_configs or {})[name])
        if files:
            configs.append({"config_name": name, "data_files": files})
    header: dict = {
        "license": card_license(*split_licenses(splits)),
        "task_categories": list(TASK_CATEGORIES),
        "language": ["en"],
        "tags": list(TAGS),
        "pretty_name": pretty_name,
        "size_categories": [size_category(total)],
        "configs": configs,
    }
    if splits:
        header["dataset_info"] = {
            "features": hf_features(REVIEWBENCH_SCHEMA),
            "splits": [
                {"name": s.split, "num_bytes": int(s.dataset_bytes or s.num_bytes),
                 "num_examples": int(s.num_examples)}
                for s in sorted(splits, key=lambda s: s.split)
            ],
            "download_size": int(sum(s.num_bytes for s in splits)),
            "dataset_size": int(sum(s.dataset_bytes or s.num_bytes for s in splits)),
        }
    return header


# ---- README.md: the front matter and the markdown after it ----------------------------------------------

def checked_card(text: str, header: dict) -> str:
    """Read back as the Hub reads it: the front matter must be the header we meant, whole."""
    from huggingface_hub import DatasetCard

    again = DatasetCard(text).data.to_dict()
    if again.get("configs") != header.get("configs") or again.get("dataset_info") != header.get("dataset_info"):
        raise ValueError("dataset card: the rendered YAML front matter does not read back as written")
    return text.rstrip("\n") + "\n"


def card_parts(text: str) -> tuple[dict, str]:
    """(the YAML front matter as a dict, the markdown after it) of a README.md."""
    from huggingface_hub import DatasetCard

    card = DatasetCard(text)
    return card.data.to_dict(), card.text


def card_text(header: dict, body: str) -> str:
    """README.md text of a front matter and a markdown body (the split stage's rewrite of the
    manifest keeps the card's body as it is), checked as ``render_dataset_card`` checks its own."""
    from huggingface_hub import DatasetCardData

    return checked_card(f"---\n{DatasetCardData(**header).to_yaml()}\n---\n{body}", header)
