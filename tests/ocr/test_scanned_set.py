"""The scanned development set's generator (benchmarks/fulltext_scanned/build.py): image-only pages of
the source's size, the dev part's tests kept (math dropped), the frozen part never opened, and a
clear message when the real-paper set is missing."""
from __future__ import annotations

import json

import pypdfium2 as pdfium
from reportlab.pdfgen import canvas

from benchmarks.fulltext_scanned import build


def _realset(root):
    (root / "pdfs").mkdir(parents=True)
    (root / "tests").mkdir()
    c = canvas.Canvas(str(root / "pdfs" / "probe-scan.pdf"), pagesize=(595, 842))
    for n in (1, 2):
        c.drawString(72, 700, f"The sentence of page {n} of the probe.")
        c.showPage()
    c.save()
    tests = [{"pdf": "probe-scan.pdf", "id": "p1", "type": "present", "page": 1, "text": "page 1"},
             {"pdf": "probe-scan.pdf", "id": "m1", "type": "math", "page": 1, "math": "x"},
             {"pdf": "probe-scan.pdf", "id": "p9", "type": "present", "page": 9, "text": "beyond"}]
    (root / "tests" / "probe-scan.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tests))
    # a document of the frozen part (papers.yaml records its part): its bytes are no PDF, so opening it fails
    (root / "pdfs" / "muse.pdf").write_bytes(b"not a pdf")
    (root / "tests" / "muse.jsonl").write_text(json.dumps({"pdf": "muse.pdf", "id": "x", "type": "present",
                                                           "page": 1, "text": "x"}) + "\n")


def test_the_dev_part_becomes_image_only_pages_of_the_same_size_with_its_tests(tmp_path):
    _realset(tmp_path / "real")
    manifest = build.build(tmp_path / "real", tmp_path / "scan", pages=3)
    assert list(manifest["documents"]) == ["probe-scan"] and manifest["dropped_math_tests"] == 1
    assert not (tmp_path / "scan" / "pdfs" / "muse.pdf").exists()
    doc = pdfium.PdfDocument(str(tmp_path / "scan" / "pdfs" / "probe-scan.pdf"))
    assert len(doc) == 3  # two pages and the blank sheet behind them
    for page in doc:
        assert page.get_textpage().get_text_range() == ""
        assert [round(v) for v in page.get_size()] == [595, 842]
    kept = [json.loads(line)["id"] for line in (tmp_path / "scan" / "tests" / "probe-scan.jsonl").read_text().splitlines()]
    assert kept == ["p1"]


def test_without_the_real_paper_set_it_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REVIEWBENCH_REALSET_DIR", str(tmp_path / "none"))
    assert build.main([str(tmp_path / "out")]) == 1
    assert "no real-paper set" in capsys.readouterr().out
