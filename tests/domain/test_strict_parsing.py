"""Strict parsing (issue 10 point 4): a forum payload without `details.replies`, or with replies of
another forum, is quarantined with its reason and never becomes a row or a dialogue.

Inputs are the real recorded payloads: the ICLR 2026 tracker forums were crawled with
`details=directReplies` (every element of `replies` raw API v2 JSON), the way a forum reaches us
when it is fetched without `details=replies`."""
from __future__ import annotations

import copy

import pytest

from reviewbench_assets.domain.forum import MalformedForumError
from reviewbench_assets.stages.figures import ROW_COUNT
from reviewbench_assets.stages.parse_stage import forum_problems
from tests.forums import parse_forum
from tests.published import write_jsonl

VENUE = "ICLR.cc/2026/Conference"


def _direct_replies_note(tracked: dict) -> dict:
    """A tracker forum as `GET /notes?id=<forum>&details=directReplies` returns it (v2 shapes)."""
    return {
        "id": tracked["id"], "forum": tracked["id"], "replyto": None, "number": tracked["number"],
        "cdate": tracked["cdate"], "mdate": tracked["mdate"], "tcdate": tracked["cdate"],
        "tmdate": tracked["mdate"], "invitations": [f"{VENUE}/-/Submission"], "domain": VENUE,
        "signatures": [f"{VENUE}/Submission{tracked['number']}/Authors"],
        "content": {k: {"value": v} for k, v in tracked["content"].items()},
        "details": {"directReplies": copy.deepcopy(tracked["replies"])},
    }


def _problems(raw: dict, venue) -> list[dict]:
    """What parsed_forums records for this forum in its quarantine table (code, detail, parsed)."""
    return forum_problems({"forum_id": raw.get("id"), "note": raw}, venue)[1]


def test_direct_replies_payload_is_quarantined_not_parsed(tracker_forums, iclr2026):
    with_reviews = [f for f in tracker_forums if f["replies"] and not f["withdrawn"]]
    assert len(with_reviews) >= 8
    for tracked in with_reviews:
        note = _direct_replies_note(tracked)
        with pytest.raises(MalformedForumError, match=r"no details\.replies.*directReplies") as exc:
            parse_forum(note, iclr2026)
        assert exc.value.forum_id == tracked["id"]
        [problem] = _problems(note, iclr2026)
        assert problem["code"] == "no_replies" and not problem["parsed"]
        assert problem["detail"].startswith("no details.replies")
        # the same payload with `replies` parses: it is the missing key that is refused
        note["details"] = {"replies": note["details"].pop("directReplies")}
        assert len(parse_forum(note, iclr2026).reviews) >= 3


def test_no_details_at_all_is_quarantined(iclr2026_raw, iclr2026):
    raw = copy.deepcopy(iclr2026_raw)
    del raw["details"]
    with pytest.raises(MalformedForumError, match=r"zzo3Sy3NSX.*no details\.replies \(details has: nothing"):
        parse_forum(raw, iclr2026)
    # an empty list is a forum without replies, not a malformed one
    raw["details"] = {"replies": []}
    assert parse_forum(raw, iclr2026).reviews == []


def test_replies_of_another_forum_are_quarantined(iclr2026_raw, tracker_forums, iclr2026):
    stranger = next(r for f in tracker_forums for r in f["replies"] if r["forum"] != "zzo3Sy3NSX")
    raw = copy.deepcopy(iclr2026_raw)
    raw["details"]["replies"].append(copy.deepcopy(stranger))
    with pytest.raises(MalformedForumError, match=f"replies of another forum \\({stranger['forum']}\\)"):
        parse_forum(raw, iclr2026)
    first = _problems(raw, iclr2026)[0]
    assert first["code"] == "foreign_replies" and first["detail"] == (
        f"details.replies holds 1 replies of another forum ({stranger['forum']}): {stranger['id']}")


