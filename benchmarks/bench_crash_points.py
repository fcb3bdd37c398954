"""Crash points enumerated from the code (issue 29.4): every mutating filesystem call of a split
publish of two changed venue-years and the card (tests/integrity/test_crash_points.py), one kill -9
just before each, then a recovering reader and a re-run. Local storage only so far (the S3 variant is
not done: see the issue 29 report).

Figures: crash_points (how many the enumeration found; goal: every one, >= 40 over local and S3),
reader_violations (a reader saw a forum id twice, a mix of two generations, or a file without its
companions; goal 0), crash_point_failures (a run not killed where asked, a re-run that did not
publish the new generation whole, or staging/journals of the dead run left; goal 0).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from benchmarks.common import figure


def run() -> list[dict]:
    from tests.integrity.test_crash_points import crash_point_trials

    with tempfile.TemporaryDirectory() as tmp:
        got = crash_point_trials(Path(tmp))
    common = {"backend": "local", "operation": "publish_split(iclr: 2 venue-years changed) + publish_card",
              "kinds": got["kinds"]}
    return [figure("crash_points", got["points"], "points", 40, goal=">= 40 (local and S3)", **common),
            figure("reader_violations", len(got["violations"]), "trials", got["trials"], goal=0,
                   violations=got["violations"][:20], **common),
            figure("crash_point_failures", len(got["failures"]), "trials", got["trials"], goal=0,
                   failures=got["failures"][:20], **common)]


if __name__ == "__main__":
    from benchmarks.common import record

    record(run())
