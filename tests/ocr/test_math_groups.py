"""Delimiters in scripts and scripts on braced groups (issue 36 item 3, maths; helper maths12): each
typeset here with pdflatex in the fonts papers use, the truth the LaTeX source, judged by olmOCR-Bench's
own ``MathTest`` (``olmocr_judge``).

``\\left( .. \\right)`` in a superscript takes the text size's parentheses around script letters: by
their size they were no script and the superscript broke at them (``\\mathbb{R}(^{P^{2}\\cdot
C})^{\\times D}``, the real set's vision-transformer idiom). Scripts on a braced group that holds a
tilde (dev4's defmo-neurips: ``{\\{R_t, \\tilde{R}_t\\}}_1^N``) stand higher than on its closing brace
alone, and KaTeX places ``\\}_1^N``'s elsewhere: MathTest failed the reading."""
from __future__ import annotations

import pytest

from tests.ocr.math_typeset import FONTS, body_of
from tests.ocr.math_typeset import displays as _displays
from tests.ocr.math_typeset import markdown_of as _markdown
from tests.ocr.math_typeset import math_verdicts as _math

GROUPS = {
    "paren": r"z_0 \in \mathbb{R}^{\left(P^2 \cdot C\right) \times D}",
    "braced": r"\mathcal{L}_G({\{ R_t, \tilde{R}_t \}}_1^N) = \frac{1}{N} \sum_{t=1}^N \left( "
              r"\mathbb{E}_{\tilde{R}_t}[D_S(\tilde{R}_t)] - \mathbb{E}_{R_t}[D_S(R_t)] \right)",
    # what stays as it was: a group no taller than its braces, scripts on delimiters of a character,
    # a \left( .. \right) of the row with its square, parentheses of the script's own size
    "short": r"\mathcal{L}_T({\{R_t\}}_1^N) = 1 - \frac{1}{N-1} \sum_{t=1}^{N-1} \mathrm{maxncc}(R_t, R_{t+1})",
    "plain": r"\|x\|_2^2 + (a+b)^2 + \{x\}^N_1 + |\tilde{y}|^2",
    "big": r"f = \left(\frac{a}{b}\right)^2 + x^{(n)}_{[i]}",
}
BODY = body_of(GROUPS.values())
FONTS_HERE = {**FONTS, "newtx": "amsmath,newtxtext,newtxmath"}


@pytest.fixture(scope="module", params=sorted(FONTS_HERE))
def groups(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"groups-{request.param}"), FONTS_HERE[request.param], BODY)


def test_a_script_keeps_its_parentheses_and_a_tall_group_its_braces(groups):
    displays = _displays(groups)
    assert len(displays) == len(GROUPS), groups
    assert displays[0] == r"z_{0}\in\mathbb{R}^{(P^{2}\cdot C)\times D}", groups
    assert r"({\{R_{t},\tilde{R}_{t}\}}_{1}^{N})" in displays[1], groups
    assert r"(\{R_{t}\}_{1}^{N})" in displays[2], groups
    assert displays[3] == r"\|x\|_{2}^{2}+(a+b)^{2}+\{x\}_{1}^{N}+|\tilde{y}|^{2}", groups
    assert displays[4].endswith(r"\Big)^{2}+x_{[i]}^{(n)}"), groups


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_scripts_of_groups_pass_olmocr(groups):
    assert _math(groups, **GROUPS) == dict.fromkeys(GROUPS, True), groups
