"""What a reader sees of a storage root, and which of those views are allowed (issue 29.4).

A reader's view is the root's published files, root-relative path -> digest of the content (staging
files, journals and lock objects are not published data). An uninterrupted run of the operation
passes through a sequence of such views, one after each move or delete made while no publication
journal is pending (inside a publication's moves, readers must not look: they see the view before
its commit or after it). Those views are the ALLOWED ones: a reader that sees any other view saw
a duplicate key, a mix of two generations, or a file without its companions.

Runs differ in what they stamp (times, mtimes of judged files): `Volatile` is learnt by comparing two
uninterrupted runs, and names, per file, the JSON keys or Parquet columns that differ between them
(removed before hashing) or that the file is compared by its presence only (bytes that differ
otherwise, e.g. a plot); a time stamp in a path (`refresh=2026-...Z`) becomes `<time>`.

How a reader reads while a writer may be publishing is the project's own reader API,
`Store.snapshot` (resources/store_publish.py); `listing` / `read_files` here are the plain reads the
suite compares it with, and how it records the views of an uninterrupted run.
"""
from __future__ import annotations

import fnmatch
import hashlib
import io
import json
import posixpath
import re
from dataclasses import dataclass, field

import pyarrow.fs as pafs
import pyarrow.parquet as pq

from resources.store_publish import JOURNAL_DIR, LEGACY_JOURNAL_DIRS
from resources.store_read import published_name
from reviewbench_assets.io.layout import paths

_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{6}(\.\d+)?Z")


def canon(rel: str) -> str:
    return _TIME.sub("<time>", rel)


_GEN_TAG = re.compile(r"^(?P<stem>.+)-g(?P<gen>\d+)(?P<rest>-\d{5}-of-\d{5}\.parquet)$")


def canon_paths(rels) -> dict[str, str]:
    """Each path's canonical form within one view: a time stamp becomes `<time>`, numbered by its
    order among the view's stamps (a change log per refresh: `refresh=<time0>`, `refresh=<time1>`);
    a venue-year part's shard generation (`-g000002-`, io/shards.py `next_generation`) becomes its
    rank among that part's generations in the view, newest first (`-g<new0>-`): a run repeated on top
    that writes the part once more ends with one generation, as one run does, under another number."""
    stamps = sorted({m.group(0) for r in rels for m in _TIME.finditer(r)})
    order = {s: i for i, s in enumerate(stamps)}
    out = {r: _TIME.sub(lambda m: f"<time{order[m.group(0)]}>", r) for r in rels}
    gens: dict[str, set[int]] = {}
    for c in out.values():
        if m := _GEN_TAG.match(c):
            gens.setdefault(m["stem"], set()).add(int(m["gen"]))
    rank = {stem: {g: i for i, g in enumerate(sorted(gs, reverse=True))} for stem, gs in gens.items()}
    return {r: (f"{m['stem']}-g<new{rank[m['stem']][int(m['gen'])]}>{m['rest']}" if (m := _GEN_TAG.match(c)) else c)
            for r, c in out.items()}


def published(rel: str) -> bool:
    """Published data: not staging, journals or locks (`published_name`), nor the PDF stage's
    download area (`pdf_staging/`: a body as it arrives and its completion record, written in place
    on purpose and read only by the stage that writes it, io/pdf_files.py; what it leaves
    after a kill is judged by the re-run's end instead)."""
    return published_name(rel) and not rel.startswith(paths.pdf_staging(""))


def listing(store) -> dict[str, tuple]:
    """Published files: root-relative path -> (size, mtime_ns), or on S3 (size, ETag): an S3
    modification time has whole seconds, so a file replaced by one of the same size within the
    second would look unchanged."""
    if not store.is_local and store.s3_client_factory is not None:
        bucket, _, prefix = store.root.partition("/")
        out = {}
        pages = store.s3_client_factory().get_paginator("list_objects_v2").paginate(Bucket=bucket,
                                                                                     Prefix=prefix + "/")
        for page in pages:
            for obj in page.get("Contents", []):
                rel = obj["Key"][len(prefix) + 1:]
                if rel and not rel.endswith("/") and published(rel):  # not a folder marker
                    out[rel] = (obj["Size"], obj["ETag"])
        return out
    sel = pafs.FileSelector(store.root, recursive=True, allow_not_found=True)
    out = {}
    for i in store.fs.get_file_info(sel):
        if i.type == pafs.FileType.File:
            rel = posixpath.relpath(i.path, store.root)
            if published(rel):
                out[rel] = (i.size, i.mtime_ns or 0)
    return out


def pending_journals(store) -> list[str]:
    out = []
    for folder in (JOURNAL_DIR, *LEGACY_JOURNAL_DIRS):
        sel = pafs.FileSelector(store.path(folder), allow_not_found=True)
        out += [i.path for i in store.fs.get_file_info(sel)
                if i.type == pafs.FileType.File and i.base_name.endswith(".json") and not i.base_name.startswith(".")]
    return out


