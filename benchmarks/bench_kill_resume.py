"""Kill -9 and resume (issue 6): SIGKILL the `dagster asset materialize` process group at a random
point of each stage, re-run the same command, and compare with an uninterrupted run.

One in-process replica (`iclr-2020`, API v1, or the venue-year KILL_RESUME_PARTITION names, e.g.
`iclr-2024` for API v2; N_FORUMS forums, FaultConfig(slow_ms) on every API
request so the crawl and PDF stages last long enough to be hit). A reference run materializes
`--select '*' --partition iclr-2020` once into its own storage root and DAGSTER_HOME; its stderr is
watched for `STEP_START` / `STEP_SUCCESS` to time each step. Then, per trial (fixed seed): a fresh
storage root and DAGSTER_HOME, the same command started in its own session, and, after the
target step's `STEP_START`, `os.killpg(pgid, SIGKILL)` at a uniform random fraction of that step's
reference duration (the whole group: Ray workers, chromium and the run's step processes die too).
The command is then run again with the same storage root and DAGSTER_HOME, as a user would.

A trial fails when any of these holds:
- the re-run does not end in RUN_SUCCESS (within 3x the reference's duration + 120 s, at least 300 s);
- `rows/iclr-2020.parquet`, `rows/iclr-2020.provenance.parquet` or any `corpus/data/*.parquet`
  differs from the reference byte for byte (the diff says whether table contents differ too);
- a forum_id appears twice in the rows;
- the re-run downloaded a PDF (`/pdf`, `/attachment`, `/references/pdf`, ... requests, mapped to a
  sha256 through the reference's `submissions/iclr-2020.parquet`) whose file was in `pdfs/` at
  the time of the kill.

Stage `pdf_record` places its kills instead of drawing them: a kill at a random instant almost
never falls between a PDF's write and its checkpoint (no request separates them), so its trials set
REVIEWBENCH_KILL_AT and run the test-only code location `tests.faults.definitions` (the kill points of
tests/faults/kill_points.py, never shipped in the wheel), and the run kills its own process
group there: the 3rd time a PDF's source record is written before the PDF, and the 3rd time a PDF
is stored before its checkpoint. The second is the case issue 22 names: the re-run must find that
PDF without asking for it again. On API v2 a third: the 2nd time a note's current PDF has its source
record written (`pdf_current_source_written:2`), i.e. inside an `/attachment?ids=` batch, the zip's
other PDFs received and not yet stored.

Figures: kill_resume_trials, kill_resume_failures (goal 0, baseline = trials),
kill_resume_pdf_redownloads (count of re-downloaded stored PDFs, over all trials), and
kill_resume_repeated_requests (issue 29.3, goal 0): requests of the re-runs that their killed run had
already received an answer to, counted at the replica (same method, path and query, or a file request
asking for a file one of its answers held, e.g. a PDF of its batch zip; API and file requests; the login is a session, not an answer, and the website's own pages are not OpenReview's
metered API), over all trials, with the kinds and stages they came from. A kill may land after
the run had succeeded (`killed_run_had_succeeded`: the process was still exiting): its re-run is a
re-materialization and counts the same, as the venue-years here are closed (`venue_closed`). Only for
an open venue-year would such a new run be its refresh, asking again by design: counted apart
(`refresh_requests`), never in the figure.
"""
from __future__ import annotations

import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from benchmarks.common import figure
from tests.faults.kill_points import KILL_VAR

ROOT = Path(__file__).resolve().parents[1]
# The venue-years, each with its own trials and figures (issue 38.7's "API v1 and v2"): iclr-2020
# (API v1: one PDF per request) and iclr-2024 (API v2: its current PDFs fetched 50 to an
# /attachment?ids= zip). KILL_RESUME_PARTITION=<pk> runs one of them (or another venue-year).
PARTITIONS = [os.environ["KILL_RESUME_PARTITION"]] if os.environ.get("KILL_RESUME_PARTITION") else \
    os.environ.get("KILL_RESUME_PARTITIONS", "iclr-2020,iclr-2024").split(",")
