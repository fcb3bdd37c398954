"""The mixed-documents bench's plumbing (benchmarks/bench_fulltext_mixed.py), on a sample folder made
here in olmOCR-Bench's own layout (``pdfs/`` with a sub-folder, ``dataset.jsonl``, ``blanks.jsonl``):
three typeset pages and tests written by hand, truth what each page prints. The real sample is
fetched material and held out; nothing of it is read here.

Scored by olmocr's own runner in its venv where that exists (``REVIEWBENCH_OLMOCR_VENV``, default
``var/olmocr-venv``); elsewhere (CI) by olmocr's own test classes, loaded by the runner's ``load``
(olmocr's ``load_tests``), each run on its page's candidate file."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from benchmarks import bench_fulltext_mixed as bench
from benchmarks.fulltext_real import olmocr_bench, olmocr_run

FIRST = "The committee read every submission before the meeting began."
SECOND = "Each paper then received three independent reviews from the panel."
HEADER = "Proceedings of the Workshop on Synthetic Samples"
NOT_PRINTED = "This sentence is printed on no page of the sample."


def _page(path: Path, lines: list[tuple[float, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf = canvas.Canvas(str(path), pagesize=(612, 792))
    for y, text in lines:
        pdf.setFont("Times-Roman", 11)
        pdf.drawString(72, y, text)
    pdf.showPage()
    pdf.save()


def _sample(root: Path) -> None:
    _page(root / "pdfs" / "notes.pdf", [(700, FIRST), (670, SECOND)])
    _page(root / "pdfs" / "headers_footers" / "proc.pdf", [(760, HEADER), (650, FIRST)])
    _page(root / "pdfs" / "blank.pdf", [])
    dataset = [{"pdf": "notes.pdf", "page": 1, "id": "notes-present", "type": "present", "text": FIRST},
               {"pdf": "notes.pdf", "page": 1, "id": "notes-missing", "type": "present", "text": NOT_PRINTED},
               {"pdf": "notes.pdf", "page": 1, "id": "notes-order", "type": "order", "before": FIRST, "after": SECOND},
               {"pdf": "headers_footers/proc.pdf", "page": 1, "id": "proc-present", "type": "present", "text": FIRST}]
    (root / "dataset.jsonl").write_text("".join(json.dumps(t) + "\n" for t in dataset))
    (root / "blanks.jsonl").write_text(json.dumps({"pdf": "blank.pdf", "page": 1, "id": "blank", "type": "baseline",
                                                   "max_length": 10}) + "\n")
    (root / "source.json").write_text(json.dumps({"repo": "allenai/olmocr", "commit": "abc123"}))


def _olmocr_python() -> Path | None:
    venv = Path(os.environ.get("REVIEWBENCH_OLMOCR_VENV", "var/olmocr-venv"))
    return venv / "bin" / "python" if (venv / "bin" / "python").exists() else None


def _score(root: Path, candidates: dict, tmp: Path) -> dict:
    """olmocr's runner where its venv is; else olmocr's test classes on each test's page file."""
    if _olmocr_python():
        return olmocr_bench.score(root, candidates, python=_olmocr_python())
    tests, _, source = olmocr_run.load(str(root))
    out = {}
    for name, outputs in candidates.items():
        olmocr_bench.write_candidate(tmp / name, outputs)
        verdicts = []
        for t in tests:
            page = tmp / name / f"{t.pdf[:-4]}_pg{t.page}_repeat1.md"
            ok = page.exists() and t.run(page.read_text())[0]
            verdicts.append({"id": t.id, "pdf": t.pdf, "page": t.page, "type": t.type, "passed": bool(ok),
                             "jsonl": source[t.id]})
        out[name] = {"errors": [], "tests": verdicts}
    return out


def test_without_the_sample_it_says_so_and_records_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REVIEWBENCH_OLMOCR_SAMPLE_DIR", str(tmp_path / "none"))
    assert bench.run() == []
    assert "no olmOCR-Bench sample" in capsys.readouterr().out


