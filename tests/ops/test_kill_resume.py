"""Issue 6, one fast trial: kill -9 the CLI run during the PDF stage, re-run, same final Parquet.

The full sweep (every stage, several trials) is `benchmarks/bench_kill_resume.py`.
"""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_kill_during_pdf_fetch_then_resume_matches_uninterrupted_run():
    from benchmarks.bench_kill_resume import run_partition

    figs = {f["metric"]: f for f in run_partition("iclr-2020", trials_per_stage=1, stages=["pdf_fetch"])}
    assert figs["kill_resume_trials"]["value"] == 1
    assert figs["kill_resume_failures"]["value"] == 0, figs["kill_resume_failures"]["failures"]
    assert figs["kill_resume_pdf_redownloads"]["value"] == 0