N_FORUMS = int(os.environ.get("KILL_RESUME_FORUMS", "16"))
SLOW_MS = int(os.environ.get("KILL_RESUME_SLOW_MS", "150"))
SEED = int(os.environ.get("KILL_RESUME_SEED", "6"))
TRIALS_PER_STAGE = int(os.environ.get("KILL_RESUME_TRIALS_PER_STAGE", "2"))
# A run's length grows with the partition (the reference took 224 s at 1,000 forums and 1,401 s at
# 5,000, both at 20 ms), so a fixed 300 s cap failed large runs that were merely slow. The
# reference's cap scales with the forums (0.7 s each: 2.5x the 5,000-forum rate); the trials' runs
# and re-runs get 3x the measured reference plus a margin (see `_trial_timeout`). 300 s stays the
# floor, so the default 16-forum runs keep their old caps.
TIMEOUT_FLOOR_S = 300
RUN_TIMEOUT_S = max(TIMEOUT_FLOOR_S, int(0.7 * N_FORUMS))
BLOCK_WAIT_S = 40  # the plain re-run reaches its first step well within this (in-process executor)


def _split_asset(pk: str) -> str:
    from partitions.catalogue import catalogue
    return f"{catalogue().get(pk).split}_split"


def _api(pk: str) -> str:
    from partitions.catalogue import catalogue
    return catalogue().get(pk).api


# stage -> the step(s) whose execution is the stage ("split writing": the venue-year rows and the
# conference split shards)
def stages_of(pk: str) -> dict[str, list[str]]:
    return {"crawl": ["openreview_forums"], "pdf_fetch": ["initial_submission_pdfs"],
            "ocr": ["paper_markdown"], "dialogues": ["parsed_forums", "rebuttal_dialogues"],
            "split_writing": ["reviewbench_split", _split_asset(pk)],
            "pdf_record": ["initial_submission_pdfs"]}


STAGES = list(stages_of("iclr-2020"))
# stage -> the placed kill of each of its trials (fault_points.KILL_VAR), instead of a random instant
# (API v2 adds a kill inside a batch: after its 2nd PDF's source record, the 1st stored, the rest of
# the zip received and not yet stored)
def placed_kills(pk: str) -> dict[str, list[str]]:
    return {"pdf_record": ["pdf_source_written:3", "pdf_stored:3"]
            + (["pdf_current_source_written:2"] if _api(pk) == "v2" else [])}


def _compared(pk: str) -> list[str]:
    return [f"rows/{pk}.parquet", f"rows/{pk}.provenance.parquet"]


PDF_PATHS = ("/pdf", "/attachment", "/references/pdf", "/references/attachment", "/notes/edits/pdf",
             "/notes/edits/attachment")
# The stages' assets (the other conference splits and the card hold no iclr-2020 data), run with
# the in-process executor: one process per run instead of one per step (~20 s of start-up per
# step on 2 cores), which keeps 10+ trials inside the benchmark's time budget. Set
# KILL_RESUME_MULTIPROCESS=1 for Dagster's default multiprocess executor.
def _select(pk: str) -> str:
    return ("openreview_forums,parsed_forums,initial_submission_pdfs,paper_markdown,rebuttal_dialogues,"
            f"reviewbench_split,{_split_asset(pk)}")


RUN_CONFIG = "{}" if os.environ.get("KILL_RESUME_MULTIPROCESS") else '{"execution": {"config": {"in_process": {}}}}'
STEP_RE = re.compile(r'(STEP_START|STEP_SUCCESS|STEP_FAILURE)\s+- .*?step "([^"]+)"')


def _trial_timeout(reference_s: float) -> int:
    """Cap of a trial's killed run (until its kill) and of its re-run: 3x the uninterrupted
    reference plus 2 minutes (a re-run after a late kill redoes at most the whole run, plus start-up
    and the other helper processes on 2 cores), never under TIMEOUT_FLOOR_S."""
    return max(TIMEOUT_FLOOR_S, int(3 * reference_s + 120))


