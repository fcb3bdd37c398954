"""`kill_resume_repeated_requests` (benchmarks/bench_kill_resume.py, issue 29.3) counts the re-run's
requests whose answer the killed run had already received, at the replica's request log."""
from __future__ import annotations

from benchmarks.bench_kill_resume import repeated_requests
from openreview_replica.replica_state import LoggedRequest


def test_only_requests_answered_before_count_parameters_in_any_order():
    killed = [LoggedRequest("POST", "/login", "", 200, "v1"),
              LoggedRequest("GET", "/references", "referent=a&original=true", 200, "v1"),
              LoggedRequest("GET", "/references", "referent=b&original=true", 429, "v1"),  # no answer
              LoggedRequest("GET", "/revisions", "id=a", 200, "web"),
              LoggedRequest("GET", "/pdf", "id=a", 200, "v1")]
    rerun = [LoggedRequest("POST", "/login", "", 200, "v1"),  # a session, not an answer
             LoggedRequest("GET", "/references", "original=true&referent=a", 200, "v1"),  # asked twice
             LoggedRequest("GET", "/references", "referent=b&original=true", 200, "v1"),  # first answer
             LoggedRequest("GET", "/revisions", "id=a", 200, "web"),  # the website, not the API
             LoggedRequest("GET", "/pdf", "id=a", 200, "v1"),  # asked twice
             LoggedRequest("GET", "/pdf", "id=c", 200, "v1")]
    assert repeated_requests(killed, rerun) == {"api v1 /references": 1, "attachment": 1}


def test_an_answer_the_killed_run_never_had_whole_is_not_a_repeat():
    killed = [LoggedRequest("GET", "/pdf", "id=a", 200, "v1", 0.0, False),  # cut short by the kill
              LoggedRequest("GET", "/pdf", "id=b", 200, "v1", 0.0, True)]
    rerun = [LoggedRequest("GET", "/pdf", "id=a", 200, "v1"), LoggedRequest("GET", "/pdf", "id=b", 200, "v1")]
    assert repeated_requests(killed, rerun) == {"attachment": 1}


def test_a_pdf_received_in_a_batch_and_asked_again_in_another_batch_is_a_repeat():
    """API v2 fetches current PDFs 50 to an `/attachment?ids=` zip: a re-run asking for a PDF that the
    killed run's zip held asks for it twice, whatever other ids its request carries (written by hand)."""
    killed = [LoggedRequest("GET", "/attachment", "ids=a,b,c&name=pdf", 200, "v2")]
    rerun = [LoggedRequest("GET", "/attachment", "ids=b,c&name=pdf", 200, "v2"),  # b and c were in the zip
             LoggedRequest("GET", "/pdf", "id=a", 200, "v2"),  # a's current PDF, asked alone
             LoggedRequest("GET", "/attachment", "ids=d,e&name=pdf", 200, "v2"),  # never received
             LoggedRequest("GET", "/attachment", "id=a&name=supplementary_material", 200, "v2"),  # another file
             LoggedRequest("GET", "/notes/edits/attachment", "id=a&name=pdf", 200, "v2")]  # a revision's
    assert repeated_requests(killed, rerun) == {"attachment": 2}
