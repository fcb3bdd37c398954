"""The hand-tested real PDFs not made by pdfTeX (``handmade.yaml``, tests in ``handmade/<id>.jsonl``).

``install(root, src)`` puts each PDF into ``root/pdfs/<id>.pdf`` from ``src/handmade/<id>.pdf`` (a
folder of fetched files; with ``fetch=True`` a missing one is downloaded from GitHub at the recorded
commit), refuses a file whose sha256 is not the recorded one (the tests were written for those
bytes), and copies its tests into ``root/tests/<id>.jsonl``, olmOCR-Bench's layout.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import urllib.parse
import urllib.request
from pathlib import Path

import yaml

HERE = Path(__file__).parent
MANIFEST = HERE / "handmade.yaml"
TESTS = HERE / "handmade"


def documents() -> list[dict]:
    return yaml.safe_load(MANIFEST.read_text())["documents"]


def tests(doc_id: str) -> list[dict]:
    return [json.loads(line) for line in (TESTS / f"{doc_id}.jsonl").read_text().splitlines() if line.strip()]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def install(root: Path, src: Path, fetch: bool = False) -> list[str]:
    """Install every document; returns the ids installed (a missing source is reported, not fatal)."""
    done = []
    for doc in documents():
        source = src / "handmade" / f"{doc['id']}.pdf"
        if not source.exists() and fetch:
            source.parent.mkdir(parents=True, exist_ok=True)
            url = (f"https://raw.githubusercontent.com/{doc['repo']}/{doc['commit']}/"
                   + urllib.parse.quote(doc["path"]))
            with urllib.request.urlopen(url, timeout=120) as response:  # noqa: S310 - a fixed https URL
                source.write_bytes(response.read())
        if not source.exists():
            print(f"{doc['id']}: no PDF at {source} (run with --fetch, or put it there)")
            continue
        if sha256(source) != doc["sha256"]:
            raise ValueError(f"{doc['id']}: {source} is not the recorded document (sha256 differs)")
        (root / "pdfs").mkdir(parents=True, exist_ok=True)
        (root / "tests").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, root / "pdfs" / f"{doc['id']}.pdf")
        shutil.copyfile(TESTS / f"{doc['id']}.jsonl", root / "tests" / f"{doc['id']}.jsonl")
        done.append(doc["id"])
    return done
