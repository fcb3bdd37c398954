"""Displays that hold a remark in parentheses, and the dots a source types (issue 36 item 3, maths;
helper maths11): each typeset here with pdflatex in the fonts papers use, the truth the LaTeX source,
judged by olmOCR-Bench's own ``MathTest`` (``olmocr_judge``: KaTeX renders the test's LaTeX and each
candidate, and a candidate passes when it holds the test's symbols with the same neighbours).

A phrase a display sets in parentheses beside its formula (``\\quad\\text{(refuse)}``,
``(\\text{and by extension } ..)``, ``\\text{(for all $i$)}``) made its line a line of prose: the
display was unread glyph text, or (cut by the reading order at its ``\\qquad`` into pieces, glued back
as one line measured by its first piece's block) a paragraph (dev4's ri-iclr26 p19, the real set's dev
paper cheblienet p16). A display's ``...`` was written ``\\ldots``, which KaTeX draws as another glyph
(dev5's apg-icml20, nltocode-neurips20)."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts

PROSE = ("The method is run on every step, and the text between the formulas is long enough to fill the "
         "column as a paper's prose does, so that nothing on this page looks like a column of its own.")
FONTS = {"cm": "amsmath,amssymb", "mathptmx": "amsmath,amssymb,mathptmx", "lmodern": "amsmath,amssymb,lmodern"}
REMARKS = {
    # ri-iclr26: an unnumbered display, a \qquad between its two definitions, each with its remark;
    # the sentence under it (a run of prose with inline maths longer than the text layer keeps glyphs
    # for) was read as a row of it
    "refuse": r"R := \mathbf{1}\{Z_R>\tau_r\}\quad\text{(refuse)},\qquad W := \mathbf{1}\{Z_W>\tau_w\}\quad\text{(wrong answer)}.",
    # cheblienet: a parenthesis of maths opening on words
    "extension": r"\exp_p (v) = \gamma_{p, v}(1) ,\qquad (\text{and by extension } \exp_p (tv) = \gamma_{p, v}(t))",
    "forall": r"x_i \le y_i \quad \text{(for all $i$)}",
}
AFTER = (r"The refusal rate is $r := \Pr(R = 1) = 1 - \Phi(\tau_r)$ and the error rate is $\pi := \Pr(W = 1) = "
         r"1 - \Phi(\tau_w)$, so the rest of this sentence is prose that fills the column's lines.")
REMARKS_BODY = (f"PROSE Fix the thresholds and define\n\\[\n{REMARKS['refuse']}\n\\]\n{AFTER}\n"
                f"\\begin{{equation}}\n{REMARKS['extension']}\n\\end{{equation}}\nPROSE\n"
                f"\\begin{{equation}}\n{REMARKS['forall']}\n\\end{{equation}}\nPROSE\n")
# dots typed as three full stops (ordinary symbols, no space between them) and as \ldots (a thin
# space after each): KaTeX draws "..." and "…", and MathTest passes neither for the other
DOTS = {"typed": r"\mu_i \sim \text{N}(0, \sigma_0^2 \, I), \quad i = 1, 2, ..., I",
        "product": r"P[S_{1}, ...,S_{m}]=\prod_{i=1}^{m}P[S_{i} | S_{i-n},...,S_{i-1}]",
        "ldots": r"x_1, \ldots, x_n"}
DOTS_BODY = "".join(f"PROSE\n\\begin{{equation}}\n{f}\n\\end{{equation}}\n" for f in DOTS.values()) + "PROSE\n"


def _markdown(tmp: Path, packages: str, body: str) -> str:
    layouts = typeset_layouts(tmp, packages, body.replace("PROSE", PROSE))
    return "\n\n".join(compose_pages([p.to_json() for p in layouts]))


def _displays(markdown: str) -> list[str]:
    return [b.split("\n")[1] for b in markdown.split("\n\n") if b.startswith("$$")]


def _math(markdown: str, **formulas: str) -> dict[str, bool]:
    return judge(markdown, [{"id": k, "type": "math", "math": m} for k, m in formulas.items()])


@pytest.fixture(scope="module", params=sorted(FONTS))
def remarks(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"remarks-{request.param}"), FONTS[request.param], REMARKS_BODY)


def test_a_display_with_a_phrase_in_parentheses_is_read(remarks):
    displays = _displays(remarks)
    assert len(displays) == 3, remarks
    assert r"\text{refuse" in displays[0] and r"\text{wrong answer" in displays[0], remarks
    assert r"\text{and by extension }\exp_{p}(tv)" in displays[1], remarks
    assert r"\text{for all }i" in displays[2], remarks
    assert "<!-- math: unread -->" not in remarks, remarks
    # the sentence set tight under the first display is a paragraph of its own, and the prose stays whole
    assert "\n\nThe refusal rate is " in remarks, remarks
    assert remarks.count(PROSE.replace("'", "’")) == 3, remarks


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_a_display_with_a_phrase_in_parentheses_passes_olmocr(remarks):
    assert _math(remarks, **REMARKS) == dict.fromkeys(REMARKS, True), remarks


@pytest.fixture(scope="module", params=sorted(FONTS))
def dots(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"dots-{request.param}"), FONTS[request.param], DOTS_BODY)


def test_typed_dots_stay_three_full_stops(dots):
    displays = _displays(dots)
    assert len(displays) == 3, dots
    assert "i=1,2,...,I" in displays[0] and r"\ldots" not in displays[0], dots
    assert displays[1].count("...") == 2 and r"\ldots" not in displays[1], dots
    assert r"\ldots" in displays[2] and "..." not in displays[2], dots


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_typed_dots_and_ldots_pass_olmocr(dots):
    assert _math(dots, **DOTS) == dict.fromkeys(DOTS, True), dots
