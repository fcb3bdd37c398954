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

import pytest

from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts
from tests.ocr.math_typeset import FONTS, PROSE, body_of
from tests.ocr.math_typeset import displays as _displays
from tests.ocr.math_typeset import markdown_of as _markdown
from tests.ocr.math_typeset import math_verdicts as _math

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
        "ldots": r"x_1, \ldots, x_n",
        # \ldots before a letter (dev3's masterarbeit p33: "\ell=1\ldotsL", a macro KaTeX does not know)
        "letter": r"\ell = 1 \ldots L"}
DOTS_BODY = body_of(DOTS.values(), "equation")


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
    assert len(displays) == 4 and displays[3] == r"\ell=1\ldots L \qquad (4)", dots
    assert "i=1,2,...,I" in displays[0] and r"\ldots" not in displays[0], dots
    assert displays[1].count("...") == 2 and r"\ldots" not in displays[1], dots
    assert r"\ldots" in displays[2] and "..." not in displays[2], dots


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_typed_dots_and_ldots_pass_olmocr(dots):
    assert _math(dots, **DOTS) == dict.fromkeys(DOTS, True), dots


# an operator's name over its limit, a \quad after it, in a two-column page (dev5's conformal-icml25):
# the reading order cut "arg max" and its limit from the rest at the \quad, and "arg max" closed the
# paragraph above (the display read "{}_{A_t}R_t ..."); a \max likewise
OPERATORS = {"argmax": r"\operatorname*{arg\,max}_{A_t}\quad R_t \quad \text{s.t.} \quad L_t \leq \alpha",
             "max": r"\max_{\theta}\quad \mathcal{L}(\theta) \quad \text{s.t.} \quad \|\theta\| \le 1"}
OPERATORS_BODY = (f"PROSE That is, its ideal goal is\n\\[\n{OPERATORS['argmax']}.\n\\]\nPROSE\n"
                  f"\\[\n{OPERATORS['max']}.\n\\]\nPROSE\n")


@pytest.fixture(scope="module", params=["cm", "mathptmx"])
def operators(request, tmp_path_factory) -> str:
    tmp = tmp_path_factory.mktemp(f"operators-{request.param}")
    return _markdown(tmp, FONTS[request.param], OPERATORS_BODY, options="twocolumn")


def test_an_operator_name_over_its_limit_is_the_display_s(operators):
    displays = _displays(operators)
    assert len(displays) == 2, operators
    assert displays[0].startswith(r"\operatorname*{arg\,max}_{A_{t}}R_{t}"), operators
    assert displays[1].startswith(r"\max_{\theta}\mathcal{L}"), operators
    assert "goal is\n\n$$\n\\operatorname" in operators, operators  # "arg max" no longer closes the paragraph


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_an_operator_name_over_its_limit_passes_olmocr(operators):
    assert _math(operators, **OPERATORS) == dict.fromkeys(OPERATORS, True), operators


# a paragraph opening on inline maths right under a display, two fifths of its first line maths,
# a sentence's end and the next sentence's first word in it (dev4's bayes-tools p5, ICML's Times and
# CM maths in two columns): it was read as a row of the display ("\\ (B,U_{C},\eta_{N}).\mathrm{Thus}..")
SENTENCE = r"\mathbb{E}[U_N \mid B] = \mathbb{E}[U_C \mid B] + \mathbb{E}[\eta_N \mid B] = 0."
SENTENCE_AFTER = (r"$(B, U_C, \eta_N)$. Thus $\mathbb{E}[\varepsilon \mid B, U_r] = 0$ for $r \in \{C, N\}$. The two "
                  r"risk-separation equalities follow from the tower property and the lemma.")


@pytest.mark.parametrize("packages", ["amsmath,amssymb,times", "amsmath,amssymb"])
def test_a_sentence_under_a_display_is_prose(tmp_path, packages):
    body = f"PROSE\n\\[\n{SENTENCE}\n\\]\n\\noindent {SENTENCE_AFTER}\nPROSE\n".replace("PROSE", PROSE)
    markdown = "\n\n".join(compose_pages([p.to_json() for p in typeset_layouts(tmp_path, packages, body, options="twocolumn")]))
    displays = _displays(markdown)
    assert displays == [r"\mathbb{E}[U_{N}\mid B]=\mathbb{E}[U_{C}\mid B]+\mathbb{E}[\eta_{N}\mid B]=0."], markdown
    assert "\n\n(B, UC , ηN ). Thus E[ε | B, Ur] = 0 for r ∈ {C, N}. The two risk-separation" in markdown, markdown


# a fragment opening on a maths comma, a digit after its space (dir-llm p9, the real set's dev part:
# ", 1 - ε" after a fraction inside \left(..\right)): the text layer's digit-group check looked at
# the character before the comma, which the fragment does not hold, and raised; the page fell back
# to its plain text (its three displays lost)
CLIP = (r"\mathcal{L}(\theta) = \min\left(\frac{\pi_{\theta}(R_i|I)}{\pi_{\theta_{old}}(R_i|I)}\mathcal{A}_i,\ "
        r"\text{clip}\left(\frac{\pi_{\theta}(R_i|I)}{\pi_{\theta_{old}}(R_i|I)}, 1-\epsilon, 1+\epsilon\right)\mathcal{A}_i\right)")


def test_a_fragment_opening_on_a_maths_comma_is_read(tmp_path):
    markdown = _markdown(tmp_path, FONTS["cm"], f"PROSE\n\\begin{{equation}}\n{CLIP}\n\\end{{equation}}\nPROSE\n")
    displays = _displays(markdown)
    assert len(displays) == 1 and r"(R_{i}|I)},1-\epsilon,1+\epsilon\bigg)" in displays[0], markdown
