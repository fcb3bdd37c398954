"""Issue 38.8: the damages bench_corruption found `verify` missing on a venue-year's whole pipeline
(tests/faults/crash_pipeline.py, an API v2 venue): an emptied dialogue exclusions file (an empty one
is valid JSONL, and nothing recorded its size), a deleted crawl cursor (published with the raw forums
by an API v2 crawl; without it the next crawl is silently a full one), a deleted submissions table
and a deleted file of the corpus-level resubmissions set.
Each is named with what to re-materialize."""
from __future__ import annotations

import pytest

from reviewbench_assets.io.layout import paths
from reviewbench_assets.verify import verify
from tests.faults import crash_pipeline
from tests.faults.damage import damage
from tests.faults.replay_race import open_root

PK = crash_pipeline.PK


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    root = tmp_path_factory.mktemp("verify-misses") / "template"
    crash_pipeline.run_pipeline(open_root(str(root), None), 1)
    return root


@pytest.mark.parametrize(("rel", "how", "fix"), [
    (paths.dialogue_exclusions(PK), "empty", "re-materialize rebuttal_dialogues"),
    (paths.crawl_cursor(PK), "delete", "re-materialize openreview_forums"),
    (paths.submissions(PK), "delete", "re-materialize initial_submission_pdfs"),
    # bench_corruption at 0170f98: a deleted file of the corpus-level resubmissions set was missed
    *[(rel, "delete", "re-materialize resubmissions")
      for rel in (paths.RESUBMISSION_STATE, paths.RESUBMISSION_LINKS, paths.RESUBMISSION_CHAINS,
                  paths.RESUBMISSION_LEFT_ALONE, paths.resubmission_records(PK))],
])
def test_a_damage_verify_missed_is_named_with_what_to_rerun(template, tmp_path, rel, how, fix):
    import shutil

    root = tmp_path / "root"
    shutil.copytree(template, root)
    store = open_root(str(root), None)
    assert not verify(store).damaged, verify(store).text()
    before = store.read_bytes(store.path(rel))
    assert before  # the pipeline wrote it, not empty
    damage(store, store.path(rel), how)
    report = verify(store)
    assert any(f.path == rel and fix in f.fix for f in report.damaged), report.text()
