"""Browser and API paths choose the same revision on every replica forum; the PDFs are the right ones."""
from __future__ import annotations

import pyarrow.fs as pafs
import pytest

from partitions.catalogue import catalogue
from resources.browser import BrowserResource
from resources.openreview_api import RateLimiter
from resources.store import Store
from reviewbench_assets.stages.pdf_choice import (ATTACHMENT_BATCH, choose_for_forum, deadline_cross_check,
                                                   initial_submission_record, initial_submission_records)
from tests.pdf_text import pdf_text
from tests.pdfs.conftest import VENUES, api_for

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def scraped(pdf_replica, forum_metas):
    """pk -> forum id -> revisions read from the JS-rendered /revisions page (one browser, 8 pages)."""
    api = api_for(pdf_replica, "iclr-2024")
    browser = BrowserResource(max_pages=8)
    out = {}
    for pk in VENUES:
        ids = [m["forum_id"] for m in forum_metas[pk]]
        out[pk] = browser.scrape_revisions(pdf_replica.web_url, api.token, ids, limiter=RateLimiter())
    return out


@pytest.mark.parametrize("pk", VENUES)
def test_browser_and_api_choose_the_same_revision_on_every_forum(pk, pdf_replica, pdf_fixtures, forum_metas,
                                                                 scraped):
    venue, truth = catalogue().get(pk), pdf_fixtures.venues[pk].forums
    api = api_for(pdf_replica, pk)
    metas = forum_metas[pk]
    assert {m["forum_id"] for m in metas} == set(truth)
    rules = set()
    for meta in metas:
        fid = meta["forum_id"]
        assert isinstance(scraped[pk][fid], list), (fid, scraped[pk][fid])
        by_browser, c_browser = choose_for_forum(api, meta, venue.deadline_ms, scraped[pk][fid], False, False)
        by_api, c_api = choose_for_forum(api, meta, venue.deadline_ms, None, False, False)
        assert by_browser["revision_source"] == "browser" and by_api["revision_source"] == "api"
        got = [(r["rule"], r.get("revision_id")) for r in (by_browser, by_api)]
        expected = (truth[fid].expected_rule, truth[fid].expected_revision_id)
        assert got == [expected, expected], (fid, by_browser["reason"], by_api["reason"])
        if c_browser is not None:
            assert c_browser.pdf_url == c_api.pdf_url, fid
        rules.add(expected[0])
    # The fixture exercises more than one rule per venue (else the comparison proves little).
    assert len(rules) >= 2, rules


@pytest.mark.parametrize("pk", VENUES)
def test_concurrent_records_store_the_expected_pdf(pk, pdf_replica, pdf_fixtures, forum_metas, scraped,
                                                   tmp_path):
    """The thread-pool path (with /attachment?ids= batches on v2) stores exactly the PDF whose
    marker the ground truth names, with its provenance, and agrees with the sequential path."""
    venue, truth = catalogue().get(pk), pdf_fixtures.venues[pk].forums
    api = api_for(pdf_replica, pk)
    store = Store(pafs.LocalFileSystem(), str(tmp_path / "conc"))
    pdf_replica.reset_request_log()
    seen = []
    records = initial_submission_records(api, store, forum_metas[pk], venue.deadline_ms, scraped[pk],
                                         cross_check=True, max_workers=8, on_record=seen.append)
    log = pdf_replica.request_log
    assert [r["forum_id"] for r in records] == [m["forum_id"] for m in forum_metas[pk]]
    assert sorted(r["forum_id"] for r in seen) == sorted(truth)  # every forum checkpointed once
    for rec in records:
        t = truth[rec["forum_id"]]
        assert (rec["rule"], rec.get("revision_id")) == (t.expected_rule, t.expected_revision_id)
        assert rec["cross_check"] == "agree", rec
        assert rec["deadline_ms"] == venue.deadline_ms
        if t.expected_marker is None:
            assert rec.get("pdf_sha256") is None
            continue
        assert rec["error"] is None, rec
        assert rec["pdf_size"] > 0 and rec["pdf_pages"] >= 1 and len(rec["pdf_sha256"]) == 64
        assert rec["pdf_path"] == f"pdfs/{rec['pdf_sha256'][:2]}/{rec['pdf_sha256']}.pdf"  # relative
        text = pdf_text(store.path(rec["pdf_path"]))
        assert t.expected_marker in text, rec["forum_id"]
        assert not any(m in text for m in t.post_deadline_markers), rec["forum_id"]
        if rec["rule"] == "initial":
            assert rec["revision_tcdate"] <= venue.deadline_ms
    batch_calls = [r for r in log if r.path == "/attachment" and "ids" in r.params]
    batched = [r for r in records if r.get("pdf_fetch") == "batch"]
    if venue.api == "v2":
        current = [r for r in records if r["rule"] == "current_is_initial"]
        assert current and len(batched) == len(current)
        assert len(batch_calls) == -(-len(current) // ATTACHMENT_BATCH)
        assert all(len(r.params["ids"].split(",")) <= ATTACHMENT_BATCH for r in batch_calls)
        # no /pdf?id= request for a forum that came in a zip
        single_pdf_ids = {r.params.get("id") for r in log if r.path == "/pdf"}
        assert not single_pdf_ids & {r["forum_id"] for r in batched}
    else:
        assert not batch_calls and not batched

    # Sequential, one request at a time: the same records (modulo how the PDF was fetched).
    seq_store = Store(pafs.LocalFileSystem(), str(tmp_path / "seq"))
    for meta, rec in zip(forum_metas[pk], records):
        one = initial_submission_record(api, seq_store, meta, venue.deadline_ms, scraped[pk][meta["forum_id"]],
                                        False, False)
        keys = ("rule", "revision_id", "pdf_sha256", "pdf_pages", "error")
        assert {k: one.get(k) for k in keys} == {k: rec.get(k) for k in keys}


@pytest.mark.parametrize("pk", VENUES)
def test_deadline_cross_check_against_the_invitation(pk, pdf_replica):
    venue = catalogue().get(pk)
    api = api_for(pdf_replica, pk)
    invs = [inv for vid in venue.venue_ids for inv in venue.submission_invitations(vid)]
    ok = deadline_cross_check(api, invs, venue.deadline_ms)
    assert ok["status"] == "agree", ok
    assert ok["invitations"][0]["duedate_ms"] == venue.deadline_ms
    assert ok["invitations"][0]["expdate_ms"] == venue.deadline_ms + 30 * 60_000
    off = deadline_cross_check(api, invs, venue.deadline_ms + 86_400_000)  # catalogue one day late
    assert off["status"] == "mismatch" and "+24.00 h" in off["problems"][0]
    missing = deadline_cross_check(api, ["ICLR.cc/2024/Conference/-/Nope"], venue.deadline_ms)
    assert missing["status"] == "unreadable"
