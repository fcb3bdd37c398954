"""The conference split stage (`<split>_split`): bring one split up to date with its venue-years,
leaving out those whose data failed a blocking check (the dataset card stage, which renders the card
from every split's figures, is stages/card_stage.py).

A conference split costs what changed: each venue-year has its own shards in the split
(`data/<split>-<pk>-g<n>-i-of-n.parquet`, `reviews/<split>-<pk>-g<n>-...`, `provenance/...`,
`review/<split>_train-<pk>-g<n>-...`, ...; `g<n>`: the part's generation, io/shards.py
`next_generation`), written from that venue-year's files alone (the shard writers are
io/corpus_writer.py, reached through the publication: `Staging.conference_shards` / `config_shards`), with a part record (`corpus_stats/<split>/<pk>.json`: the inputs'
fingerprint, the files written, their statistics and config counts). A venue-year's new shards of
every config, its part record, the corpus README.md's manifest of the split (its `data_files`: the
exact files of every part, and its row count, `write_manifest` below) and the
deletion of the part's previous shards are ONE publication of the storage root, in that order (one
journal: a kill between their moves is finished by the next reader). So one generation stays on disk
(a plain glob of `corpus/data/` sees each venue-year once), and `datasets.load_dataset(<root>/corpus)`
reads either the previous list, whose files stay until README.md is switched, or the new one, whose
files are all in place before it; a reader that read the previous list in the instant between the
switch and the deletion gets FileNotFoundError, never rows of two generations (docs/storage.md).
README.md is shared by every split and the card: it is read and rewritten under the card's lock
(`dataset-card`, always taken after a split's lock; `Store.lock` replays dead runs' journals once held).
Updating the split (`update_conference_split`) rewrites only the venue-years whose inputs changed
since their part was written, removes the parts of venue-years that left it (blocked, or gone from
the catalogue), and merges the part records into the split's statistics. A venue-year's statistics are
the ones computed once, by SQL, when its rows were written (`rows/<pk>.stats.json`,
stages/rows_stage.py); nothing here reads the rows for them.

The Re^2 `review`/`rebuttal` configs are read back by the IO layer (io/split_inputs.py
`config_split_reader`): the records of the venue-years' files joined with their provenance by DuckDB,
split train/test, streamed. The stage holds no store nor filesystem: what it reads is its
`SplitInputs`, what it writes goes through its `Outputs` (issue 39 item 1)."""
from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field

from partitions.catalogue import catalogue
from reviewbench_assets.domain.corpus_stats import SplitStats, VenueYearStats
from reviewbench_assets.domain.dialogues import DEFAULT_TEST_SHARE, TRAIN_TEST_SPLITS
from reviewbench_assets.domain.manifest import card_front_matter, card_parts, card_text, set_split
from reviewbench_assets.domain.resubmission_rows import chain_sides
from reviewbench_assets.domain.schema import (
    PROVENANCE_SCHEMA,
    REBUTTAL_CONFIG_SCHEMA,
    REVIEW_CONFIG_SCHEMA,
    REVIEWS_CONFIG_SCHEMA,
)
from reviewbench_assets.io.corpus_writer import DEFAULT_ROW_GROUP_ROWS, DEFAULT_TARGET_SHARD_BYTES, DuplicateForumError
from reviewbench_assets.io.shards import next_generation, part_of_shard
from reviewbench_assets.io.split_inputs import SplitInputs
from reviewbench_assets.io.stage_io import Inputs, Outputs, Staging
from reviewbench_assets.stages.figures import ROW_COUNT, SPLIT
from reviewbench_assets.stages.stage import Stage

# ---- the stages ------------------------------------------------------------------------------------------

# The assets whose blocking checks guard a venue-year's rows (and so its shards of the conference split).
UPSTREAM_GUARDED = ["openreview_forums", "parsed_forums", "rebuttal_dialogues"]


