"""A development loop for the full-text engine on the real-paper set: the default engine only, one
process per core (no Ray, no peers), scored by olmOCR-Bench's own code, failures listed per paper.

    python -m benchmarks.fulltext_real.quick                 # every paper of $REVIEWBENCH_REALSET_DIR
    python -m benchmarks.fulltext_real.quick stoic fvtls     # these papers only
    python -m benchmarks.fulltext_real.quick --failures 40   # print up to 40 failures

Not a figure: ``make bench`` (``bench_fulltext_real``) is the measurement. This answers "what does
olmocr say of the engine's output on these papers now" in a few minutes, and writes every page and
verdict to ``var/quick-last.json`` (``--out``) to read the failures.
"""
from __future__ import annotations

import argparse
import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks.common import page_count
from benchmarks.fulltext_real import olmocr_bench

TYPES = ("present", "absent", "order", "table", "math", "baseline")


def convert_one(pdf: str, engine_name: str) -> tuple[list[str], str]:
    """(page markdowns, error) of one PDF through the engine as the corpus's workers run it."""
    import pyarrow.fs as pafs

    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    engine = get_engine(engine_name)
    engine.setup()
    row = convert_pdf({"task_index": 0, "forum_id": Path(pdf).stem, "pdf_path": pdf},
                      filesystem=pafs.LocalFileSystem(), engine=engine)
    pages = row["num_pages"] or page_count(pdf)
    return olmocr_bench.split_pages(row["markdown"] or "", pages), row["error"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("papers", nargs="*", help="paper ids (default: the whole set)")
    parser.add_argument("--set", type=Path, default=Path(os.environ.get("REVIEWBENCH_REALSET_DIR", "var/realset")))
    parser.add_argument("--engine", default="text-layer")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--failures", type=int, default=25, help="failures to print (0: none)")
    parser.add_argument("--out", type=Path, default=Path("var/quick-last.json"))
    args = parser.parse_args(argv)

    stems = args.papers or sorted(p.stem for p in (args.set / "tests").glob("*.jsonl"))
    pdfs = {s: str(args.set / "pdfs" / f"{s}.pdf") for s in stems}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        done = dict(zip(stems, pool.map(convert_one, pdfs.values(), [args.engine] * len(stems)), strict=True))
    errors = {s: e for s, (_, e) in done.items() if e}
    # olmocr scores every test file of the set: a subset is scored from a set folder holding only it
    set_dir = args.set
    if args.papers:
        import tempfile
        tmp = Path(tempfile.mkdtemp(prefix="quick-set-"))
        (tmp / "pdfs").mkdir()
        (tmp / "tests").mkdir()
        for s in stems:
            (tmp / "pdfs" / f"{s}.pdf").symlink_to(Path(pdfs[s]).resolve())
            (tmp / "tests" / f"{s}.jsonl").symlink_to((args.set / "tests" / f"{s}.jsonl").resolve())
        set_dir = tmp
    verdicts = olmocr_bench.score(set_dir, {args.engine: {s: pages for s, (pages, _) in done.items()}})[args.engine]
    rates = olmocr_bench.rates(verdicts["tests"], TYPES)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"pages": {s: p for s, (p, _) in done.items()}, "errors": errors,
                                    "verdicts": verdicts, "rates": rates}))
    print(f"overall {rates['pass_rate']} ({rates['passed']}/{rates['tests']}), olmocr score {rates['olmocr_score']}")
    print("by type: " + ", ".join(f"{k} {v} (n={rates['tests_by_type'][k]})" for k, v in rates["by_type"].items()))
    worst = sorted(rates["by_paper"].items(), key=lambda kv: kv[1])[:12]
    print("weakest papers: " + ", ".join(f"{k} {v}" for k, v in worst))
    if errors or verdicts["errors"]:
        print("errors:", errors, verdicts["errors"][:5])
    failed = [v for v in verdicts["tests"] if not v["passed"]]
    for v in failed[: args.failures]:
        print(f"- {Path(v['pdf']).stem} p{v['page']} {v['type']} {v['id']}: {str(v.get('explanation'))[:300]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
