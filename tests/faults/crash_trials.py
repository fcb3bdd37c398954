"""Crash points enumerated from the code, each one killed, with a reader polling the whole time
(issue 29.4).

1. The operation (tests/faults/crash_pipeline.py: every stage of a venue-year, generation 1 -> 2) runs
   uninterrupted on a copy of the generation-1 root through the counting filesystem
   (tests/faults/crash_points.py): its N mutating calls are its crash points, each with the stage
   code's frames that made it (tests/faults/publish_sites.py maps them to the publish sites of the
   code). A second uninterrupted run tells what runs stamp differently (tests/faults/crash_state.py),
   and every view the runs pass through outside a publication's moves is an allowed view.
2. Per point k: a copy of the generation-1 root; a reader process polls it (through the project's
   reader API, `Store.snapshot`, and plain reads for comparison); a run is killed -9 (`os._exit`) just before its k-th call, having written
   which call that was; the reader goes on until it has seen the root after the kill (it replays a
   dead run's journal, as every reader path does). Then a re-run must end where an uninterrupted run
   ends, with no staging file or journal left.

Processes come from a fork server (a clean process started before any S3 client exists, which then
forks each trial's processes): forking a process whose AWS SDK is running leaves the child's S3
client broken, which is what stopped the first S3 attempt (every trial from the third read nothing).
"""
from __future__ import annotations

import functools
import multiprocessing
import os
import posixpath
import re
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.fs as pafs

from resources.store import Store, store_from_uri
from resources.store_read import SnapshotUnsettled
from reviewbench_assets.io.layout import paths
from tests.faults import crash_pipeline
from tests.faults.crash_points import CountingHandler
from tests.faults.crash_state import (
    Volatile,
    canon,
    canon_paths,
    dataset_files,
    dataset_views,
    judge,
    judge_dataset,
    listing,
    pending_journals,
    published,
    read_files,
    view,
)
from tests.ops.procs import stop_server

POLL_S = 0.05  # the reader's pause between two reads (it shares the machine with the run it watches)
# What a run records of its own work, which a re-run after a kill legitimately records otherwise: a
# PDF the killed run had stored is found, not fetched (`pdf_fetch` "..., stored before", 0 requests;
# issue 29.3). Left out of the comparison of a re-run's end with an uninterrupted run's, nowhere else.
RUN_ACCOUNTING = frozenset({"pdf_fetch", "pdf_requests", "revision_requests"})
_TOKEN = re.compile(r"[0-9a-f]{8}\.\d+\.[0-9a-f]{8}")


def _s3_client(endpoint: str):
    import boto3

    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id="testing-key", aws_secret_access_key="testing-secret")


@dataclass(frozen=True)
class CountingStore(Store):
    """A root seen through the counting filesystem; folders and locks as on its real filesystem."""

    base: object = None

    @property
    def is_local(self) -> bool:
        return isinstance(self.base, pafs.LocalFileSystem)

    def ensure_parent(self, path: str) -> None:
        if self.is_local:  # S3 has no folders to make
            self.fs.create_dir(posixpath.dirname(path), recursive=True)


@dataclass(frozen=True)
class Backend:
    """Where trials run: a local folder, or a bucket of a moto_server over HTTP (`endpoint`)."""

    name: str = "local"
    endpoint: str | None = None
    bucket: str | None = None

    def s3_options(self) -> dict | None:
        if self.name != "s3":
            return None
        return {"endpoint_override": self.endpoint.removeprefix("http://"), "scheme": "http", "region": "us-east-1",
                "access_key": "testing-key", "secret_key": "testing-secret"}

    def root(self, work: Path, name: str) -> str:
        return str(work / name) if self.name == "local" else f"s3://{self.bucket}/{work.name}/{name}"

    def open(self, root: str, recover: bool = True) -> Store:
        factory = functools.partial(_s3_client, self.endpoint) if self.name == "s3" else None
        return store_from_uri(root, self.s3_options(), s3_client_factory=factory, recover=recover)

    def counting(self, root: str, kill_at: int | None = None, report: str | None = None,
                 after=None) -> tuple[Store, CountingHandler]:
        base = self.open(root, recover=False)
        handler = CountingHandler(base.fs, kill_at, report, after)
        return CountingStore(pafs.PyFileSystem(handler), base.root, base.s3_client_factory, base.fs), handler

    def copy(self, src: str, dst: str, src_backend: Backend | None = None) -> None:
        """Every file of root `src` (of `src_backend`, default this one) to root `dst` of this one;
        lock files stay behind (a local lock is a file only the kernel's flock gives meaning to)."""
        if self.name == "local" and src_backend is None:
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".locks"))
            return
        source, dest = (src_backend or self).open(src, recover=False), self.open(dst, recover=False)
        for path in source.list_files(source.root):
            rel = posixpath.relpath(path, source.root)
            if rel.startswith(".locks/"):
                continue
            target = dest.path(rel)
            if src_backend is None:  # within the bucket: a server-side copy
                dest.fs.copy_file(path, target)
            else:
                dest.ensure_parent(target)
                with source.fs.open_input_stream(path) as f, dest.fs.open_output_stream(target) as out:
                    out.write(f.read())

    def remove(self, root: str) -> None:
        if self.name == "local":
            shutil.rmtree(root, ignore_errors=True)
        else:
            store = self.open(root, recover=False)
            store.fs.delete_dir_contents(store.root, missing_dir_ok=True)