def test_the_sample_is_read_as_olmocrs_benchmark_reads_its_folder(tmp_path):
    _sample(tmp_path)
    assert [key for key, _ in bench.load_sample(tmp_path)] == ["blank", "headers_footers/proc", "notes"]
    tests, pdfs, source = olmocr_run.load(str(tmp_path))
    assert pdfs == ["blank.pdf", "headers_footers/proc.pdf", "notes.pdf"]
    # a baseline test on page 1 of each PDF without one (blank.pdf has its own, in blanks.jsonl)
    assert source == {"notes-present": "dataset.jsonl", "notes-missing": "dataset.jsonl",
                      "notes-order": "dataset.jsonl", "proc-present": "dataset.jsonl", "blank": "blanks.jsonl",
                      "headers_footers/proc.pdf_baseline": "baseline", "notes.pdf_baseline": "baseline"}
    assert len(tests) == 7
    assert [bench.category(k) for k in ("headers_footers/proc", "lincoln_letter", "earnings", "notes")] == [
        "headers_footers", "scans", "tables", "other"]


def test_a_page_without_markdown_gets_no_file_in_the_candidate(tmp_path):
    assert bench.pages_of({"error": "no readable text", "num_pages": 0, "markdown": ""}, 2) == [None, None]
    assert bench.pages_of({"error": "", "num_pages": 1, "markdown": "one"}, 2) == ["one", None]
    olmocr_bench.write_candidate(tmp_path, {"headers_footers/proc": ["text", None]})
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.md")) == [
        "headers_footers/proc_pg1_repeat1.md"]


def test_the_bench_scores_our_engine_and_the_peer_per_type_and_category(tmp_path, monkeypatch):
    root = tmp_path / "sample"
    _sample(root)
    monkeypatch.setenv("REVIEWBENCH_OLMOCR_SAMPLE_DIR", str(root))
    # the peer by hand (no venv, no download in a test): the first sentence of the notes only, nothing else
    monkeypatch.setattr(bench, "peer", lambda docs: {"pages": {"notes": [FIRST], "headers_footers/proc": [""],
                                                               "blank": [""]}})
    figs = {f["metric"]: f for f in bench.run(score=lambda root, c: _score(root, c, tmp_path / "cand"))}
    ours, peer = figs["fulltext_olmocr_sample_pass_rate_text-layer"], figs["fulltext_olmocr_sample_pass_rate_pymupdf4llm-2.0"]
    # ours: every test but the sentence no page prints (6 of 7); the peer: present, the blank page, notes' baseline
    assert (ours["passed"], ours["tests"]) == (6, 7) and ours["value"] == round(6 / 7, 4)
    assert (peer["passed"], peer["tests"]) == (3, 7) and ours["baseline"] == peer["value"]
    assert ours["by_category"] == {"headers_footers": {"passed": 2, "tests": 2}, "other": {"passed": 4, "tests": 5}}
    assert ours["written"] == {"passed": 4, "tests": 5} and ours["without_baseline"] == {"passed": 3, "tests": 4}
    assert ours["olmocr_score"] == round((3 / 4 + 1 + 1) / 3, 4)  # per JSONL file: dataset, blanks, added baselines
    assert figs["fulltext_olmocr_sample_pass_rate_text-layer_present"]["value"] == round(2 / 3, 4)
    assert figs["fulltext_olmocr_sample_pass_rate_text-layer_order"]["baseline"] == 0.0
    assert ours["sample_commit"] == "abc123" and "explanation" not in json.dumps(figs)


@pytest.mark.skipif(_olmocr_python() is None, reason="no olmocr venv (make bench creates var/olmocr-venv)")
def test_olmocr_rejects_a_candidate_missing_a_pdf_and_every_test_fails(tmp_path):
    _sample(tmp_path)
    out = olmocr_bench.score(tmp_path, {"partial": {"notes": [FIRST + " " + SECOND]}}, python=_olmocr_python())
    assert out["partial"]["errors"] and not any(t["passed"] for t in out["partial"]["tests"])
    assert len(out["partial"]["tests"]) == 7
