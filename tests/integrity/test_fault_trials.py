"""Issue 13's fault classes against the replica, through Dagster: each test is one fault trial
(`benchmarks/bench_faults.py` counts them as `fault_trials` / `fault_failures`).

1 transient errors stay retryable; 2 ids and paths contained; 3 text never blocks a venue;
4 concurrent split writers keep each other's rows; 5 corruption detected, named, repaired;
6 bounded work per PDF; 7 pagination by count."""
from __future__ import annotations

import json
import multiprocessing as mp
import os
from pathlib import Path

import dagster as dg
import pyarrow.parquet as pq
import pytest

from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
from reviewbench_assets.definitions import ASSETS, build_resources
from reviewbench_assets.io.layout import paths
from tests.ops.procs import replica_env

pytestmark = [pytest.mark.slow, pytest.mark.browser]  # the PDF stage reads revision pages
PK = "iclr-2024"
CRAWL = {"openreview_forums"}
PDFS = {"openreview_forums", "parsed_forums", "initial_submission_pdfs"}  # the PDF stage reads the parsed table


@pytest.fixture(scope="module")
def replica():
    fx = build_fixtures([PK], seed=5, n_forums=10)
    with ReplicaServer(fx, port=0) as rep:
        yield fx, rep


def _run(rep, root, monkeypatch, selection, run_config=None, env=None):
    for k, v in replica_env(rep, str(root), str(root / "home")).items():
        monkeypatch.setenv(k, v)
    for k, v in (env or {}).items():
        if v is None:
            monkeypatch.delenv(k, raising=False)
        else:
            monkeypatch.setenv(k, v)
    assets = [a for a in ASSETS if a.partitions_def is not None and a.key.to_user_string() in selection]
    with dg.instance_for_test() as instance:
        result = dg.materialize(assets, partition_key=PK, resources=build_resources(), raise_on_error=False,
                                instance=instance, run_config=run_config or {})
    return result


def _failure(result) -> str:
    """The failure events' messages with their errors (a dg.Failure's description included)."""
    out = []
    for e in result.all_events:
        if e.is_failure:
            err = getattr(e.event_specific_data, "error", None)
            out.append(f"{e.message or ''} {err.to_string() if err else ''}")
    return " ".join(out)


def _meta(result, asset):
    mats = {m.asset_key.to_user_string(): m for m in result.get_asset_materialization_events()}
    return {k: v.value for k, v in mats[asset].materialization.metadata.items()}


def _checkpoints(root: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in (root / paths.submission_checkpoints(PK)).glob("*.json")]


def _with_pdf(fx) -> int:
    return sum(1 for f in fx.venues[PK].forums.values() if f.expected_marker)


# ---------------------------------------------------------------- 1: transient errors stay retryable


@pytest.mark.parametrize("prefix", [None, "/pdf"])  # at login, or mid-step on the PDF downloads
def test_rate_limit_beyond_patience_fails_the_step_and_records_nothing(replica, tmp_path, monkeypatch, prefix):
    fx, rep = replica
    assert _run(rep, tmp_path, monkeypatch, CRAWL).success
    rep.set_faults(FaultConfig(storm_s=3600, retry_after_s=3600, path_prefix=prefix))  # an hour-long window
    cfg = {"ops": {"initial_submission_pdfs": {"config": {"batch_attachments": False}}}}
    try:
        result = _run(rep, tmp_path, monkeypatch, PDFS - CRAWL, env={"OPENREVIEW_MAX_RATE_LIMIT_WAIT_S": "2"},
                      run_config=cfg)
    finally:
        rep.clear_faults()
    assert not result.success
    msg = _failure(result)
    assert "RateLimitError" in msg and "OPENREVIEW_MAX_RATE_LIMIT_WAIT_S" in msg, msg
    assert not [c for c in _checkpoints(tmp_path) if "RateLimit" in (c.get("error") or "")]
    # no retry of the step only to meet the same window: one attempt
    assert sum(1 for e in result.all_events if e.event_type_value == "STEP_RESTARTED") == 0
    again = _run(rep, tmp_path, monkeypatch, PDFS - CRAWL)  # after the window
    assert again.success, _failure(again)
    assert _meta(again, "initial_submission_pdfs")["pdfs_stored"] >= _with_pdf(fx)