class SplitStage(Stage):
    """One conference split (`key`: its name) brought up to date; `log` says which venue-years were left out."""

    name = SPLIT
    reads = ("has_rows", "split_inputs", "resubmission_chains")
    writes = ("CORPUS_DIR", "split_stats", "split_part_dir", "split_part", "card_checksum")

    def __init__(self, split: str, test_share: float = 0.05, log: Callable[[str], None] = lambda _m: None):
        super().__init__(split)
        self.test_share, self.log = test_share, log

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        split = self.key
        # One writer per split at a time, for every process on this storage root: runs of two
        # venue-years of the same conference both rebuild this split; the lock makes the later one
        # list the rows after the earlier one published, so neither drops the other's rows.
        with outputs.lock(f"split-{split}"):
            keys = [k for k in catalogue().keys_for_split(split) if inputs.of(k).has_rows()]
            # A venue-year whose data failed a blocking check stays out of the split (and so the card).
            blocked = {k: f for k in keys
                       if (f := outputs.blocking_failures(k, [*UPSTREAM_GUARDED, "reviewbench_split"]))}
            keys = [k for k in keys if k not in blocked]
            for k, failed in blocked.items():
                self.log(f"{split}: {k} left out: its data failed blocking checks {sorted(failed)}")
            # (the split's figures are published with its manifest, in update_conference_split)
            update = update_conference_split(outputs, keys, test_share=self.test_share, inputs=inputs)
            stats, configs = update.stats, update.configs
            for pk, files in update.damaged.items():
                for f, problem in files.items():
                    self.log(f"{split}: {f} failed its check ({problem}): venue-year {pk}'s part written again")
        self.stat(ROW_COUNT, stats.num_examples)
        self.stat("num_bytes", stats.num_bytes)
        self.stat("venue_years", keys)
        self.stat("files", [f.rsplit("/", 1)[-1] for f in stats.files])
        self.stat("rewritten_venue_years", update.rewritten)
        self.stat("unchanged_venue_years", update.kept)
        self.stat("removed_files", [outputs.relative(f) for f in update.removed])
        self.stat("damaged_files_rewritten", {f: p for files in update.damaged.values() for f, p in files.items()})
        self.stat("blocked_venue_years", {k: sorted(f) for k, f in blocked.items()})
        self.stat("configs", configs)
        self.stat("chains_read", update.chains_read)
        self.stat("moved_to_test", update.moved_to_test)


# ---- a conference split that costs what changed ----------------------------------------------------------

# bump when what a part holds changes: every part is rewritten once (2: rating moves, 3: text rules,
# 4: the `reviews` config, 5: shard names carry the part's generation, README.md lists them,
# 6: each file's sha256, checked before the part is trusted: io/checksums.py)
PART_VERSION = 6
CARD_LOCK = "dataset-card"  # README.md's writers: the card, and each split for its manifest


@dataclass
class SplitUpdate:
    stats: SplitStats
    configs: dict[str, dict[str, int]]  # config -> {split name: examples}
    rewritten: list[str]  # venue-years whose part was (re)written in this update
    kept: list[str]  # venue-years whose part was up to date
    removed: list[str]  # shards of venue-years no longer in the split (those their part records listed)
    damaged: dict[str, dict[str, str]] = field(default_factory=dict)  # pk -> {file: problem}: rewritten
    chains_read: bool = False  # the resubmissions stage's chains were there (Re^2 train/test per chain)
    moved_to_test: int = 0  # forums in test by their chain's draw, not their own


def _write_part(outputs: Outputs, source: SplitInputs, split: str, pk: str, test_share: float,
                target_shard_bytes: int, row_group_rows: int, fingerprint: dict, previous: dict | None,
                sides: dict[str, str]) -> dict:
    """Write one venue-year's shards (a new generation, read from its inputs' snapshot `source`) and its
    part record, switch README.md's manifest to them, and delete the `previous` part's shards: one
    journal, moved in that order (see the module docstring)."""
    listing = outputs.listing("CORPUS_DIR")
    gen = next_generation(listing, split, pk, (previous or {}).get("generation"))
    # the files this part replaces: its record's, and, when the record is gone (deleted after its
    # publication), the venue-year's shards of any generation still on disk (issue 38.8: orphans)
    corpus = outputs.rel("CORPUS_DIR")
    old = set((previous or {}).get("files", [])) | {f"{corpus}/{f}" for f in listing if part_of_shard(f, split) == pk}
    with ExitStack() as held:
        with outputs.publish() as pub:
            part = {**_stage_part(outputs, pub, source, split, pk, gen, test_share, target_shard_bytes,
                                  row_group_rows, sides), "fingerprint": fingerprint,
                    "chain_sides": _sides_record(sides)}
            # each file's sha256, read back from its staged bytes: published with them (one journal)
            part["sha256"] = pub.staged_sha256(part["files"])
            pub.put_json("split_part", part, split, pk)
            # released once this publication is done; taking it replays dead runs' journals first, so
            # README.md is read as they left it and none of their README.md can come back later
            held.enter_context(outputs.lock(CARD_LOCK))
            write_manifest(outputs, pub, split, [p for p in outputs.read_parts(split) if p["pk"] != pk] + [part])
            pub.remove(sorted(old))
    return part


