"""What the typeset-table tests (tests/ocr/test_tables_*.py) share: a table's LaTeX typeset with
pdflatex, read by the text layer and composed to markdown as the engine writes it, and olmOCR-Bench's
``TableTest`` (a cell and its neighbours, written by hand from the source) judged on that markdown."""
from __future__ import annotations

from pathlib import Path

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts


def table_markdown(tmp: Path, body: str, packages: str = "booktabs", preamble: str = "", options: str = "",
                   runs: int = 1) -> str:
    """``body`` typeset (``typeset_layouts``) and composed: the pages' markdown, a blank line between them."""
    pages = typeset_layouts(tmp, packages, body, preamble, options, runs)
    return "\n\n".join(compose_pages([page.to_json() for page in pages]))


def table_test(cell: str, **around: str) -> dict:
    """olmOCR-Bench's table test of ``cell``: ``left``, ``right``, ``up``, ``down``, ``top_heading``,
    ``left_heading`` name what must stand there."""
    return {"id": f"{cell}-{'-'.join(around.values())}", "type": "table", "cell": cell, **around}


def assert_table_tests_pass(markdown: str, tests: list[dict]) -> None:
    verdicts = judge(markdown, tests)
    assert all(verdicts.values()), verdicts
