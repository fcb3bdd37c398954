"""The checks of a storage root's published files (issue 38.2), what `reviewbench_assets/verify.py`
(the `verify` command and job) runs: each file against what its publication recorded or, where nothing
recorded it, its format's own check. Dagster-free; no stage is imported here (the owners of files and
the repair are the caller's)."""
from __future__ import annotations

import posixpath
import re
import zlib
from dataclasses import dataclass, field

import pyarrow.fs as pafs

from partitions.catalogue import catalogue
from resources.store import CorruptFileError, Store, open_parquet
from resources.store_publish import STAGING, age_s, journal_files, pending_journal_files, token_is_dead
from reviewbench_assets.domain.manifest import card_parts
from reviewbench_assets.domain.resubmission_rows import CONFIG_FILE as CHAINS_FILE
from reviewbench_assets.io.checksums import file_problem, part_damage, remedy
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.shards import corpus_listing, part_of_shard, read_parts
from reviewbench_assets.io.verdicts import judged_data, same_bytes

# caches and checkpoints: a bad entry is a miss, asked again (a PDF's source record too: without it the
# PDF stage downloads the PDF again; which PDF a forum has is the submissions table's)
NOT_PUBLISHED = ("checkpoints/", "cache/", "pdf_sources/", ".locks/", ".publish/", "corpus/.publish/")


@dataclass
class Finding:
    path: str  # root-relative
    problem: str
    fix: str  # what to re-run
    damaged: bool = True  # False: a leftover (a dead run's staging), not damaged data


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    checked: int = 0
    splits_to_repair: set[str] = field(default_factory=set)
    parts: list = field(default_factory=list)  # (split, part record) of every part read
    repaired: list[str] = field(default_factory=list)

    @property
    def damaged(self) -> list[Finding]:
        return [f for f in self.findings if f.damaged]

    def add(self, path: str, problem: str, fix: str, damaged: bool = True) -> None:
        if not any(f.path == path and f.problem == problem for f in self.findings):
            self.findings.append(Finding(path, problem, fix, damaged))

    def text(self) -> str:
        lines = [f"{'DAMAGED' if f.damaged else 'leftover'} {f.path}: {f.problem}; {f.fix}" for f in self.findings]
        lines.append(f"{self.checked} files checked, {len(self.damaged)} damaged, "
                     f"{len(self.findings) - len(self.damaged)} leftovers" +
                     (f"; repaired: {', '.join(self.repaired)}" if self.repaired else ""))
        return "\n".join(lines)


def _fix(rel: str, owners: dict[str, tuple[str, str]]) -> str:
    if rel in owners:
        asset, pk = owners[rel]
        return f"re-materialize {asset} for {pk}"
    if rel.startswith("pdfs/"):
        return "re-materialize initial_submission_pdfs for the venue-years whose forums use it (a PDF that fails its sha256 is fetched again)"
    if rel.startswith(("corpus/", "corpus_stats/")):
        return "re-materialize the conference split it belongs to (<split>_split), then dataset_card"
    folders = {posixpath.dirname(p): owner for p, owner in owners.items()}
    for folder in sorted(folders, key=len, reverse=True):
        if rel.startswith(folder + "/"):
            return f"re-materialize {folders[folder][0]} (it writes {folder}/)"
    return "re-materialize the asset that wrote it"


def _png_problem(data: bytes) -> str | None:
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "not a PNG (signature missing)"
    i = 8
    while i + 8 <= len(data):
        n = int.from_bytes(data[i:i + 4], "big")
        kind, body, end = data[i + 4:i + 8], data[i + 8:i + 8 + n], i + 12 + n
        if end > len(data):
            return "cut short inside a chunk"
        if zlib.crc32(kind + body) != int.from_bytes(data[end - 4:end], "big"):
            return f"chunk {kind!r} fails its CRC"
        if kind == b"IEND":
            return None
        i = end
    return "cut short (no IEND chunk)"


def _format_problem(store: Store, path: str, rel: str, size: int) -> str | None:
    """Why a published file does not read as its format, or None."""
    try:
        if rel.endswith(".parquet"):
            if not size:
                return "empty (0 bytes)"
            pf = open_parquet(store.fs, path)
            for i in range(pf.num_row_groups):
                pf.read_row_group(i)
        elif rel.endswith(".jsonl"):
            for _ in store.iter_jsonl(path):
                pass
        elif rel.endswith(".json"):
            store.read_json(path)
        elif rel.startswith("pdfs/") and rel.endswith(".pdf"):
            if store.sha256(path) != posixpath.basename(rel)[:-4]:
                return "its bytes do not hash to its name (sha256)"
        elif rel.endswith(".png"):
            return _png_problem(store.read_bytes(path))
    except CorruptFileError as exc:
        return exc.problem
    except Exception as exc:  # noqa: BLE001 - whatever a damaged file raises is the finding
        return f"unreadable ({type(exc).__name__}: {str(exc)[:200]})"
    return None


