"""Full text on real papers (issue 27 item 4): the default engine beside pymupdf4llm, same run,
scored by olmOCR-Bench's own code (``fulltext_real/olmocr_bench.py``), nothing of ours.

The set: ``$REVIEWBENCH_REALSET_DIR`` (default ``var/realset``, never committed) in olmOCR-Bench's
layout: ``pdfs/<id>.pdf`` and ``tests/<id>.jsonl`` (``docs/fulltext-benchmark.md``), built by
``python -m benchmarks.fulltext_real.build --fetch`` or ``--from DIR``. Without it this bench says so
and records nothing.

Two parts (issue 36 item 4; ``part`` in papers.yaml / handmade.yaml, split once by a fixed rule):
the FROZEN part's figures carry the plain names below and are the ones goals are judged on; the
development part's carry ``fulltext_real_dev_`` instead of ``fulltext_real_`` (a rule is tuned on
those only). Speed figures are over the whole set.

* ``fulltext_real_pass_rate_<engine>``: share of the frozen part's tests olmocr passes (value); baseline =
  the stronger pymupdf4llm release's share in the same run (``baseline_engine`` names it);
  ``olmocr_score`` = olmocr's own headline (mean of per-file rates). ``..._<type>`` per test type.
  Engines: ``text-layer`` (the default) and ``pymupdf4llm-<release>`` for each of ``peers.RELEASES``.
* ``fulltext_real_pages_per_s_<engine>``: pages per second through the ``paper_markdown`` asset's
  stage (``stages.paper_text.MarkdownStage``: local store, Ray started as the asset starts it, all
  cores) on ``SPEED_PDFS`` PDF keys (the set's PDFs repeated round-robin under distinct forum ids);
  baseline = the stronger peer's pages/s over the same PDF list (its first ``PEER_SPEED_PDFS``), in
  one process as it runs.
  The text-layer's pass rates are scored on the markdown of this same run (the first key of each PDF).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.common import figure, page_count
from benchmarks.fulltext_real import build, handmade, olmocr_bench, peers

DEFAULT_ENGINE = "text-layer"
RAW = "raw-text-layer"
TYPES = ("present", "absent", "order", "table", "math", "baseline")
SPEED_PDFS = int(os.environ.get("BENCH_FULLTEXT_REAL_SPEED_PDFS", "200"))
# The peer converts one PDF after another in one process, so its pages/s on the first N keys of the
# same round-robin list is its pages/s on the whole list, up to noise; a shorter list is allowed for
# a loaded machine (the figure's `pdfs` says how many were timed).
PEER_SPEED_PDFS = int(os.environ.get("BENCH_FULLTEXT_REAL_PEER_SPEED_PDFS", str(SPEED_PDFS)))
PK = "bench-2026"
CONCURRENT = os.environ.get("BENCH_FULLTEXT_REAL_CONCURRENT") == "1"
LAST_RUN = Path(os.environ.get("BENCH_FULLTEXT_REAL_LAST_RUN", "var/bench-fulltext-real-last.json"))


def realset_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_REALSET_DIR", "var/realset"))


def load_set(root: Path) -> list[tuple[str, Path]]:
    """(id, pdf) of every PDF that has a test file."""
    return [(t.stem, root / "pdfs" / f"{t.stem}.pdf") for t in sorted((root / "tests").glob("*.jsonl"))
            if (root / "pdfs" / f"{t.stem}.pdf").exists()]


def parts_of(docs: list[tuple[str, Path]]) -> dict[str, list[str]]:
    """part -> ids of the set's documents, as the manifests record them (a document in neither: dev)."""
    recorded = {e["id"]: build.part_of(e) for e in build.papers() + handmade.documents()}
    out: dict[str, list[str]] = {"frozen": [], "dev": []}
    for stem, _ in docs:
        out[recorded.get(stem, "dev")].append(stem)
    return out


def set_digest(docs: list[tuple[str, Path]]) -> str:
    """One sha256 over the set's PDFs (id and bytes): two figures with the same digest measured the same documents."""
    h = hashlib.sha256()
    for stem, pdf in docs:
        h.update(stem.encode() + b"\0" + hashlib.sha256(pdf.read_bytes()).digest())
    return h.hexdigest()


def round_robin(docs: list[tuple[str, Path]], n: int) -> list[tuple[str, str, Path]]:
    """(key, id, pdf): the set's PDFs repeated under distinct keys until there are ``max(n, len(docs))``."""
    count = max(n, len(docs))
    return [(f"{docs[i % len(docs)][0]}~{i // len(docs)}", *docs[i % len(docs)]) for i in range(count)]