def _stage_part(outputs: Outputs, pub: Staging, source: SplitInputs, split: str, pk: str, gen: str,
                test_share: float, target_shard_bytes: int, row_group_rows: int, sides: dict[str, str]) -> dict:
    prefix = f"{split}-{pk}-{gen}"
    # The statistics recorded when the rows were written (rows_stage.write_rows), merged as they are.
    recorded = {k: VenueYearStats.from_dict(v) for k, v in source.read_json("stats")["venue_years"].items()}
    stats = pub.conference_shards("CORPUS_DIR", source, split, target_shard_bytes, row_group_rows,
                                  shard_prefix=prefix, venue_years=recorded)
    files, configs = list(stats.files), {}
    # one row per review (a few KB of text, no paper text: ten times the papers' row group) and the provenance
    for name, schema, group in (("reviews", REVIEWS_CONFIG_SCHEMA, row_group_rows * 10),
                                ("provenance", PROVENANCE_SCHEMA, row_group_rows * 10)):
        c = pub.config_shards("CORPUS_DIR", source.batches(name, schema), name, split, schema=schema,
                              row_group_rows=group, shard_prefix=prefix)
        configs[name] = {split: c.num_examples}
        files.append(c.path)
    for name, schema in (("review", REVIEW_CONFIG_SCHEMA), ("rebuttal", REBUTTAL_CONFIG_SCHEMA)):
        if name not in source:
            continue
        configs[name] = {}
        for part in TRAIN_TEST_SPLITS:
            reader = source.config_split(name, part, schema, test_share, sides)
            c = pub.config_shards("CORPUS_DIR", reader, name, f"{split}_{part}", row_group_rows=row_group_rows,
                                  shard_prefix=f"{split}_{part}-{pk}-{gen}")
            configs[name][part] = c.num_examples
            files.append(c.path)
    rel = outputs.relative
    stats_record = {**stats.to_dict(), "files": [rel(f) for f in stats.files]}
    return {"version": PART_VERSION, "pk": pk, "test_share": test_share, "stats": stats_record,
            "files": [rel(f) for f in files], "data_files": [rel(f) for f in stats.files],
            "configs": configs, "generation": gen}


def _sides_record(sides: dict[str, str]) -> list[list[str]]:
    """The part's forums whose chain puts them on another side than their own draw, as its record keeps them."""
    return [[f, side] for f, side in sorted(sides.items())]


def _part_is_current(outputs: Outputs, part: dict | None, fingerprint: dict, test_share: float,
                     damaged: dict[str, str]) -> bool:
    """The part is of these inputs and its files are the bytes it published (each checked against
    its sha256; `damaged` gets those that fail, and the part is written again)."""
    if not (part is not None and part.get("version") == PART_VERSION and part.get("fingerprint") == fingerprint
            and part.get("test_share") == test_share):
        return False
    damaged.update(outputs.damage(part))
    return not damaged


def _check_unique(outputs: Outputs, split: str, data_files: list[str]) -> None:
    """forum_id is unique across the whole split (only the id column of each shard is read)."""
    seen: dict[str, str] = {}
    for rel in data_files:
        path = outputs.full_path(rel)
        for fid in outputs.read_column("CORPUS_DIR", rel, "forum_id"):  # page checksums
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


