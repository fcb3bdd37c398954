"""Incremental refresh, quarantine and credentials, through Dagster against the replica."""
from __future__ import annotations

import json

import dagster as dg
import pyarrow.parquet as pq
import pytest

from openreview_replica import ReplicaServer, build_fixtures
from reviewbench_assets.assets import openreview_forums
from reviewbench_assets.io.layout import paths

from .conftest import openreview_resource, storage_resource


@pytest.fixture
def tmlr_replica():
    import openreview.tools

    fx = build_fixtures(["tmlr"], seed=5, n_forums=24, eager_pdfs=False)
    with ReplicaServer(fx, port=0) as rep:
        old = openreview.tools.LOCAL_API_V2
        openreview.tools.LOCAL_API_V2 = rep.api_v2_url
        yield fx, rep
        openreview.tools.LOCAL_API_V2 = old


def _run(rep, root, **config):
    return dg.materialize([openreview_forums], partition_key="tmlr", raise_on_error=False,
                          resources={"openreview": openreview_resource(rep), "storage": storage_resource(root)},
                          run_config={"ops": {"openreview_forums": {"config": config}}} if config else None)


def _run_parse(root, **config):
    """parsed_forums alone on what the crawl stored (the parser's quarantine and its check)."""
    from reviewbench_assets.assets import parsed_forums

    return dg.materialize([parsed_forums], partition_key="tmlr", raise_on_error=False,
                          resources={"storage": storage_resource(root)},
                          run_config={"ops": {"parsed_forums": {"config": config}}} if config else None)


def _meta(result):
    return {k: v.value for k, v in result.get_asset_materialization_events()[0].materialization.metadata.items()}


def test_a_night_with_two_new_and_one_changed_tmlr_forum(tmlr_replica, tmp_path):
    fx, rep = tmlr_replica
    first = _run(rep, tmp_path)
    assert first.success
    assert _meta(first)["forums_new"] == 24

    rep.reset_request_log()
    noop = _run(rep, tmp_path)
    m = _meta(noop)
    assert (m["mode"], m["forums_new"], m["forums_changed"], m["forums_unchanged"], m["forums_removed"]) == \
        ("incremental", 0, 0, 24, 0)
    assert not [r for r in rep.request_log if "details" in r.params]  # no forum fetched

    changed = next(iter(fx.venues["tmlr"].forums))
    fx.add_reply(changed)
    new = fx.add_forums("tmlr", 2)
    rep.reindex()
    rep.reset_request_log()
    night = _run(rep, tmp_path)
    m = _meta(night)
    assert (m["mode"], m["forums_new"], m["forums_changed"], m["forums_unchanged"], m["forums_removed"]) == \
        ("incremental", 2, 1, 23, 0)
    fetched = sorted(r.params["id"] for r in rep.request_log if r.path == "/notes" and "details" in r.params)
    assert fetched == sorted([changed, *new])  # exactly those three forums, one request each
    assert sorted(m["touched_forums"]) == sorted([changed, *new])
    lines = [json.loads(x) for x in (tmp_path / "raw/forums/tmlr.jsonl").read_text().splitlines()]
    assert len(lines) == 26 and len({x["forum_id"] for x in lines}) == 26  # one line per forum
    line = next(x for x in lines if x["forum_id"] == changed)
    assert len(line["note"]["details"]["replies"]) == fx.venues["tmlr"].forums[changed].num_replies

    fx.delete_forum(new[0])
    rep.reindex()
    gone = _meta(_run(rep, tmp_path))
    assert (gone["forums_removed"], gone["forums_unchanged"]) == (1, 25)


