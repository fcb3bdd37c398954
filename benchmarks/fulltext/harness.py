"""The full-text evaluation set and its runner.

``build_set(workdir)`` typesets every ``papers/*.tex`` with ``pdflatex`` (Debian texlive, installed
by ``make system-deps``) in three variants:

* ``digital``: as typeset;
* ``scanned``: every page rendered at 150 dpi (pypdfium2), JPEG, wrapped in a PDF without text;
* ``broken``: typeset again with a ToUnicode map that shifts every letter by one
  (``\\pdfglyphtounicode``: the glyph ``b`` claims to be ``a``), so the text layer reads
  ``Oqnbddchmfr`` where the page shows ``Proceedings``, deterministically.

``convert(engine, pdf)`` runs one of our engines in this process, exactly as a Ray worker does
(``ocr_ray.conversion.convert_pdf``: read, engine, layout step), so pages per second compare with a
single-process peer; the peer pymupdf4llm runs in a virtual environment of its own
(``benchmarks/fulltext_real/peers.py``; AGPL: a benchmark peer, never a dependency).

``verdicts`` judges a document's markdown with olmOCR-Bench's own test classes
(``benchmarks/fulltext_real/olmocr_judge.py``); its ``math`` tests render KaTeX in chromium.
"""
from __future__ import annotations

import io
import json
import shutil
import string
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.common import page_count
from benchmarks.fulltext_real.olmocr_judge import judge

PAPERS = Path(__file__).with_name("papers")
VARIANTS = ("digital", "scanned", "broken")
# The first test types a reader of the corpus notices; the headers/footers and reading-order goals.
CATEGORIES = {"absent": "headers_footers", "order": "reading_order", "present": "text",
              "heading": "headings", "table": "tables", "math": "math"}


@dataclass
class Doc:
    paper: str
    variant: str
    pdf: Path
    tests: list[dict]


def heading_ok(markdown: str, text: str) -> bool:
    """A ``heading`` test, a type olmOCR-Bench does not have: the title is in a markdown heading line
    (after its section number, if the engine keeps one)."""
    return any(text in line for line in markdown.splitlines() if line.startswith("#"))


def verdicts(markdown: str, tests: list[dict]) -> dict[str, bool]:
    """Test id -> passed: olmocr's classes for its types, ``heading_ok`` for headings."""
    out = judge(markdown, [t for t in tests if t["type"] != "heading"])
    out.update({t["id"]: heading_ok(markdown, t["text"]) for t in tests if t["type"] == "heading"})
    return out


def _shift_map() -> str:
    """``\\pdfglyphtounicode`` lines mapping each letter glyph to the previous letter."""
    lines = []
    for alphabet in (string.ascii_lowercase, string.ascii_uppercase):
        for i, ch in enumerate(alphabet):
            lines.append(f"\\pdfglyphtounicode{{{ch}}}{{{ord(alphabet[i - 1]):04X}}}")
    return "".join(lines)


def _pdflatex(tex: Path, outdir: Path, jobname: str) -> Path:
    if shutil.which("pdflatex") is None:
        raise RuntimeError("pdflatex not found: make system-deps installs texlive-latex-base and friends")
    for _ in range(2):  # the second run resolves references
        out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"-jobname={jobname}",
                              f"-output-directory={outdir}", str(tex)], capture_output=True, text=True,
                             cwd=outdir, timeout=300)
        if out.returncode != 0:
            raise RuntimeError(f"pdflatex {tex.name} failed: {out.stdout[-800:]}")
    return outdir / f"{jobname}.pdf"


def scan(src: Path, dst: Path, dpi: int = 150) -> Path:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(src))
    images = []
    for i in range(len(doc)):
        page = doc[i]
        image = page.render(scale=dpi / 72).to_pil().convert("RGB")
        buffer = io.BytesIO()
        image.save(buffer, format="JPEG", quality=85)  # a scan is lossy
        buffer.seek(0)
        from PIL import Image

        images.append(Image.open(buffer))
        page.close()
    doc.close()
    images[0].save(dst, format="PDF", save_all=True, append_images=images[1:], resolution=dpi)
    return dst


def build_set(workdir: Path, papers: list[str] | None = None, variants=VARIANTS) -> list[Doc]:
    workdir.mkdir(parents=True, exist_ok=True)
    docs = []
    for tex in sorted(PAPERS.glob("*.tex")):
        if papers and tex.stem not in papers:
            continue
        tests = json.loads(tex.with_suffix(".tests.json").read_text())
        digital = _pdflatex(tex, workdir, tex.stem)
        built = {"digital": digital}
        if "scanned" in variants:
            built["scanned"] = scan(digital, workdir / f"{tex.stem}_scanned.pdf")
        if "broken" in variants:
            wrapper = workdir / f"{tex.stem}_broken.tex"
            wrapper.write_text("\\pdfgentounicode=1\\AtBeginDocument{" + _shift_map() + "}\\input{" + str(tex) + "}\n")
            built["broken"] = _pdflatex(wrapper, workdir, f"{tex.stem}_broken")
        docs += [Doc(tex.stem, v, built[v], tests) for v in variants]
    return docs


def convert(engine, pdf: Path) -> tuple[str, list[str], str | None]:
    """(markdown, per-page routes, error) of one of our engines, in this process."""
    import pyarrow.fs as pafs

    from ocr_ray.conversion import convert_pdf

    engine.setup()
    row = convert_pdf({"task_index": 0, "forum_id": pdf.stem, "pdf_path": str(pdf.resolve())},
                      filesystem=pafs.LocalFileSystem(), engine=engine)
    return row["markdown"], json.loads(row["engine_pages"]), row["error"] or None


def evaluate(docs: list[Doc], name: str, run) -> dict:
    """Run ``run(pdf) -> markdown`` over ``docs``; pass rates overall, per variant, per category."""
    results, seconds, pages, routes = [], 0.0, 0, []
    speed: dict[str, list[float]] = {}  # variant -> [pages, seconds]
    for doc in docs:
        started = time.perf_counter()
        out = run(doc.pdf)
        took = time.perf_counter() - started
        seconds += took
        markdown, page_routes = out if isinstance(out, tuple) else (out, [])
        routes += page_routes
        pages += page_count(doc.pdf)
        spent = speed.setdefault(doc.variant, [0, 0.0])
        spent[0] += page_count(doc.pdf)
        spent[1] += took
        for test_id, ok in verdicts(markdown, doc.tests).items():
            kind = next(t["type"] for t in doc.tests if t["id"] == test_id)
            results.append((doc.paper, doc.variant, CATEGORIES[kind], ok))

    def rate(rows) -> float | None:
        rows = list(rows)
        return round(sum(r[3] for r in rows) / len(rows), 4) if rows else None

    return {
        "engine": name, "pass_rate": rate(results), "tests": len(results), "passed": sum(r[3] for r in results),
        "pages": pages, "seconds": round(seconds, 3), "pages_per_s": round(pages / seconds, 2) if seconds else None,
        "by_variant": {v: rate(r for r in results if r[1] == v) for v in sorted({r[1] for r in results})},
        "pages_per_s_by_variant": {v: round(p / s, 2) if s else None for v, (p, s) in sorted(speed.items())},
        "by_category": {c: rate(r for r in results if r[2] == c) for c in sorted({r[2] for r in results})},
        "routes": dict(sorted(__import__("collections").Counter(routes).items())),
    }
