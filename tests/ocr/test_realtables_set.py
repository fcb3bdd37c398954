"""The hand-truth set of real-world tables (benchmarks/fulltext_tables_world/realtables_dev.yaml,
tables11rw): its pages are corpus documents that are neither tablesworld's ICDAR 2013 pages nor olmOCR's
held-out data, every test is an olmOCR-Bench TableTest, the build cuts the recorded page out of the corpus
file found by its sha256 and leaves other bytes out, and the runner says when there is no corpus (CI). The
held-aside batch (realtables_aside.yaml, tables12rw) holds to the same and shares no document with the first."""
from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from olmocr.bench.tests import TableTest

from benchmarks.fulltext_tables_world import build as tablesworld
from benchmarks.fulltext_tables_world import realtables
from tests.ocr.conftest import recorded_and_other_sources


@pytest.mark.parametrize("manifest", [realtables.MANIFEST, realtables.ASIDE], ids=["dev", "aside"])
def test_pages_are_other_documents_than_the_held_out_ones_and_their_tests_are_table_tests(manifest):
    pages = realtables.pages(manifest)
    assert len({p["id"] for p in pages}) == len(pages) >= 15
    assert len({p["corpus_id"] for p in pages}) == len(pages)
    held = {p["sha256"] for p in tablesworld.pages()}
    for page in pages:
        assert page["repo"] != "allenai/olmocr" and "icdar" not in page["path"], page["id"]
        assert page["sha256"] not in held and page["sha256"][:16] == page["corpus_id"], page["id"]
        rows = realtables.test_rows(page)
        assert len(rows) >= 3, page["id"]
        for row in rows:
            TableTest(**row)  # olmocr's own class takes it
            assert set(row) - {"pdf", "page", "id", "type", "max_diffs", "cell"} <= \
                {"up", "down", "left", "right", "top_heading"}, row


def test_the_held_aside_batch_shares_no_document_with_the_first_and_builds_apart(tmp_path, monkeypatch):
    first = {p["sha256"] for p in realtables.pages()}
    assert not first & {p["sha256"] for p in realtables.pages(realtables.ASIDE)}
    monkeypatch.setenv("REVIEWBENCH_REALTABLES_DIR", str(tmp_path))
    assert realtables.set_dir() == tmp_path and realtables.set_dir(realtables.ASIDE) == tmp_path / "aside"


def test_the_build_cuts_the_recorded_page_and_refuses_other_bytes(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    digest = recorded_and_other_sources(corpus / "pdfs")
    cell = [{"cell": "a", "right": "b"}]
    entries = [{"id": "p", "corpus_id": digest[:16], "page": 2, "sha256": digest, "tests": cell},
               {"id": "q", "corpus_id": "0" * 16, "page": 0, "sha256": "0" * 64, "tests": cell}]
    monkeypatch.setattr(realtables, "pages", lambda manifest=None: entries)
    manifest = realtables.build(corpus, tmp_path / "out")
    assert [p["id"] for p in manifest["pages"]] == ["p"] and manifest["missing"] == ["q"]
    doc = pdfium.PdfDocument(str(tmp_path / "out" / "set" / "pdfs" / "p.pdf"))
    assert len(doc) == 1 and doc[0].get_textpage().get_text_range().strip() == "page 2"
    rows = [json.loads(line) for line in (tmp_path / "out" / "set" / "tests" / "p.jsonl").read_text().splitlines()]
    assert rows == [{"pdf": "p.pdf", "page": 1, "id": "p-table-000", "type": "table", "max_diffs": 0,
                     "cell": "a", "right": "b"}]


def test_the_runner_says_when_there_is_no_corpus(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REVIEWBENCH_ROBUSTNESS_DIR", str(tmp_path / "none"))
    assert realtables.run() == {}
    assert "nothing measured" in capsys.readouterr().out