def read_files(store, rels, cache: dict | None = None) -> dict[str, bytes | None]:
    """The files' bytes (None: gone since the listing). `rels` maps each path to its (size, mtime)
    when known; with a `cache`, a file whose (size, mtime) was read before is not read again (a
    reader polling an S3 root would otherwise ask for every object each time)."""
    out = {}
    for rel in rels:
        key = (rel, *rels[rel]) if cache is not None and isinstance(rels, dict) else None
        if key is not None and key in cache:
            out[rel] = cache[key]
            continue
        try:
            with store.fs.open_input_stream(store.path(rel)) as f:
                out[rel] = f.read()
        except OSError:  # gone or replaced while read (S3: the stream breaks): the listing after tells
            out[rel] = None
        if key is not None and out[rel] is not None:
            cache[key] = out[rel]
    return out


def _json_lines(path: str, data: bytes) -> list | None:
    try:
        if path.endswith(".jsonl"):
            return [json.loads(line) for line in data.decode().splitlines() if line.strip()]
        if path.endswith(".json"):
            return [json.loads(data)]
    except ValueError:
        return None
    return None


def _parquet(data: bytes):
    try:
        return pq.read_table(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - not Parquet (or not whole): compared by bytes
        return None


def _differing_keys(a, b, prefix: str = "") -> set[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = set()
        for k in a.keys() | b.keys():
            if a.get(k) != b.get(k):
                out |= _differing_keys(a.get(k), b.get(k), f"{prefix}{k}.")
        return out
    return {prefix.rstrip(".")} if a != b else set()


def _drop(obj, keys: set[str], prefix: str = ""):
    if isinstance(obj, dict):
        return {k: _drop(v, keys, f"{prefix}{k}.") for k, v in obj.items() if f"{prefix}{k}" not in keys}
    return obj


@dataclass
class Volatile:
    """Per canonical path: JSON keys / Parquet columns left out of its digest, or None: presence only."""

    keys: dict[str, set[str] | None] = field(default_factory=dict)
    fields: frozenset = frozenset()  # keys / columns left out of every JSON and Parquet file's digest

    def without(self, fields) -> Volatile:
        return Volatile(self.keys, frozenset(fields))

    def learn(self, path: str, a: bytes, b: bytes) -> None:
        if path.endswith(".png"):  # a plot's pixels carry when it was drawn (the daily plot's title: the minute)
            self.keys[path] = None
        if a == b or self.keys.get(path, ()) is None:
            return
        ja, jb = _json_lines(path, a), _json_lines(path, b)
        if ja is not None and jb is not None and len(ja) == len(jb):
            keys = set().union(*(_differing_keys(x, y) for x, y in zip(ja, jb, strict=True)))
            if "" not in keys:
                self.keys[path] = (self.keys.get(path) or set()) | keys
                return
        ta, tb = _parquet(a), _parquet(b)
        if ta is not None and tb is not None and ta.schema == tb.schema:
            cols = {c for c in ta.column_names if ta[c] != tb[c]}
            self.keys[path] = (self.keys.get(path) or set()) | cols
            return
        self.keys[path] = None

    def digest(self, path: str, data: bytes | None) -> str:
        if data is None:
            return "gone"
        structured = self.fields and path.endswith((".json", ".jsonl", ".parquet"))
        if path not in self.keys and not structured:
            return hashlib.sha1(data).hexdigest()[:16]
        keys = self.keys.get(path, set())
        if keys is None:
            return "present"
        keys = keys | self.fields
        rows = _json_lines(path, data)
        if rows is not None:
            body = json.dumps([_drop(r, keys) for r in rows], sort_keys=True).encode()
        else:
            table = _parquet(data)
            if table is None:
                return hashlib.sha1(data).hexdigest()[:16]
            body = repr(table.drop_columns([c for c in keys if c in table.column_names]).to_pylist()).encode()
        return "~" + hashlib.sha1(body).hexdigest()[:16]


def view(files: dict[str, bytes | None], volatile: Volatile) -> frozenset:
    names = canon_paths(files)
    return frozenset((names[p], volatile.digest(names[p], d)) for p, d in files.items())


def duplicate_keys(files: dict[str, bytes | None]) -> list[str]:
    """A forum id twice among the split shards of one venue-year (`corpus/data/<split>-<pk>-*`)."""
    by_part: dict[str, list[str]] = {}
    for p, data in files.items():
        if p.startswith("corpus/data/") and data is not None:
            table = _parquet(data)
            if table is not None and "forum_id" in table.column_names:
                by_part.setdefault(p.rsplit("-", 3)[0], []).extend(table["forum_id"].to_pylist())
    return [f"{part}: {len(ids) - len(set(ids))} forum ids twice" for part, ids in by_part.items()
            if len(ids) != len(set(ids))]


def judge(files: dict[str, bytes | None], volatile: Volatile, allowed: set[frozenset]) -> list[str]:
    """What is wrong with a reader's view: duplicate keys, or a view no uninterrupted run shows (a
    mix of two generations when some allowed view has the same files, else files without their
    companions)."""
    out = duplicate_keys(files)
    got = view(files, volatile)
    if got not in allowed:
        names = {p for p, _ in got}
        near = [a for a in allowed if {p for p, _ in a} == names]
        if near:
            best = min(near, key=lambda a: len(got ^ a))
            out.append("a mix of generations: " + ", ".join(sorted(p for p, _ in got - best))[:300])
        else:
            best = min(allowed, key=lambda a: len(names ^ {p for p, _ in a}))
            extra = sorted(names - {p for p, _ in best})
            missing = sorted({p for p, _ in best} - names)
            out.append(f"files without their companions: extra {extra[:4]}, missing {missing[:4]}")
    return out


def card_patterns(store, split: str) -> tuple[list[str], bytes | None]:
    """(the `data_files` of the default config's `split` in README.md, corpus-relative paths or globs,
    as `datasets` reads them; README.md's bytes). With no README.md, or no entry for the split, the
    glob `data/<split>-*` (what datasets infers from the folder's `data/<split>-...` names)."""
    try:
        raw = store.read_bytes(store.path("corpus", "README.md"))
    except (FileNotFoundError, OSError):
        return [f"data/{split}-*"], None
    from huggingface_hub import DatasetCard

    for config in DatasetCard(raw.decode("utf-8")).data.to_dict().get("configs") or []:
        if config.get("default") or config.get("config_name") == "default":
            for entry in config.get("data_files") or []:
                if entry.get("split") == split:
                    path = entry["path"]
                    return ([path] if isinstance(path, str) else list(path)), raw
    return [f"data/{split}-*"], raw


def dataset_files(store, split: str) -> tuple[dict[str, bytes | None], bool]:
    """What `datasets.load_dataset(<root>/corpus)` reads of the default config's `split`: README.md's
    `data_files` of that split (exact shard files, or a glob), each resolved as datasets resolves it
    (datasets.data_files.resolve_pattern: an fsspec glob, hidden files such as our staging names left
    out; a listed file missing is FileNotFoundError, here a file read as None), then each file read by
    itself. On S3 (no s3fs here for fsspec) the same rules over one listing. Also: whether README.md
    changed while it read (a file it listed may then be gone: the instant between a publication's
    switch of README.md and its deletion of the files replaced, an error to the user, never rows)."""
    corpus = store.path("corpus")
    patterns, readme = card_patterns(store, split)
    if store.is_local:
        from datasets.data_files import resolve_pattern

        found = []
        for pattern in patterns:
            try:
                found += [posixpath.relpath(p, store.root) for p in resolve_pattern(pattern, corpus)]
            except FileNotFoundError:  # no shard yet, or a listed one gone
                if not any(c in pattern for c in "*?["):
                    found.append(posixpath.join("corpus", pattern))  # read below: None, gone
    else:
        sel = pafs.FileSelector(corpus, allow_not_found=True, recursive=True)
        names = [posixpath.relpath(i.path, corpus) for i in store.fs.get_file_info(sel)
                 if i.type == pafs.FileType.File and not i.base_name.startswith(".")]
        found = [posixpath.join("corpus", n) for pattern in patterns for n in names if fnmatch.fnmatch(n, pattern)]
        found += [posixpath.join("corpus", p) for p in patterns if "*" not in p and p not in names]
    files = read_files(store, sorted(set(found)))
    return files, card_patterns(store, split)[1] != readme


def judge_dataset(files: dict[str, bytes | None], volatile: Volatile, allowed: set[frozenset]) -> list[str]:
    """What is wrong with a load_dataset reader's view of one split: a forum id twice in the split, a
    shard gone while it read, or shards no uninterrupted run shows together (`allowed`: the data
    shards of each allowed view)."""
    out = []
    ids = [i for p, d in files.items() if d is not None and (t := _parquet(d)) is not None
           for i in t["forum_id"].to_pylist()]
    if len(ids) != len(set(ids)):
        out.append(f"{len(ids) - len(set(ids))} forum ids twice in {sorted(files)}")
    if None in files.values():
        out.append(f"a shard listed but gone when read: {sorted(p for p, d in files.items() if d is None)}")
    elif view(files, volatile) not in allowed:
        out.append(f"shards no uninterrupted run shows together: {sorted(files)}")
    return out


def dataset_views(allowed: set[frozenset], split: str) -> set[frozenset]:
    """The allowed views cut down to what `dataset_files` reads (the split's data shards: one
    generation of each venue-year's part is on disk between publications, the one README.md lists)."""
    return {frozenset((p, d) for p, d in v if fnmatch.fnmatch(p, f"corpus/data/{split}-*")) for v in allowed}