def through_paper_markdown(keys: list[tuple[str, str, Path]], engine_name: str = DEFAULT_ENGINE) -> dict:
    """The ``paper_markdown`` asset's stage on ``keys`` as a user runs it (local store, local Ray on all
    cores); pages/s is the stage's own figure (its clock includes Ray's start). Returns the pages per
    PDF id (first key of each) and the speed."""
    from ocr_ray.engines import get_engine
    from resources.store import store_from_uri
    from reviewbench_assets.io.layout import paths
    from reviewbench_assets.stages.paper_text import MarkdownStage
    from reviewbench_assets.stages.pdf_stage import records_table

    engine = get_engine(engine_name)
    engine.check_available()
    with tempfile.TemporaryDirectory(prefix="bench-fulltext-real-") as tmp:
        store = store_from_uri(tmp)
        shas = {stem: store.put_pdf(pdf.read_bytes())[0] for _, stem, pdf in keys}
        records = [{"forum_id": key, "rule": "initial", "pdf_sha256": shas[stem], "error": None} for key, stem, _ in keys]
        store.write_parquet(store.path(paths.submissions(PK)), records_table(records))
        r = MarkdownStage(PK, engine)(store).figures
        rows = {row["forum_id"]: row for row in store.read_parquet(r["path"]).to_pylist()}
    first = {}
    for key, stem, _ in keys:
        if stem not in first:
            row = rows[key]
            # a PDF the engine refused (a cap, an error) has no pages: an empty page each, so its tests
            # fail, instead of olmocr rejecting the engine's whole candidate for a missing file
            pages = row["num_pages"] or page_count(next(pdf for k, _, pdf in keys if k == key))
            first[stem] = olmocr_bench.split_pages(row["markdown"] or "", pages)
    return {"pages": first, "pages_ocrd": r["pages_ocrd"], "seconds": r["ocr_s"], "pdfs": r["papers_ocrd"],
            "pages_per_s": round(r["pages_ocrd"] / r["ocr_s"], 2) if r["ocr_s"] else None,
            "errors": r["papers_with_errors"].rows[:5]}


def raw_text_layer(docs: list[tuple[str, Path]]) -> dict:
    """pypdfium2's text of each page, no layout step: the reference for "no present/order loss
    against the raw text layer" (pass rates only; its speed is not a user's path)."""
    import pypdfium2 as pdfium

    pages = {}
    for stem, pdf in docs:
        doc = pdfium.PdfDocument(str(pdf))
        try:
            pages[stem] = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
        finally:
            doc.close()
    return {"pages": pages}


def peer_run(release: str, keys: list[tuple[str, str, Path]]) -> dict:
    out = peers.run(peers.ensure(release), [pdf for _, _, pdf in keys])
    first, pages, seconds = {}, 0, 0.0
    for (_, stem, _), result in zip(keys, out, strict=True):
        first.setdefault(stem, result["pages"])
        pages += len(result["pages"])
        seconds += result["seconds"]
    return {"pages": first, "pages_ocrd": pages, "seconds": round(seconds, 3), "pdfs": len(out),
            "pages_per_s": round(pages / seconds, 2) if seconds else None}


def run() -> list[dict]:
    root = realset_dir()
    docs = load_set(root)
    if not docs:
        print(f"fulltext_real: no real-paper set at {root} (REVIEWBENCH_REALSET_DIR): nothing measured. Build it "
              "with `python -m benchmarks.fulltext_real.build --fetch` (needs github.com) or `--from DIR`; "
              "see docs/fulltext-benchmark.md.")
        return []
    keys = round_robin(docs, SPEED_PDFS)
    distinct = round_robin(docs, 0)
    runs, skipped = {}, {}
    # Every peer release on the distinct PDFs (its pass rates). By default one after another, after
    # ours (clean timings); CONCURRENT runs them in threads beside ours (a loaded shared machine: the
    # figures then say so, their pages/s measured under each other's load).
    with ThreadPoolExecutor(max_workers=len(peers.RELEASES) if CONCURRENT else 1) as pool:
        started = {release: pool.submit(peer_run, release, distinct) for release in peers.RELEASES} if CONCURRENT else {}
        runs[DEFAULT_ENGINE], runs[RAW] = through_paper_markdown(keys), raw_text_layer(docs)
        for release in peers.RELEASES:
            try:
                runs[peers.name(release)] = started[release].result() if CONCURRENT else peer_run(release, distinct)
            except Exception as exc:  # noqa: BLE001 - e.g. no PyPI access: the figures say the peer is missing
                skipped[peers.name(release)] = f"{type(exc).__name__}: {exc}"
    verdicts = olmocr_bench.score(root, {name: r["pages"] for name, r in runs.items()})
    parts = parts_of(docs)
    scored_by_part = {part: {name: olmocr_bench.rates([t for t in v["tests"] if Path(t["pdf"]).stem in ids], TYPES)
                             for name, v in verdicts.items()} for part, ids in parts.items()}
    scored = scored_by_part["frozen"]
    peer_names = [n for n in scored if n not in (DEFAULT_ENGINE, RAW)]
    # the stronger peer release on the frozen part (the whole set when the frozen part is empty)
    whole = {name: olmocr_bench.rates(v["tests"], TYPES) for name, v in verdicts.items()}
    best = max(peer_names, key=lambda n: (scored[n]["pass_rate"] or whole[n]["pass_rate"] or 0.0)) if peer_names else None
    if best:  # the stronger release's speed over the same PDF list as ours
        release = best.removeprefix("pymupdf4llm-")
        timed = keys[:max(PEER_SPEED_PDFS, len(distinct))]
        speed = peer_run(release, timed) if len(timed) > len(distinct) else runs[best]
        runs[best] = {**runs[best], **{k: speed[k] for k in ("pages_ocrd", "seconds", "pdfs", "pages_per_s")}}
    LAST_RUN.parent.mkdir(parents=True, exist_ok=True)  # every page and verdict, to read a figure's failures
    LAST_RUN.write_text(json.dumps({"runs": runs, "verdicts": verdicts, "best": best, "skipped": skipped,
                                    "parts": parts}))
    out = []
    for part, prefix in (("frozen", "fulltext_real_"), ("dev", "fulltext_real_dev_")):
        part_docs = [d for d in docs if d[0] in parts[part]]
        if part_docs:
            out += figures(part_docs, runs, scored_by_part[part], verdicts, best, skipped, prefix, part,
                           speed=part == "frozen")
    return out


