"""A conference split that costs what changed: each venue-year has its own shards in the split
(`data/<split>-<pk>-i-of-n.parquet`, `reviews/<split>-<pk>-...`, `provenance/<split>-<pk>-...`,
`review/<split>_train-<pk>-...`, ...), written from that venue-year's files alone, with a part record
(`corpus_stats/<split>/<pk>.json`: the inputs' fingerprint, the files written, their statistics and
config counts). A venue-year's shards of every config and its part record are ONE publication of
the storage root (one journal: a kill between their moves is finished by the next reader, never
two generations of shards side by side). Updating the split rewrites only the venue-years whose
inputs changed since their part was written, removes the parts of venue-years that left it (blocked, or gone from the
catalogue), and merges the part records into the split's statistics. A venue-year's statistics are
the ones computed once, by SQL, when its rows were written (`rows/<pk>.stats.json`,
stages/rows_stage.py); nothing here reads the rows for them. The card's `data_files` globs
(`data/<split>-*`, `review/*_train-*`) load each split whole, as before.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from resources.store import Store, dumps_json
from reviewbench_assets.domain.corpus_stats import SplitStats, VenueYearStats
from reviewbench_assets.domain.re2 import DEFAULT_TEST_SHARE, TRAIN_TEST_SPLITS
from reviewbench_assets.domain.schema import (
    PROVENANCE_SCHEMA,
    REBUTTAL_CONFIG_SCHEMA,
    REVIEW_CONFIG_SCHEMA,
    REVIEWS_CONFIG_SCHEMA,
)
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.config_split import config_split_reader
from reviewbench_assets.stages.corpus_writer import (
    DEFAULT_ROW_GROUP_ROWS,
    DEFAULT_TARGET_SHARD_BYTES,
    DuplicateForumError,
    stream_parquet,
    write_conference_split,
    write_config_table,
)
from reviewbench_assets.stages.shard_files import join_path, list_files

# bump when what a part holds changes: every part is rewritten once (2: rating moves, 3: text rules,
# 4: the `reviews` config)
PART_VERSION = 4
CONFIG_DIRS = ("data", "reviews", "provenance", "review", "rebuttal")


@dataclass
class SplitUpdate:
    stats: SplitStats
    configs: dict[str, dict[str, int]]  # config -> {split name: examples}
    rewritten: list[str]  # venue-years whose part was (re)written in this update
    kept: list[str]  # venue-years whose part was up to date
    removed: list[str]  # files of venue-years no longer in the split


def _fingerprint(store: Store, inputs: dict[str, str]) -> dict[str, list]:
    """Size and modification time of each input (local and S3 both report them): a file rewritten
    by its stage has a new time, whatever its content."""
    out = {}
    for what, path in sorted(inputs.items()):
        info = store.fs.get_file_info(path)
        out[what] = [store.rel(path), info.size, info.mtime_ns]
    return out


def _write_part(store: Store, corpus: str, split: str, pk: str, inputs: dict[str, str], test_share: float,
                target_shard_bytes: int, row_group_rows: int, fingerprint: dict) -> dict:
    """Write one venue-year's shards and its part record, all moved into place together."""
    with store.publish() as pub:
        part = {**_stage_part(store, pub, corpus, split, pk, inputs, test_share, target_shard_bytes,
                              row_group_rows), "fingerprint": fingerprint}
        with store.fs.open_output_stream(pub.target(store.path(paths.split_part(split, pk)))) as f:
            f.write(dumps_json(part))
    return part


def _stage_part(store: Store, pub, corpus: str, split: str, pk: str, inputs: dict[str, str], test_share: float,
                target_shard_bytes: int, row_group_rows: int) -> dict:
    fs, prefix = store.fs, f"{split}-{pk}"
    # The statistics recorded when the rows were written (rows_stage.write_rows), merged as they are.
    recorded = {k: VenueYearStats.from_dict(v) for k, v in store.read_json(inputs["stats"])["venue_years"].items()}
    stats = write_conference_split(fs, [inputs["rows"]], corpus, split, target_shard_bytes, row_group_rows,
                                   shard_prefix=prefix, venue_years=recorded, pub=pub)
    files, configs = list(stats.files), {}
    prov = [inputs["provenance"]]
    # one row per review (a few KB of text, no paper text: ten times the papers' row group) and the provenance
    for name, schema, group in (("reviews", REVIEWS_CONFIG_SCHEMA, row_group_rows * 10),
                                ("provenance", PROVENANCE_SCHEMA, row_group_rows * 10)):
        c = write_config_table(fs, stream_parquet(fs, [inputs[name]], schema), corpus, name, split,
                               schema=schema, row_group_rows=group, shard_prefix=prefix, pub=pub)
        configs[name] = {split: c.num_examples}
        files.append(c.path)
    for name, schema in (("review", REVIEW_CONFIG_SCHEMA), ("rebuttal", REBUTTAL_CONFIG_SCHEMA)):
        if name not in inputs:
            continue
        configs[name] = {}
        for part in TRAIN_TEST_SPLITS:
            reader = config_split_reader(fs, [inputs[name]], prov, part, schema, test_share=test_share)
            c = write_config_table(fs, reader, corpus, name, f"{split}_{part}", row_group_rows=row_group_rows,
                                   shard_prefix=f"{split}_{part}-{pk}", pub=pub)
            configs[name][part] = c.num_examples
            files.append(c.path)
    stats_record = {**stats.to_dict(), "files": [store.rel(f) for f in stats.files]}
    return {"version": PART_VERSION, "pk": pk, "test_share": test_share, "stats": stats_record,
            "files": [store.rel(f) for f in files], "data_files": [store.rel(f) for f in stats.files],
            "configs": configs}


