"""python -m ocr_ray: JSONL output, manifest input and --resume."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from ocr_ray.__main__ import main
from ocr_ray.conversion import PAGE_SEPARATOR
from ocr_ray.pipeline import LOCAL_MAX_PDFS


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_module_entry_point_help():
    result = subprocess.run(
        [sys.executable, "-m", "ocr_ray", "--help"], capture_output=True, text=True, check=True
    )
    assert "--resume" in result.stdout and "text-layer" in result.stdout


@pytest.mark.slow
def test_pdf_dir_then_resume(ray_session, pdf_corpus, tmp_path):
    pdf_dir = tmp_path / "pdfs"
    pdf_dir.mkdir()
    for forum_id in ("paperA", "notpdf"):
        shutil.copy(pdf_corpus[forum_id], pdf_dir)
    output = tmp_path / "out" / "papers.jsonl"

    assert main(["--pdf-dir", str(pdf_dir), "--output", str(output)]) == 0

    rows = {row["forum_id"]: row for row in read_jsonl(output)}
    assert set(rows) == {"paperA", "notpdf"}
    assert rows["paperA"]["num_pages"] == 3 and rows["paperA"]["error"] is None
    assert rows["paperA"]["markdown"].count(PAGE_SEPARATOR) == 2
    assert rows["notpdf"]["markdown"] == "" and "not a PDF" in rows["notpdf"]["error"]
    assert not output.with_name("papers.jsonl.partial").exists()

    # A new PDF arrives, and an interrupted run left a partial with a torn last line.
    shutil.copy(pdf_corpus["paperB"], pdf_dir)
    shutil.copy(pdf_corpus["paperC"], pdf_dir)
    paper_c_row = {"forum_id": "paperC", "markdown": "from partial", "num_pages": 3,
                   "engine": "text-layer", "model": None, "error": None}
    output.with_name("papers.jsonl.partial").write_text(json.dumps(paper_c_row) + "\n" + '{"forum_id": "pap')

    assert main(["--pdf-dir", str(pdf_dir), "--output", str(output), "--resume"]) == 0

    rerun = read_jsonl(output)
    assert sorted(row["forum_id"] for row in rerun) == ["notpdf", "paperA", "paperB", "paperC"]
    by_id = {row["forum_id"]: row for row in rerun}
    assert by_id["paperC"]["markdown"] == "from partial"  # skipped, not redone
    assert by_id["paperA"] == rows["paperA"]
    assert by_id["paperB"]["num_pages"] == 2 and by_id["paperB"]["error"] is None


@pytest.mark.slow
def test_manifest_relative_paths(ray_session, pdf_corpus, tmp_path):
    shutil.copy(pdf_corpus["paperB"], tmp_path / "b.pdf")
    manifest = tmp_path / "tasks.jsonl"
    manifest.write_text(
        json.dumps({"forum_id": "forumB", "pdf_path": "b.pdf"}) + "\n"
        + json.dumps({"forum_id": "gone", "pdf_path": "nowhere/gone.pdf"}) + "\n"
    )
    output = tmp_path / "papers.jsonl"

    assert main(["--manifest", str(manifest), "--output", str(output)]) == 0

    first, second = read_jsonl(output)
    assert first["forum_id"] == "forumB" and first["num_pages"] == 2
    assert second["forum_id"] == "gone" and "missing file" in second["error"]


@pytest.mark.parametrize("make_input", ["missing_dir", "empty_dir", "missing_manifest", "empty_manifest", "bad_manifest"])
def test_bad_input_is_an_error_with_a_message(tmp_path, make_input):
    """A missing or empty --pdf-dir / --manifest exits non-zero and says why (it used to write an
    empty output and exit 0). No Ray is started: the check runs before."""
    args = {
        "missing_dir": ["--pdf-dir", str(tmp_path / "nope")],
        "empty_dir": ["--pdf-dir", str(tmp_path)],
        "missing_manifest": ["--manifest", str(tmp_path / "nope.jsonl")],
        "empty_manifest": ["--manifest", str(tmp_path / "empty.jsonl")],
        "bad_manifest": ["--manifest", str(tmp_path / "bad.jsonl")],
    }[make_input]
    (tmp_path / "empty.jsonl").write_text("\n")
    (tmp_path / "bad.jsonl").write_text('{"forum": "x"}\n')
    result = subprocess.run([sys.executable, "-m", "ocr_ray", *args, "--output", str(tmp_path / "out.jsonl")],
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "error:" in result.stderr and ("no such" in result.stderr or "no " in result.stderr or "bad line" in result.stderr)
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.slow
def test_manifest_path_that_does_not_exist_is_that_papers_error(ray_session, pdf_corpus, tmp_path):
    manifest = tmp_path / "tasks.jsonl"
    manifest.write_text(json.dumps({"forum_id": "good", "pdf_path": str(pdf_corpus["paperB"])}) + "\n"
                        + json.dumps({"forum_id": "gone", "pdf_path": "missing/gone.pdf"}) + "\n")
    output = tmp_path / "out.jsonl"
    assert main(["--manifest", str(manifest), "--output", str(output)]) == 0
    rows = {row["forum_id"]: row for row in read_jsonl(output)}
    assert rows["good"]["error"] is None and rows["good"]["num_pages"] == 2
    assert rows["gone"]["error"].startswith("missing file") and rows["gone"]["markdown"] == ""


@pytest.mark.slow
def test_small_input_same_output_with_and_without_ray(ray_session, pdf_corpus, tmp_path):
    """The local process pool the CLI takes for a few PDFs writes the very bytes Ray writes: the same
    convert_pdf, the same paper records, the same order; per-PDF errors included."""
    pdf_dir = tmp_path / "pdfs"
    pdf_dir.mkdir()
    for forum_id in ("paperA", "paperB", "paperC", "notpdf", "locked"):
        shutil.copy(pdf_corpus[forum_id], pdf_dir)
    outputs = {flag: tmp_path / f"{flag}.jsonl" for flag in ("--ray", "--no-ray")}
    for flag, output in outputs.items():
        assert main(["--pdf-dir", str(pdf_dir), "--output", str(output), flag]) == 0

    assert outputs["--no-ray"].read_bytes() == outputs["--ray"].read_bytes()
    rows = {row["forum_id"]: row for row in read_jsonl(outputs["--no-ray"])}
    assert rows["paperA"]["num_pages"] == 3 and rows["paperC"]["error"] is None
    assert "not a PDF" in rows["notpdf"]["error"]


def test_a_few_pdfs_convert_without_starting_ray(pdf_corpus, tmp_path):
    """One PDF, the default engine, no --ray-address: the CLI says it takes the local pool, and Ray is
    never imported (the run would otherwise start a local cluster, 10-25 s)."""
    pdf_dir = tmp_path / "pdfs"
    pdf_dir.mkdir()
    shutil.copy(pdf_corpus["paperB"], pdf_dir)
    output = tmp_path / "out.jsonl"
    probe = ("import sys, runpy; sys.argv = ['ocr_ray', *sys.argv[1:]]\n"
             "try:\n    runpy.run_module('ocr_ray', run_name='__main__')\n"
             "except SystemExit as exit:\n    assert not exit.code, exit.code\n"
             "print('ray imported' if 'ray' in sys.modules else 'no ray')")
    result = subprocess.run([sys.executable, "-c", probe, "--pdf-dir", str(pdf_dir), "--output", str(output)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "(local process pool)" in result.stderr and result.stdout.strip() == "no ray"
    (row,) = read_jsonl(output)
    assert row["forum_id"] == "paperB" and row["num_pages"] == 2 and row["error"] is None


def test_no_ray_with_an_engine_that_needs_ray_is_an_error(tmp_path):
    result = subprocess.run([sys.executable, "-m", "ocr_ray", "--pdf-dir", str(tmp_path), "--output",
                             str(tmp_path / "out.jsonl"), "--engine", "auto", "--no-ray"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "needs Ray" in result.stderr


@pytest.mark.parametrize(("num_tasks", "engine", "address", "use_ray", "runner"), [
    (1, "text-layer", None, None, "local"),
    (LOCAL_MAX_PDFS, "text-layer", None, None, "local"),
    (LOCAL_MAX_PDFS + 1, "text-layer", None, None, "ray"),
    (1, "text-layer", "auto", None, "ray"),  # a cluster was named: use it
    (1, "text-layer", None, True, "ray"),
    (5000, "text-layer", None, False, "local"),
    (1, "auto", None, None, "ray"),  # OCR actors need Ray
])
def test_choose_runner(num_tasks, engine, address, use_ray, runner, monkeypatch):
    from ocr_ray import pipeline
    from ocr_ray.engines import get_engine

    monkeypatch.setattr(pipeline, "ray_running", lambda: False)  # another test's Ray would choose Ray
    assert pipeline.choose_runner(num_tasks, get_engine(engine), address, use_ray) == runner


def test_choose_runner_joins_a_running_ray(monkeypatch):
    from ocr_ray import pipeline
    from ocr_ray.engines import get_engine

    monkeypatch.setattr(pipeline, "ray_running", lambda: True)
    assert pipeline.choose_runner(1, get_engine("text-layer"), None, None) == "ray"
    assert pipeline.choose_runner(1, get_engine("text-layer"), None, False) == "local"
