"""fault_trials / fault_failures: every fault trial of the suites, run against the replica.

The trials are the tests of tests/integrity/ (issue 13: transient errors, hostile ids, lone
surrogates, concurrent split writers, corrupt Parquet/PDF/raw/checkpoint files, PDF caps, short
pages), tests/ops/test_fault_suite.py (429 storm, 5xx bursts, dropped connections, bad PDFs) and
tests/e2e/test_faults.py, tests/ops/test_daemon_restart.py (a daemon restarted during a run), and the kill / broken-set / malformed-input trials kept beside their stage
(SUITES). Each test is one trial; a trial fails when its test fails or errors.
Goal: 0 failures. The kill -9 figures (`kill_resume_failures`) are bench_kill_resume's.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from benchmarks.common import figure

ROOT = Path(__file__).resolve().parent.parent
SUITES = ["tests/integrity", "tests/ops/test_fault_suite.py", "tests/e2e/test_faults.py",
          # kills and broken sets tried where their stage is tested (issue 22)
          "tests/stages/test_pdf_choice_stage.py::test_killed_between_the_pdf_and_its_checkpoint_downloads_nothing_again",
          "tests/stages/test_refresh_stage.py::test_review_edit_histories_resume_after_a_kill",
          "tests/splits/test_split_update.py::test_rows_without_their_provenance_are_refused",
          "tests/splits/test_split_update.py::test_a_forum_in_two_venue_years_is_refused",
          "tests/domain/test_strict_parsing.py", "tests/domain/test_oddities.py",
          # the daemon killed with its process group during a run, then restarted (run monitoring + retries)
          "tests/ops/test_daemon_restart.py"]


def run() -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "faults.xml"
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                        *SUITES], cwd=ROOT, check=False)
        suites = ET.parse(report).getroot()
        cases = list(suites.iter("testcase"))
    trials = sum(1 for c in cases if c.find("skipped") is None)
    failed = [f"{c.get('classname')}.{c.get('name')}" for c in cases
              if c.find("failure") is not None or c.find("error") is not None]
    return [figure("fault_trials", trials, "trials", 0, suites=SUITES),
            figure("fault_failures", len(failed), "trials", trials, goal=0, failed=failed[:20])]


if __name__ == "__main__":
    from benchmarks.common import record

    record(run())