def _env(rep, storage: Path, home: Path) -> dict:
    # PYTHONPATH: the runs import this checkout's packages even when the interpreter's editable
    # install points at another checkout (a git worktree sharing a virtualenv)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "DAGSTER_HOME": str(home), "REVIEWBENCH_STORAGE_ROOT": str(storage),
            "OPENREVIEW_API_V1_URL": rep.api_v1_url, "OPENREVIEW_API_V2_URL": rep.api_v2_url,
            "OPENREVIEW_WEB_URL": rep.web_url, "OPENREVIEW_USERNAME": rep.username,
            "OPENREVIEW_PASSWORD": rep.password, "OPENREVIEW_MIN_INTERVAL_S": "0",
            "REVIEWBENCH_BROWSER_PAGES": "4", "REVIEWBENCH_RAY_NUM_CPUS": "2",
            "DAGSTER_DISABLE_TELEMETRY": "1", "PYTHONHASHSEED": "0"}


def _home(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "dagster.yaml").write_text((ROOT / "dagster.yaml").read_text())
    return path


class Run:
    """`dagster asset materialize` in its own session; stderr+stdout parsed for step events."""

    def __init__(self, env: dict, log: Path, pk: str):
        self.log = log
        self.events: list[tuple[float, str, str]] = []  # (monotonic t, event, step)
        self.started = time.monotonic()
        self.lines: list[str] = []
        # the running interpreter's dagster (`python -m`): the checkout may have no .venv of its own
        # a placed kill runs the test-only code location that installs it (tests/faults/definitions.py)
        location = "tests.faults.definitions" if env.get(KILL_VAR) else "reviewbench_assets.definitions"
        cmd = [sys.executable, "-m", "dagster", "asset", "materialize", "-m", location,
               "--select", _select(pk), "--partition", pk, "--config-json", RUN_CONFIG]
        self.p = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, errors="replace", start_new_session=True)
        self.cond = threading.Condition()
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        with self.log.open("w") as f:
            for line in self.p.stdout:
                f.write(line)
                now = time.monotonic()
                m = STEP_RE.search(line)
                with self.cond:
                    self.lines.append(line)
                    if m:
                        self.events.append((now, m.group(1), m.group(2)))
                    self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def wait_event(self, event: str, step: str, timeout: float) -> float | None:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for t, e, s in self.events:
                    if e == event and s == step:
                        return t
                if self.p.poll() is not None and not self.t.is_alive():
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(min(left, 0.5))

    def running_steps(self) -> list[str]:
        with self.cond:
            started = [s for _, e, s in self.events if e == "STEP_START"]
            ended = {s for _, e, s in self.events if e != "STEP_START"}
        return [s for s in started if s not in ended]

    def kill(self):
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.p.wait(30)
        except subprocess.TimeoutExpired:  # not reaped yet: the trial's figures still count
            pass
        self.t.join(10)

    def finish(self, timeout: float) -> tuple[int | None, str]:
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            rc = None
        self.t.join(10)
        # reap anything the run left in its session (Ray workers, chromium)
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        return rc, "".join(self.lines)


def _recover(home: Path) -> int:
    """`scripts.recover_runs` on this DAGSTER_HOME: the killed run is marked failed and its pool
    slots freed. Without this, a kill -9 during a step of pool `openreview_api` or `ray` leaves the
    slot claimed and the re-run waits forever ("Step blocked by limit for pool ..."): the CLI runs
    no daemon, so run monitoring never sees the dead run."""
    from dagster import DagsterInstance
    from dagster._core.instance.ref import InstanceRef

    from scripts.recover_runs import recover

    old = os.environ.get("DAGSTER_HOME")
    os.environ["DAGSTER_HOME"] = str(home)  # the instance's storage lives under $DAGSTER_HOME (dagster.yaml)
    try:
        inst = DagsterInstance.from_ref(InstanceRef.from_dir(str(home)))
    finally:
        if old is None:
            os.environ.pop("DAGSTER_HOME", None)
        else:
            os.environ["DAGSTER_HOME"] = old
    try:
        return len(recover(inst))
    finally:
        inst.dispose()


