"""Build the real-scans set (issue 36): ``python -m benchmarks.fulltext_realscans.build [OUT]``.

``pages.yaml`` names each page (source repository, commit, path, 0-based page, the source file's
sha256); the source PDFs are read from the robustness corpus folder (``$REVIEWBENCH_ROBUSTNESS_DIR``,
default ``var/robustness-corpus``: ``pdfs/<sha256[:16]>.pdf``, built by ``benchmarks.robustness.collect``).
Each page is written as a one-page PDF ``OUT/pdfs/<id>.pdf`` (PDFium imports the page as it is: the
scan's image, untouched) beside its hand-written tests ``OUT/tests/<id>.jsonl`` (olmOCR-Bench's
layout); ``OUT/manifest.json`` records the pages and their part (dev / frozen).
OUT: ``$REVIEWBENCH_REALSCANS_DIR`` or ``var/realscans``. A source that is missing or not the recorded
bytes is reported and its page left out (the figures say how many pages were measured).

A source that is a scanned IMAGE (OCR projects keep their test pages as PNG/TIFF/JPEG, outside the
PDF-only robustness corpus) is read from ``$REVIEWBENCH_REALSCANS_SOURCES`` (default
``var/realscans-sources``: ``<sha256[:16]><suffix>``) and wrapped as a one-page image-only PDF at the
resolution it records (300 dpi when it records none or a screen's 72). That folder is filled from
``fetch``'s mirrors (``<mirrors>/<owner>+<name>/repo``, the recorded commit) by
``python -m benchmarks.fulltext_realscans.build --collect MIRRORS``.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

import yaml

from benchmarks.common import cut_page, has_recorded_bytes

HERE = Path(__file__).parent


def realscans_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_REALSCANS_DIR", "var/realscans"))


def corpus_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_ROBUSTNESS_DIR", "var/robustness-corpus"))


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
LOW_DPI = 100  # under this an image's recorded resolution is a default (72), not the scanner's


def sources_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_REALSCANS_SOURCES", "var/realscans-sources"))


def is_image(entry: dict) -> bool:
    return Path(entry["path"]).suffix.lower() in IMAGE_SUFFIXES


def source_file(entry: dict, corpus: Path, sources: Path) -> Path:
    if is_image(entry):
        return sources / f"{entry['sha256'][:16]}{Path(entry['path']).suffix.lower()}"
    return corpus / "pdfs" / f"{entry['sha256'][:16]}.pdf"


def image_pdf(image_path: Path, out: Path) -> None:
    """One scanned image (its first frame) as a one-page PDF the size the scan was at its resolution."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = None
    with Image.open(image_path) as image:
        image.seek(0)
        dpi = float((image.info.get("dpi") or (0, 0))[0] or 0)
        page = image.convert("L" if image.mode in ("1", "L", "I;16") else "RGB")
        page.save(out, "PDF", resolution=dpi if dpi >= LOW_DPI else 300.0)


def collect(mirrors: Path, sources: Path) -> list[str]:
    """Copy each image source from its repository's mirror (``git show commit:path``) into ``sources``;
    the ids whose source is not there (or not the recorded bytes)."""
    import subprocess

    sources.mkdir(parents=True, exist_ok=True)
    missing = []
    for entry in pages():
        if not is_image(entry):
            continue
        repo = mirrors / entry["repo"].replace("/", "+") / "repo"
        got = subprocess.run(["git", "-C", str(repo), "show", f"{entry['commit']}:{entry['path']}"],
                             capture_output=True)
        if got.returncode != 0 or hashlib.sha256(got.stdout).hexdigest() != entry["sha256"]:
            missing.append(entry["id"])
            continue
        source_file(entry, Path("."), sources).write_bytes(got.stdout)
    return missing


def pages() -> list[dict]:
    return yaml.safe_load((HERE / "pages.yaml").read_text())["pages"]


def tests(page_id: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / "tests" / f"{page_id}.jsonl").read_text().splitlines() if line.strip()]


def build(out: Path, corpus: Path, sources: Path | None = None) -> dict:
    sources = sources_dir() if sources is None else sources
    (out / "pdfs").mkdir(parents=True, exist_ok=True)
    (out / "tests").mkdir(parents=True, exist_ok=True)
    built, missing = [], []
    for entry in pages():
        source = source_file(entry, corpus, sources)
        if not has_recorded_bytes(source, entry["sha256"]):
            missing.append(entry["id"])
            print(f"{entry['id']}: no {entry['repo']}/{entry['path']} with the recorded sha256 at {source}")
            continue
        if is_image(entry):
            image_pdf(source, out / "pdfs" / f"{entry['id']}.pdf")
        else:
            cut_page(source, entry["page"], out / "pdfs" / f"{entry['id']}.pdf")
        shutil.copyfile(HERE / "tests" / f"{entry['id']}.jsonl", out / "tests" / f"{entry['id']}.jsonl")
        built.append({k: entry[k] for k in ("id", "part", "repo", "commit", "path", "page", "kind")})
    manifest = {"pages": built, "missing": missing, "corpus": str(corpus), "sources": str(sources)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


if __name__ == "__main__":
    if sys.argv[1:2] == ["--collect"]:
        lost = collect(Path(sys.argv[2]), sources_dir())
        print(f"image sources into {sources_dir()}; not found {lost}")
        sys.exit(0)
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else realscans_dir()
    done = build(target, corpus_dir())
    print(f"{len(done['pages'])} pages into {target}; missing {done['missing']}")
