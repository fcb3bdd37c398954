"""`stages.crawl` notes_page: a /notes page read note by note gives what `json.loads` gives, and refuses
what it would refuse; stored lines and spooled lines come back by their offsets."""
from __future__ import annotations

import json

import pytest

from resources.store import CorruptFileError, store_from_uri
from reviewbench_assets.io.upstream import JsonlLines, Spool
from reviewbench_assets.stages.crawl import notes_page
from tests.published import write_jsonl


@pytest.mark.parametrize("body", [
    {"notes": [{"id": "a", "content": {"t": "x\u00e9\U0001f600 [ ] { } \\\" ,"}}, {"id": "b", "n": [1, 2.5, None]}],
     "count": 2},
    {"count": 7, "notes": []},
    {"notes": [{"id": "a"}], "count": None, "other": {"notes": [1]}},
])
def test_notes_page_reads_what_json_loads_reads(body):
    for text in (json.dumps(body), json.dumps(body, indent=2, ensure_ascii=False)):
        page = notes_page(text, require_notes=True)
        assert list(page.notes()) == body["notes"]
        assert page.count == (body["count"] if isinstance(body["count"], int) else None)


@pytest.mark.parametrize("text", ['{"notes": [{"id": "no', '{"notes": [1, 2]} trailing', "[1, 2]", "",
                                  '{"notes": [1,, 2]}', '{"count": 1}'])
def test_notes_page_refuses_a_broken_or_foreign_body(text):
    with pytest.raises(ValueError):
        notes_page(text, require_notes=True)


def test_stored_and_spooled_lines_come_back_by_offset(tmp_path):
    store = store_from_uri(str(tmp_path))
    rows = [{"forum_id": f"f{i}", "text": "é" * i} for i in range(5)]
    write_jsonl(store, store.path("x.jsonl"), rows)
    with JsonlLines(store, store.path("x.jsonl")) as lines:
        scanned = list(lines.scan())
        assert [r for _o, _n, r in scanned] == rows
        assert [lines.read(o, n) for o, n, _r in reversed(scanned)] == rows[::-1]
    store.write_bytes(store.path("bad.jsonl"), b'{"forum_id": "f0"}\n{"forum_id": \n')
    with pytest.raises(CorruptFileError, match="line 2"):
        list(JsonlLines(store, store.path("bad.jsonl")).scan())
    with Spool() as spool:
        at = [spool.append(r) for r in rows]
        assert spool.read(*at[3]) == rows[3]
        seen = []
        for r in spool:  # a read between two lines does not move the iteration
            seen.append(r)
            spool.read(*at[0])
        assert seen == rows and spool.lines == 5