def test_missing_credentials_fail_naming_what_to_set_and_a_later_run_does_everything(replica, tmp_path,
                                                                                      monkeypatch):
    fx, rep = replica
    assert _run(rep, tmp_path, monkeypatch, CRAWL).success
    result = _run(rep, tmp_path, monkeypatch, PDFS - CRAWL,
                  env={"OPENREVIEW_USERNAME": None, "OPENREVIEW_PASSWORD": None})
    assert not result.success
    assert "OPENREVIEW_USERNAME" in _failure(result), _failure(result)
    assert not [c for c in _checkpoints(tmp_path) if c.get("rule") == "unavailable"]
    again = _run(rep, tmp_path, monkeypatch, PDFS - CRAWL)
    assert again.success and _meta(again, "initial_submission_pdfs")["pdfs_stored"] >= _with_pdf(fx)


def test_5xx_after_retries_is_a_retryable_record_that_the_next_run_retries(replica, tmp_path, monkeypatch):
    fx, rep = replica
    assert _run(rep, tmp_path, monkeypatch, CRAWL).success
    cfg = {"ops": {"initial_submission_pdfs": {"config": {"batch_attachments": False}}}}
    rep.set_faults(FaultConfig(error_first_n=10_000, error_status=503, path_prefix="/pdf"))
    try:
        first = _run(rep, tmp_path, monkeypatch, PDFS - CRAWL, run_config=cfg)
    finally:
        rep.clear_faults()
    assert first.success, _failure(first)
    failed = [c for c in _checkpoints(tmp_path) if c.get("error")]
    assert failed and all(c["error_final"] is False for c in failed), failed
    assert _meta(first, "initial_submission_pdfs")["retryable_errors"] == len(failed)
    again = _run(rep, tmp_path, monkeypatch, PDFS - CRAWL, run_config=cfg)
    assert again.success
    meta = _meta(again, "initial_submission_pdfs")
    assert meta["retryable_errors"] == 0 and meta["pdfs_stored"] >= _with_pdf(fx)


# ---------------------------------------------------------------- 2 + 3: hostile ids, any text


HOSTILE = ["../../../../escaped/x", "sub/dir/forum", f"../forums/{PK}.cursor", "a" * 400, "nul\x00id"]


def test_hostile_ids_are_quarantined_and_never_become_paths(replica, tmp_path, monkeypatch):
    fx, rep = replica
    rep.set_faults(FaultConfig(hostile_ids=HOSTILE))
    try:
        # Hostile ids are a large quarantine share: the blocking check stops the partition unless
        # the operator accepts it on purpose, as here, so the rest of the venue goes on.
        accept = {"ops": {"openreview_forums": {"config": {"allow_failing_checks": True}}}}
        blocked = _run(rep, tmp_path / "blocked", monkeypatch, PDFS)
        result = _run(rep, tmp_path / "root", monkeypatch, PDFS, accept)
        second = _run(rep, tmp_path / "root", monkeypatch, PDFS, accept)  # and again: nothing blocks
    finally:
        rep.clear_faults()
    assert not blocked.success and "quarantined_share" in _failure(blocked)
    assert not (tmp_path / "blocked" / "submissions").exists()  # nothing downstream ran
    assert result.success and second.success, _failure(result) + _failure(second)
    quarantine = [json.loads(x) for x in (tmp_path / "root" / paths.quarantine(PK)).read_text().splitlines()]
    reasons = " ".join(r for q in quarantine for r in q["reasons"])
    assert reasons.count("invalid id") == len(HOSTILE), reasons
    assert not (tmp_path / "escaped").exists()
    assert {p.name for p in (tmp_path / "root").iterdir()} <= {"raw", "parsed", "checkpoints", "submissions", "pdfs",
                                                                "home", ".locks", ".publish", "checks", "pdf_sources",
                                                                "pdf_staging"}  # named by digests, not ids
    assert len(_checkpoints(tmp_path / "root")) == len(fx.venues[PK].forums)
    assert json.loads((tmp_path / "root" / paths.crawl_cursor(PK)).read_text())["crawl_started_ms"]


def test_lone_surrogates_and_nul_in_reviews_never_block_the_venue(replica, tmp_path, monkeypatch):
    fx, rep = replica
    rep.set_faults(FaultConfig(lone_surrogates=True))
    try:
        result = _run(rep, tmp_path, monkeypatch, {"openreview_forums", "parsed_forums", "initial_submission_pdfs",
                                                   "rebuttal_dialogues", "paper_markdown", "reviewbench_split"})
    finally:
        rep.clear_faults()
    assert result.success, _failure(result)
    raw = [json.loads(x) for x in (tmp_path / paths.raw_forums(PK)).read_text().splitlines()]
    abstract = raw[0]["note"]["content"]["abstract"]["value"]
    assert "\ud800" in abstract and "\x00" in abstract  # stored as returned (escaped in the file)
    rows = pq.read_table(tmp_path / paths.rows(PK)).to_pylist()
    assert len(rows) == len(fx.venues[PK].forums)


