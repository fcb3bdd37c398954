"""The bench's side of olmOCR-Bench's verdicts: pages split on our separator and written in olmocr's
candidate layout, the round-robin keys of the speed run, the rates; and, where olmocr's venv exists
(``make bench`` creates ``var/olmocr-venv``; ``REVIEWBENCH_OLMOCR_VENV`` names another), olmocr's own
verdicts through the runner: each test on its page only."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from benchmarks.bench_fulltext_real import round_robin, set_digest
from benchmarks.fulltext_real import olmocr_bench
from ocr_ray.conversion import PAGE_SEPARATOR


def test_split_pages_on_our_separator_and_missing_pages_left_empty():
    md = PAGE_SEPARATOR.join(["first page", "second page", "third"])
    assert olmocr_bench.split_pages(md, 3) == ["first page", "second page", "third"]
    assert olmocr_bench.split_pages(md, 4) == ["first page", "second page", "third", ""]
    assert olmocr_bench.split_pages("", 2) == ["", ""]


def test_candidate_layout_is_olmocrs(tmp_path):
    olmocr_bench.write_candidate(tmp_path / "eng", {"paper-a": ["p1", "p2"]})
    assert sorted(p.name for p in (tmp_path / "eng").iterdir()) == ["paper-a_pg1_repeat1.md", "paper-a_pg2_repeat1.md"]
    assert (tmp_path / "eng" / "paper-a_pg2_repeat1.md").read_text() == "p2"


def test_round_robin_keys_are_distinct_and_cover_every_pdf(tmp_path):
    docs = [("a", tmp_path / "a.pdf"), ("b", tmp_path / "b.pdf"), ("c", tmp_path / "c.pdf")]
    keys = round_robin(docs, 7)
    assert len(keys) == 7 and len({k for k, _, _ in keys}) == 7
    assert [s for _, s, _ in keys] == ["a", "b", "c", "a", "b", "c", "a"]
    assert len(round_robin(docs, 0)) == 3  # never fewer than the set


def test_rates_overall_per_type_and_olmocrs_per_file_mean():
    verdicts = [{"id": "a-1", "pdf": "a.pdf", "type": "present", "passed": True},
                {"id": "a-2", "pdf": "a.pdf", "type": "absent", "passed": False},
                {"id": "b-1", "pdf": "b.pdf", "type": "present", "passed": True},
                {"id": "a.pdf_baseline", "pdf": "a.pdf", "type": "baseline", "passed": True}]
    r = olmocr_bench.rates(verdicts, ("present", "absent", "baseline"))
    assert r["pass_rate"] == 0.75 and r["by_type"] == {"present": 1.0, "absent": 0.0, "baseline": 1.0}
    assert r["by_paper"] == {"a": 0.5, "b": 1.0}
    assert r["olmocr_score"] == round((0.5 + 1.0 + 1.0) / 3, 4)  # the baseline tests are a group of their own


def test_set_digest_changes_with_a_pdfs_bytes(tmp_path):
    (tmp_path / "a.pdf").write_bytes(b"one")
    first = set_digest([("a", tmp_path / "a.pdf")])
    (tmp_path / "a.pdf").write_bytes(b"two")
    assert set_digest([("a", tmp_path / "a.pdf")]) != first


def _olmocr_python() -> Path | None:
    venv = Path(os.environ.get("REVIEWBENCH_OLMOCR_VENV", "var/olmocr-venv"))
    return venv / "bin" / "python" if (venv / "bin" / "python").exists() else None


@pytest.mark.skipif(_olmocr_python() is None, reason="no olmocr venv (make bench creates var/olmocr-venv)")
def test_olmocr_judges_each_test_on_its_own_page(tmp_path):
    (tmp_path / "pdfs").mkdir()
    (tmp_path / "pdfs" / "doc.pdf").write_bytes(b"%PDF-1.4")  # olmocr's evaluate_candidate reads no PDF
    (tmp_path / "tests").mkdir()
    tests = [{"pdf": "doc.pdf", "page": 1, "id": "doc-present-1", "type": "present",
              "text": "Reviewers read the first page carefully."},
             {"pdf": "doc.pdf", "page": 2, "id": "doc-present-2", "type": "present",
              "text": "The second page holds the results of the study."},
             {"pdf": "doc.pdf", "page": 2, "id": "doc-absent-1", "type": "absent", "text": "Running Head"},
             {"pdf": "doc.pdf", "page": 1, "id": "doc-order-1", "type": "order",
              "before": "Reviewers read the first page carefully.", "after": "Then they write."}]
    (tmp_path / "tests" / "doc.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tests))
    right = ["Reviewers read the first page carefully. Then they write.",
             "The second page holds the results of the study."]
    # the second page's text put at the end of the first page (the joiner defect): wrong page
    moved = ["Reviewers read the first page carefully. Then they write. The second page holds the results of the "
             "study.", "Running Head"]
    out = olmocr_bench.score(tmp_path, {"right": {"doc": right}, "moved": {"doc": moved}}, python=_olmocr_python())
    verdict = {name: {t["id"]: t["passed"] for t in v["tests"]} for name, v in out.items()}
    assert verdict["right"] == {"doc-present-1": True, "doc-present-2": True, "doc-absent-1": True,
                                "doc-order-1": True, "doc.pdf_baseline": True}
    assert verdict["moved"]["doc-present-2"] is False and verdict["moved"]["doc-absent-1"] is False