def _outputs(storage: Path, pk: str) -> dict[str, bytes]:
    """The compared files; the split's data shards keyed without their generation tag (`-g000002-`,
    io/shards.py `next_generation`): a re-run may write the part once more under the next number
    (one generation stays on disk either way)."""
    out = {rel: (storage / rel).read_bytes() for rel in _compared(pk) if (storage / rel).exists()}
    for p in sorted((storage / "corpus" / "data").glob("*.parquet")):
        out[re.sub(r"-g\d+-(\d{5}-of-\d{5}\.parquet)$", r"-\1", str(p.relative_to(storage)))] = p.read_bytes()
    return out


# Provenance records when each forum was crawled (wall clock): it differs between any two runs that
# crawl, interrupted or not, so provenance is compared without it (rows and corpus/data: bytes).
VOLATILE = {"provenance.parquet": ["crawled_at"]}  # by the file's kind: rows/<pk>.provenance.parquet


def _volatile(rel: str) -> list[str] | None:
    return VOLATILE.get(rel.split(".", 1)[-1]) if rel.startswith("rows/") else None


def _same(rel: str, ref: bytes, got: bytes) -> bool:
    if ref == got:
        return True
    if not _volatile(rel):
        return False
    import io

    import pyarrow.parquet as pq
    a, b = pq.read_table(io.BytesIO(ref)), pq.read_table(io.BytesIO(got))
    return a.drop_columns(_volatile(rel)).equals(b.drop_columns(_volatile(rel)))


def _table_diff(rel: str, ref: bytes, got: bytes) -> str:
    import io

    import pyarrow.parquet as pq
    a, b = pq.read_table(io.BytesIO(ref)), pq.read_table(io.BytesIO(got))
    if a.schema != b.schema:
        return f"{rel}: schema differs"
    if a.num_rows != b.num_rows:
        return f"{rel}: {b.num_rows} rows vs {a.num_rows} in the reference"
    if a.equals(b):
        return f"{rel}: bytes differ, table contents equal (metadata/encoding only)"
    cols = [c for c in a.column_names if not a.column(c).equals(b.column(c))]
    detail = []
    if "forum_id" in a.column_names:
        ida, idb = a.column("forum_id").to_pylist(), b.column("forum_id").to_pylist()
        for c in cols[:3]:
            va, vb = a.column(c).to_pylist(), b.column(c).to_pylist()
            diff = [ida[i] for i in range(len(va)) if va[i] != vb[i] or ida[i] != idb[i]]
            detail.append(f"{c} differs for {len(diff)} rows e.g. {diff[:3]}")
    return f"{rel}: table contents differ in columns {cols}; " + "; ".join(detail)


def _sha_by_request_id(storage: Path, pk: str) -> dict[str, str]:
    """forum id and chosen revision id -> PDF sha256 (from the reference's submissions table)."""
    import pyarrow.parquet as pq
    out = {}
    for r in pq.read_table(storage / f"submissions/{pk}.parquet").to_pylist():
        if r["pdf_sha256"]:
            out[r["forum_id"]] = r["pdf_sha256"]
            if r["revision_id"]:
                out.setdefault(r["revision_id"], r["pdf_sha256"])
    return out


def _pdf_requests(log) -> list[tuple[str, list[str]]]:
    from urllib.parse import parse_qs
    out = []
    for r in log:
        if r.path in PDF_PATHS and r.status == 200:
            q = parse_qs(r.query) if isinstance(r.query, str) else {k: [v] if isinstance(v, str) else v
                                                                     for k, v in dict(r.query or {}).items()}
            ids = [i for v in q.get("ids", []) for i in v.split(",")] + q.get("id", [])
            out.append((r.path, ids))
    return out


