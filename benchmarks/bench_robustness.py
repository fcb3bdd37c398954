"""Full text on a robustness corpus nobody tuned on (issue 36 items 2 and 6): public PDF libraries'
test files (``benchmarks/robustness``), each PDF through the production path (``convert_pdf``,
``text-layer``) in a pool worker with a hard timeout, and seeded mutations of them.

The corpus: ``$REVIEWBENCH_ROBUSTNESS_DIR`` (default ``var/robustness-corpus``, never committed),
built by ``python -m benchmarks.robustness.collect`` from git mirrors or ``--from DIR``. Without it
this bench records only why it did not run (``fulltext_robustness_skipped``).

* ``fulltext_papers_lost``: papers whose PDF PDFium opens and renders, with no markdown (goal 0);
  ``lost_by_kind`` says why (``exception``, ``timeout``, ``crash``, ``refused``, ``empty``).
* ``fulltext_blocks_degraded_share``: blocks that fell back to plain text (``degraded`` of each paper,
  ``ocr_ray.layout.fallback``) over the markdown's blocks; ``..._<rule>`` per rule.
* ``fulltext_seconds_per_page_p99``: per PDF, conversion seconds over pages, 99th percentile;
  baseline: the same for PDFium's plain text of every page, same run.
* ``fulltext_fuzz_exceptions`` (an exception, or a crashed worker, lost the variant's paper) and
  ``fulltext_fuzz_hangs`` (past the hard timeout), over ``FUZZ_PDFS`` x 5 variants (goal 0 each).
"""
from __future__ import annotations

import os

from benchmarks.common import commit, figure
from benchmarks.robustness.collect import corpus_dir, load_manifest, summary
from benchmarks.robustness.figures import figures
from benchmarks.robustness.run import run_corpus

FUZZ_PDFS = int(os.environ.get("BENCH_ROBUSTNESS_FUZZ_PDFS", "300"))
LIMIT = int(os.environ.get("BENCH_ROBUSTNESS_LIMIT", "0"))  # 0: the whole corpus
WORKERS = int(os.environ.get("BENCH_ROBUSTNESS_WORKERS", "2"))


def run() -> list[dict]:
    root = corpus_dir()
    entries = load_manifest(root)
    if not entries:
        reason = (f"no robustness corpus at {root} (manifest.jsonl): build it with "
                  "`python -m benchmarks.robustness.collect [--from DIR]` or set REVIEWBENCH_ROBUSTNESS_DIR")
        print(f"bench_robustness skipped: {reason}")
        return [figure("fulltext_robustness_skipped", 1, "skipped runs", None, skipped=reason)]
    s = run_corpus(root, f"bench-{commit()}", workers=WORKERS, ocr=False, limit=LIMIT, fuzz=FUZZ_PDFS)
    return figures(s, summary(entries))
