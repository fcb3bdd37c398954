"""Runs INSIDE olmOCR-Bench's own virtual environment (``olmocr_bench.ensure_olmocr``), never in the
project's: ``python olmocr_run.py SET_DIR CANDIDATES_DIR OUT_JSON``.

It scores every candidate folder of ``CANDIDATES_DIR`` (one per engine, ``<pdfstem>_pg<page>_repeat1.md``
per page) against the set's tests with olmocr's own code only: tests loaded by
``olmocr.bench.tests.load_tests``, run by ``olmocr.bench.benchmark.evaluate_candidate``. Like olmocr's
``benchmark.main``, a PDF whose tests hold no ``baseline`` test gets one on page 1. Writes, per
candidate, every test's verdict (olmocr's explanation included, and the JSONL file it came from:
olmocr's headline averages per file) as JSON.

Two set layouts: the project's (``tests/<id>.jsonl`` beside ``pdfs/<id>.pdf``; a test whose PDF is
absent is left out) and olmOCR-Bench's own, read as ``benchmark.main`` reads its ``--dir``: every
``*.jsonl`` at the folder's top, every PDF under ``pdfs/`` (sub-folders too, named by their path
under ``pdfs/``), every test kept, and every page of every PDF holding a test (else it stops, as
``benchmark.main`` does). A candidate that lacks every ``.md`` of some PDF is rejected by olmocr as
a whole (``benchmark.main`` prints it as FAILED, score 0): each of its tests is then a failure.

The only thing changed in olmocr: its math tests render KaTeX in a browser that Playwright launches
with ``chromium.launch()``; ``scripts/olmocr_chromium.py`` (loaded by path)
makes that Debian's ``/usr/bin/chromium``; olmocr's rendering code is untouched. Nothing else from
the project is imported here (another interpreter, another set of packages).
"""
import json
import sys
from pathlib import Path

ADDED_BASELINE = "baseline"  # benchmark.main's JSONL group of the baseline tests it adds


def load(set_dir: str) -> tuple[list, list[str], dict[str, str]]:
    """The tests, the PDFs scored and each test's JSONL file, as ``benchmark.main`` builds them."""
    from olmocr.bench.tests import BaselineTest, load_tests

    root = Path(set_dir)
    own_layout = (root / "tests").is_dir()
    if own_layout:
        pdfs = {p.name for p in (root / "pdfs").glob("*.pdf")}
        jsonls = sorted((root / "tests").glob("*.jsonl"))
    else:
        pdfs = {p.relative_to(root / "pdfs").as_posix() for p in (root / "pdfs").rglob("*.pdf")}
        jsonls = sorted(root.glob("*.jsonl"))
    tests, source = [], {}
    for jsonl in jsonls:
        loaded = [t for t in load_tests(str(jsonl)) if t.pdf in pdfs or not own_layout]
        tests += loaded
        source.update((t.id, jsonl.name) for t in loaded)
    ids = [t.id for t in tests]
    if len(ids) != len(set(ids)):
        raise SystemExit("duplicate test ids across the set's JSONL files")
    scored_pdfs = sorted({t.pdf for t in tests}) if own_layout else sorted(pdfs)
    for pdf in scored_pdfs:
        if not any(t.type == "baseline" for t in tests if t.pdf == pdf):  # as olmocr's benchmark.main does
            tests.append(BaselineTest(id=f"{pdf}_baseline", pdf=pdf, page=1, type="baseline"))
            source[tests[-1].id] = ADDED_BASELINE
    return tests, scored_pdfs, source


def check_every_page_tested(set_dir: str, tests: list, pdfs: list[str]) -> None:
    """``benchmark.main`` stops when a page of a PDF has no test (pypdf counts the pages, as there)."""
    from pypdf import PdfReader

    for pdf in pdfs:
        for page in range(1, len(PdfReader(str(Path(set_dir) / "pdfs" / pdf)).pages) + 1):
            if not any(t.pdf == pdf and t.page == page for t in tests):
                raise SystemExit(f"No dataset entry found for pdf {pdf} page {page}")


def main(set_dir: str, candidates_dir: str, out_json: str) -> None:
    # found by path: this file runs as a script in olmocr's venv, where the project is no package (on
    # sys.path only here, so that importing this module for ``load`` changes nothing)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from olmocr_chromium import use_debian_chromium

    use_debian_chromium()
    from olmocr.bench.benchmark import evaluate_candidate

    tests, scored_pdfs, source = load(set_dir)
    if not (Path(set_dir) / "tests").is_dir():
        check_every_page_tested(set_dir, tests, scored_pdfs)
    out = {}
    for candidate in sorted(p for p in Path(candidates_dir).iterdir() if p.is_dir()):
        _, _, errors, _, _, _, results = evaluate_candidate(str(candidate), tests, scored_pdfs)
        verdicts = []
        for pdf, pages in results.items():
            for page, rows in pages.items():
                verdicts += [{"id": t.id, "pdf": pdf, "page": page, "type": t.type, "passed": bool(ok),
                              "explanation": why, "jsonl": source[t.id]} for t, ok, why in rows]
        if errors and not results:  # rejected whole (a PDF without any .md): olmocr scores it 0
            verdicts = [{"id": t.id, "pdf": t.pdf, "page": t.page, "type": t.type, "passed": False,
                         "explanation": "candidate rejected", "jsonl": source[t.id]} for t in tests]
        out[candidate.name] = {"errors": errors, "tests": sorted(verdicts, key=lambda v: v["id"])}
    Path(out_json).write_text(json.dumps(out))


if __name__ == "__main__":
    main(*sys.argv[1:4])
