"""Build the real-scans set (issue 36): ``python -m benchmarks.fulltext_realscans.build [OUT]``.

``pages.yaml`` names each page (source repository, commit, path, 0-based page, the source file's
sha256); the source PDFs are read from the robustness corpus folder (``$REVIEWBENCH_ROBUSTNESS_DIR``,
default ``var/robustness-corpus``: ``pdfs/<sha256[:16]>.pdf``, built by ``benchmarks.robustness.collect``).
Each page is written as a one-page PDF ``OUT/pdfs/<id>.pdf`` (PDFium imports the page as it is: the
scan's image, untouched) beside its hand-written tests ``OUT/tests/<id>.jsonl`` (olmOCR-Bench's
layout); ``OUT/manifest.json`` records the pages and their part (dev / frozen).
OUT: ``$REVIEWBENCH_REALSCANS_DIR`` or ``var/realscans``. A source that is missing or not the recorded
bytes is reported and its page left out (the figures say how many pages were measured).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).parent


def realscans_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_REALSCANS_DIR", "var/realscans"))


def corpus_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_ROBUSTNESS_DIR", "var/robustness-corpus"))


def pages() -> list[dict]:
    return yaml.safe_load((HERE / "pages.yaml").read_text())["pages"]


def tests(page_id: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / "tests" / f"{page_id}.jsonl").read_text().splitlines() if line.strip()]


def build(out: Path, corpus: Path) -> dict:
    import pypdfium2 as pdfium

    (out / "pdfs").mkdir(parents=True, exist_ok=True)
    (out / "tests").mkdir(parents=True, exist_ok=True)
    built, missing = [], []
    for entry in pages():
        source = corpus / "pdfs" / f"{entry['sha256'][:16]}.pdf"
        if not source.exists() or hashlib.sha256(source.read_bytes()).hexdigest() != entry["sha256"]:
            missing.append(entry["id"])
            print(f"{entry['id']}: no {entry['repo']}/{entry['path']} with the recorded sha256 at {source}")
            continue
        src = pdfium.PdfDocument(str(source))
        one = pdfium.PdfDocument.new()
        one.import_pages(src, [entry["page"]])
        one.save(str(out / "pdfs" / f"{entry['id']}.pdf"))
        shutil.copyfile(HERE / "tests" / f"{entry['id']}.jsonl", out / "tests" / f"{entry['id']}.jsonl")
        built.append({k: entry[k] for k in ("id", "part", "repo", "commit", "path", "page", "kind")})
    manifest = {"pages": built, "missing": missing, "corpus": str(corpus)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else realscans_dir()
    done = build(target, corpus_dir())
    print(f"{len(done['pages'])} pages into {target}; missing {done['missing']}")
