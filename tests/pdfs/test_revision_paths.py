"""Browser and API paths choose the same revision on every replica forum; the PDFs are the right ones."""
from __future__ import annotations

import pyarrow.fs as pafs
import pytest

from benchmarks.revision_baseline import catalogue_cutoff, initial_submission_record
from partitions.catalogue import catalogue
from resources import BrowserResource
from resources.openreview_api import RateLimiter
from resources.store import Store
from reviewbench_assets.domain.revisions import Cutoff
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.stages.deadline_check import deadline_cross_check, venue_deadline_check
from reviewbench_assets.stages.pdf_fetch import ATTACHMENT_BATCH
from reviewbench_assets.stages.pdf_stage import (
    choose_for_forum,
    initial_submission_records,
)
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
        assert isinstance(scraped[pk][fid], dict), (fid, scraped[pk][fid])
        by_browser, c_browser = choose_for_forum(api, meta, catalogue_cutoff(venue), scraped[pk][fid], False, True)
        by_api, c_api = choose_for_forum(api, meta, catalogue_cutoff(venue), None, False, True)
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
    records = initial_submission_records(api, PdfFiles(store), forum_metas[pk], catalogue_cutoff(venue), scraped[pk],
                                         cross_check=True, max_workers=8, on_record=seen.append)
    log = pdf_replica.request_log
    assert [r["forum_id"] for r in records] == [m["forum_id"] for m in forum_metas[pk]]
    assert sorted(r["forum_id"] for r in seen) == sorted(truth)  # every forum checkpointed once
    for rec in records:
        t = truth[rec["forum_id"]]
        assert (rec["rule"], rec.get("revision_id")) == (t.stage_rule, t.stage_revision_id)
        assert rec["cross_check"] == ("not needed: the note settles the choice" if t.note_settles else "agree"), rec
        assert (rec["revision_source"] == "note") == t.note_settles
        if t.note_settles:
            assert rec["revision_requests"] == 0
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
            assert rec["revision_tcdate"] <= venue.cutoff_ms == rec["cutoff_ms"]
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
    for meta, rec in zip(forum_metas[pk], records, strict=False):
        one = initial_submission_record(api, seq_store, meta, catalogue_cutoff(venue), scraped[pk][meta["forum_id"]],
                                        False, True)
        keys = ("rule", "revision_id", "pdf_sha256", "pdf_pages", "error")
        assert {k: one.get(k) for k in keys} == {k: rec.get(k) for k in keys}


def test_a_note_that_settles_the_choice_costs_no_request_unless_every_history_is_read(pdf_replica, pdf_fixtures,
                                                                                   forum_metas, tmp_path):
    """v2: forums whose note no revision invitation touched are not asked for their history (no
    /notes/edits request names them); `read_every_history` asks every forum and gets the rule
    reading the history gives, for the same PDF bytes."""
    pk = "iclr-2024"
    venue, truth = catalogue().get(pk), pdf_fixtures.venues[pk].forums
    settled = {fid for fid, t in truth.items() if t.note_settles}
    assert settled and len(settled) < len(truth)
    api = api_for(pdf_replica, pk)
    by_mode = {}
    for read_all in (False, True):
        pdf_replica.reset_request_log()
        store = Store(pafs.LocalFileSystem(), str(tmp_path / str(read_all)))
        records = initial_submission_records(api, PdfFiles(store), forum_metas[pk], catalogue_cutoff(venue), {},
                                             max_workers=4, read_every_history=read_all)
        asked = {r.params.get("note.id") for r in pdf_replica.request_log if r.path == "/notes/edits"}
        assert asked == (set(truth) if read_all else set(truth) - settled)
        by_mode[read_all] = {r["forum_id"]: r for r in records}
    for fid in settled:
        lean, full = by_mode[False][fid], by_mode[True][fid]
        assert (lean["rule"], full["rule"]) == ("current_is_initial", truth[fid].expected_rule)
        assert lean["pdf_sha256"] == full["pdf_sha256"] and lean["pdf_sha256"], fid


