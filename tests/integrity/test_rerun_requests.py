"""Issue 29.3, nothing asked twice after a kill: a run of the crawl and the PDF stage is killed -9 at
a placed point (tests/faults/kill_points.py) in a forked child, and re-run with the same storage and
Dagster instance, as a user would; the replica's request log says which of the re-run's requests
the killed run had already received an answer to (benchmarks/bench_kill_resume.repeated_requests).

Before the attempt's answers (io/attempt.py, open_attempt), the published crawl's pages and the PDF staging
(stages/pdf_fetch.py, its staging), this re-run asked again: the crawl's three listing pages, the venue group,
the deadline invitation, the clients' profiles and the PDF whose source record was written when the
run died."""
from __future__ import annotations

import os
import signal

import dagster as dg
import pytest

from benchmarks.bench_kill_resume import repeated_requests
from openreview_replica import ReplicaServer, build_fixtures
from openreview_replica.replica_state import request_kind
from resources import BrowserResource, OpenReviewResource, StorageResource
from resources.store import store_from_uri
from reviewbench_assets.assets import initial_submission_pdfs, openreview_forums, parsed_forums
from reviewbench_assets.io.attempt import RESUME_WINDOW_S, open_attempt

PK = "iclr-2020"  # API v1: listing pages, /references, single PDF downloads
V2 = "iclr-2024"  # API v2: a tmdate cursor on refresh, /notes/edits, /attachment?ids= batches
ASSETS = [openreview_forums, parsed_forums, initial_submission_pdfs]  # the PDF stage reads the parsed table
# one download worker: the kill falls after a known PDF's source record, with no other in flight
CONFIG = {"ops": {"initial_submission_pdfs": {"config": {"use_browser": False, "download_workers": 1}}}}


@pytest.fixture(scope="module")
def replica():
    with ReplicaServer(build_fixtures([PK, V2], seed=0, n_forums=6), port=0) as rep:
        yield rep


def _resources(rep: ReplicaServer, root) -> dict:
    return {"openreview": OpenReviewResource(api_v1_url=rep.api_v1_url, api_v2_url=rep.api_v2_url,
                                             web_url=rep.web_url, username=rep.username, password=rep.password,
                                             min_interval_s=0.0),
            "browser": BrowserResource(max_pages=1), "storage": StorageResource(root=str(root))}


def _materialize(rep, root, home, pk: str = PK) -> bool:
    home.mkdir(parents=True, exist_ok=True)
    with dg.DagsterInstance.local_temp(str(home)) as instance:
        return dg.materialize(ASSETS, partition_key=pk, resources=_resources(rep, root), instance=instance,
                              run_config=CONFIG, raise_on_error=False).success


