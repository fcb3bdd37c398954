"""The real-world table set (benchmarks/fulltext_tables_world): its manifest and tests agree, the tests
are read off a competition structure file as its cells say (a small one written here by hand), the build
cuts the recorded page out of a source found by its sha256 and leaves other bytes out, and the bench
says when there is nothing to measure."""
from __future__ import annotations

import json

import pypdfium2 as pdfium

from benchmarks import bench_fulltext_tablesworld
from benchmarks.fulltext_tables_world import build, derive
from tests.ocr.conftest import recorded_and_other_sources

_STR = """<?xml version="1.0" encoding="UTF-8"?><document filename="x">
<table id="1"><region id="1" page="2">
 <cell id="1" start-col="1" start-row="0"><content>2010</content></cell>
 <cell id="2" start-col="2" start-row="0"><content>2011</content></cell>
 <cell id="3" start-col="0" start-row="1"><content>Exports</content></cell>
 <cell id="4" start-col="1" start-row="1"><content>12.5</content></cell>
 <cell id="5" start-col="2" start-row="1"><content>13.0</content></cell>
 <cell id="6" start-col="0" start-row="2"><content>Imports</content></cell>
 <cell id="7" start-col="1" start-row="2" end-col="2"><content>n.a.</content></cell>
 <cell id="8" start-col="0" start-row="3"><content>Balance</content></cell>
 <cell id="9" start-col="1" start-row="3"><content>12.5</content></cell>
</region></table>
<table id="2"><region id="1" page="3"><cell id="1" start-col="0" start-row="0"><content>other page</content></cell>
<cell id="2" start-col="1" start-row="0"><content>x y</content></cell></region></table></document>"""


def test_every_page_has_table_tests_in_olmocr_bench_form_and_a_part():
    pages = build.pages()
    assert len({p["id"] for p in pages}) == len(pages) >= 30
    assert {p["part"] for p in pages} == {"dev", "frozen"}
    assert abs(sum(p["part"] == "dev" for p in pages) - len(pages) / 2) <= 1
    assert all(p["repo"] != "allenai/olmocr" for p in pages)  # its bench data is held out
    for page in pages:
        tests = build.tests(page["id"])
        assert tests, page["id"]
        for t in tests:
            assert t["pdf"] == f"{page['id']}.pdf" and t["page"] == 1 and t["type"] in {"table", "present"}, t
            assert t["id"].startswith(page["id"]) and ("cell" in t or "text" in t), t


def test_tests_are_the_structure_files_cells_unique_on_their_page():
    tests = {t["cell"]: t for t in derive.page_tests(_STR, 2, "p")}
    # 12.5 is printed twice: no test names it; the other table is on another page
    assert "12.5" not in tests and "other page" not in tests
    assert tests["13.0"] == {"pdf": "p.pdf", "page": 1, "id": tests["13.0"]["id"], "type": "table", "max_diffs": 0,
                             "cell": "13.0", "up": "2011"}  # the head is the cell above: named once
    assert tests["Exports"]["down"] == "Imports" and "right" not in tests["Exports"]  # its right neighbour is 12.5
    # a cell spanning two columns has no single cell above it, nor one column head
    assert "up" not in tests["n.a."] and "top_heading" not in tests["n.a."] and tests["n.a."]["left"] == "Imports"
    assert tests["2010"]["right"] == "2011"


def test_the_build_cuts_the_recorded_page_and_refuses_other_bytes(tmp_path, monkeypatch):
    folder = tmp_path / "tw"
    digest = recorded_and_other_sources(folder / "sources")
    entries = [{"id": "p", "part": "dev", "repo": "o/r", "commit": "c", "path": "a.pdf", "page": 2, "sha256": digest},
               {"id": "q", "part": "frozen", "repo": "o/r", "commit": "c", "path": "b.pdf", "page": 0, "sha256": "0" * 64}]
    monkeypatch.setattr(build, "pages", lambda: entries)
    monkeypatch.setattr(build, "HERE", tmp_path)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "p.jsonl").write_text(json.dumps({"pdf": "p.pdf", "page": 1, "id": "p-1", "type": "present",
                                                            "text": "page 2"}) + "\n")
    manifest = build.build(folder)
    assert [p["id"] for p in manifest["pages"]] == ["p"] and manifest["missing"] == ["q"]
    doc = pdfium.PdfDocument(str(folder / "set" / "pdfs" / "p.pdf"))
    assert len(doc) == 1 and doc[0].get_textpage().get_text_range().strip() == "page 2"


def test_the_bench_says_when_there_is_no_set(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REVIEWBENCH_TABLESWORLD_DIR", str(tmp_path / "none"))
    assert bench_fulltext_tablesworld.run() == []
    assert "nothing measured" in capsys.readouterr().out


def test_a_cells_text_is_the_one_printed_in_its_box_when_it_agrees_but_for_spaces():
    """The organisers' text drops spaces ("CzechRepublic"); the printed text in the cell's box is kept
    when it agrees but for spaces and case, and a cell whose box prints something else is not used."""
    xml = """<document><table><region page="1">
     <cell start-col="0" start-row="0"><bounding-box x1="10" y1="90" x2="60" y2="99"/><content>Country</content></cell>
     <cell start-col="1" start-row="0"><bounding-box x1="70" y1="90" x2="99" y2="99"/><content>domestic(%)</content></cell>
     <cell start-col="0" start-row="1"><bounding-box x1="10" y1="80" x2="60" y2="89"/><content>CzechRepublic</content></cell>
     <cell start-col="1" start-row="1"><bounding-box x1="70" y1="80" x2="99" y2="89"/><content>98.6</content></cell>
     <cell start-col="0" start-row="2"><bounding-box x1="10" y1="70" x2="60" y2="79"/><content>Denmark</content></cell>
     <cell start-col="1" start-row="2"><bounding-box x1="70" y1="7ß" x2="99" y2="79"/><content>3.1</content></cell>
    </region></table></document>"""
    page = {(10.0, 90.0): "Country", (70.0, 90.0): "Domestic (%) ", (10.0, 80.0): "Czech  Republic",
            (70.0, 80.0): "98.6", (10.0, 70.0): "Danmark"}
    tests = {t["cell"]: t for t in derive.page_tests(xml, 1, "p", printed=lambda n, box: page[box[:2]])}
    assert tests["Czech Republic"]["right"] == "98.6" and tests["Czech Republic"]["up"] == "Country"
    assert tests["Country"]["right"] == "Domestic (%)"
    assert "Denmark" not in tests and "Danmark" not in tests and "3.1" not in tests  # a misprint, a mistyped box
