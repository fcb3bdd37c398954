"""A conference split that costs what changed: each venue-year has its own shards in the split
(`data/<split>-<pk>-i-of-n.parquet`, `provenance/<split>-<pk>-...`, `review/<split>_train-<pk>-...`,
...), written from that venue-year's files alone, with a part record
(`corpus_stats/<split>/<pk>.json`: the inputs' fingerprint, the files written, their statistics and
config counts). A venue-year's shards of every config and its part record are ONE publication of
the storage root (one journal: a kill between their moves is finished by the next reader, never
two generations of shards side by side). Updating the split rewrites only the venue-years whose
inputs changed since their part was written, removes the parts of venue-years that left it (blocked, or gone from the
catalogue), and merges the part records into the split's statistics. A venue-year's statistics are
the ones computed once when its rows were written (`rows/<pk>.stats.json`, stages/rows_writer.py);
nothing here reads `reviews_json` for them. The card's `data_files` globs
(`data/<split>-*`, `review/*_train-*`) load each split whole, as before.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from resources.store import Store, dumps_json
from reviewbench_assets import paths
from reviewbench_assets.domain.corpus_stats import SplitStats, VenueYearStats, venue_year_key
from reviewbench_assets.domain.re2 import DEFAULT_TEST_SHARE, TRAIN_TEST_SPLITS
from reviewbench_assets.domain.schema import PROVENANCE_SCHEMA, REBUTTAL_CONFIG_SCHEMA, REVIEW_CONFIG_SCHEMA
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

PART_VERSION = 3  # bump when what a part holds changes: every part is rewritten once (2: rating moves, 3: text rules)
CONFIG_DIRS = ("data", "provenance", "review", "rebuttal")


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
    # The statistics recorded when the rows were written (rows_writer.write_rows), merged as they are;
    # only rows written before that was done have theirs computed from their columns here.
    recorded = ({k: VenueYearStats.from_dict(v) for k, v in store.read_json(inputs["stats"])["venue_years"].items()}
                if "stats" in inputs else None)
    stats = write_conference_split(fs, [inputs["rows"]], corpus, split, target_shard_bytes, row_group_rows,
                                   shard_prefix=prefix, venue_years=recorded, pub=pub)
    files, configs = list(stats.files), {}
    prov = [inputs["provenance"]] if "provenance" in inputs else []
    if prov:
        c = write_config_table(fs, stream_parquet(fs, prov, PROVENANCE_SCHEMA), corpus, "provenance", split,
                               schema=PROVENANCE_SCHEMA, row_group_rows=row_group_rows * 10, shard_prefix=prefix,
                               pub=pub)
        configs["provenance"] = {split: c.num_examples}
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
    if prov and recorded is None:
        _count_text_rules(store, prov[0], stats)
    stats_record = {**stats.to_dict(), "files": [store.rel(f) for f in stats.files]}
    return {"version": PART_VERSION, "pk": pk, "test_share": test_share, "stats": stats_record,
            "files": [store.rel(f) for f in files], "data_files": [store.rel(f) for f in stats.files],
            "configs": configs}


def _count_text_rules(store: Store, provenance: str, stats: SplitStats) -> None:
    """Papers per ``revision_rule`` and venue-year, from the provenance file (two columns read):
    the card's "where the full text comes from" table."""
    import pyarrow.parquet as pq

    table = pq.read_table(provenance, filesystem=store.fs, columns=["conference", "year", "track", "revision_rule"])
    counts: dict[tuple, int] = {}
    for row in zip(*(table.column(c).to_pylist() for c in table.column_names), strict=True):
        counts[row] = counts.get(row, 0) + 1
    for (conference, year, track, rule), n in counts.items():
        vy = stats.venue_years.get(venue_year_key(conference, year, track))
        if vy is not None:
            vy.text_rules[rule or "unavailable"] = vy.text_rules.get(rule or "unavailable", 0) + n


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
        inputs = Upstream(store, pk).split_inputs()
        if "rows" not in inputs:
            continue
        record_path = store.path(paths.split_part(split, pk))
        fingerprint = _fingerprint(store, inputs)
        part = store.read_json_or_none(record_path)
        if _part_is_current(store, part, fingerprint, share):
            kept.append(pk)
        else:
            part = _write_part(store, corpus, split, pk, inputs, share, target_shard_bytes, row_group_rows,
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
