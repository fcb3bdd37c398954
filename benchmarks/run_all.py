"""`make bench`: run every benchmarks/bench_*.py (each exposes `run() -> list[dict]`) and record."""
from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

from benchmarks.common import record


def main(names: list[str]) -> int:
    modules = sorted(p.stem for p in Path(__file__).parent.glob("bench_*.py"))
    failed = 0
    for name in modules:
        if names and name not in names:
            continue
        print(f"== {name}", flush=True)
        try:
            record(importlib.import_module(f"benchmarks.{name}").run())
        except Exception:  # one broken benchmark must not hide the others' figures
            traceback.print_exc()
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
