"""Convert every PDF of the robustness corpus (and its fuzzed variants) through the production path,
one PDF per pool worker with a hard timeout: ``python -m benchmarks.robustness.run [--dir DIR]
[--workers 2] [--no-ocr] [--fuzz N] [--limit N] [--label NAME]``.

``--no-ocr`` reads every PDF without the OCR fallback (OCR costs seconds a page on a loaded CPU),
then reads again, with it, the papers that came out empty though PDFium's text layer has letters:
the papers lost (``lost``) are then production's. Papers with no letter in the text layer (scans,
drawings) are not OCR'd by this run: they count as ``without_text``, never as lost.

Results go to ``<dir>/runs/<label>.jsonl`` (one line per PDF, appended as they finish: a run that
is stopped resumes where it was); ``--summary`` prints the figures of a run without converting.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from benchmarks.robustness.collect import corpus_dir, load_manifest
from benchmarks.robustness.convert import EMPTY, convert_one
from benchmarks.robustness.fuzz import fuzz_one, plan
from benchmarks.robustness.pool import run_pool

# A hung PDF is one past this: generous for a page OCR'd on a loaded 2-core machine, and for a
# font sample of 57,000 glyphs on one page (pdfcpu's Unifont sample: 46 s, most of it in order.xy_cut).
BASE_TIMEOUT, PAGE_TIMEOUT = 180.0, 6.0


def timeout(pages: int | None) -> float:
    return BASE_TIMEOUT + PAGE_TIMEOUT * min(pages or 1, 2000)


def corpus_jobs(root: Path, entries: list[dict], ocr: bool):
    for e in entries:
        yield e["id"], {"path": str(root / e["file"]), "ocr": ocr, "baseline": True}, timeout(e.get("pages"))


def fuzz_jobs(root: Path, entries: list[dict], count: int, per_pdf: int, ocr: bool):
    (root / "fuzz").mkdir(exist_ok=True)
    for e, kind, seed in plan(entries, count, per_pdf):
        key = f"{e['id']}-{kind}-{seed}"
        yield key, {"src": str(root / e["file"]), "path": str(root / "fuzz" / f"{key}.pdf"), "kind": kind,
                    "seed": seed, "name": e["sha256"], "ocr": ocr}, timeout(e.get("pages"))


def load_run(path: Path) -> dict[str, dict]:
    if not path.exists():
        return {}
    rows = {r["key"]: r for r in map(json.loads, path.read_text().splitlines()) if r.get("key")}
    for r in rows.values():  # production read every page and found no text: empty, whatever a re-run says
        # (an error "" without markdown: every page blank, an empty paper; runs before 2026-11-28 23:40
        # called those refused when the download check refused the file's header or end marker)
        if r["kind"] != "ok" and ((r.get("error") or "").startswith(EMPTY) or r.get("error") == ""):
            r["kind"] = "empty"
    return rows


def execute(jobs, fn, out: Path, workers: int, done: dict[str, dict]) -> None:
    todo = [job for job in jobs if job[0] not in done]
    print(f"{len(done)} done, {len(todo)} to go -> {out}", flush=True)
    with out.open("a") as handle:
        for n, res in enumerate(run_pool(fn, todo, workers=workers), 1):
            row = {"key": res.key, "wall": round(res.seconds, 3)}
            if res.outcome == "ok":
                row.update(res.value)
            else:  # timeout, crash, or convert_one itself raised (an exception out of the paper)
                row.update(kind="exception" if res.outcome == "error" else res.outcome, detail=res.detail[-1500:])
            handle.write(json.dumps(row, sort_keys=True) + "\n")
            handle.flush()
            done[res.key] = row
            if row["kind"] not in ("ok", "refused", "empty") or n % 200 == 0:
                print(n, row["key"], row["kind"], row.get("exc", ""), row.get("where", ""),
                      row.get("detail", "")[-200:], flush=True)


def failure_classes(rows: list[dict]) -> Counter:
    """Exceptions by type and innermost frame, hangs, crashes; and fell-back blocks by detail."""
    out: Counter = Counter()
    for r in rows:
        if r["kind"] == "exception":
            out[f"exception {r.get('exc', '?')} at {r.get('where', '?')}"] += 1
        elif r["kind"] in ("timeout", "crash"):
            out[r["kind"]] += 1
        for f in r.get("fallbacks") or []:
            out[f"fallback {f['rule']}:{f['reason']} {f['detail'][:80]}"] += 1
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def lost(rows: list[dict]) -> list[dict]:
    """Papers with a readable PDF (PDFium opens it and renders a page) and no markdown; a hang or a
    crash counts (the paper is lost). Not counted: a PDF with no letter in PDFium's text layer that
    came out empty (a drawing, a blank form, a scan not OCR'd by a ``--no-ocr`` run), see
    ``without_text``."""
    return [r for r in rows if r["kind"] != "ok" and not without_text(r)
            and (r.get("readable") or r["kind"] in ("timeout", "crash"))]


def without_text(row: dict) -> bool:
    return row["kind"] == "empty" and not row.get("text_layer")


def summarize(corpus: list[dict], fuzzed: list[dict], timed: list[dict] | None = None) -> dict:
    """The figures of a run; seconds per page from ``timed`` (default ``corpus``): the reading of
    every PDF without OCR, so that two runs time the same work whichever papers OCR rescued."""
    ok = [r for r in corpus if r["kind"] == "ok" and r.get("pages")]
    timed_ok = [r for r in (corpus if timed is None else timed) if r["kind"] == "ok" and r.get("pages")]
    blocks = sum(r.get("blocks", 0) for r in ok)
    by_rule: Counter = Counter()
    for r in ok:
        for key, n in (r.get("degraded") or {}).items():
            by_rule[key.split(":", 1)[0]] += n
    return {
        "pdfs": len(corpus), "pages": sum(r.get("pages") or 0 for r in ok), "converted": len(ok),
        "kinds": dict(Counter(r["kind"] for r in corpus)),
        "lost": len(lost(corpus)), "lost_by_kind": dict(Counter(r["kind"] for r in lost(corpus))),
        "lost_keys": [r["key"] for r in lost(corpus)][:50], "without_text": sum(map(without_text, corpus)),
        "blocks": blocks, "degraded_blocks": sum(by_rule.values()), "degraded_by_rule": dict(by_rule),
        "seconds_per_page_p99": percentile([r["seconds"] / r["pages"] for r in timed_ok], 0.99),
        "raw_seconds_per_page_p99": percentile([r["raw_seconds"] / r["pages"] for r in timed_ok if "raw_seconds" in r],
                                               0.99),
        "timed_pdfs": len(timed_ok),
        "fuzz_variants": len(fuzzed), "fuzz_kinds": dict(Counter(r["kind"] for r in fuzzed)),
        "fuzz_exceptions": sum(r["kind"] in ("exception", "crash") for r in fuzzed),
        "fuzz_crashes": sum(r["kind"] == "crash" for r in fuzzed),
        "fuzz_hangs": sum(r["kind"] == "timeout" for r in fuzzed),
        "fuzz_lost": len(lost(fuzzed)),
        "classes": dict(failure_classes(corpus + fuzzed).most_common(40)),
    }


def run_corpus(root: Path, label: str, *, workers: int = 2, ocr: bool = False, limit: int = 0,
               fuzz: int = 0, only_fuzz: bool = False, convert: bool = True) -> dict:
    """Convert the corpus at ``root`` (resuming ``runs/<label>*.jsonl``) and return ``summarize``'s figures.
    Without ``ocr``, the papers that came out empty are read again with it (production's reading)."""
    import ocr_ray.conversion  # noqa: F401 - imported once here: every forked worker runs this code
    import ocr_ray.engines  # noqa: F401

    entries = sorted(load_manifest(root), key=lambda e: e["sha256"])[: limit or None]
    runs = root / "runs"
    runs.mkdir(exist_ok=True)
    corpus_out, fuzz_out, ocr_out = (runs / f"{label}{tail}.jsonl" for tail in ("", "-fuzz", "-ocr"))
    corpus, fuzzed, with_ocr = load_run(corpus_out), load_run(fuzz_out), load_run(ocr_out)
    if convert and not only_fuzz:
        execute(corpus_jobs(root, entries, ocr), convert_one, corpus_out, workers, corpus)
        if not ocr:  # as production reads them: OCR where the text layer's text came out as nothing
            empty = [e for e in entries if corpus.get(e["id"], {}).get("kind") == "empty"
                     and corpus[e["id"]].get("text_layer")]
            execute(corpus_jobs(root, empty, True), convert_one, ocr_out, workers, with_ocr)
    if convert and fuzz:
        execute(fuzz_jobs(root, entries, fuzz, 5, ocr), fuzz_one, fuzz_out, workers, fuzzed)
    keys = {e["id"] for e in entries}
    merged = {k: r for k, r in {**corpus, **with_ocr}.items() if k in keys}
    return summarize(list(merged.values()), list(fuzzed.values()), [r for k, r in corpus.items() if k in keys])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=corpus_dir())
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-ocr", action="store_true", help="no OCR of pages without a usable text layer")
    ap.add_argument("--limit", type=int, default=0, help="only the first N PDFs of the manifest (by sha256)")
    ap.add_argument("--fuzz", type=int, default=0, help="fuzz N PDFs of the corpus (5 variants each)")
    ap.add_argument("--only-fuzz", action="store_true")
    ap.add_argument("--label", default="run")
    ap.add_argument("--summary", action="store_true", help="print the figures of the run, convert nothing")
    ap.add_argument("--record", metavar="COMMIT", help="append the run's figures to benchmarks/results.jsonl, "
                    "as measured at COMMIT (the code the run converted with)")
    args = ap.parse_args(argv)
    if not load_manifest(args.dir):
        print(f"no manifest in {args.dir}: build it with python -m benchmarks.robustness.collect", file=sys.stderr)
        return 2
    summary = run_corpus(args.dir, args.label, workers=args.workers, ocr=not args.no_ocr, limit=args.limit,
                         fuzz=args.fuzz, only_fuzz=args.only_fuzz, convert=not args.summary)
    print(json.dumps(summary, indent=1))
    if args.record:
        from benchmarks.common import record
        from benchmarks.robustness.collect import summary as per_source
        from benchmarks.robustness.figures import figures

        record(figures(summary, per_source(load_manifest(args.dir)),
                       commit=args.record, run=args.label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