def _files_asked(r) -> set[tuple[str, str, str]]:
    """The files a file request asks for, each as (which file of the note, note id, field): a note's
    current PDF is the same file whether asked alone (`/pdf?id=`, `/attachment?id=&name=pdf`) or in an
    API v2 batch (`/attachment?ids=a,b,...&name=pdf`, a zip); a revision's (`/references/pdf`,
    `/notes/edits/...`) is another."""
    from urllib.parse import parse_qs

    from openreview_replica.replica_state import ATTACHMENT_PATHS
    if r.path not in ATTACHMENT_PATHS:
        return set()
    q = parse_qs(r.query, keep_blank_values=True) if isinstance(r.query, str) else {}
    ids = [i for v in q.get("ids", []) for i in v.split(",") if i] + q.get("id", [])
    which = "current" if r.path in ("/pdf", "/attachment") else r.path
    name = (q.get("name") or ["pdf"])[-1]
    return {(which, i, name) for i in ids}


def repeated_requests(killed_log, rerun_log) -> Counter:
    """Requests of the re-run (by kind, openreview_replica.request_kind) whose answer the killed run
    had already received: same method, path and query (its parameters in any order), or a file
    request asking for a file that one of the killed run's answers held (a batch of PDFs asked again
    with other ids beside it is still a file asked twice)."""
    from openreview_replica.replica_state import request_kind

    def key(r) -> tuple:
        return r.method, r.path, tuple(sorted(r.params.items()))

    def counted(r) -> bool:
        return r.role != "web" and r.path != "/login"

    # an answer the replica could not write whole (the client was killed first) was not received
    received = [r for r in killed_log if counted(r) and r.status == 200 and getattr(r, "delivered", True)]
    answered = {key(r) for r in received}
    files = set().union(*(_files_asked(r) for r in received))
    return Counter(request_kind(r) for r in rerun_log
                   if counted(r) and (key(r) in answered or _files_asked(r) & files))


def repeated_detail(killed_log, rerun_log) -> list[dict]:
    """Each repeated request (path and query) with when the killed run's answer to it was delivered,
    in seconds before that run's last request reached the replica (about the kill): an answer
    delivered just before the kill was in flight to a thread that had not stored it yet."""
    def key(r) -> tuple:
        return r.method, r.path, tuple(sorted(r.params.items()))

    last = max((r.t for r in killed_log), default=0.0)
    received = [r for r in killed_log if r.role != "web" and r.path != "/login" and r.status == 200
                and getattr(r, "delivered", True)]
    delivered = {key(r): r for r in received}
    by_file = {f: r for r in received for f in _files_asked(r)}
    out = []
    for r in rerun_log:
        if r.role == "web" or r.path == "/login":
            continue
        earlier = delivered.get(key(r)) or next((by_file[f] for f in sorted(_files_asked(r)) if f in by_file), None)
        if earlier is not None:
            out.append({"request": f"{r.path}?{'&'.join(f'{k}={v}' for k, v in sorted(r.params.items()))}",
                        "answered_in": f"{earlier.path}?{earlier.query}"[:200],
                        "delivered_s_before_last_request": round(last - earlier.t, 3)})
    return out


def _stored_pdfs(storage: Path) -> set[str]:
    return {p.stem for p in (storage / "pdfs").rglob("*.pdf")}


def run(trials_per_stage: int = TRIALS_PER_STAGE, stages: list[str] | None = None,
        n_forums: int = N_FORUMS) -> list[dict]:
    """Every venue-year of PARTITIONS (API v1 and v2 by default), each with its own figures."""
    return [f for pk in PARTITIONS for f in run_partition(pk, trials_per_stage, stages, n_forums)]