def test_quarantine_file_and_check(tmlr_replica, tmp_path):
    """A reply the parser cannot place (orphan, unknown invitation): the crawl stores the forum as it
    came (nothing it can see without parsing is wrong), and parsed_forums, the parser's only caller,
    quarantines it with reason codes; its blocking check stops the partition."""
    fx, rep = tmlr_replica
    v = fx.venues["tmlr"]
    fid = list(v.forums)[3]
    reply = dict(v.replies_by_forum[fid][0])
    reply.update(id="OrphanReply1", replyto="MissingParent", invitations=[reply["invitations"][0].rsplit("/-/", 1)[0] + "/-/Mystery_Form"],
                 parentInvitations="TMLR/-/Mystery_Form")
    v.replies_by_forum[fid].append(reply)
    v.notes[reply["id"]] = reply
    rep.reindex()
    crawl = _run(rep, tmp_path, max_quarantined_share=0.0)
    assert crawl.success and crawl.get_asset_check_evaluations()[0].passed
    assert (tmp_path / paths.quarantine("tmlr")).read_text() == ""

    result = _run_parse(tmp_path, max_quarantined_share=0.0)
    # a bad forum never stops the parse: the table and the quarantine are written and recorded ...
    assert result.get_asset_materialization_events()
    q = pq.read_table(tmp_path / paths.parsed_quarantine("tmlr")).to_pylist()
    assert {x["forum_id"] for x in q} == {fid} and all(x["parsed"] for x in q)
    assert {x["code"] for x in q} == {"orphan_reply", "unknown_invitation"}
    check = result.get_asset_check_evaluations()[0]
    assert check.check_name == "quarantined_share" and not check.passed  # ... the check fails,
    # and it is blocking: the step fails (nothing downstream runs) and the failure is recorded for later runs
    assert not result.success and check.severity == dg.AssetCheckSeverity.ERROR
    assert "how_to_override" in check.metadata
    record = json.loads((tmp_path / paths.check_record("tmlr", "parsed_forums")).read_text())
    assert list(record["failed"]) == ["quarantined_share"] and not record["overridden"]
    ok = _run_parse(tmp_path, max_quarantined_share=0.5)
    assert ok.success and ok.get_asset_check_evaluations()[0].passed
    assert json.loads((tmp_path / paths.check_record("tmlr", "parsed_forums")).read_text())["failed"] == {}


def test_wrong_password_names_the_variables(tmlr_replica, tmp_path):
    fx, rep = tmlr_replica
    res = openreview_resource(rep, password="wrong")
    with pytest.raises(Exception) as exc:
        res.api("v2")
    assert "OPENREVIEW_USERNAME" in str(exc.value) and "OPENREVIEW_PASSWORD" in str(exc.value)


def test_challenge_403_names_the_variables(tmlr_replica):
    from resources.openreview_api import CredentialsError, OpenReviewApi

    fx, rep = tmlr_replica
    api = OpenReviewApi(rep.api_v2_url, "v2", None, None)
    with pytest.raises(CredentialsError) as exc:
        api.get_json("/notes", {"invitation": "TMLR/-/Submission"})
    assert "ChallengeRequiredError" in str(exc.value)
    assert "OPENREVIEW_USERNAME" in str(exc.value) and "OPENREVIEW_PASSWORD" in str(exc.value)


def test_v1_refresh_is_a_batched_recrawl_that_reports_only_what_changed(tmp_path):
    """API v1 has no `domain` filter to run a tmdate cursor over a venue's notes; its venue-years are
    closed, so a later run takes the stored crawl as the venue's final listing (no request), and a
    `full_refresh` re-reads the submission pages (`details=replies`, 1000 forums a request) and
    merges: O(papers/1000) requests, and only changed forums are counted as touched."""
    import openreview.tools

    fx = build_fixtures(["iclr-2020"], seed=7, n_forums=24, eager_pdfs=False)
    with ReplicaServer(fx, port=0) as rep:
        old = openreview.tools.LOCAL_API_V2
        openreview.tools.LOCAL_API_V2 = rep.api_v2_url
        try:
            def run(full_refresh: bool = False):
                return dg.materialize([openreview_forums], partition_key="iclr-2020",
                                      resources={"openreview": openreview_resource(rep),
                                                 "storage": storage_resource(tmp_path)},
                                      run_config={"ops": {"openreview_forums": {"config": {
                                          "full_refresh": full_refresh}}}})
            first = _meta(run())
            n = first["forums_new"]
            assert n >= 24 and first["forums_changed"] == 0
            rep.reset_request_log()
            kept = _meta(run())  # the stored crawl is the closed venue-year's final listing
            assert kept["mode"] == "stored" and kept["forums_unchanged"] == n
            assert not [r for r in rep.request_log if r.path == "/notes"]
            again = _meta(run(full_refresh=True))
            assert (again["forums_new"], again["forums_changed"], again["forums_unchanged"],
                    again["forums_removed"]) == (0, 0, n, 0)
            assert again["touched_forums"] == []
            notes_calls = [r for r in rep.request_log if r.path == "/notes"]
            assert len(notes_calls) <= len(again["forums_by_query"]) + 1  # one page per query here
            assert not [r for r in notes_calls if "id" in r.params or "forum" in r.params]  # no per-forum fetch

            changed = next(iter(fx.venues["iclr-2020"].forums))
            fx.add_reply(changed)
            rep.reindex()
            night = _meta(run(full_refresh=True))
            assert (night["forums_new"], night["forums_changed"], night["forums_unchanged"]) == (0, 1, n - 1)
            assert night["touched_forums"] == [changed]
        finally:
            openreview.tools.LOCAL_API_V2 = old
