"""Issue 29.4: crash points enumerated from the code, not chosen. A venue-year's whole pipeline
(tests/faults/crash_pipeline.py: crawl, parsed, PDF records and checkpoints, markdown and its cache,
dialogues, rows, check records, change log, split shards, card and plots) runs once through a
filesystem that counts every mutating call; each call is a crash point. A run is killed -9 just
before each one while a reader process polls the root the whole time; the reader must only ever see
views an uninterrupted run passes through (no duplicate key, no mix of two generations, no file
without its companions), and a re-run must end where an uninterrupted run ends with nothing of the
dead run left (tests/faults/crash_trials.py).

The tests run the enumeration, the check that every publish site of the stage code is a crash point
(or named with its reason), and a sample of the points on local storage and (`slow`) on S3
(moto_server); the trials at every point, on both, are benchmarks/bench_crash_points.py's (about
15 minutes on two cores), so `make test`, which runs `slow` tests too, stays minutes."""
from __future__ import annotations

import pytest

from tests.faults.crash_trials import Backend, enumerate_points, prepare, run_trials
from tests.faults.publish_sites import driven, publish_sites, undriven

SAMPLE, S3_SAMPLE = 6, 4  # points tried by the tests, spread over the run (every point: the bench)


def _sample(n: int, k: int) -> list[int]:
    return sorted({1 + round(i * (n - 1) / (k - 1)) for i in range(k)})


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    work = tmp_path_factory.mktemp("crash-local")
    template, stamp = prepare(Backend(), work)
    return work, enumerate_points(Backend(), work, template, stamp)


def test_every_publish_site_of_the_stage_code_is_a_crash_point_or_named_with_its_reason(local):
    _work, en = local
    sites = publish_sites()
    assert len(driven(sites, en.frames)) >= 30, sorted({s.function for s in driven(sites, en.frames)})
    assert undriven(sites, en.frames) == []
    # what the enumeration holds: staged writes, journal writes, moves, deletes of every stage
    kinds = {p.split(" ", 1)[0] for p in en.points}
    assert {"open_output_stream", "move", "delete_file", "delete_dir"} <= kinds, kinds
    assert any(".publish/" in p for p in en.points) and any(p.startswith("move checks/") for p in en.points)
    assert len(en.points) >= 40


def test_a_sample_of_the_crash_points_leaves_a_polling_reader_only_whole_views(local):
    work, en = local
    ks = _sample(len(en.points), SAMPLE)
    got = run_trials(Backend(), work, en, ks)
    assert got.trials == len(ks) and got.polls >= len(ks)
    assert got.violations == [] and got.failures == [], (got.violations, got.failures)


def test_a_kill_between_a_stored_pdf_and_its_staging_records_deletion_leaves_no_record_behind(local):
    """Found by the full enumeration (bench_crash_points, points `delete_file pdf_staging/<key>.json`):
    the re-run found the PDF stored, never staged that answer again, and its record stayed for good."""
    work, en = local
    ks = [k for k, p in enumerate(en.points, 1) if p.startswith("delete_file pdf_staging/") and p.endswith(".json")]
    assert ks, "the operation no longer stages its downloads: pick the point anew"
    got = run_trials(Backend(), work, en, ks[:1])
    assert got.failures == [] and got.violations == [], (got.failures, got.violations)


@pytest.mark.slow
def test_a_sample_of_the_crash_points_on_s3_leaves_a_polling_reader_only_whole_views(local, moto_endpoint, s3_bucket):
    work, learnt = local
    s3 = Backend("s3", moto_endpoint, s3_bucket)
    template = s3.root(work, "template")
    s3.copy(learnt.template, template, Backend())
    en = enumerate_points(s3, work, template, learnt.stamp_ms, learnt=learnt)
    assert len(en.points) >= 40
    got = run_trials(s3, work, en, _sample(len(en.points), S3_SAMPLE))
    assert got.violations == [] and got.failures == [], (got.violations[:5], got.failures[:5])