def run_partition(pk: str, trials_per_stage: int = TRIALS_PER_STAGE, stages: list[str] | None = None,
                  n_forums: int = N_FORUMS) -> list[dict]:
    from datetime import UTC, datetime

    from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
    from partitions.catalogue import catalogue

    rng = random.Random(SEED)
    stages = stages or list(STAGES)
    stage_steps, placed_at = stages_of(pk), placed_kills(pk)
    # A closed venue-year's answers are final (io/attempt.py): any repeat counts. An open one's new
    # run after a finished one is its refresh, which asks again by design: a re-run whose killed run
    # had succeeded is then counted apart (`refresh_requests`), not in the figure.
    closed = catalogue().get(pk).closed_at(datetime.now(UTC))
    refresh_repeats = 0
    fx = build_fixtures([pk], seed=0, n_forums=n_forums)
    work = Path(tempfile.mkdtemp(prefix="kill_resume_"))
    results, failures, redownloads, blocked_reruns = [], [], 0, 0
    repeated, repeated_by_stage = Counter(), Counter()
    reference_s = 0.0
    t0 = time.time()
    try:
        with ReplicaServer(fx, port=0) as rep:
            rep.set_faults(FaultConfig(slow_ms=SLOW_MS))
            # ---- the uninterrupted reference
            ref_storage, ref_home = work / "ref" / "storage", _home(work / "ref" / "home")
            ref = Run(_env(rep, ref_storage, ref_home), work / "ref.log", pk)
            rc, out = ref.finish(RUN_TIMEOUT_S)
            if rc != 0 or "RUN_SUCCESS" not in out:
                raise RuntimeError(f"reference run failed (rc={rc}):\n{out[-4000:]}")
            reference_s = time.monotonic() - ref.started
            trial_timeout = _trial_timeout(reference_s)
            durations: dict[str, tuple[float, float]] = {}  # step -> (start offset, duration)
            for t, e, s in ref.events:
                if e == "STEP_START":
                    durations[s] = (t - ref.started, 0.0)
                elif s in durations:
                    durations[s] = (durations[s][0], t - ref.started - durations[s][0])
            ref_out = _outputs(ref_storage, pk)
            if not any(k.startswith("corpus/data/") for k in ref_out):
                raise RuntimeError(f"reference wrote no corpus/data shards: {sorted(ref_out)}")
            sha_of = _sha_by_request_id(ref_storage, pk)
            print(f"reference: {time.time() - t0:.0f}s (trial timeouts {trial_timeout}s); steps "
                  + ", ".join(f"{s} @{a:.1f}s +{d:.1f}s" for s, (a, d) in durations.items()), flush=True)

            n = 0
            for stage in stages:
                for k in range(trials_per_stage):
                    n += 1
                    step = stage_steps[stage][k % len(stage_steps[stage])]
                    frac = rng.uniform(0.15, 0.85)  # inside the step, not at its very edges
                    delay = frac * max(durations.get(step, (0, 0.5))[1], 0.05)
                    storage, home = work / f"t{n}" / "storage", _home(work / f"t{n}" / "home")
                    env = _env(rep, storage, home)
                    trial = {"trial": n, "stage": stage, "step": step, "fraction": round(frac, 3),
                             "kill_after_step_start_s": round(delay, 3)}
                    problems: list[str] = []
                    rep.reset_request_log()
                    placed = placed_at.get(stage)
                    if placed:  # the run kills itself at that point (its env only; the re-run runs on)
                        trial["kill_at_point"] = placed[k % len(placed)]
                        r1 = Run(env | {KILL_VAR: trial["kill_at_point"]}, work / f"t{n}.killed.log", pk)
                        rc1, _ = r1.finish(trial_timeout)
                        if rc1 != -signal.SIGKILL:
                            problems.append(f"the run was not killed at {trial['kill_at_point']} (rc={rc1})")
                    else:
                        r1 = Run(env, work / f"t{n}.killed.log", pk)
                        ts = r1.wait_event("STEP_START", step, trial_timeout)
                        if ts is None:
                            r1.finish(5)
                            problems.append(f"step {step} never started")
                        else:
                            time.sleep(max(0.0, ts + delay - time.monotonic()))
                            trial["running_at_kill"] = r1.running_steps()
                            trial["kill_at_run_s"] = round(time.monotonic() - r1.started, 2)
                            r1.kill()
                            r1.finish(5)
                            # a kill after the run had succeeded (in its exit: Dagster's and Ray's
                            # teardown) is a user re-materializing: its re-run is a new run after a
                            # finished one, counted like any other (a closed venue-year's answers are
                            # final, io/attempt.py); said in the trial, never redrawn
                            trial["killed_run_had_succeeded"] = any("RUN_SUCCESS" in ln for ln in r1.lines)
                    # the replica judges the killed run's last answers when its connections
                    # close (a reset: closed unread, never received): let it see them first
                    time.sleep(0.5)
                    stored_at_kill = _stored_pdfs(storage)
                    trial["pdfs_stored_at_kill"] = len(stored_at_kill)
                    killed_log = rep.request_log
                    trial["requests_before_kill"] = len(killed_log)
                    rep.reset_request_log()
                    # first the plain re-run, as a user would type it: does a stale pool slot block it?
                    t_re = time.monotonic()
                    r0 = Run(env, work / f"t{n}.rerun0.log", pk)
                    t_blk = time.monotonic() + BLOCK_WAIT_S
                    blocked = False
                    while time.monotonic() < t_blk and r0.p.poll() is None:
                        if any("Step blocked by limit for pool" in ln for ln in list(r0.lines)):
                            blocked = True
                            break
                        time.sleep(0.25)
                    if blocked:
                        r0.kill()
                        r0.finish(5)
                        trial["rerun_blocked_by_pool"] = True
                        blocked_reruns += 1
                        trial["stale_runs_recovered"] = _recover(home)
                        rep.reset_request_log()
                        t_re = time.monotonic()
                        r2 = Run(env, work / f"t{n}.rerun.log", pk)
                    else:
                        trial["rerun_blocked_by_pool"] = False
                        r2 = r0
                    rc, out = r2.finish(trial_timeout)
                    trial["rerun_s"] = round(time.monotonic() - t_re, 1)
                    if rc != 0 or "RUN_SUCCESS" not in out:
                        tail = [ln for ln in out.splitlines() if "FAILURE" in ln or "Error" in ln][-5:]
                        problems.append(f"re-run did not succeed (rc={rc}): " + " | ".join(tail)[-1500:])
                    # no re-download of a PDF that was already stored
                    again = []
                    for path, ids in _pdf_requests(rep.request_log):
                        shas = {sha_of.get(i) for i in ids} & stored_at_kill
                        again += [f"{path}?id={i}" for i in ids if sha_of.get(i) in shas]
                    trial["pdf_requests_rerun"] = len(_pdf_requests(rep.request_log))
                    if os.environ.get("KILL_RESUME_KEEP"):  # the replica's logs beside the run logs
                        for name, log in (("killed", killed_log), ("rerun", rep.request_log)):
                            (work / f"t{n}.{name}.requests.tsv").write_text("".join(
                                f"{r.t:.3f}\t{r.method}\t{r.path}\t{r.query}\t{r.status}\t{r.role}\t"
                                f"{getattr(r, 'delivered', True)}\n" for r in log))
                    again_asked = repeated_requests(killed_log, rep.request_log)
                    trial["repeated_requests"] = dict(again_asked)
                    if again_asked:  # which answers, and how long before the killed run's last request
                        trial["repeated_detail"] = repeated_detail(killed_log, rep.request_log)
                    if not closed and trial.get("killed_run_had_succeeded"):
                        trial["repeats_are_a_refresh"] = True  # an open venue's new run: not counted
                        refresh_repeats += sum(again_asked.values())
                    else:
                        repeated.update(again_asked)
                        repeated_by_stage[stage] += sum(again_asked.values())
                    if again:
                        redownloads += len(again)
                        problems.append(f"re-downloaded {len(again)} stored PDFs: {again[:5]}")
                    got = _outputs(storage, pk)
                    for rel, data in ref_out.items():
                        if rel not in got:
                            problems.append(f"{rel}: missing")
                        elif not _same(rel, data, got[rel]):
                            problems.append(_table_diff(rel, data, got[rel]))
                    extra = sorted(set(got) - set(ref_out))
                    if extra:
                        problems.append(f"files not in the reference: {extra}")
                    rows_path = storage / f"rows/{pk}.parquet"
                    if rows_path.exists():
                        import pyarrow.parquet as pq
                        ids = pq.read_table(rows_path, columns=["forum_id"]).column("forum_id").to_pylist()
                        if len(ids) != len(set(ids)):
                            problems.append(f"duplicate forum_id rows: {len(ids) - len(set(ids))}")
                    trial["ok"] = not problems
                    if problems:
                        trial["problems"] = problems
                        failures.append(trial)
                    results.append(trial)
                    print(("OK   " if not problems else "FAIL ") + str(trial), flush=True)
                    shutil.rmtree(work / f"t{n}", ignore_errors=True)
    finally:
        if not os.environ.get("KILL_RESUME_KEEP"):
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept {work}")
    seconds = round(time.time() - t0, 1)
    common = {"partition": pk, "api": _api(pk), "venue_closed": closed, "forums": n_forums, "slow_ms": SLOW_MS, "seed": SEED, "seconds": seconds,
              "stages": stages, "reference_s": round(reference_s, 1)}
    n = len(results)
    return [
        figure("kill_resume_trials", n, "trials", n, **common,
               per_stage={s: sum(1 for r in results if r["stage"] == s) for s in stages}),
        figure("kill_resume_failures", len(failures), "trials", n, goal=0, **common,
               failures=[{k: f[k] for k in ("trial", "stage", "step", "kill_at_run_s", "kill_after_step_start_s",
                                            "running_at_kill", "problems") if k in f} for f in failures],
               trials=[{k: r.get(k) for k in ("trial", "stage", "running_at_kill", "kill_at_run_s", "kill_at_point",
                                              "pdfs_stored_at_kill", "pdf_requests_rerun", "repeated_requests", "repeated_detail",
                                              "killed_run_had_succeeded", "repeats_are_a_refresh",
                                              "rerun_blocked_by_pool", "rerun_s", "ok")}
                       for r in results]),
        figure("kill_resume_reruns_blocked_by_pool", blocked_reruns, "trials", n, goal=0, **common,
               note="plain re-run in the same DAGSTER_HOME waited on a pool slot held by the killed run; "
                    "the benchmark then marked the stale run failed and freed its slots (what the run "
                    "monitoring daemon does) and re-ran"),
        figure("kill_resume_pdf_redownloads", redownloads, "PDFs", n, goal=0, **common),
        figure("kill_resume_repeated_requests", sum(repeated.values()), "requests", n, goal=0, **common,
               by_kind=dict(repeated.most_common()), by_stage=dict(repeated_by_stage),
               refresh_requests=refresh_repeats,
               kills_after_success=sum(1 for r in results if r.get("killed_run_had_succeeded")),
               note="requests of the re-runs that their killed run had already received an answer to "
                    "(same method, path and query, or a file one of its answers held; login and web pages "
                    "not counted), over all trials, kills after the run had succeeded included (a "
                    "re-materialization); baseline = trials. Only for an open venue-year (venue_closed "
                    "false) is a new run after a finished one its refresh, which asks again by design: "
                    "those are refresh_requests, not counted"),
    ]


if __name__ == "__main__":
    # `python -m benchmarks.bench_kill_resume [trials_per_stage] [stage,stage,...]`: the figures are
    # appended to benchmarks/results.jsonl (as `make bench` does) and printed
    from benchmarks.common import record
    args = sys.argv[1:]
    record(run(trials_per_stage=int(args[0]) if args else TRIALS_PER_STAGE,
               stages=args[1].split(",") if len(args) > 1 else None))
