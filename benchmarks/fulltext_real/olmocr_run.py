"""Runs INSIDE olmOCR-Bench's own virtual environment (``olmocr_bench.ensure_olmocr``), never in the
project's: ``python olmocr_run.py SET_DIR CANDIDATES_DIR OUT_JSON``.

It scores every candidate folder of ``CANDIDATES_DIR`` (one per engine, ``<pdfstem>_pg<page>_repeat1.md``
per page) against the tests of ``SET_DIR/tests/*.jsonl`` with olmocr's own code only: tests loaded by
``olmocr.bench.tests.load_tests``, run by ``olmocr.bench.benchmark.evaluate_candidate``. Like olmocr's
``benchmark.main``, a PDF whose tests hold no ``baseline`` test gets one on page 1. Writes, per
candidate, every test's verdict (olmocr's explanation included) as JSON.

The only thing changed in olmocr: its math tests render KaTeX in a browser that Playwright launches
with ``chromium.launch()``; ``scripts/olmocr_chromium.py`` (loaded by path)
makes that Debian's ``/usr/bin/chromium``; olmocr's rendering code is untouched. Nothing else from
the project is imported here (another interpreter, another set of packages).
"""
import json
import sys
from pathlib import Path

# found by path: this file runs as a script in olmocr's venv, where the project is no package
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from olmocr_chromium import use_debian_chromium  # noqa: E402


def main(set_dir: str, candidates_dir: str, out_json: str) -> None:
    use_debian_chromium()
    from olmocr.bench.benchmark import evaluate_candidate
    from olmocr.bench.tests import BaselineTest, load_tests

    pdfs = {p.name for p in (Path(set_dir) / "pdfs").glob("*.pdf")}
    tests = []
    for jsonl in sorted((Path(set_dir) / "tests").glob("*.jsonl")):
        loaded = [t for t in load_tests(str(jsonl)) if t.pdf in pdfs]
        tests += loaded
    ids = [t.id for t in tests]
    if len(ids) != len(set(ids)):
        raise SystemExit("duplicate test ids across the set's JSONL files")
    for pdf in sorted({t.pdf for t in tests}):
        if not any(t.type == "baseline" for t in tests if t.pdf == pdf):  # as olmocr's benchmark.main does
            tests.append(BaselineTest(id=f"{pdf}_baseline", pdf=pdf, page=1, type="baseline"))
    scored_pdfs = sorted({t.pdf for t in tests})
    out = {}
    for candidate in sorted(p for p in Path(candidates_dir).iterdir() if p.is_dir()):
        _, _, errors, _, _, _, results = evaluate_candidate(str(candidate), tests, scored_pdfs)
        verdicts = []
        for pdf, pages in results.items():
            for page, rows in pages.items():
                verdicts += [{"id": t.id, "pdf": pdf, "page": page, "type": t.type, "passed": bool(ok),
                              "explanation": why} for t, ok, why in rows]
        out[candidate.name] = {"errors": errors, "tests": sorted(verdicts, key=lambda v: v["id"])}
    Path(out_json).write_text(json.dumps(out))


if __name__ == "__main__":
    main(*sys.argv[1:4])
