"""A name of the source's own that takes its limit below (issue 36 item 3, maths; helper maths12):
``\\operatorname*{minimize}_{\\beta_0 \\in \\mathbb{R}, ..}`` (dev6's normreg-tmlr) was an upright word
with its limit's first letter a subscript before it, ``{}_{\\beta}\\mathrm{minimize}_{{}_{0}\\in ..}``.
Typeset here with pdflatex, the truth the LaTeX source, judged by olmOCR-Bench's own ``MathTest``; a
word's own subscripts (``\\mathrm{Acc}_{\\mathrm{val}}``, ``\\mathrm{softmax}(z)_i``) stay scripts."""
from __future__ import annotations

import pytest

from tests.ocr.math_typeset import FONTS, body_of
from tests.ocr.math_typeset import displays as _displays
from tests.ocr.math_typeset import markdown_of as _markdown
from tests.ocr.math_typeset import math_verdicts as _math

NAMED = {
    "minimize": r"\operatorname*{minimize}_{\beta_0 \in \mathbb{R},\bm{\beta} \in \mathbb{R}^p} g(\beta_0, \bm{\beta}; "
                r"\bm X, \bm y) + h(\bm\beta)",
    "scripts": r"\mathrm{softmax}(z)_i = \mathrm{Acc}_{\mathrm{val}} + \mathrm{KL}_{x} + \mathrm{Err}_{ab}",
}
BODY = body_of(NAMED.values())


@pytest.fixture(scope="module", params=sorted(FONTS))
def named(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"named-{request.param}"), FONTS[request.param] + ",bm", BODY)


def test_a_name_takes_its_limit_below(named):
    displays = _displays(named)
    assert len(displays) == 2, named
    # (mathptmx has no bold maths letters: its \bm{\beta} is \beta)
    assert displays[0].startswith(r"\operatorname*{minimize}_{\beta_{0}\in\mathbb{R},"), named
    assert r"\in\mathbb{R}^{p}}g(" in displays[0], named
    assert displays[1] == r"\mathrm{softmax}(z)_{i}=\mathrm{Acc}_{\mathrm{val}}+\mathrm{KL}_{x}+\mathrm{Err}_{ab}", named


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_a_name_with_its_limit_passes_olmocr(named):
    assert _math(named, **NAMED) == dict.fromkeys(NAMED, True), named