def _killed_run(rep, root, home, kill_at: str, pk: str = PK) -> int:
    """The run in a forked child of its own process group, killed -9 at `kill_at`: its signal."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.setpgrp()  # the kill point kills this group, not pytest's
            from tests.faults.kill_points import install
            install(kill_at)
            _materialize(rep, root, home, pk)
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    return os.WTERMSIG(status) if os.WIFSIGNALED(status) else -os.WEXITSTATUS(status)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("pk", [PK, V2])
def test_the_rerun_of_a_run_killed_in_the_pdf_stage_asks_nothing_it_had_received(replica, tmp_path, pk):
    root, home = tmp_path / "storage", tmp_path / "home"
    replica.reset_request_log()
    assert _killed_run(replica, root, home, "pdf_source_written:1", pk) == signal.SIGKILL
    killed = replica.request_log
    assert any(r.path == "/invitations" for r in killed)
    assert any(request_kind(r) == "attachment" for r in killed)
    replica.reset_request_log()
    assert _materialize(replica, root, home, pk)
    rerun = replica.request_log
    assert repeated_requests(killed, rerun) == {}, [(r.path, r.query) for r in rerun]
    # not vacuous: the re-run asked for what the killed run had not received (the other PDFs)
    assert sum(request_kind(r) == "attachment" for r in rerun) > 0
    assert not [p for p in (root / "pdf_staging").rglob("*") if p.is_file()]  # stored: the staged answers went


@pytest.mark.timeout(600)
@pytest.mark.parametrize("pk", [PK, V2])
def test_a_new_run_after_a_finished_one_of_a_closed_venue_year_asks_nothing_it_had_received(replica, tmp_path, pk):
    """A kill after the run had succeeded (bench_kill_resume on iclr-2024 at 9a5a180, trial 10), or any
    re-materialization: the next run is a new attempt, and asked the venue group (`/groups`, the domain
    test) and the deadline invitation (`/invitations?expired=true`) again, and on API v1 the three
    listing pages. The venue-year is closed (its deadline and any discussion window are over), so
    these answers are final: kept across runs, not asked again. API v2 asks one new question, the
    tmdate cursor (what changed since the last crawl)."""
    from datetime import UTC, datetime

    from partitions.catalogue import catalogue
    assert catalogue().get(pk).closed_at(datetime.now(UTC))
    root, home = tmp_path / "storage", tmp_path / "home"
    replica.reset_request_log()
    assert _materialize(replica, root, home, pk)
    first = replica.request_log
    assert any(r.path == "/groups" for r in first) and any(r.path == "/invitations" for r in first)
    replica.reset_request_log()
    assert _materialize(replica, root, home, pk)  # the same Dagster instance: its owner run succeeded
    again = replica.request_log
    assert repeated_requests(first, again) == {}, [(r.path, r.query) for r in again]
    assert not [r for r in again if r.path in ("/groups", "/invitations")]  # a v1 group's 404 included
    # v1: its stored crawl is the final listing; v2: the tmdate cursor over the venue, a new question
    assert sum(r.path == "/notes" for r in again) == (0 if pk == PK else 1)


def test_which_runs_resume_an_attempt(tmp_path):
    """The rule of io/attempt.py, open_attempt, run by run."""
    store = store_from_uri(str(tmp_path))
    status = {"a": False, "b": True}  # a: failed or died; b: succeeded; others: unknown to the instance
    a = open_attempt(store, PK, "a", None, status.get, now=1000.0)
    assert not a.continues
    a.answers.put("v1", "/invitations", {"id": "x"}, b'{"invitations": []}', 1)
    assert open_attempt(store, PK, "a", None, status.get, now=1001.0).continues  # another step of a
    late = open_attempt(store, PK, "c", None, status.get, now=1000.0 + RESUME_WINDOW_S + 1)
    assert not late.continues and late.answers.get("v1", "/invitations", {"id": "x"}) is None  # too old
    late.answers.put("v1", "/invitations", {"id": "x"}, b'{"invitations": []}', 1)
    status["c"] = False
    resumed = open_attempt(store, PK, "d", None, status.get, now=1000.0 + RESUME_WINDOW_S + 2)
    assert resumed.continues and resumed.resumed_from == "c"
    assert resumed.answers.get("v1", "/invitations", {"id": "x"}) == (b'{"invitations": []}', 1)
    assert open_attempt(store, PK, "e", "d", status.get).continues  # a re-execution of d
    status["d"] = True
    new = open_attempt(store, PK, "f", None, status.get, now=1000.0 + RESUME_WINDOW_S + 3)
    assert not new.continues and new.answers.get("v1", "/invitations", {"id": "x"}) is None
    assert not open_attempt(store, PK, "g", None, status.get).continues  # f unknown: asked again


def test_a_closed_venue_years_venue_answers_outlive_the_attempt_an_open_ones_do_not(tmp_path):
    """The final answers of io/attempt.py: a new attempt (its owner succeeded) drops the attempt's
    answers, but not the venue-level answers of a closed venue-year (dagster_step.py
    final_venue_requests); an open venue-year names none, so its next run asks again (its refresh)."""
    from datetime import UTC, datetime

    from partitions.catalogue import catalogue
    from reviewbench_assets.dagster_step import final_venue_requests

    store = store_from_uri(str(tmp_path))
    status = {"a": True, "c": True}  # both succeeded: each next run starts a new attempt
    group, inv = ("/groups", {"id": "ICLR.cc/2026/Conference"}), \
        ("/invitations", {"id": "ICLR.cc/2026/Conference/-/Submission", "expired": "true"})
    venue = catalogue().get("iclr-2026")  # discussion 2025-11-11 .. 2025-12-03 AoE
    during = datetime(2025, 11, 20, tzinfo=UTC)
    after = datetime(2026, 1, 10, tzinfo=UTC)
    assert final_venue_requests(venue, during) == []
    assert sorted(final_venue_requests(venue, after)) == sorted([("v2", *group), ("v2", *inv)])
    for at, kept in ((during, False), (after, True)):
        pk = f"iclr-2026-{kept}"
        first = open_attempt(store, pk, "a", None, status.get, final=final_venue_requests(venue, at))
        first.answers.put("v2", *group, b'{"groups": [{"domain": "x"}]}', 1)
        first.answers.put("v2", *inv, b'{"invitations": []}', 1)
        first.answers.put("v2", "/notes", {"domain": "x"}, b'{"notes": []}', 1)  # not a venue-level answer
        new = open_attempt(store, pk, "b", None, status.get, final=final_venue_requests(venue, at))
        assert not new.continues
        assert (new.answers.get("v2", *group) is not None) is kept
        assert (new.answers.get("v2", *inv) == (b'{"invitations": []}', 1)) is kept
        assert new.answers.get("v2", "/notes", {"domain": "x"}) is None  # the attempt's: dropped


def test_the_revision_pages_invitation_lookups_are_kept_for_the_attempt(tmp_path):
    """The revisions page (API v1) asks `/invitations?ids=...&expired=true`; the browser answers a
    repeat from what the run learnt, and now also from the attempt's answers, so the re-run of a run
    killed while pages were read does not ask again (the kill in the PDF stage repeated one)."""
    from resources.browser import LocalAnswers
    from reviewbench_assets.io.attempt import AnswerCache

    kept = AnswerCache(store_from_uri(str(tmp_path)), "checkpoints/attempt/x/answers")
    url, body = "http://api1:1/invitations?ids=A,B&expired=true", {"invitations": [{"id": "A"}], "count": 1}
    killed = LocalAnswers(None, {"http://api1:1": 1})
    killed.kept = kept
    assert killed.answer(url, "f1") is None  # goes to OpenReview
    killed.learn(url, body)
    rerun = LocalAnswers(None, {"http://api1:1": 1})  # a new process: nothing learnt in memory
    rerun.kept = kept
    assert rerun.answer(url, "f2") == body
    assert rerun.answer("http://api1:1/invitations?ids=B&expired=true", "f3") == {"invitations": [], "count": 0}
    assert kept.hits == 1


def test_a_revisions_page_killed_before_its_forums_checkpoint_gets_its_revisions_back_without_a_request(tmp_path):
    """A revisions page whose `/references` (v1) or `/notes/edits` (v2) answer arrived, killed before
    the page finished and its forum was checkpointed: the re-run's page gets the answer from the
    attempt's answers (the kill in the PDF stage repeated 3 and 4 `/references` requests, bench_kill_resume)."""
    from resources.browser import LocalAnswers
    from reviewbench_assets.io.attempt import AnswerCache

    kept = AnswerCache(store_from_uri(str(tmp_path)), "checkpoints/attempt/x/answers")
    apis = {"http://api1:1": 1, "http://api2:2": 2}
    refs = "http://api1:1/references?referent=f1&original=true&trash=true"
    edits = "http://api2:2/notes/edits?note.id=f2&sort=tcdate&trash=true"
    killed = LocalAnswers(None, apis)
    killed.kept = kept
    assert killed.answer(refs, "f1") is None and killed.answer(edits, "f2") is None  # go to OpenReview
    killed.learn(refs, {"references": [{"id": "r1"}], "count": 1}, forum="f1")
    killed.learn(edits, {"edits": [{"id": "e1"}], "count": 1}, forum="f2")
    rerun = LocalAnswers(None, apis)  # a new process: nothing in memory
    rerun.kept = kept
    assert rerun.answer(refs, "f1") == {"references": [{"id": "r1"}], "count": 1}
    assert rerun.answer(edits, "f2") == {"edits": [{"id": "e1"}], "count": 1}
    assert rerun.answer(refs.replace("f1", "f3"), "f3") is None  # another forum's page: asked
    assert rerun.answer(refs, "f9") is None  # not the page's own forum: not its revisions request