def _check_splits(store: Store, report: Report, bad_files: set[str]) -> dict[str, str]:
    """Checks the splits' parts and README.md; returns the files the part records name."""
    corpus = store.path(paths.CORPUS_DIR)
    part_files: dict[str, str] = {}  # file -> what re-writes it
    for split in catalogue().splits:
        try:
            parts = read_parts(store, split)
        except (CorruptFileError, OSError) as exc:
            report.add(paths.split_part_dir(split), f"a part record is unreadable ({exc})",
                       f"re-materialize {split}_split")
            report.splits_to_repair.add(split)
            continue
        for part in parts:
            report.parts.append((split, part))
            part_files.update(dict.fromkeys(part.get("files", []), remedy(split, part.get("pk", "?"))))
            report.checked += len(part.get("files", []))
            for f, problem in part_damage(store, part).items():
                report.add(f, problem, remedy(split, part.get("pk", "?")) + ", then dataset_card")
                report.splits_to_repair.add(split)
                bad_files.add(f)
    for f in corpus_listing(store, corpus):
        rel = f"{paths.CORPUS_DIR}/{f}"
        if rel not in part_files and (split := next((sp for sp in catalogue().splits if part_of_shard(f, sp)), None)):
            report.add(rel, "a shard no part record names (an orphan: its record deleted, or a run of before)",
                       f"re-materialize {split}_split (it removes the venue-year's orphans)")
            report.splits_to_repair.add(split)
    readme = posixpath.join(corpus, "README.md")
    if not store.exists(readme):
        return part_files
    record = store.path(paths.card_checksum())
    if store.exists(record):  # written with README.md by each of its writers
        try:
            sha = store.read_json(record).get("README.md")
        except (CorruptFileError, OSError, AttributeError):
            sha = None  # the record itself is reported by its format's check
        if sha and (problem := file_problem(store, store.rel(readme), sha)):
            report.add(store.rel(readme), problem, "re-materialize dataset_card")
    try:
        header, _ = card_parts(store.read_bytes(readme).decode("utf-8"))
    except Exception as exc:  # noqa: BLE001
        report.add(store.rel(readme), f"unreadable card ({type(exc).__name__}: {exc})", "re-materialize dataset_card")
        return part_files
    for config in header.get("configs") or []:
        for entry in config.get("data_files") or []:
            for p in [entry["path"]] if isinstance(entry.get("path"), str) else entry.get("path") or []:
                rel = f"{paths.CORPUS_DIR}/{p}"
                if any(c in p for c in "*?["):
                    continue  # a glob of a card of before the parts: nothing exact to check
                if p == CHAINS_FILE:  # published by the card itself, not by a part (issue 37 item 2)
                    if store.exists(store.path(rel)):
                        continue
                    report.add(rel, "README.md lists a file that is missing", "re-materialize resubmissions, "
                               "then dataset_card")
                    continue
                if rel in bad_files:
                    problem = "README.md lists a file that fails its check"
                elif rel not in part_files:
                    problem = "README.md lists a file no part record names" + (
                        "" if store.exists(store.path(rel)) else " (and it is missing)")
                    split = next((sp for sp in catalogue().splits if part_of_shard(p, sp)), None)
                    if split and not store.exists(store.path(paths.split_part(split, part_of_shard(p, split)))):
                        report.add(paths.split_part(split, part_of_shard(p, split)), "missing (README.md lists its "
                                   "shards)", f"re-materialize {split}_split, then dataset_card")
                        report.splits_to_repair.add(split)
                else:
                    continue
                report.add(rel, problem, part_files.get(rel, "re-materialize its conference split (<split>_split)")
                           + ", then dataset_card")
    return part_files


def _check_verdicts(store: Store, report: Report, owners) -> None:
    checks = store.path("checks")
    sel = pafs.FileSelector(checks, allow_not_found=True, recursive=True)
    for info in store.fs.get_file_info(sel):
        if info.type != pafs.FileType.File or not info.base_name.endswith(".json") or info.base_name.startswith("."):
            continue
        pk, asset = posixpath.basename(posixpath.dirname(info.path)), info.base_name[:-5]
        rec = store.read_json_or_none(info.path)
        if not isinstance(rec, dict):
            report.add(store.rel(info.path), "unreadable check verdict", f"re-materialize {asset} for {pk}")
            continue
        judged, now = rec.get("judged") or {}, judged_data(store, pk, asset)
        for rel, was in judged.items():
            if rel not in now:
                report.add(rel, "missing (its check verdict judged it)", f"re-materialize {asset} for {pk}")
            elif not same_bytes(store, rec, rel, now[rel]):  # (a replayed copy keeps its bytes' sha256)
                report.add(rel, f"not the data its check verdict judged (size, mtime {now[rel]} != {was})",
                           f"re-materialize {asset} for {pk}")


