"""A constrained problem set in one display (issue 36 item 3, maths; helper maths12): ``\\max_{\\theta}
\\mathbb{E}[r_\\theta] \\quad \\text{subject to} \\quad D_{\\mathrm{KL}}(..) \\leq \\delta`` (RLHF's
KL-constrained objective) was left unread: "subject to", a text fragment of two words with no maths
glyphs, made its line a line of prose. Words a display sets between its formulas (``PROSE_WORDS``)
make no phrase of prose. Typeset here with pdflatex, the truth the LaTeX source, judged by
olmOCR-Bench's own ``MathTest``."""
from __future__ import annotations

import pytest

from tests.ocr.math_typeset import FONTS, body_of
from tests.ocr.math_typeset import displays as _displays
from tests.ocr.math_typeset import markdown_of as _markdown
from tests.ocr.math_typeset import math_verdicts as _math

PROBLEMS = {
    "kl": r"\max_{\theta} \; \mathbb{E}[r_\theta] \quad \text{subject to} \quad D_{\mathrm{KL}}(\pi_\theta \| "
          r"\pi_{\mathrm{ref}}) \leq \delta",
    # what stays: an abbreviation between two formulas
    "svm": r"\min_{w} \; \frac{1}{2}\|w\|^2 \quad \text{s.t.} \quad y_i (w^\top x_i + b) \geq 1",
}
BODY = body_of(PROBLEMS.values())


@pytest.fixture(scope="module", params=sorted(FONTS))
def problems(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"problems-{request.param}"), FONTS[request.param], BODY)


def test_a_constrained_problem_in_one_display_is_read(problems):
    displays = _displays(problems)
    assert len(displays) == 2 and "<!-- math: unread -->" not in problems, problems
    assert displays[0].startswith(r"\max_{\theta}\mathbb{E}[r_{\theta}]"), problems
    assert r"\text{subject to }D_{\mathrm{KL}}(" in displays[0], problems


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_a_constrained_problem_passes_olmocr(problems):
    assert _math(problems, **PROBLEMS) == dict.fromkeys(PROBLEMS, True), problems
