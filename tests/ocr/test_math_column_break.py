"""A display that ends a column and the paragraph that goes on at the next column's top (issue 36
item 3, maths; helper maths12): dev6's rbpo-icml25 p8, "Because E[1[k = π∗t(yi)] | yi] = γt(k|yi) —
γt(k|yi) is", nearly half of it maths, stands above the display's bottom on the page and was read
as a row of it; the display was left unread and the paragraph lost its first line. A line that
fills its column from edge to edge and opens on a word of the text font is prose. Typeset here with
pdflatex in two columns, the truth the LaTeX source, judged by olmOCR-Bench's own ``MathTest``."""
from __future__ import annotations

import pytest

from tests.ocr.math_typeset import FONTS, PROSE
from tests.ocr.math_typeset import displays as _displays
from tests.ocr.math_typeset import markdown_of as _markdown
from tests.ocr.math_typeset import math_verdicts as _math

FORMULA = r"g_\text{CTC}(y_i) = \sum_{t=1}^{T} \gamma_t(k|y_i) \cdot \mathbf{e}_k"
SENTENCE = ("is the marginal alignment posterior as defined above; taking the expectation over all alignments "
            "recovers it by definition, so the marginalized gradient is the conditional expectation of the other one.")
BODY = (f"PROSE PROSE\n\\begin{{equation}}\n{FORMULA} .\n\\end{{equation}}\n"
        r"\newpage\noindent Because $E[\mathbf{1}[k = \pi^*_t(y_i)] \mid y_i] = \gamma_t(k|y_i)$ --- $\gamma_t(k|y_i)$ "
        f"{SENTENCE}\n\nPROSE\n")


@pytest.fixture(scope="module", params=sorted(FONTS))
def broken(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"break-{request.param}"), FONTS[request.param], BODY, options="twocolumn")


def test_the_next_columns_first_line_is_prose(broken):
    displays = _displays(broken)
    assert len(displays) == 1 and "<!-- math: unread -->" not in broken, broken
    assert displays[0].startswith(r"g_{\mathrm{CTC}}(y_{i})=\sum_{t=1}^{T}"), broken
    paragraph = next(b for b in broken.split("\n\n") if b.startswith("Because "))
    assert paragraph.endswith(SENTENCE), broken
    assert broken.count(PROSE.replace("'", "’")) == 3, broken


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_the_display_before_the_break_passes_olmocr(broken):
    assert _math(broken, ctc=FORMULA) == {"ctc": True}, broken