@dataclass(frozen=True)
class Listing:
    """The root's files, listed once per check: whether a file is there is asked of this listing, not
    of the store file by file (on S3, one LIST per 1,000 keys instead of a HEAD per venue-year and file
    asked about: thousands per check with the catalogue's venues)."""
    files: tuple  # pafs.FileInfo of every file under the root
    rels: frozenset[str]  # their root-relative paths
    dirs: frozenset[str]  # every folder holding a file none of whose names starts with '.'

    @classmethod
    def of(cls, store: Store) -> Listing:
        sel = pafs.FileSelector(store.root, allow_not_found=True, recursive=True)
        files = tuple(i for i in store.fs.get_file_info(sel) if i.type == pafs.FileType.File)
        rels = frozenset(store.rel(i.path) for i in files)
        dirs = {posixpath.dirname(r) for r in rels if "/." not in "/" + r}
        for d in list(dirs):
            while d:
                d = posixpath.dirname(d)
                dirs.add(d)
        return cls(files, rels, frozenset(dirs))

    def has(self, rel: str) -> bool:
        return rel in self.rels


def _expect(listing: Listing, report: Report, rel: str, why: str, fix: str) -> None:
    if not listing.has(rel):
        report.add(rel, f"missing ({why})", fix)


# per venue-year, the files one publication of their stage always writes together (a deletion of one
# leaves the others): the crawl, the parse, the dialogues, the rows
WRITTEN_TOGETHER = ((paths.raw_forums, paths.quarantine, paths.crawl_errors), (paths.parsed, paths.parsed_quarantine),
                    (paths.dialogues, paths.dialogue_exclusions, paths.re2_review, paths.re2_rebuttal),
                    (paths.rows, paths.provenance, paths.rows_reviews, paths.rows_stats))


def _check_expected(store: Store, listing: Listing, report: Report, part_records: list[tuple[str, dict]], owners,
                    resubmission_set: tuple[str, ...]) -> None:
    """Files that a published record or a sibling says must be there (a deletion leaves no bytes to
    check): each part's inputs, README.md, the split's figures and the plots the card shows, a
    venue-year's stored PDFs (its submissions table names them), the files of its change log, and a
    check verdict for data that its checks judge."""
    from reviewbench_assets.io.verdicts import JUDGED_FILES

    for split, part in part_records:
        pk = part.get("pk", "?")
        for _what, (rel, *_rest) in (part.get("fingerprint") or {}).items():
            _expect(listing, report, rel, f"an input of {split}'s part for {pk}", f"re-materialize its owner for {pk}")
        _expect(listing, report, paths.split_stats(split), f"{split} has parts", f"re-materialize {split}_split")
    if part_records:
        readme = posixpath.join(paths.CORPUS_DIR, "README.md")
        _expect(listing, report, readme, "the splits have parts", "re-materialize dataset_card")
        _expect(listing, report, paths.card_checksum(), "README.md's writers publish it with README.md",
                "re-materialize dataset_card")
        if listing.has(readme):
            text = store.read_bytes(store.path(readme)).decode("utf-8", "replace")
            for plot in sorted(set(re.findall(r"\(?(plots/[A-Za-z0-9_.-]+\.png)", text))):
                _expect(listing, report, f"{paths.CORPUS_DIR}/{plot}", "README.md shows it", "re-materialize dataset_card")
    _expect_resubmissions(store, listing, report, resubmission_set)
    for v in catalogue().venues:
        pk = v.key
        subs = paths.submissions(pk)
        if listing.has(subs):
            try:
                shas = store.read_parquet(store.path(subs), columns=["pdf_sha256"]).column(0).to_pylist()
            except (CorruptFileError, OSError, KeyError):
                shas = []  # the table itself is reported by its format's check
            for sha in sorted({x for x in shas if x}):
                _expect(listing, report, store.rel(store.pdf_path(sha)), f"{subs} names it",
                        f"re-materialize initial_submission_pdfs for {pk}")
        for together in WRITTEN_TOGETHER:
            if any(listing.has(w(pk)) for w in together):
                for where in together:
                    _expect(listing, report, where(pk), "its stage publishes it with the others of its set",
                            f"re-materialize {owners.get(where(pk), ('its owner',))[0]} for {pk}")
        if v.api == "v2" and listing.has(paths.raw_forums(pk)):  # the crawl publishes them together
            _expect(listing, report, paths.crawl_cursor(pk), f"{paths.raw_forums(pk)}'s crawl publishes it (API v2)",
                    f"re-materialize openreview_forums for {pk} (without it the next crawl is a full one)")
        if listing.has(paths.markdown(pk)):  # the papers' text was read from the PDFs it names
            _expect(listing, report, subs, f"{paths.markdown(pk)} was read from the PDFs it names",
                    f"re-materialize initial_submission_pdfs for {pk}")
        if listing.has(paths.rows(pk)) and listing.has(subs):  # rows read the papers' text
            _expect(listing, report, paths.markdown(pk), f"{paths.rows(pk)} was built from it",
                    f"re-materialize paper_markdown for {pk}")
        group = (paths.change_state, paths.change_trajectories, paths.change_daily, paths.change_daily_plot)
        logs = paths.change_log_dir(pk) in listing.dirs
        if logs or any(listing.has(w(pk)) for w in group):  # one publication writes them all
            for where in group:
                _expect(listing, report, where(pk), "the change log's other files are there",
                        f"re-materialize venue_changes for {pk}")
            if not logs:
                report.add(paths.change_log_dir(pk), "missing: no refresh logged, yet its state is there",
                           f"re-materialize venue_changes for {pk}")
        for asset, wheres in JUDGED_FILES.items():
            if any(listing.has(w(pk)) for w in wheres):
                _expect(listing, report, paths.check_record(pk, asset), f"{asset}'s data for {pk} has no check verdict",
                        f"re-materialize {asset} for {pk}")