# ---------------------------------------------------------------- 5: corruption


def test_flipped_pdf_byte_is_detected_and_downloaded_again(replica, tmp_path, monkeypatch):
    fx, rep = replica
    assert _run(rep, tmp_path, monkeypatch, PDFS).success
    ck = next(c for c in _checkpoints(tmp_path) if c.get("pdf_sha256"))
    assert not ck["pdf_path"].startswith("/")  # relative to the storage root
    pdf = tmp_path / ck["pdf_path"]
    data = bytearray(pdf.read_bytes())
    data[len(data) // 2] ^= 0xFF
    pdf.write_bytes(bytes(data))
    again = _run(rep, tmp_path, monkeypatch, PDFS - CRAWL)
    assert again.success
    import hashlib

    assert hashlib.sha256(pdf.read_bytes()).hexdigest() == ck["pdf_sha256"]
    assert _meta(again, "initial_submission_pdfs")["forums_resumed"] == len(fx.venues[PK].forums) - 1


def test_truncated_raw_file_is_named_and_full_refresh_repairs_it(replica, tmp_path, monkeypatch):
    fx, rep = replica
    assert _run(rep, tmp_path, monkeypatch, CRAWL).success
    raw = tmp_path / paths.raw_forums(PK)
    raw.write_bytes(raw.read_bytes()[: raw.stat().st_size // 2])
    broken = _run(rep, tmp_path, monkeypatch, PDFS - CRAWL)
    assert not broken.success and paths.raw_forums(PK) in _failure(broken), _failure(broken)
    refused = _run(rep, tmp_path, monkeypatch, CRAWL)
    assert not refused.success and "full_refresh" in _failure(refused)
    fixed = _run(rep, tmp_path, monkeypatch, CRAWL,
                 run_config={"ops": {"openreview_forums": {"config": {"full_refresh": True}}}})
    assert fixed.success and _meta(fixed, "openreview_forums")["dagster/row_count"] == len(fx.venues[PK].forums)
    assert _run(rep, tmp_path, monkeypatch, PDFS - CRAWL).success


def test_truncated_checkpoints_are_misses(replica, tmp_path, monkeypatch):
    fx, rep = replica
    assert _run(rep, tmp_path, monkeypatch, PDFS).success
    for p in list((tmp_path / paths.submission_checkpoints(PK)).glob("*.json"))[:3]:
        p.write_bytes(p.read_bytes()[:20])
    again = _run(rep, tmp_path, monkeypatch, PDFS - CRAWL)
    assert again.success and _meta(again, "initial_submission_pdfs")["forums_resumed"] == len(fx.venues[PK].forums) - 3


# ---------------------------------------------------------------- 6 + 7: caps, pagination


def test_pdfs_over_a_cap_are_recorded_with_the_reason(replica, tmp_path, monkeypatch):
    fx, rep = replica
    with_marker = [f.forum_id for f in fx.venues[PK].forums.values() if f.expected_marker]
    bad = {with_marker[0]: "inflate_bomb", with_marker[1]: "500_pages"}
    rep.set_faults(FaultConfig(bad_pdfs=bad))
    try:
        result = _run(rep, tmp_path, monkeypatch, PDFS, env={"REVIEWBENCH_PDF_MAX_INFLATED_MB": "16",
                                                             "REVIEWBENCH_PDF_MAX_PAGES": "100"})
    finally:
        rep.clear_faults()
    assert result.success, _failure(result)
    by_id = {c["forum_id"]: c for c in _checkpoints(tmp_path)}
    assert "streams inflate to more than 16 MiB" in by_id[with_marker[0]]["error"]
    assert "500 pages, more than 100" in by_id[with_marker[1]]["error"]
    assert by_id[with_marker[0]]["error_final"] is True


def test_short_pages_are_paged_by_count(replica, tmp_path, monkeypatch):
    fx, rep = replica
    rep.set_faults(FaultConfig(page_size=3, path_prefix="/notes"))
    try:
        result = _run(rep, tmp_path, monkeypatch, CRAWL)
    finally:
        rep.clear_faults()
    assert result.success, _failure(result)
    assert _meta(result, "openreview_forums")["dagster/row_count"] == len(fx.venues[PK].forums)


# ---------------------------------------------------------------- 4: concurrent split writers


def _split_in_process(root: str, home: str, go_file: str, slow_s: float) -> None:
    import time

    os.environ.update({"REVIEWBENCH_STORAGE_ROOT": root, "DAGSTER_HOME": home})
    from reviewbench_assets.definitions import ASSETS, build_resources
    from reviewbench_assets.io import corpus_writer

    if slow_s:  # this run writes slowly (a big venue-year, a busy machine): each row group waits
        estimate = corpus_writer._estimate_bytes
        corpus_writer._estimate_bytes = lambda t: (time.sleep(slow_s), estimate(t))[1]
    split = [a for a in ASSETS if a.key.to_user_string() == "iclr_split"]
    resources = build_resources()
    while go_file and not os.path.exists(go_file):  # imported and ready: wait for the signal
        time.sleep(0.05)
    with dg.instance_for_test() as instance:
        dg.materialize(split, resources=resources, instance=instance, raise_on_error=True)


def test_two_runs_rebuilding_one_split_keep_each_others_rows(tmp_path):
    """Run A lists one venue-year and writes its split slowly; meanwhile the second venue-year's rows
    land and run B rebuilds the same split quickly. Without the lock B publishes first and A,
    publishing last, drops B's venue-year (measured: 1000 of 1005 rows); with it B waits for A and
    then lists both."""
    import time

    import pyarrow.fs as pafs

    from tests.splits.conftest import make_rows, write_venue_rows

    fs = pafs.LocalFileSystem()
    root, home = tmp_path / "root", tmp_path / "home"
    (root / "rows").mkdir(parents=True)
    home.mkdir()
    write_venue_rows(fs, str(root), "iclr-2024", make_rows("iclr-2024", 1000, seed=1))
    ctx = mp.get_context("spawn")
    go_b = tmp_path / "go-b"
    a = ctx.Process(target=_split_in_process, args=(str(root), str(home), "", 2.0))
    b = ctx.Process(target=_split_in_process, args=(str(root), str(home), str(go_b), 0.0))
    b.start()
    a.start()
    deadline = time.monotonic() + 240
    while not list((root / "corpus" / "data").glob(".iclr-*tmp-*")):  # A listed and is writing
        assert time.monotonic() < deadline and a.is_alive(), "run A never started writing"
        time.sleep(0.02)
    write_venue_rows(fs, str(root), "iclr-2023", make_rows("iclr-2023", 5, seed=2))
    go_b.touch()
    b.join(300)
    a.join(300)
    assert a.exitcode == 0 and b.exitcode == 0
    shards = sorted((root / "corpus" / "data").glob("iclr-*.parquet"))
    ids = [r for s in shards for r in pq.read_table(s, columns=["forum_id"]).column(0).to_pylist()]
    assert len(ids) == 1005, f"{len(ids)} rows in the corpus, 1005 written"


def test_a_flipped_byte_in_rows_fails_the_split_naming_the_file(tmp_path, monkeypatch):
    import random

    import pyarrow.fs as pafs

    from tests.splits.conftest import as_papers, make_rows

    root = tmp_path / "root"
    (root / "rows").mkdir(parents=True)
    rows = make_rows("iclr-2024", 40, seed=3)
    rng = random.Random(0)
    for r in rows:  # text that does not compress away, so the flipped byte lands in a data page
        r["markdown"] = " ".join(f"w{rng.randrange(10**9)}" for _ in range(400))
        r["markdown_chars"] = len(r["markdown"])
    from resources.store import Store
    from reviewbench_assets.stages.rows_stage import RowsStage, write_rows

    store = Store(pafs.LocalFileSystem(), str(root))
    write_rows(RowsStage.outputs_in(store, PK), ((r, {}) for r in as_papers(rows)))
    from reviewbench_assets.io.verdicts import write_verdict

    write_verdict(store, PK, "reviewbench_split", {}, overridden=False)  # the rows stage passed them
    target = root / paths.rows(PK)
    before = target.stat()
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x20
    target.write_bytes(bytes(data))
    # bit rot: the bytes change under a verdict that still matches the file (same size, same time)
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    monkeypatch.setenv("REVIEWBENCH_STORAGE_ROOT", str(root))
    split = [a for a in ASSETS if a.key.to_user_string() == "iclr_split"]
    with dg.instance_for_test() as instance:
        result = dg.materialize(split, resources=build_resources(), instance=instance, raise_on_error=False)
    assert not result.success
    assert str(target) in _failure(result) and "CorruptFileError" in _failure(result), _failure(result)
    assert not list((root / "corpus" / "data").glob("iclr-*.parquet"))  # nothing published
