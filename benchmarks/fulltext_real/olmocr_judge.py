"""Markdown judged in this process by olmOCR-Bench's own test classes (``olmocr.bench.tests``:
``TextPresenceTest``, ``TextOrderTest``, ``TableTest``, ``MathTest``, ``BaselineTest``), as its
``benchmark.py`` runs them: ``load_single_test(dict).run(markdown)``. Nothing here decides a verdict.

This is what the unit tests of ``tests/ocr`` and the synthetic harness (``benchmarks/fulltext/harness.py``)
judge engine output with; ``make bench`` runs the same classes in olmocr's own venv
(``olmocr_bench.py``). olmocr 0.4.27 (Apache-2.0) is installed ``--no-deps`` beside the project with
only what ``olmocr/bench/tests.py`` imports (``make test``; docs/dependencies.md says why).

A ``math`` test renders KaTeX in chromium when it is built (olmocr's ``MathTest.__post_init__``) and
again for each candidate formula: a test that builds one needs the ``browser`` marker. Debian's
chromium is used (``scripts/olmocr_chromium.py``).
"""
from __future__ import annotations

from scripts.olmocr_chromium import use_debian_chromium

# A test of our own sets may lack ``pdf`` and ``page`` (the synthetic harness judges whole documents):
# olmocr's classes require both fields and their ``run`` reads neither.
WHOLE_DOCUMENT = {"pdf": "document.pdf", "page": 1}


def olmocr_test(test: dict):
    """olmocr's test object for one test dict (olmOCR-Bench's JSONL shape)."""
    use_debian_chromium()
    from olmocr.bench.tests import load_single_test

    return load_single_test({**WHOLE_DOCUMENT, **test})


def explain(markdown: str, test: dict) -> tuple[bool, str]:
    """olmocr's verdict and its explanation (empty when the test passes)."""
    return olmocr_test(test).run(markdown)


def judge(markdown: str, tests: list[dict]) -> dict[str, bool]:
    """Test id -> passed, each test run by olmocr on the whole of ``markdown``."""
    return {test["id"]: bool(explain(markdown, test)[0]) for test in tests}


def tables(markdown: str) -> list[list[list[str]]]:
    """Every table of ``markdown`` as olmocr's ``TableTest`` reads it (its markdown parser, then its
    HTML parser), each a list of rows of cell texts, as written (no normalisation)."""
    from olmocr.bench.tests import parse_html_tables, parse_markdown_tables

    return [table.data.tolist() for table in parse_markdown_tables(markdown) + parse_html_tables(markdown)]