@pytest.mark.parametrize("pk", VENUES)
def test_deadline_cross_check_against_the_invitation(pk, pdf_replica):
    venue = catalogue().get(pk)
    api = api_for(pdf_replica, pk)
    invs = venue.deadline_invitations()  # v1: the dated <venue>/-/Submission, not Blind_Submission
    ok = deadline_cross_check(api, invs, venue.deadline_ms)
    assert ok["status"] == "agree", ok
    assert ok["invitations"][0]["duedate_ms"] == venue.deadline_ms
    assert ok["invitations"][0]["expdate_ms"] == venue.deadline_ms + 30 * 60_000
    assert (ok["cutoff_rule"], ok["cutoff_ms"]) == ("invitation_expdate", venue.deadline_ms + 30 * 60_000)
    assert venue_deadline_check(api, venue) == ok
    if venue.api == "v1":  # OpenReview's blind copy carries no dates (openreview-py BlindSubmissionsInvitation)
        blind = deadline_cross_check(api, [venue.invitations.submission.format(venue_id=venue.venue_ids[0])],
                                     venue.deadline_ms)
        assert blind["status"] == "mismatch" and "no duedate" in blind["problems"][0]
    off = deadline_cross_check(api, invs, venue.deadline_ms + 86_400_000)  # catalogue one day late
    assert off["status"] == "mismatch" and "+24.00 h" in off["problems"][0]
    assert off["disagreement_h"] == 24.0 and off["cutoff_rule"] == "announced_plus_grace"
    hour = deadline_cross_check(api, invs, venue.deadline_ms + 3_540_000)  # 59 min: within the tolerance
    assert hour["status"] == "agree"
    missing = deadline_cross_check(api, ["ICLR.cc/2024/Conference/-/Nope"], venue.deadline_ms)
    assert missing["status"] == "unreadable"


@pytest.mark.parametrize("pk", VENUES)
def test_deadline_boundaries(pk, pdf_replica, pdf_fixtures, forum_metas, scraped):
    """An upload inside OpenReview's 30-minute grace is the submission; one a minute after expdate
    is not; the last upload 20 minutes before an AoE deadline is (11:40 UTC the next day)."""
    venue, vf = catalogue().get(pk), pdf_fixtures.venues[pk]
    api = api_for(pdf_replica, pk)
    cut = Cutoff.from_check(venue_deadline_check(api, venue))
    assert cut.rule == "invitation_expdate" and cut.cutoff_ms == vf.expdate_ms == vf.deadline_ms + 1_800_000
    metas = {m["forum_id"]: m for m in forum_metas[pk]}
    for tag in ("grace_upload", "after_grace", "aoe_boundary"):
        (f,) = vf.forums_with(tag)
        pdf_revs = [r for r in f.revisions if r.has_pdf]
        if tag == "grace_upload":
            (in_grace,) = [r for r in pdf_revs if vf.deadline_ms < r.tcdate <= vf.expdate_ms]
            assert f.expected_revision_id == in_grace.revision_id
        if tag == "after_grace":
            late = [r for r in pdf_revs if r.tcdate == vf.expdate_ms + 60_000]
            assert late and f.expected_revision_id != late[0].revision_id
        if tag == "aoe_boundary":
            chosen = next(r for r in pdf_revs if r.revision_id == f.expected_revision_id)
            assert chosen.tcdate == vf.deadline_ms - 20 * 60_000
        for source in (scraped[pk][f.forum_id], None):
            rec, _ = choose_for_forum(api, metas[f.forum_id], cut, source, False, False)
            assert (rec["rule"], rec["revision_id"]) == ("initial", f.expected_revision_id), (tag, rec["reason"])
            assert rec["cutoff_rule"] == "invitation_expdate"
            # judged by the bare deadline (no grace), the grace upload would be missed
            if tag == "grace_upload":
                strict, _ = choose_for_forum(api, metas[f.forum_id], vf.deadline_ms, source, False, False)
                assert strict["revision_id"] != f.expected_revision_id
