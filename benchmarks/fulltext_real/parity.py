"""Does the project's own scorer (``benchmarks/fulltext/scoring.py``) give olmOCR-Bench's verdict on
every test of the set? ``python -m benchmarks.fulltext_real.parity`` scores the default engine's pages
with both and prints every test where they disagree, counted by type (issue 27 item 1: our scorer is
kept only where it agrees with olmocr's on every test of the set)."""
from __future__ import annotations

import json
import sys
from collections import Counter

from benchmarks.bench_fulltext_real import DEFAULT_ENGINE, load_set, realset_dir
from benchmarks.fulltext import harness
from benchmarks.fulltext.scoring import score
from benchmarks.fulltext_real import olmocr_bench


def main() -> int:
    from ocr_ray.engines import get_engine

    root = realset_dir()
    docs = load_set(root)
    engine = get_engine(DEFAULT_ENGINE)
    pages = {stem: olmocr_bench.split_pages(harness.convert(engine, pdf)[0], harness.page_count(pdf)) for stem, pdf in docs}
    theirs = {t["id"]: t for t in olmocr_bench.score(root, {DEFAULT_ENGINE: pages})[DEFAULT_ENGINE]["tests"]}
    disagree, total = Counter(), Counter()
    for stem, _ in docs:
        for line in (root / "tests" / f"{stem}.jsonl").read_text().splitlines():
            test = json.loads(line)
            page = pages[stem][test["page"] - 1] if test["page"] <= len(pages[stem]) else ""
            ours = score(page, [test])[test["id"]]
            total[test["type"]] += 1
            if ours != theirs[test["id"]]["passed"]:
                disagree[test["type"]] += 1
                print(json.dumps({"id": test["id"], "ours": ours, "olmocr": theirs[test["id"]]["passed"],
                                  "why": theirs[test["id"]]["explanation"][:200]}))
    print(json.dumps({"tests": dict(total), "disagreements": dict(disagree)}))
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
