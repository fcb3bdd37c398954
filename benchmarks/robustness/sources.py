"""Where the robustness corpus comes from: public PDF libraries' own test corpora, read from bare git
mirrors (``<mirrors>/<owner>+<name>/repo``: ``git clone --mirror`` makes one; ``$REVIEWBENCH_MIRRORS_DIR``
or ``--mirrors DIR``), and any local folder of PDFs.

Nobody here chose these PDFs to suit the engine: they are what PDF parsers' maintainers keep to
break parsers (pdf.js's bug reports, qpdf's and pdfbox's damaged files, veraPDF's conformance
suite) and what extraction libraries test on (papers, forms, tables, scans).
"""
from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

# (repo, folder prefix or "" for the whole tree, cap on PDFs taken): the cap keeps one big suite
# (itext's 6,300 comparison files, veraPDF's 2,700 one-page conformance files, all from one
# producer each) from outweighing the others; which ones are taken is fixed by their blob ids.
SOURCES: tuple[tuple[str, str, int | None], ...] = (
    ("mozilla/pdf.js", "test/pdfs/", None),
    ("py-pdf/sample-files", "", None),
    ("pdfminer/pdfminer.six", "", None),
    ("pymupdf/PyMuPDF", "tests/", None),
    ("py-pdf/pypdf", "", None),
    ("jsvine/pdfplumber", "", None),
    ("qpdf/qpdf", "", 300),
    ("pikepdf/pikepdf", "", None),
    ("camelot-dev/camelot", "", None),
    ("DS4SD/docling", "", None),
    ("veraPDF/veraPDF-corpus", "", 300),
    ("apache/pdfbox", "", None),
    ("chromium/pdfium", "testing/", None),
    ("kermitt2/grobid", "", None),
    ("CeON/CERMINE", "", None),
    ("opendatalab/MinerU", "", None),
    ("Unstructured-IO/unstructured", "", None),
    ("itext/itext-java", "", 300),
    ("allenai/olmocr", "", None),
    ("pdfcpu/pdfcpu", "", 300),
    ("ocrmypdf/OCRmyPDF", "", None),
    ("tabulapdf/tabula-java", "", None),
    ("allenai/pdffigures2", "", None),
    ("Hopding/pdf-lib", "", None),
)
MIRRORS = Path(os.environ.get("REVIEWBENCH_MIRRORS_DIR", "var/mirrors"))


@dataclass(frozen=True)
class Found:
    source: str  # owner/name, or "local:<folder>"
    path: str  # inside the repository or folder
    commit: str  # the mirror's HEAD ("" for a local folder)
    data: bytes


def mirror_dir(root: Path, repo: str) -> Path:
    return root / repo.replace("/", "+") / "repo"


def _git(git_dir: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], input=data, capture_output=True,
                          check=True).stdout


def from_mirror(root: Path, repo: str, prefix: str = "", cap: int | None = None) -> Iterator[Found]:
    """The ``.pdf`` files of a mirror's HEAD under ``prefix`` whose blobs are present (a snapshot may
    lack its largest files; pdf.js's ``.link`` files name URLs and are skipped)."""
    git_dir = mirror_dir(root, repo)
    if not git_dir.exists():
        return
    commit = _git(git_dir, "rev-parse", "HEAD").decode().strip()
    listing = []
    for line in _git(git_dir, "ls-tree", "-r", "HEAD").decode(errors="replace").splitlines():
        meta, path = line.split("\t", 1)
        _, kind, blob = meta.split()
        if kind == "blob" and path.lower().endswith(".pdf") and path.startswith(prefix):
            listing.append((blob, path))
    present = _git(git_dir, "cat-file", "--batch-check",
                   data="".join(f"{blob}\n" for blob, _ in listing).encode()).decode().splitlines()
    listing = [item for item, check in zip(listing, present, strict=False) if not check.endswith("missing")]
    for blob, path in sorted(listing)[:cap]:
        yield Found(repo, path, commit, _git(git_dir, "cat-file", "blob", blob))


def from_folder(folder: Path) -> Iterator[Found]:
    """Every ``*.pdf`` under a local folder (any depth)."""
    for pdf in sorted(folder.rglob("*")):
        if pdf.is_file() and pdf.suffix.lower() == ".pdf":
            yield Found(f"local:{folder.name}", str(pdf.relative_to(folder)), "", pdf.read_bytes())


def from_mirrors(root: Path = MIRRORS) -> Iterator[Found]:
    for repo, prefix, cap in SOURCES:
        yield from from_mirror(root, repo, prefix, cap)