def _part_is_current(store: Store, part: dict | None, fingerprint: dict, test_share: float) -> bool:
    return (part is not None and part.get("version") == PART_VERSION and part.get("fingerprint") == fingerprint
            and part.get("test_share") == test_share and all(store.exists(store.path(f)) for f in part["files"]))


def _strays(store: Store, corpus: str, split: str, keys: list[str]) -> list[str]:
    """Shards of this split that belong to no venue-year of `keys`: a venue-year that left the split.
    (The whole-split shards of the layout before parts are removed once by `scripts.migrate_storage`.)"""
    ours = re.compile(rf"^{re.escape(split)}(_(?:{'|'.join(TRAIN_TEST_SPLITS)}))?-(?P<rest>.+)-\d{{5}}-of-\d{{5}}\.parquet$")
    out = []
    for d in CONFIG_DIRS:
        for info in list_files(store.fs, join_path(corpus, d)):
            m = ours.match(info.base_name)
            if m and m.group("rest") not in keys:
                out.append(info.path)
    return sorted(out)


def _check_unique(store: Store, split: str, data_files: list[str]) -> None:
    """forum_id is unique across the whole split (only the id column of each shard is read)."""
    import pyarrow.parquet as pq

    seen: dict[str, str] = {}
    for path in data_files:
        ids = pq.read_table(path, filesystem=store.fs, columns=["forum_id"]).column(0).to_pylist()
        for fid in ids:
            if fid in seen and seen[fid] != path:
                raise DuplicateForumError(f"forum_id {fid!r} occurs in {seen[fid]} and again in {path} "
                                          f"(split {split!r})")
            seen.setdefault(fid, path)


def merge_parts(split: str, parts: list[dict]) -> tuple[SplitStats, dict[str, dict[str, int]]]:
    """The split's statistics and config counts from its parts' records (no data read)."""
    venue_years: dict[str, VenueYearStats] = {}
    configs: dict[str, dict[str, int]] = {}
    files, examples, num_bytes, dataset_bytes = [], 0, 0, 0
    for part in parts:
        s = SplitStats.from_dict(part["stats"])
        examples, num_bytes, dataset_bytes = examples + s.num_examples, num_bytes + s.num_bytes, dataset_bytes + s.dataset_bytes
        files += s.files
        for key, vy in s.venue_years.items():
            if key in venue_years:
                venue_years[key].merge(vy)
            else:
                venue_years[key] = vy
        for name, counts in part["configs"].items():
            for k, n in counts.items():
                configs.setdefault(name, {})[k] = configs.get(name, {}).get(k, 0) + n
    return SplitStats(split=split, num_examples=examples, num_bytes=num_bytes, files=files,
                      venue_years=dict(sorted(venue_years.items())), dataset_bytes=dataset_bytes), configs


def update_conference_split(store: Store, split: str, keys: list[str], *, test_share: float | None = None,
                            target_shard_bytes: int = DEFAULT_TARGET_SHARD_BYTES,
                            row_group_rows: int = DEFAULT_ROW_GROUP_ROWS) -> SplitUpdate:
    """Bring `split` up to date with the venue-years `keys` (in the order their shards are listed)."""
    share = DEFAULT_TEST_SHARE if test_share is None else test_share
    corpus = store.path(paths.CORPUS_DIR)
    parts, rewritten, kept = [], [], []
    for pk in keys:
        view, inputs = Upstream(store, pk).split_inputs()  # `view`: the inputs as of one moment
        with view:
            if "rows" not in inputs:
                continue
            record_path = store.path(paths.split_part(split, pk))
            fingerprint = _fingerprint(view, inputs)
            part = store.read_json_or_none(record_path)
            if _part_is_current(store, part, fingerprint, share):
                kept.append(pk)
            else:
                part = _write_part(view, corpus, split, pk, inputs, share, target_shard_bytes, row_group_rows,
                                   fingerprint)
                rewritten.append(pk)
        parts.append(part)
    strays = _strays(store, corpus, split, [p["pk"] for p in parts])
    gone = [info.path for info in list_files(store.fs, store.path(paths.split_part_dir(split)))
            if info.base_name.removesuffix(".json") not in {p["pk"] for p in parts}]
    with store.publish() as pub:  # a leaving venue-year's shards and records go together (one journal)
        pub.remove_after([*strays, *gone])
    _check_unique(store, split, [store.path(f) for p in parts for f in p["data_files"]])
    stats, configs = merge_parts(split, parts)
    stats.files = [store.path(f) for f in stats.files]
    return SplitUpdate(stats=stats, configs=configs, rewritten=rewritten, kept=kept, removed=strays)
