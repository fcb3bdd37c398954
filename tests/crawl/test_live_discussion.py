"""A venue followed through a simulated discussion on the replica (issue 30 items 2-5): after each
day's refresh, the recorded changes equal the replica's ground truth, a quiet day records nothing,
and every review's trajectory equals the truth."""
from __future__ import annotations

import pytest

from benchmarks.live_discussion import run

pytestmark = [pytest.mark.slow, pytest.mark.browser]  # day 0 reads the revision pages in chromium


def test_four_days_of_discussion_recorded_exactly(tmp_path):
    r = run(days=4, n_forums=20, seed=1, root=tmp_path)
    assert r["truth_changes"] > 10
    assert (r["recall"], r["precision"]) == (1.0, 1.0), r["per_day"]
    assert r["noop_changes"] == 0
    assert r["trajectories_equal"] == r["trajectories_compared"] > 0
    kinds = {c for c in r["noop_request_kinds"] if "/notes" in c}
    assert kinds == {"GET /notes"}  # a quiet day: the cursor alone, no forum fetched
