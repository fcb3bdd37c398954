"""Build the robustness corpus folder: ``python -m benchmarks.robustness.collect [--out DIR]
[--mirrors DIR | --from DIR ...]``.

The folder (default ``$REVIEWBENCH_ROBUSTNESS_DIR`` or ``var/robustness-corpus``, never committed)
holds ``pdfs/<sha256[:16]>.pdf`` and ``manifest.jsonl``: one line per distinct PDF with its source
(repository or local folder), path, commit, sha256, bytes, pages and producer as PDFium reads them
(``pages`` is null where PDFium cannot open the file: kept, it is a robustness case too). The same
bytes found twice are kept once (``also`` lists the other places).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

from benchmarks.robustness.pool import run_pool
from benchmarks.robustness.sources import MIRRORS, from_folder, from_mirrors

DEFAULT_DIR = Path("var/robustness-corpus")


def corpus_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_ROBUSTNESS_DIR", str(DEFAULT_DIR)))


def describe(path: str) -> dict:
    """Pages, producer and creator of one PDF as PDFium reads it (in a pool worker: PDFium may
    crash or hang on these files)."""
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        return {"pages": None, "producer": None, "creator": None, "open_error": str(exc)[:200]}
    try:
        meta = doc.get_metadata_dict(skip_empty=True)
        return {"pages": len(doc), "producer": meta.get("Producer"), "creator": meta.get("Creator")}
    finally:
        doc.close()


def load_manifest(root: Path) -> list[dict]:
    path = root / "manifest.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def collect(out: Path, found, workers: int = 2) -> list[dict]:
    """Write the PDFs of ``found`` (``sources.Found``) and the manifest; returns its entries."""
    (out / "pdfs").mkdir(parents=True, exist_ok=True)
    entries: dict[str, dict] = {}
    for item in found:
        sha = hashlib.sha256(item.data).hexdigest()
        if sha in entries:
            entries[sha].setdefault("also", []).append(f"{item.source}:{item.path}")
            continue
        name = f"{sha[:16]}.pdf"
        target = out / "pdfs" / name
        if not target.exists():
            target.write_bytes(item.data)
        entries[sha] = {"id": sha[:16], "file": f"pdfs/{name}", "source": item.source, "path": item.path,
                        "commit": item.commit, "sha256": sha, "bytes": len(item.data)}
    jobs = ((sha, str(out / e["file"]), 30.0) for sha, e in entries.items())
    for res in run_pool(describe, jobs, workers=workers):
        info = res.value if res.outcome == "ok" else {"pages": None, "producer": None, "creator": None,
                                                        "open_error": f"{res.outcome}: {res.detail}"[:200]}
        entries[res.key].update(info)
    rows = sorted(entries.values(), key=lambda e: (e["source"], e["path"]))
    tmp = out / "manifest.jsonl.tmp"
    tmp.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    tmp.replace(out / "manifest.jsonl")
    return rows


def summary(rows: list[dict]) -> dict[str, dict[str, int]]:
    """PDFs and pages per source."""
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        s = out.setdefault(r["source"], {"pdfs": 0, "pages": 0})
        s["pdfs"] += 1
        s["pages"] += r.get("pages") or 0
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=corpus_dir())
    ap.add_argument("--mirrors", type=Path, default=MIRRORS, help="folder of bare git mirrors")
    ap.add_argument("--from", dest="folders", type=Path, action="append", default=[],
                    help="a local folder of PDFs (repeatable); with it, mirrors are not read")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    if not args.folders and not args.mirrors.is_dir():
        print(f"no mirrors at {args.mirrors}: pass --mirrors DIR (bare git mirrors, <owner>+<name>/repo) or "
              "set REVIEWBENCH_MIRRORS_DIR, or take local PDFs with --from DIR", file=sys.stderr)
        return 2

    def found():
        if args.folders:
            for folder in args.folders:
                yield from from_folder(folder)
        else:
            yield from from_mirrors(args.mirrors)

    rows = collect(args.out, found(), args.workers)
    per = summary(rows)
    for source, s in sorted(per.items()):
        print(f"{source:40s} {s['pdfs']:6d} PDFs {s['pages']:7d} pages")
    print(f"{'total':40s} {len(rows):6d} PDFs {sum(s['pages'] for s in per.values()):7d} pages -> {args.out}")
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