def test_consumers_take_the_quarantine_path(tracker_forums, iclr2026_raw, iclr2026, tmp_path):
    """The crawl stores it as it came (it does not parse); the parse, the parser's only caller,
    records it in its quarantine table with a reason code and writes no parsed row, so the rows
    (joined with markdown on forum_id, in whatever order paper_markdown wrote them) and the
    dialogues have none either."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from resources.store import store_from_uri
    from reviewbench_assets.domain.schema import MARKDOWN_SCHEMA
    from reviewbench_assets.io.layout import paths
    from reviewbench_assets.io.upstream import Upstream
    from reviewbench_assets.stages.crawl_stage import _Quarantine  # stages import the clients (Dagster)
    from reviewbench_assets.stages.parse_stage import ParseStage
    from reviewbench_assets.stages.rows_stage import STALE_MARKDOWN, assemble_rows

    bad = _direct_replies_note(next(f for f in tracker_forums if f["replies"] and not f["withdrawn"]))
    late = dict(iclr2026_raw, id="LateForum1")  # crawled after paper_markdown last ran
    late["details"] = {"replies": [
        dict(r, forum="LateForum1", replyto="LateForum1" if r.get("replyto") == "zzo3Sy3NSX" else r.get("replyto"))
        for r in iclr2026_raw["details"]["replies"]]}
    records = [{"forum_id": "zzo3Sy3NSX", "query": "submissions", "note": iclr2026_raw, "fetched_at": 1.0},
               {"forum_id": bad["id"], "query": "submissions", "note": bad, "fetched_at": 1.0},
               {"forum_id": "LateForum1", "query": "submissions", "note": late, "fetched_at": 2.0}]
    crawl_quarantine = _Quarantine(iclr2026)
    assert [crawl_quarantine.add(r) for r in records[:2]] == [None, None]  # nothing the crawl sees unparsed
    assert crawl_quarantine.quarantined == []

    store = store_from_uri(str(tmp_path))
    write_jsonl(store, store.path(paths.raw_forums(iclr2026.key)), records)
    result = ParseStage(iclr2026)(store)
    assert result.figures[ROW_COUNT] == 2 and result.figures["quarantine_codes"] == {"no_replies": 1}
    [q] = store.read_parquet(store.path(paths.parsed_quarantine(iclr2026.key))).to_pylist()
    assert (q["forum_id"], q["code"], q["parsed"]) == (bad["id"], "no_replies", False)
    # markdown written in the opposite order: rows still get their own paper's text
    markdown = [{"forum_id": r["forum_id"], "markdown": f"text of {r['forum_id']}", "num_pages": 1,
                 "engine": "text-layer", "model": None, "pdf_sha256": None, "error": None} for r in records[:2]]
    (tmp_path / "markdown").mkdir()
    pq.write_table(pa.Table.from_pylist(markdown[::-1], schema=MARKDOWN_SCHEMA),
                   store.path(paths.markdown(iclr2026.key)), row_group_size=1)
    rows = list(assemble_rows(Upstream(store, iclr2026.key), iclr2026, {}))
    assert [(row["forum_id"], row["markdown"]) for row, _ in rows] == [
        ("zzo3Sy3NSX", "text of zzo3Sy3NSX"), ("LateForum1", "")]
    assert rows[1][1]["markdown_error"] == STALE_MARKDOWN  # said, not a silent empty row


def test_the_quarantine_vocabulary_is_the_catalogues(iclr2026_raw, iclr2026):
    """A reply under an invitation the venue does not know is a reason to look; once the catalogue
    names it as a known harmless reply (`invitations.known_other`), it is not (issue 20.8)."""
    import copy

    raw = copy.deepcopy(iclr2026_raw)
    reply = copy.deepcopy(raw["details"]["replies"][0])
    reply.update(id="SurveyNote1", invitations=["ICLR.cc/2026/Conference/Submission4956/-/Author_Survey"],
                 replyto=raw["id"])
    reply.pop("parentInvitations", None)
    raw["details"]["replies"].append(reply)
    assert any("SurveyNote1 under unknown invitation" in p["detail"] for p in _problems(raw, iclr2026))
    known = iclr2026.invitations.model_copy(update={"known_other": [*iclr2026.invitations.known_other,
                                                                    "Author_Survey"]})
    assert _problems(raw, iclr2026.model_copy(update={"invitations": known})) == []
