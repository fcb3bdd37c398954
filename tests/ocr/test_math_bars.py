"""Rules that reach past a formula's glyphs and bars set as a relation (issue 36 item 3, maths;
helper maths12), typeset here with pdflatex in the fonts papers use, the truth the LaTeX source,
judged by olmOCR-Bench's own ``MathTest``.

A fraction's bar ends where its widest part's box ends, past the ink by TeX's ``\\scriptspace``
after a script and the glyph's side bearing, and a radical's vinculum over a fraction by the
fraction's ``\\nulldelimiterspace`` too: 2.1-2.4 pt, past the 2 pt the builder let a rule reach, so
``\\frac{e^{z_i}}{\\sum_{j=1}^{K} e^{z_j}}`` (CM) was a row of scripts and ``\\sqrt{\\frac{..}{2n}}``
``\\surd\\frac{..}``. ``\\mid`` (a relation, a thick space each side) and ``|`` (tight) print the same
glyph in CM; the one written for the other fails MathTest in a fraction."""
from __future__ import annotations

import pytest

from tests.ocr.math_typeset import FONTS, body_of
from tests.ocr.math_typeset import displays as _displays
from tests.ocr.math_typeset import markdown_of as _markdown
from tests.ocr.math_typeset import math_verdicts as _math

BARS = {
    "softmax": r"\mathrm{softmax}(z)_i = \frac{e^{z_i}}{\sum_{j=1}^{K} e^{z_j}}",
    "bound": r"\mathbb{E}_{(x,y) \sim \mathcal{D}} \left[ \ell(f(x), y) \right] \leq \hat{R}_n(f) + "
             r"\sqrt{\frac{\log(1/\delta)}{2n}}",
    "bayes": r"p(\theta \mid \mathcal{D}) = \frac{p(\mathcal{D} \mid \theta)\, p(\theta)}{\int p(\mathcal{D} \mid "
             r"\theta')\, p(\theta')\, d\theta'}",
    # what stays: bars set tight
    "tight": r"q(a|b) + |x| + \frac{p(D|\theta)}{2}",
}
BODY = body_of(BARS.values())
FONTS_HERE = {**FONTS, "newtx": "amsmath,newtxtext,newtxmath"}


@pytest.fixture(scope="module", params=sorted(FONTS_HERE))
def bars(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"bars-{request.param}"), FONTS_HERE[request.param], BODY)


def test_rules_reaching_past_scripts_and_spaced_bars_are_read(bars):
    displays = _displays(bars)
    assert len(displays) == len(BARS), bars
    assert displays[0] == r"\mathrm{softmax}(z)_{i}=\frac{e^{z_{i}}}{\sum_{j=1}^{K}e^{z_{j}}}", bars
    assert displays[1].endswith(r"+\sqrt{\frac{\log(1/\delta)}{2n}}"), bars
    assert displays[2].startswith(r"p(\theta\mid\mathcal{D})=\frac{p(\mathcal{D}\mid\theta)"), bars
    assert displays[3] == r"q(a|b)+|x|+\frac{p(D|\theta)}{2}", bars


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_rules_reaching_past_scripts_and_spaced_bars_pass_olmocr(bars):
    assert _math(bars, **BARS) == dict.fromkeys(BARS, True), bars