@contextmanager
def moto_bucket():
    """A moto_server of its own on 127.0.0.1 and a bucket in it (the bench; tests use the fixtures)."""
    import boto3

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    exe = shutil.which("moto_server", path=os.path.dirname(sys.executable)) or "moto_server"
    proc = subprocess.Popen([exe, "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        endpoint = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="testing-key",
                     aws_secret_access_key="testing-secret").create_bucket(Bucket="crash-points")
        yield Backend("s3", endpoint, "crash-points")
    finally:
        stop_server(proc)  # killed after its grace: the trials' figures are never lost to a teardown


def point_name(store: Store, method: str, path: str) -> str:
    """A call as the same for every run: root-relative, run tokens and time stamps left out."""
    rels = []
    for p in path.split(" -> "):
        rel = posixpath.relpath(p, store.root) if p.startswith(store.root) else p
        rels.append(canon(_TOKEN.sub("<token>", rel)))
    return f"{method} {' -> '.join(rels)}"


# ---------------------------------------------------------------- the processes of a trial


def _killed_run(backend: Backend, root: str, kill_at: int, report: str, stamp_ms: int) -> None:
    store, _ = backend.counting(root, kill_at, report)
    crash_pipeline.run_pipeline(store, 2, stamp_ms)


def _reader(backend: Backend, root: str, volatile: Volatile, allowed: set, stop, after_kill, out) -> None:
    """Poll the root until told to stop (and at least once after the kill): settled reads judged
    against the allowed views, and plain reads (one listing, then the files) judged the same way."""
    store = backend.open(root)
    got = {"polls": 0, "unsettled": 0, "violations": [], "plain_polls": 0, "plain_violations": [],
           "dataset_polls": 0, "dataset_bad": 0, "dataset_violations": [], "dataset_errors": 0}
    allowed_data = dataset_views(allowed, crash_pipeline.SPLIT)
    cache: dict = {}
    seen_after = 0
    while True:
        done = stop.is_set()
        killed = after_kill.is_set()
        try:  # the project's reader API: the whole root as of one moment
            with store.snapshot(prefixes=[store.root], wait_s=60, cache=cache) as snap:
                files = {rel: snap.read_bytes(p) for p in sorted(snap.fs.handler.pins)
                         if published(rel := posixpath.relpath(p, store.root))}
        except SnapshotUnsettled:
            got["unsettled"] += 1
        else:
            got["polls"] += 1
            got["violations"] += judge(files, volatile, allowed)
        if not pending_journals(store):
            before = listing(store)
            plain = read_files(store, before, cache)
            got["plain_polls"] += 1
            wrong = judge(plain, volatile, allowed)
            if wrong:  # why: did a publication move files while this reader read (its own race)?
                after = listing(store)
                changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
                why = (f"files changed while it read: {changed[:4]}" if changed else
                       "a journal was pending after it read" if pending_journals(store) else
                       "NOTHING changed around the read")
                got["plain_violations"] += [f"{w} ({why})" for w in wrong]
        # a user's `datasets.load_dataset(<root>/corpus)`: the files README.md lists for the split
        got["dataset_polls"] += 1
        files, switched = dataset_files(store, crash_pipeline.SPLIT)
        wrong = judge_dataset(files, volatile, allowed_data)
        if wrong and switched and all(w.startswith("a shard listed but gone") for w in wrong):
            got["dataset_errors"] += 1  # README.md switched while it read: a listed file gone, an error
        elif wrong:
            got["dataset_bad"] += 1
            got["dataset_violations"].append("; ".join(wrong))
        seen_after += killed
        if done and seen_after >= 1:
            break
        time.sleep(POLL_S)
    got["violations"] = got["violations"][:10]
    got["plain_violations"] = got["plain_violations"][:10]
    got["dataset_violations"] = got["dataset_violations"][:10]
    out.put(got)


def warm() -> None:
    """What the stages import lazily, imported once in the fork server rather than in every trial."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401
    import pandas  # noqa: F401
    from datasets.data_files import resolve_pattern  # noqa: F401

    import reviewbench_assets.domain.card  # noqa: F401
    import reviewbench_assets.stages.card_stage  # noqa: F401
    import reviewbench_assets.stages.live_card  # noqa: F401


def _context():
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["tests.faults.crash_warm"])
    return ctx


# ---------------------------------------------------------------- enumeration


@dataclass
class Enumeration:
    points: list[str]  # point names, in call order
    frames: list[tuple]  # the stage frames of each
    finals: tuple[frozenset, frozenset]  # the views an uninterrupted run ends with, and one repeated on top
    volatile: Volatile
    allowed: set[frozenset]
    template: str
    stamp_ms: int
    seconds: float = 0.0


class _Snapshots:
    def __init__(self, store: Store):
        self.store, self.views = store, []

    def __call__(self, _handler) -> None:
        if not pending_journals(self.store):  # inside a publication's moves readers must not look
            self.views.append(read_files(self.store, listing(self.store)))


def prepare(backend: Backend, work: Path) -> tuple[str, int]:
    template = backend.root(work, "template")
    crash_pipeline.run_pipeline(backend.open(template), 1)
    time.sleep(0.01)
    return template, int(time.time() * 1000)


def enumerate_points(backend: Backend, work: Path, template: str, stamp_ms: int,
                     learnt: Enumeration | None = None) -> Enumeration:
    """The operation's crash points on `backend`; the allowed views are learnt from two uninterrupted
    runs (or taken from `learnt`, an enumeration on another backend: views are backend-free)."""
    started = time.time()
    runs = []
    for name in ("clean-a", "clean-b") if learnt is None else ("clean-a",):
        root = backend.root(work, name)
        backend.copy(template, root)
        initial = read_files(backend.open(root, recover=False), listing(backend.open(root, recover=False)))
        store, handler = backend.counting(root)
        snaps = _Snapshots(store)
        handler.after = snaps if learnt is None else None
        crash_pipeline.run_pipeline(store, 2, stamp_ms)
        final = read_files(store, listing(store))
        runs.append((store, handler, [initial, *snaps.views, final]))
        if name == "clean-a":  # a kill after the change log was published: its re-run logs one more refresh
            again = backend.open(root)
            crash_pipeline.run_pipeline(again, 2, stamp_ms)
            repeated = read_files(again, listing(again))
        backend.remove(root)
        time.sleep(1.1)  # the second run stamps another second, so stamps at second precision differ
    store, handler, views = runs[0]
    points = [point_name(store, m, p) for m, p in handler.calls]
    if learnt is not None:
        ends = learnt.volatile.without(RUN_ACCOUNTING)
        finals = (view(views[-1], ends), view(repeated, ends))
        return Enumeration(points, handler.frames, finals, learnt.volatile, learnt.allowed, template, stamp_ms,
                           time.time() - started)
    volatile = Volatile()
    other = runs[1][2]
    # runs of unequal length (none so far) are compared as far as both go; a repeat stamps its own times
    for a, b in [*zip(views, other, strict=False), (views[-1], repeated)]:
        names_a, names_b = canon_paths(a), canon_paths(b)
        by_canon = {names_b[p]: d for p, d in b.items()}
        for p, d in a.items():
            if names_a[p] in by_canon and d is not None and by_canon[names_a[p]] is not None:
                volatile.learn(names_a[p], d, by_canon[names_a[p]])
    allowed = {view(v, volatile) for v in [*views, *other]}
    ends = volatile.without(RUN_ACCOUNTING)
    finals = (view(views[-1], ends), view(repeated, ends))
    return Enumeration(points, handler.frames, finals, volatile, allowed, template, stamp_ms,
                       time.time() - started)


# ---------------------------------------------------------------- trials


@dataclass
class Trials:
    backend: str
    points: int
    trials: int = 0
    violations: list[str] = field(default_factory=list)
    plain_violations: list[str] = field(default_factory=list)
    dataset_violations: list[str] = field(default_factory=list)  # polls with violations, as load_dataset reads
    failures: list[str] = field(default_factory=list)
    polls: int = 0
    plain_polls: int = 0
    dataset_polls: int = 0
    dataset_bad: int = 0  # polls in which the load_dataset reader saw something wrong (messages: the first 10 a trial)
    dataset_errors: int = 0  # polls in which a file it listed was gone as README.md switched (an error, no rows)
    seconds: list[tuple[float, float]] = field(default_factory=list)  # per trial: the killed run, the rest


def _leftovers(store: Store) -> list[str]:
    """Staging files, journals, and downloads staged by the PDF stage (an uninterrupted run leaves none)."""
    return [p for p in store.list_files(store.root) if ".tmp-" in p or "/.publish/" in p
            or f"/{paths.pdf_staging('')}" in p]


def _unlike_an_uninterrupted_end(end: frozenset, finals: tuple[frozenset, frozenset]) -> list[str]:
    """The files of `end` that neither an uninterrupted run's end nor that of a run repeated on top
    of it has (a re-run after a late kill repeats what the killed run recorded of itself: the crawl
    cursor of a crawl that found nothing new, one more change-log refresh), and those it lacks."""
    once, twice = finals
    names = lambda v: {p for p, _ in v}  # noqa: E731
    return sorted({p for p, _ in end - once - twice} | (names(once) - names(end))
                  | (names(end) - names(once) - names(twice)))


def run_trials(backend: Backend, work: Path, en: Enumeration, ks: list[int] | None = None) -> Trials:
    """One trial per crash point (or per point of `ks`, 1-based)."""
    ctx = _context()
    got = Trials(backend.name, len(en.points))
    for k in ks or range(1, len(en.points) + 1):
        root = backend.root(work, f"k{k}")
        backend.copy(en.template, root)
        report = work / f"k{k}.point"
        stop, after_kill, out = ctx.Event(), ctx.Event(), ctx.Queue()
        reader = ctx.Process(target=_reader, args=(backend, root, en.volatile, en.allowed, stop, after_kill, out))
        reader.start()
        run = ctx.Process(target=_killed_run, args=(backend, root, k, str(report), en.stamp_ms))
        t0 = time.time()
        run.start()
        run.join(300)
        t1 = time.time()
        after_kill.set()
        stop.set()
        seen = out.get(timeout=300)
        reader.join(60)
        got.trials += 1
        got.polls += seen["polls"]
        got.plain_polls += seen["plain_polls"]
        got.dataset_polls += seen["dataset_polls"]
        got.dataset_bad += seen["dataset_bad"]
        got.dataset_errors += seen["dataset_errors"]
        name = en.points[k - 1]
        got.violations += [f"{backend.name} point {k} ({name}): {v}" for v in seen["violations"]]
        got.plain_violations += [f"{backend.name} point {k} ({name}): {v}" for v in seen["plain_violations"]]
        got.dataset_violations += [f"{backend.name} point {k} ({name}): {v}" for v in seen["dataset_violations"]]
        store = backend.open(root)  # any reader path recovers first
        died = report.read_text().split("\t") if report.exists() else None
        if run.exitcode != 137 or died is None or point_name(store, *died) != name:
            got.failures.append(f"{backend.name} point {k} ({name}): the run was not killed there "
                                f"(exit {run.exitcode}, at {died})")
        crash_pipeline.run_pipeline(store, 2, en.stamp_ms)  # the re-run
        end = view(read_files(store, listing(store)), en.volatile.without(RUN_ACCOUNTING))
        wrong = _unlike_an_uninterrupted_end(end, en.finals)
        if wrong:
            got.failures.append(f"{backend.name} point {k} ({name}): the re-run did not end where an "
                                f"uninterrupted run ends: {wrong[:6]}")
        if _leftovers(store):
            got.failures.append(f"{backend.name} point {k} ({name}): staging, journals or staged downloads left: "
                                f"{_leftovers(store)[:3]}")
        backend.remove(root)
        report.unlink(missing_ok=True)
        got.seconds.append((round(t1 - t0, 1), round(time.time() - t1, 1)))
        print(f"{backend.name} point {k}/{len(en.points)}: {got.trials} trials, {len(got.violations)} violations, "
              f"{len(got.failures)} failures, {got.seconds[-1]} s", flush=True)  # a long bench shows where it is
    return got
