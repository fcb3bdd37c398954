"""Build the real-world table set (issue 36): ``python -m benchmarks.fulltext_tables_world.build``.

``manifest.yaml`` names each page (source repository, commit, path, 0-based page, the source file's
sha256, the truth file it was derived from). The source PDFs are read from the folder
``$REVIEWBENCH_TABLESWORLD_DIR`` (default ``var/tablesworld``), under ``sources/<sha256[:16]>.pdf``
(``collect`` puts them there from a checkout of the source repository). Each page is written as a
one-page PDF ``<DIR>/set/pdfs/<id>.pdf`` beside its tests ``<DIR>/set/tests/<id>.jsonl``
(olmOCR-Bench's layout); ``<DIR>/set/manifest.json`` records the pages and their part (dev / frozen).
A source that is missing or not the recorded bytes is reported and its page left out.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import yaml

from benchmarks.common import cut_page, has_recorded_bytes

HERE = Path(__file__).parent


def tablesworld_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_TABLESWORLD_DIR", "var/tablesworld"))


def pages() -> list[dict]:
    return yaml.safe_load((HERE / "manifest.yaml").read_text(encoding="utf-8"))["pages"]


def tests(page_id: str) -> list[dict]:
    text = (HERE / "tests" / f"{page_id}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def collect(checkout: Path, folder: Path) -> int:
    """Copy each manifest source from a checkout of its repository (``checkout/<owner>+<name>/<path>``)
    into ``folder/sources`` under its sha256; returns how many were found with the recorded bytes."""
    (folder / "sources").mkdir(parents=True, exist_ok=True)
    found = 0
    for entry in pages():
        source = checkout / entry["repo"].replace("/", "+") / entry["path"]
        if has_recorded_bytes(source, entry["sha256"]):
            shutil.copyfile(source, folder / "sources" / f"{entry['sha256'][:16]}.pdf")
            found += 1
    return found


def build(folder: Path) -> dict:
    out = folder / "set"
    (out / "pdfs").mkdir(parents=True, exist_ok=True)
    (out / "tests").mkdir(parents=True, exist_ok=True)
    built, missing = [], []
    for entry in pages():
        source = folder / "sources" / f"{entry['sha256'][:16]}.pdf"
        if not has_recorded_bytes(source, entry["sha256"]):
            missing.append(entry["id"])
            print(f"{entry['id']}: no {entry['repo']}/{entry['path']} with the recorded sha256 at {source}")
            continue
        cut_page(source, entry["page"], out / "pdfs" / f"{entry['id']}.pdf")
        shutil.copyfile(HERE / "tests" / f"{entry['id']}.jsonl", out / "tests" / f"{entry['id']}.jsonl")
        built.append({k: entry[k] for k in ("id", "part", "repo", "commit", "path", "page")})
    manifest = {"pages": built, "missing": missing, "sources": str(folder / "sources")}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


if __name__ == "__main__":
    done = build(tablesworld_dir())
    print(f"{len(done['pages'])} pages into {tablesworld_dir() / 'set'}; missing {done['missing']}")