def _expect_resubmissions(store: Store, listing: Listing, report: Report, resubmission_set: tuple[str, ...]) -> None:
    """`resubmission_set`: the corpus-level files the resubmissions stage publishes together, with a
    records file per venue-year its state names (what the stage declares, verify.py derives it)."""
    if not any(listing.has(rel) for rel in resubmission_set):
        return
    fix = "re-materialize resubmissions"
    for rel in resubmission_set:
        _expect(listing, report, rel, "the resubmissions stage publishes it with the others of its set", fix)
    state = paths.RESUBMISSION_STATE
    try:
        venue_years = store.read_json_or_none(store.path(state)) or {}
    except (CorruptFileError, OSError, ValueError):
        return  # the state itself is reported by its format's check
    for pk in sorted((venue_years.get("venue_years") or {}) if isinstance(venue_years, dict) else {}):
        _expect(listing, report, paths.resubmission_records(pk), f"{state} names {pk}", fix)


def _check_publications(store: Store, report: Report) -> None:
    for info in journal_files(store):
        if info.base_name.startswith(".") and token_is_dead(info.base_name[1:].split(".json")[0], age_s(info)):
            report.add(store.rel(info.path), "a dead run's half-written journal (killed before its commit point)",
                       "verify --repair (or any opening of the root) deletes it", damaged=False)
    for info in pending_journal_files(store):
        token = info.base_name[:-5]
        dead = token_is_dead(token, age_s(info))
        report.add(store.rel(info.path), "a pending publication journal: its set is half moved into place"
                   + (" by a dead run" if dead else " by a live run (still publishing?)"),
                   "verify --repair (or any opening of the root) finishes it" if dead else "wait for the run",
                   damaged=dead)


def check_root(store: Store, owners: dict[str, tuple[str, str]], resubmission_set: tuple[str, ...] = ()) -> Report:
    """Every finding of the root (see reviewbench_assets/verify.py); `owners`: root-relative path ->
    (asset, partition) of the files the stages own, to say what to re-materialize; `resubmission_set`:
    the corpus-level files the resubmissions stage publishes together."""
    report, bad, listing = Report(), set(), Listing.of(store)
    _check_publications(store, report)
    part_checked = set(_check_splits(store, report, bad))
    _check_verdicts(store, report, owners)
    _check_expected(store, listing, report, report.parts, owners, resubmission_set)
    for info in listing.files:
        rel = store.rel(info.path)
        if rel.startswith(NOT_PUBLISHED) or "/.publish/" in rel:
            continue
        m = STAGING.match(info.base_name)
        if m:
            if token_is_dead(m["token"], age_s(info)):
                report.add(rel, "a dead run's staging file", "verify --repair (or the next publication into "
                           "its folder) removes it", damaged=False)
            continue
        if rel.startswith("corpus/") and rel in part_checked:
            continue
        report.checked += 1
        problem = _format_problem(store, info.path, rel, int(info.size or 0))
        if problem:
            report.add(rel, problem, _fix(rel, owners))
    return report


