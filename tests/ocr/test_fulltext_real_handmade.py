"""The hand-written tests of the non-pdfTeX real PDFs (benchmarks/fulltext_real/handmade): each file in
olmOCR-Bench's exact shape (the keys its test classes take, ids unique across the set, pages within the
document), one per manifest entry; and a PDF whose bytes are not the recorded ones is refused."""
from __future__ import annotations

import pytest

from benchmarks.fulltext_real import handmade

KEYS = {"present": {"text", "case_sensitive", "first_n", "last_n"}, "absent": {"text", "case_sensitive", "first_n", "last_n"},
        "order": {"before", "after"}, "table": {"cell", "up", "down", "left", "right", "top_heading", "left_heading"},
        "math": {"math"}}
COMMON = {"pdf", "page", "id", "type", "max_diffs", "checked", "url"}


def test_every_document_has_tests_in_olmocr_shape():
    docs = handmade.documents()
    assert len(docs) >= 10 and len({d["id"] for d in docs}) == len(docs)
    assert {d["kind"] for d in docs} >= {"word", "google-docs", "libreoffice", "journal", "scan"}
    ids = set()
    for doc in docs:
        tests = handmade.tests(doc["id"])
        assert tests, doc["id"]
        for test in tests:
            assert set(test) <= COMMON | KEYS[test["type"]], test
            assert test["pdf"] == f"{doc['id']}.pdf" and 1 <= test["page"] <= doc["pages"]
            assert all(isinstance(test[k], str) and test[k].strip() for k in KEYS[test["type"]] & set(test)
                       if k not in ("case_sensitive", "first_n", "last_n"))
            assert test["id"] not in ids
            ids.add(test["id"])


def test_a_pdf_that_is_not_the_recorded_one_is_refused(tmp_path, monkeypatch):
    doc = handmade.documents()[0]
    (tmp_path / "src" / "handmade").mkdir(parents=True)
    (tmp_path / "src" / "handmade" / f"{doc['id']}.pdf").write_bytes(b"%PDF-1.4 not the document")
    monkeypatch.setattr(handmade, "documents", lambda: [doc])
    with pytest.raises(ValueError, match="sha256"):
        handmade.install(tmp_path / "set", tmp_path / "src")
