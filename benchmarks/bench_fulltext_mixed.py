"""Full text on mixed real documents (issue 36's held-out "mixed" material: scans, tables, columns,
maths): olmOCR-Bench's own sample (``olmocr/bench/sample_data`` of allenai/olmocr, Apache-2.0; 21
PDFs, their tests written by olmOCR-Bench's authors), the default engine beside pymupdf4llm 2.0 in
the same run, scored by olmOCR-Bench's own code (``fulltext_real/olmocr_bench.py``).

HELD OUT: a measurement only. No rule is tuned on it and no failing test of it is handed to anyone,
so this run keeps no per-test record (only counts, per type and per category).

The sample: ``$REVIEWBENCH_OLMOCR_SAMPLE_DIR`` (default ``var/olmocr-sample``, never committed), a
copy of ``olmocr/bench/sample_data`` (``pdfs/`` with a ``headers_footers/`` sub-folder, ``dataset.jsonl``,
``blanks.jsonl``), made by ``python -m benchmarks.bench_fulltext_mixed --export GIT_DIR [REV]`` from a
clone or mirror of allenai/olmocr (it writes ``source.json``: repository, commit, licence). Without it
this bench says so and records nothing.

Scored as olmocr's ``benchmark.py`` scores its ``--dir`` (``olmocr_run.py``, olmOCR-Bench's layout):
every ``*.jsonl`` at the top, every PDF under ``pdfs/`` named by its path there, a baseline test on
page 1 of each PDF without one, one repeat per page (olmocr passes a test on more than half of the
repeats: one of one), every page tested or the run stops. A page the engine gives no markdown for
gets no ``.md``: its tests fail, and olmocr marks the candidate FAILED (``olmocr_score`` 0, the
errors named); a PDF the engine returns an error row for (no markdown at all) gets no ``.md`` at all,
which rejects the candidate as a whole (each of its tests counts failed).

* ``fulltext_olmocr_sample_pass_rate_<engine>``: share of the sample's tests olmocr passes (the
  baseline tests it adds included); baseline = pymupdf4llm 2.0's share in the same run. Extra fields:
  ``olmocr_score`` (olmocr's headline: mean of the per-JSONL-file rates, the added baseline tests a
  file of their own), ``written`` (the tests of the sample's own files only), ``without_baseline``
  (every test but the baseline ones: present, absent, order, table, math), ``by_category``.
  ``..._<type>`` per test type. Engines: ``text-layer`` and ``pymupdf4llm-2.0``.

Our engine runs in this process through ``ocr_ray.conversion.convert_pdf`` (the worker's function:
reading, routing, OCR, layout), one PDF after another, as the peer does.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from benchmarks.common import figure, page_count
from benchmarks.fulltext_real import olmocr_bench, peers
from ocr_ray.conversion import PAGE_SEPARATOR

ENGINE = "text-layer"
PEER_RELEASE = "2.0"
TYPES = ("present", "absent", "order", "table", "math", "baseline")
PREFIX = "fulltext_olmocr_sample_pass_rate_"
SAMPLE_PATH = "olmocr/bench/sample_data"  # in allenai/olmocr
ADDED_BASELINE = "baseline"  # olmocr_run's group of the baseline tests benchmark.main adds
# The sample has no category field: its documents grouped by hand from their folder, names and pages
# (image-only or handwritten pages: scans). A document named in none is "other".
CATEGORIES = {
    "scans": ("blank_book_pg1", "buildingnotes", "lincoln_letter", "mattsnotes"),
    "tables": ("discoverworld_crazy_table4", "earnings", "olmo2-pg4"),
    "multi-column": ("multi_column_miss", "mathfuncs_colswitch"),
    "maths": ("math_2503_04086", "mathfuncs", "openstax_caculus_pg_273"),
}


def sample_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_OLMOCR_SAMPLE_DIR", "var/olmocr-sample"))


def load_sample(root: Path) -> list[tuple[str, Path]]:
    """(key, pdf) of every PDF under ``pdfs/``, key = its path there without ``.pdf`` (olmocr's name)."""
    if not (root / "pdfs").is_dir() or not list(root.glob("*.jsonl")):
        return []
    return sorted((p.relative_to(root / "pdfs").with_suffix("").as_posix(), p) for p in (root / "pdfs").rglob("*.pdf"))


def category(key: str) -> str:
    if "/" in key:  # the sample's own sub-folder (headers_footers)
        return key.split("/", 1)[0]
    return next((name for name, keys in CATEGORIES.items() if key in keys), "other")


def pages_of(row: dict, pages: int) -> list[str | None]:
    """Our row as one markdown per page; None where olmocr gets no file: every page of an error row,
    and the pages past the engine's count (an engine's page count that differs from the PDF's)."""
    if row["error"] or not row["num_pages"]:
        return [None] * pages
    split = row["markdown"].split(PAGE_SEPARATOR)
    return split[:pages] + [None] * (pages - len(split)) if len(split) != pages else split


def ours(docs: list[tuple[str, Path]], engine_name: str = ENGINE) -> dict:
    import pyarrow.fs as pafs

    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    engine = get_engine(engine_name)
    engine.check_available()
    fs = pafs.LocalFileSystem()
    pages, errors = {}, {}
    for index, (key, pdf) in enumerate(docs):
        row = convert_pdf({"task_index": index, "forum_id": key.replace("/", "-"), "pdf_path": str(pdf.resolve())},
                          filesystem=fs, engine=engine)
        if row["error"]:
            errors[key] = row["error"]
        pages[key] = pages_of(row, page_count(pdf))
    return {"pages": pages, "errors": errors}


def peer(docs: list[tuple[str, Path]]) -> dict:
    out = peers.run(peers.ensure(PEER_RELEASE), [pdf for _, pdf in docs])
    return {"pages": {key: r["pages"] for (key, _), r in zip(docs, out, strict=True)}}


def source(root: Path) -> dict:
    """The sample's origin as ``--export`` wrote it (``source.json``); unknown for a copy made otherwise."""
    path = root / "source.json"
    return json.loads(path.read_text()) if path.exists() else {"commit": "unknown (no source.json)"}


def set_digest(docs: list[tuple[str, Path]], root: Path) -> str:
    """One sha256 over the PDFs (key and bytes) and the JSONL files: same digest, same sample."""
    h = hashlib.sha256()
    for key, pdf in docs:
        h.update(key.encode() + b"\0" + hashlib.sha256(pdf.read_bytes()).digest())
    for jsonl in sorted(root.glob("*.jsonl")):
        h.update(jsonl.name.encode() + b"\0" + hashlib.sha256(jsonl.read_bytes()).digest())
    return h.hexdigest()


def counts(verdicts: list[dict], key) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for v in verdicts:
        group = out.setdefault(key(v), {"passed": 0, "tests": 0})
        group["passed"] += bool(v["passed"])
        group["tests"] += 1
    return dict(sorted(out.items()))


def olmocr_headline(verdicts: list[dict], errors: list[str]) -> float:
    """benchmark.main's score: the mean of the per-JSONL-file pass rates; 0 for a candidate it marks FAILED."""
    if errors or not verdicts:
        return 0.0
    files = counts(verdicts, lambda v: v["jsonl"]).values()
    return round(sum(f["passed"] / f["tests"] for f in files) / len(files), 4)


def run(score=olmocr_bench.score) -> list[dict]:
    root = sample_dir()
    docs = load_sample(root)
    if not docs:
        print(f"fulltext_mixed: no olmOCR-Bench sample at {root} (REVIEWBENCH_OLMOCR_SAMPLE_DIR): nothing measured. "
              "Copy it with `python -m benchmarks.bench_fulltext_mixed --export GIT_DIR` from a clone of "
              "allenai/olmocr; see docs/fulltext-benchmark.md.")
        return []
    runs, skipped = {ENGINE: ours(docs)}, None
    try:
        runs[peers.name(PEER_RELEASE)] = peer(docs)
    except Exception as exc:  # noqa: BLE001 - e.g. no PyPI access: the figures say the peer is missing
        skipped = f"{type(exc).__name__}: {exc}"
    verdicts = score(root, {name: r["pages"] for name, r in runs.items()})
    return figures(root, docs, runs, verdicts, skipped)


def figures(root: Path, docs: list[tuple[str, Path]], runs: dict, verdicts: dict, skipped: str | None) -> list[dict]:
    """The figures of one run: counts only (held out: no test's text, no explanation)."""
    scored = {name: olmocr_bench.rates(v["tests"], TYPES) for name, v in verdicts.items()}
    peer_rates = scored.get(peers.name(PEER_RELEASE))
    digest, origin = set_digest(docs, root), source(root)
    tests = len(next(iter(verdicts.values()))["tests"]) if verdicts else 0
    pages = sum(page_count(pdf) for _, pdf in docs)
    common = {"set": f"olmOCR-Bench's sample ({origin.get('repo', 'allenai/olmocr')} {SAMPLE_PATH} at commit "
                     f"{origin['commit']}): {len(docs)} PDFs, {pages} pages, {tests} tests (the baseline tests "
                     f"olmocr adds included); held out, never tuned on", "set_sha256": digest,
              "sample_commit": origin["commit"], "scorer": olmocr_bench.OLMOCR_PIN,
              "baseline_engine": peers.name(PEER_RELEASE), "skipped": skipped}
    out = []
    for name, r in scored.items():
        rows = verdicts[name]["tests"]
        written = [v for v in rows if v["jsonl"] != ADDED_BASELINE]
        extra = {"tests": r["tests"], "passed": r["passed"], "by_type": r["by_type"],
                 "tests_by_type": r["tests_by_type"],
                 "olmocr_score": olmocr_headline(rows, verdicts[name]["errors"]),
                 "olmocr_errors": verdicts[name]["errors"][:5] or None,
                 "written": {"passed": sum(v["passed"] for v in written), "tests": len(written)},
                 "without_baseline": counts(rows, lambda v: v["type"] != "baseline").get(True),
                 "by_category": counts(rows, lambda v: category(Path(v["pdf"]).with_suffix("").as_posix()))}
        if name == ENGINE:
            extra.update(errors=runs[ENGINE]["errors"] or None, goal=">= 0.60 (issue 36: mixed real documents)")
        # value = share of the sample's tests olmocr passes; baseline = pymupdf4llm 2.0's share, same run
        out.append(figure(f"{PREFIX}{name}", r["pass_rate"], "share of tests",
                          peer_rates["pass_rate"] if peer_rates else None, **extra, **common))
        for kind in TYPES:
            if r["by_type"][kind] is None:
                continue
            # value = share of this type's tests passed; baseline = the peer's share of the same tests
            out.append(figure(f"{PREFIX}{name}_{kind}", r["by_type"][kind], "share of tests",
                              peer_rates["by_type"][kind] if peer_rates else None, test_type=kind,
                              tests=r["tests_by_type"][kind], passed=sum(v["passed"] for v in rows if v["type"] == kind),
                              **common))
    return out


def export(git_dir: Path, target: Path, rev: str = "HEAD") -> dict:
    """``olmocr/bench/sample_data`` of a clone (or bare mirror) of allenai/olmocr at ``rev`` into ``target``,
    with ``source.json`` naming the commit (the sample's figures carry it)."""
    commit = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", f"{rev}^{{commit}}"], capture_output=True,
                            text=True, check=True).stdout.strip()
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "sample.tar"
        subprocess.run(["git", "--git-dir", str(git_dir), "archive", "-o", str(archive), commit, SAMPLE_PATH], check=True)
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                if member.isfile() and member.name.startswith(SAMPLE_PATH + "/"):
                    member.name = member.name[len(SAMPLE_PATH) + 1:]
                    tar.extract(member, target, filter="data")
    info = {"repo": "allenai/olmocr", "path": SAMPLE_PATH, "commit": commit, "licence": "Apache-2.0"}
    (target / "source.json").write_text(json.dumps(info, indent=1) + "\n")
    return info


if __name__ == "__main__":
    if sys.argv[1:2] == ["--export"]:
        print(json.dumps(export(Path(sys.argv[2]), sample_dir(), *sys.argv[3:4])))
    else:
        for fig in run():
            print(json.dumps({k: fig[k] for k in ("metric", "value", "baseline")}))
