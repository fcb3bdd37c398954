"""Assemble the real-paper development set: ``python -m benchmarks.fulltext_real.build [--fetch] [ID..]``.

For each paper of ``papers.yaml`` (status ``ok``) under ``$REVIEWBENCH_REALSET_DIR`` (default
``var/realset``, never committed: the sources and PDFs are the authors', not ours):

* ``--fetch``: ``git clone`` the repository into ``src/<id>`` and check out the recorded commit
  (needs access to github.com);
* typeset ``src/<id>/<main>`` with pdflatex (+ bibtex when the source has a bibliography) into
  ``pdfs/<id>.pdf``; figures the source names but its repository lacks (listed in ``src/<id>/.missing``)
  become grey placeholders, since the tests are about text;
* derive the tests (``derive.py``) into ``pdfs/<id>.tests.json``; an ``absent`` test is kept only
  if the typeset PDF prints its text (a style sets both "Under review" and "Published" heads; only
  the branch taken is furniture on the page).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import yaml

from benchmarks.fulltext_real import derive, handmade, latex, pages  # noqa: F401 - derive: tests patch it

MANIFEST = Path(__file__).with_name("papers.yaml")


def realset_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_REALSET_DIR", "var/realset"))


def papers(only: list[str] | None = None) -> list[dict]:
    entries = yaml.safe_load(MANIFEST.read_text())["papers"]
    return [p for p in entries if p.get("status", "ok") == "ok" and (not only or p["id"] in only)]


def fetch(paper: dict, src: Path) -> None:
    if src.exists():
        return
    subprocess.run(["git", "clone", "--quiet", f"https://github.com/{paper['repo']}.git", str(src)], check=True)
    subprocess.run(["git", "-C", str(src), "checkout", "--quiet", paper["commit"]], check=True)


def _placeholders(src: Path) -> None:
    missing = src / ".missing"
    if not missing.exists():
        return
    from PIL import Image

    formats = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".pdf": "PDF"}
    for rel in missing.read_text().splitlines():
        path = src / rel
        if path.suffix.lower() in formats and not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            Image.new("RGB", (400, 200), (230, 230, 230)).save(path, format=formats[path.suffix.lower()])


def typeset(src: Path, main: str, out: Path, gentounicode: bool = True) -> Path:
    """pdflatex, bibtex if the source cites from a .bib, pdflatex twice (references settle).
    ``nonstopmode`` without ``halt-on-error``: real sources often carry harmless errors (an
    undefined macro in an appendix) and TeX still writes the page; the PDF is what a reader gets.
    ``gentounicode=False`` (papers.yaml ``gentounicode: false``) sets ``\\pdfgentounicode=0`` first,
    as PDFs typeset before LaTeX switched it on are (no ToUnicode on the Type 1 fonts; a style
    that sets it itself still wins, and papers.yaml records what the PDF has)."""
    _placeholders(src)
    tex = src / main
    job = tex.stem
    first = tex.name if gentounicode else f"\\pdfgentounicode=0\\input{{{tex.name}}}"

    def run() -> None:
        subprocess.run(["pdflatex", "-interaction=nonstopmode", first], cwd=tex.parent, capture_output=True,
                       timeout=600)

    run()
    aux = tex.parent / f"{job}.aux"
    if aux.exists() and "\\bibdata" in aux.read_text(errors="replace"):
        subprocess.run(["bibtex", job], cwd=tex.parent, capture_output=True, timeout=120)
    run()
    run()
    pdf = tex.parent / f"{job}.pdf"
    if not pdf.exists():
        raise RuntimeError(f"pdflatex wrote no PDF for {tex}")
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(pdf, out)
    return out


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", text).lower())


def pdf_text(pdf: Path) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def keep_printed(tests: list[dict], printed: str) -> list[dict]:
    """Drop ``absent`` candidates the PDF does not print (letters and digits compared, so line
    breaks and hyphenation do not matter); renumber the ids."""
    letters = _letters(printed)
    kept = [t for t in tests if t["type"] != "absent" or _letters(t["text"]) in letters]
    for i, test in enumerate(kept):
        test["id"] = f"{test['type']}-{i:03d}"
    return kept


def tests_for(paper: dict, src: Path, pdf: Path) -> list[dict]:
    tex = latex.flatten(src / paper["main"])
    styles = [p.read_text(errors="replace") for p in sorted(src.rglob("*.sty"))]
    return pages.paper_tests(paper["id"], tex, styles, pdf)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--fetch", action="store_true", help="git clone missing sources (needs github.com)")
    parser.add_argument("--tests-only", action="store_true", help="derive tests for PDFs already built")
    args = parser.parse_args(argv)
    root = realset_dir()
    failed = 0
    for paper in papers(args.ids):
        src, pdf = root / "src" / paper["id"], root / "pdfs" / f"{paper['id']}.pdf"
        try:
            if args.fetch:
                fetch(paper, src)
            if not args.tests_only or not pdf.exists():
                typeset(src, paper["main"], pdf, paper.get("gentounicode", True))
            tests = tests_for(paper, src, pdf)
        except Exception as exc:  # noqa: BLE001 - one paper's failure is reported, the rest go on
            print(f"{paper['id']}: FAILED {type(exc).__name__}: {exc}")
            failed += 1
            continue
        out = root / "tests" / f"{paper['id']}.jsonl"  # olmOCR-Bench's layout: one test per line
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in tests))
        kinds: dict[str, int] = {}
        for test in tests:
            kinds[test["type"]] = kinds.get(test["type"], 0) + 1
        print(f"{paper['id']}: {len(tests)} tests {kinds}")
    # the hand-tested PDFs not made by pdfTeX: from <src>/handmade/, sha256-checked (handmade.py)
    handmade.install(root, root / "src", fetch=args.fetch)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
