"""The robustness figures (``benchmarks/bench_robustness.py``) from a run's summary (``run.summarize``)."""
from __future__ import annotations

from benchmarks.common import figure


def figures(s: dict, sources: dict, **extra) -> list[dict]:
    """``sources``: PDFs and pages per source (``collect.summary``); ``extra`` goes into every figure."""
    corpus = {"pdfs": s["pdfs"], "pages": s["pages"], "sources": len(sources),
              "corpus_pages": sum(v["pages"] for v in sources.values()), **extra}
    share = s["degraded_blocks"] / s["blocks"] if s["blocks"] else 0.0
    out = [
        figure("fulltext_papers_lost", s["lost"], "papers", None, goal="0", lost_by_kind=s["lost_by_kind"],
               lost_keys=s["lost_keys"][:20], kinds=s["kinds"], without_text=s["without_text"], **corpus),
        figure("fulltext_blocks_degraded_share", round(share, 6), "share of blocks", None,
               degraded_blocks=s["degraded_blocks"], blocks=s["blocks"], by_rule=s["degraded_by_rule"], **corpus),
        figure("fulltext_seconds_per_page_p99", round(s["seconds_per_page_p99"], 4), "s/page",
               round(s["raw_seconds_per_page_p99"], 4), baseline_engine="pypdfium2 plain text", **corpus),
        figure("fulltext_fuzz_exceptions", s["fuzz_exceptions"], "variants", None, goal="0",
               variants=s["fuzz_variants"], crashes=s["fuzz_crashes"], kinds=s["fuzz_kinds"], **corpus),
        figure("fulltext_fuzz_hangs", s["fuzz_hangs"], "variants", None, goal="0", variants=s["fuzz_variants"],
               **corpus),
    ]
    for rule, n in sorted(s["degraded_by_rule"].items()):
        out.append(figure(f"fulltext_blocks_degraded_share_{rule}", round(n / s["blocks"], 6) if s["blocks"] else 0.0,
                          "share of blocks", None, degraded_blocks=n, blocks=s["blocks"], **corpus))
    return out
