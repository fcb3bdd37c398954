"""The one-page furniture set (benchmarks/fulltext_furniture): its hand-written tests load as
olmOCR-Bench's own test objects, the split is recorded once, the build takes the recorded page of the
recorded file only, and the bench says so and records nothing without its material."""
from __future__ import annotations

import hashlib
import json

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from benchmarks.fulltext_furniture import build


def test_every_page_has_hand_tests_olmocr_loads_and_a_part():
    from benchmarks.fulltext_real.olmocr_judge import olmocr_test

    pages = build.pages()
    assert len(pages) >= 30 and len({p["id"] for p in pages}) == len(pages)
    parts = [p["part"] for p in pages]
    assert set(parts) == {"dev", "frozen"} and abs(parts.count("dev") - parts.count("frozen")) <= 1
    for page in pages:
        rows = build.tests(page)
        assert rows and {r["type"] for r in rows} <= {"absent", "present"}
        assert len({r["id"] for r in rows}) == len(rows)
        for row in rows:
            olmocr_test(row)  # raises on a malformed test


def test_the_build_takes_the_recorded_page_and_refuses_other_bytes(tmp_path, monkeypatch):
    import pypdfium2

    corpus = tmp_path / "corpus"
    (corpus / "pdfs").mkdir(parents=True)
    pdf = corpus / "pdfs" / "abc.pdf"
    c = canvas.Canvas(str(pdf), pagesize=letter)
    for n in (1, 2, 3):
        c.drawString(72, 700, f"Body of page {n}.")
        c.showPage()
    c.save()
    digest = hashlib.sha256(pdf.read_bytes()).hexdigest()
    (corpus / "manifest.jsonl").write_text(json.dumps({"id": "abc", "file": "pdfs/abc.pdf"}) + "\n")
    page = {"id": "abc_p2", "part": "dev", "source": {"corpus_id": "abc", "page": 2, "sha256": digest},
            "absent": ["Page 2"], "present": ["Body of page 2."]}
    monkeypatch.setattr(build, "pages", lambda: [page])
    out = build.build(corpus, tmp_path / "set")
    assert out["parts"] == {"dev": ["abc_p2"], "frozen": []}
    doc = pypdfium2.PdfDocument(tmp_path / "set" / "pdfs" / "abc_p2.pdf")
    assert len(doc) == 1 and doc[0].get_textpage().get_text_range().strip() == "Body of page 2."
    rows = [json.loads(line) for line in (tmp_path / "set" / "tests" / "abc_p2.jsonl").read_text().splitlines()]
    assert [(r["type"], r["text"], r["pdf"], r["page"]) for r in rows] == [
        ("absent", "Page 2", "abc_p2.pdf", 1), ("present", "Body of page 2.", "abc_p2.pdf", 1)]
    page["source"]["sha256"] = "0" * 64
    with pytest.raises(ValueError, match="abc_p2"):
        build.build(corpus, tmp_path / "set2")


def test_the_bench_says_so_and_records_nothing_without_its_material(tmp_path, monkeypatch, capsys):
    from benchmarks import bench_fulltext_furniture

    monkeypatch.setenv("REVIEWBENCH_FURNITURESET_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("REVIEWBENCH_ROBUSTNESS_DIR", str(tmp_path / "nothing"))
    assert bench_fulltext_furniture.run() == []
    assert "REVIEWBENCH_ROBUSTNESS_DIR" in capsys.readouterr().out
