"""Issue 6 bad inputs: 60 malformed notes served by the replica; the crawl stores every forum as it
came, the parse (the parser's only caller) records each bad note with its own reason and code, its
quarantine check reports the share, and no good review is dropped."""
from __future__ import annotations

import json

import dagster as dg
import pyarrow.parquet as pq

from reviewbench_assets.io.layout import paths

from .test_refresh import _meta, _run, _run_parse, tmlr_replica  # noqa: F401, F811  (fixture)


def _break(fx, rep) -> tuple[dict[str, int], int]:
    """60 bad replies over 12 forums, 5 kinds; returns {forum: bad count} and the total."""
    v = fx.venues["tmlr"]
    per_forum: dict[str, int] = {}
    forums = list(v.forums)[:12]
    n = 0
    for i, fid in enumerate(forums):
        # a reply our reader may see (the first forums include one with hidden reviews)
        template = next(r for r in v.replies_by_forum[fid] if "everyone" in (r.get("readers") or []))
        for k in range(5):
            bad = json.loads(json.dumps(template))
            bad["id"] = f"Bad{i:02d}x{k}"
            kind = k % 5
            if kind == 0:
                bad.pop("content")  # no content at all
            elif kind == 1:
                bad["content"] = "not an object"
            elif kind == 2:
                bad["replyto"] = f"Missing{i}{k}"  # orphan: parent missing
            elif kind == 3:  # unknown invitation
                bad["invitations"] = [template["invitations"][0].rsplit("/-/", 1)[0] + "/-/Mystery_Form"]
                bad["parentInvitations"] = "TMLR/-/Mystery_Form"
            else:  # reply filed under the wrong forum: the whole payload is quarantined (issue 10)
                bad["forum"] = "SomeOtherForum"
            v.replies_by_forum[fid].append(bad)
            v.notes[bad["id"]] = bad
            n += 1
        per_forum[fid] = 5
    rep.reindex()
    return per_forum, n


def test_sixty_malformed_notes_are_quarantined_with_reasons(tmlr_replica, tmp_path):  # noqa: F811
    fx, rep = tmlr_replica
    per_forum, total = _break(fx, rep)
    assert total >= 50
    crawl = _run(rep, tmp_path)
    assert crawl.success and _meta(crawl)["quarantined_forums"] == 0  # nothing the crawl can see unparsed
    result = _run_parse(tmp_path, max_quarantined_share=0.25, allow_failing_checks=True)
    assert result.success  # the partition goes on (its failing check overridden on purpose)
    quarantine = pq.read_table(tmp_path / paths.parsed_quarantine("tmlr")).to_pylist()
    by_forum: dict[str, list[dict]] = {}
    for q in quarantine:
        by_forum.setdefault(q["forum_id"], []).append(q)
    assert set(by_forum) == set(per_forum)
    bad_ids_with_reason = {f"Bad{i:02d}x{k}" for i in range(12) for k in range(5)
                           if any(f"Bad{i:02d}x{k}" in q["detail"] for q in by_forum[list(per_forum)[i]])}
    assert len(bad_ids_with_reason) == total, "every malformed note has its own recorded reason"
    assert all(any(q["code"] == "foreign_replies" and not q["parsed"] for q in qs) for qs in by_forum.values())
    assert {q["code"] for q in quarantine} == {"foreign_replies", "reply_skipped", "orphan_reply",
                                               "unknown_invitation"}
    meta = _meta(result)
    assert meta["quarantined_forums"] == 12 and meta["malformed_forums"] == 12
    check = result.get_asset_check_evaluations()[0]
    assert check.check_name == "quarantined_share" and not check.passed  # 12/24 > 0.25
    assert check.metadata["share"].value == 0.5
    assert check.severity == dg.AssetCheckSeverity.WARN and check.metadata["blocks_downstream"].value is False
    # every forum is still in the raw data, with its good reviews
    lines = [json.loads(x) for x in (tmp_path / "raw/forums/tmlr.jsonl").read_text().splitlines()]
    assert {x["forum_id"] for x in lines} == set(fx.venues["tmlr"].forums)