def figures(docs, runs: dict, scored: dict, verdicts: dict, best: str | None, skipped: dict,
            prefix: str = "fulltext_real_", part: str = "frozen", speed: bool = True) -> list[dict]:
    peer = scored.get(best) if best else None
    digest = set_digest(docs)
    pages = sum(len(runs[DEFAULT_ENGINE]["pages"][stem]) for stem, _ in docs)
    set_note = f"{part} part: {len(docs)} documents ({pages} pages), sha256 {digest[:16]}"
    out = []
    for name, r in scored.items():
        common = {"set": set_note, "part": part, "set_sha256": digest, "scorer": olmocr_bench.OLMOCR_PIN,
                  "baseline_engine": best, "skipped": skipped or None, "scorer_errors": verdicts[name]["errors"][:5] or None}
        extra = {**common, "tests": r["tests"], "passed": r["passed"], "olmocr_score": r["olmocr_score"],
                 "by_type": r["by_type"], "tests_by_type": r["tests_by_type"], "by_paper": r["by_paper"]}
        if name == DEFAULT_ENGINE and peer:
            extra["goal"] = ">= 0.97 overall; every type >= the peer's; absent >= 0.90; pages/s >= 10x"
            extra["goal_met"] = (r["pass_rate"] >= 0.97 and (r["by_type"]["absent"] or 0) >= 0.90 and all(
                (r["by_type"][k] or 0) >= peer["by_type"][k] for k in TYPES if peer["by_type"][k] is not None))
        # value = share of the set's tests olmocr passes; baseline = the stronger peer's share, same run
        out.append(figure(f"{prefix}pass_rate_{name}", r["pass_rate"], "share of tests",
                          peer["pass_rate"] if peer else None, **extra))
        for kind in TYPES:
            if r["by_type"][kind] is None:
                continue
            # value = share of this type's tests passed; baseline = the stronger peer's share of the same tests
            out.append(figure(f"{prefix}pass_rate_{name}_{kind}", r["by_type"][kind], "share of tests",
                              peer["by_type"][kind] if peer else None, test_type=kind,
                              tests=r["tests_by_type"][kind], **common))
        run = runs[name]
        if "pages_per_s" not in run or not speed:  # speed: over the whole set, recorded once
            continue
        note = ("paper_markdown's stage (MarkdownStage): local store, local Ray on all cores, Ray's start in the clock"
                if name == DEFAULT_ENGINE else "one process, as the peer runs; imports and layout model loaded before the clock")
        # value = pages per second over `pdfs` PDF keys; baseline = the stronger peer's pages/s on the same list
        out.append(figure(f"fulltext_real_pages_per_s_{name}", run["pages_per_s"], "pages/s",
                          runs[best]["pages_per_s"] if best else None, pages=run["pages_ocrd"], pdfs=run["pdfs"],
                          seconds=run["seconds"], cpus=os.cpu_count(), load_average_1min=round(os.getloadavg()[0], 2),
                          concurrent_with_other_engines=CONCURRENT,
                          note=note, **common))
    return out


if __name__ == "__main__":
    for fig in run():
        print(json.dumps(fig))
