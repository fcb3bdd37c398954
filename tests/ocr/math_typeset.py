"""What the maths tests typeset and how they read it back: a paragraph of prose around each display,
the fonts papers set maths in, the page's markdown, its ``$$`` displays and olmOCR-Bench's
``MathTest`` verdicts (``olmocr_judge``). Shared by the test_math_* modules that typeset displays."""
from __future__ import annotations

from pathlib import Path

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts

PROSE = ("The method is run on every step, and the text between the formulas is long enough to fill the "
         "column as a paper's prose does, so that nothing on this page looks like a column of its own.")
FONTS = {"cm": "amsmath,amssymb", "mathptmx": "amsmath,amssymb,mathptmx", "lmodern": "amsmath,amssymb,lmodern"}


def markdown_of(tmp: Path, packages: str, body: str, options: str = "") -> str:
    """``body`` (its ``PROSE`` placeholders filled) typeset with ``packages`` (the article class with
    ``options``: ``twocolumn``), read back as markdown."""
    layouts = typeset_layouts(tmp, packages, body.replace("PROSE", PROSE), options=options)
    return "\n\n".join(compose_pages([p.to_json() for p in layouts]))


def body_of(formulas, environment: str = "equation*") -> str:
    """A page's body: each formula of ``formulas`` (an iterable of LaTeX) as a display in
    ``environment``, with a paragraph of prose (``PROSE``) before each and after the last."""
    return "".join(f"PROSE\n\\begin{{{environment}}}\n{f}\n\\end{{{environment}}}\n" for f in formulas) + "PROSE\n"


def displays(markdown: str) -> list[str]:
    return [b.split("\n")[1] for b in markdown.split("\n\n") if b.startswith("$$")]


def math_verdicts(markdown: str, **formulas: str) -> dict[str, bool]:
    return judge(markdown, [{"id": k, "type": "math", "math": m} for k, m in formulas.items()])