def update_conference_split(outputs: Outputs, keys: list[str], *, test_share: float | None = None,
                            target_shard_bytes: int = DEFAULT_TARGET_SHARD_BYTES,
                            row_group_rows: int = DEFAULT_ROW_GROUP_ROWS, inputs: Inputs | None = None) -> SplitUpdate:
    """Bring the split of `outputs` (the split stage's, `SplitStage.outputs_in(store, split)`) up to date
    with the venue-years `keys` (in the order their shards are listed). `inputs`: the split stage's
    (None: read from the same storage, `outputs.inputs(...)`)."""
    split = outputs.key
    share = DEFAULT_TEST_SHARE if test_share is None else test_share
    read = inputs or outputs.inputs(SplitStage.reads)
    parts, rewritten, kept, damaged = [], [], [], {}
    # every version of a paper on one side of the Re^2 train/test: the chains as the resubmissions
    # stage wrote them (never linked again here); a venue-year's part depends on its forums' sides
    chains = read.resubmission_chains(["steps"])
    sides = chain_sides(chains.column("steps").to_pylist() if chains is not None else [], share)
    for pk in keys:
        with read.of(pk).split_inputs() as source:  # the venue-year's inputs as of one moment
            if "rows" not in source:
                continue
            fingerprint = source.fingerprint()
            part = outputs.read_json("split_part", split, pk)
            bad: dict[str, str] = {}
            if _part_is_current(outputs, part, fingerprint, share, bad) and \
                    part.get("chain_sides", []) == _sides_record(sides.get(pk, {})):  # none of its forums moved
                kept.append(pk)
            else:
                if bad:
                    damaged[pk] = bad
                part = _write_part(outputs, source, split, pk, share, target_shard_bytes, row_group_rows,
                                   fingerprint, part, sides.get(pk, {}))
                rewritten.append(pk)
        parts.append(part)
    _check_unique(outputs, split, [f for p in parts for f in p["data_files"]])
    stats, configs = merge_parts(split, parts)
    strays = _publish_split(outputs, split, parts, stats, configs)
    stats.files = [outputs.full_path(f) for f in stats.files]
    return SplitUpdate(stats=stats, configs=configs, rewritten=rewritten, kept=kept, removed=strays, damaged=damaged,
                       chains_read=chains is not None, moved_to_test=sum(len(sides.get(pk, {})) for pk in keys))


def _publish_split(outputs: Outputs, split: str, parts: list[dict], stats: SplitStats, configs: dict) -> list[str]:
    """The split's figures (`corpus_stats/<split>.json`, which the card reads), README.md's manifest
    of the split if it lists other files (a venue-year that left, a card of before), and the deletion
    of a leaving venue-year's shards (those its part record lists) and record: one journal, under the
    card's lock. Returns the deleted shards (full paths). (The whole-split shards of the layout before
    parts are removed once by `scripts.migrate_storage`.)"""
    with ExitStack() as held:
        with outputs.publish() as pub:
            held.enter_context(outputs.lock(CARD_LOCK))
            pub.put_json("split_stats", {**stats.to_dict(), "files": list(stats.files), "configs": configs},  # files root-relative
                         split)
            write_manifest(outputs, pub, split, parts, only_if_changed=True)
            leaving = outputs.leaving_parts(split, {p["pk"] for p in parts})
            strays = sorted(f for _record, files in leaving for f in files)
            pub.remove([*strays, *(record for record, _files in leaving)])
    return [outputs.full_path(f) for f in strays]


# ---- the split's manifest: README.md's data_files and row counts of one split, in its publication -------

# The body of README.md while no card stage has run: the header is what `load_dataset` needs.
FIRST_BODY = ("# ReviewBench\n\nThe splits published so far (front matter above: `configs` and `dataset_info`). "
              "The `dataset_card` stage writes this card's statistics and plots.\n")


def write_manifest(outputs: Outputs, pub: Staging, split: str, parts: list[dict],
                   only_if_changed: bool = False) -> str | None:
    """Stage README.md into `pub` with `split` reading exactly the files of `parts` (its part records
    as they will be once `pub` is published) and expecting their rows (domain/manifest.py
    `set_split`); the rest of the card stays as it is, and a minimal card is written when there is
    none yet. The caller holds the card's lock (`dataset-card`) from before it read anything it
    rewrites until `pub` is published (`Store.lock` replays dead runs' journals once held: a dead
    run's README.md replayed later would bring back an older manifest). The
    README.md target is staged after the shards and part records, so it moves into place after them
    and before the replaced shards are deleted (`remove`). Returns the README.md path, or None
    when `only_if_changed` and README.md already reads so."""
    before = outputs.read_text_in("CORPUS_DIR", "README.md")
    header, body = card_parts(before) if before is not None else (card_front_matter({}), FIRST_BODY)
    text = card_text(set_split(header, split, parts, outputs.listing("CORPUS_DIR")), body)
    if only_if_changed and text == before:
        return None
    pub.put_in("CORPUS_DIR", "README.md", text.encode("utf-8"))
    pub.card_checksum(text)
    return outputs.path_in("CORPUS_DIR", "README.md")
