"""Display maths of real papers' shapes, typeset here with pdflatex and read back as LaTeX
(``ocr_ray.layout.math``, ``ocr_ray.layout.math_rows``): the rows of an ``align`` whose
fractions leave no vertical gap between them (hr-odes' derivations), CMSY's small radical inside
a fraction, tall ``\\left( \\right)`` drawn from CMEX pieces that PDFium reads as private-use
characters (xai-ood's GradCAM derivation), and scripts of scripts (corl-noisy-reward's
``\\pi_{\\theta_{-1}}``, cheblienet's ``L_{g^{-1}}``, offline-rl's ``\\mathbb{P}_{XT}^{(n)}``), and an
unnumbered display of bold letters told from prose by being centred (idempotent-descent), a wide
hat over a subscripted letter (cryoem), a ligature in a formula (riff's ``P_{\\text{fixed}}``); a
line of prose dense with inline maths kept out of the display below it (dynamic-gqa); and words of
the text font read with the formula they are in (offline-rl's ``\\text{linear CKA} = ...``);
mathtools' ``\\coloneqq`` (dynamic-gqa); a formula numbered on a line of its own (moebias); and
mathabx's fonts, read back from the T1 glyph names they carry (rnn-extrapolation)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.layout import compose_pages
from tests.ocr.conftest import display_rows, typeset_layouts

SOURCE = r"""
Text before the derivation.
\begin{align}
\varepsilon(k+1)-\varepsilon(k) &= \left(\frac{t_{k+1}^2-t_k^2}{4}+\frac{s_{k+1}t_{k+1}-t_ks_k}{2}\right)(f(x_{k+1})-f(x^*))\\
&\quad +\left(\frac{t_k^2}{4}+\frac{s_kt_k}{2}\right)(f(x_{k+1})-f(x_k))\\
&\quad -\frac{1}{2}\langle v_{k+1}-v_k, x_k \rangle + \frac{\sqrt{s}e^{\alpha_t}}{\mu}\nabla f(X_t) - \frac{t_k}{2\sqrt{L}}
\end{align}
Text between.
\begin{equation}
\operatorname{mean}\left(\sum_k \left( \frac{1}{N \cdot M} \sum_i \sum_j \frac{W_{ck}}{N \cdot M} \right) F^k \right) = 0
\end{equation}
Text after.
\begin{equation}
p(l_k) = \mathbb{E}_{\tau \sim \pi_{\theta_{-1}}} [x] + (f \circ L_{g^{-1}}) + \mathbb{E}_{\mathbb{P}_{XT}^{(n)}}[y] + k_{s,\, g^{(m_s)}(h)}
\end{equation}
Since the matrix is block-diagonal, the equation can be written for its blocks, and the blocks of
the Jordan form satisfy the same corrector equation as the matrix itself:
\[
\mathbf{J} = 3\mathbf{J}^2 - 2\mathbf{J}^3 .
\]
The orientation distance is learnt, and the posterior coefficients take the ratio
\begin{equation}
\widehat{d_p} = \arg\min_{d_p} L + s(z), \quad s(z) = \frac{P_{\theta}(z|x)}{P_{\text{fixed}}(z|x)}
\end{equation}
where the keys and values a query reads are
\[
\kappa_h(s) \coloneqq k_{s,\, g(h)}, \qquad \nu_h(s) := v_{s,\, g(h)} .
\]
"""
# the numbers are the source's: the align's three rows (1)-(3), its two equations (4), (5), and (6);
# \[ \] displays have none
EXPECTED = [
    r"\varepsilon(k+1)-\varepsilon(k)=\bigg(\frac{t_{k+1}^{2}-t_{k}^{2}}{4}+\frac{s_{k+1}t_{k+1}-t_{k}s_{k}}{2}\bigg)(f(x_{k+1})-f(x^{\ast})) \qquad (1)",
    r"+\bigg(\frac{t_{k}^{2}}{4}+\frac{s_{k}t_{k}}{2}\bigg)(f(x_{k+1})-f(x_{k})) \qquad (2)",
    r"-\frac{1}{2}\langle v_{k+1}-v_{k},x_{k}\rangle+\frac{\sqrt{s}e^{\alpha_{t}}}{\mu}\nabla f(X_{t})-\frac{t_{k}}{2\sqrt{L}} \qquad (3)",
    r"\mathrm{mean}(\sum_{k}(\frac{1}{N\cdot M}\sum_{i}\sum_{j}\frac{W_{ck}}{N\cdot M})F^{k})=0 \qquad (4)",
    # a script of a script is placed by its shift from its own nucleus, even at TeX's smallest size
    r"p(l_{k})=\mathbb{E}_{\tau\sim\pi_{\theta_{-1}}}[x]+(f\circ L_{g^{-1}})+\mathbb{E}_{\mathbb{P}_{XT}^{(n)}}[y]+k_{s,g^{(m_{s})}(h)} \qquad (5)",
    # an unnumbered display in bold letters and roman digits (a quarter of it in maths fonts): a
    # display all the same, centred (idempotent-descent's corrector)
    r"\mathbf{J}=3\mathbf{J}^{2}-2\mathbf{J}^{3}.",
    # a wide hat over a letter and its subscript; a ligature (the "fi" of \text{fixed}) in a formula
    # (its number, the sixth of the source's numbered displays, beside it: before, the display's wide
    # space and the short line below it were taken for two columns and the number was read apart)
    r"\widehat{d_{p}}=\arg\min_{d_{p}}L+s(z),s(z)=\frac{P_{\theta}(z|x)}{P_{\mathrm{fixed}}(z|x)} \qquad (6)",
    # mathtools' \coloneqq raises its colon onto the axis; a plain ":=" sets it on the baseline
    r"\kappa_{h}(s)\coloneqq k_{s,g(h)},\nu_{h}(s):=v_{s,g(h)}.",
]


@pytest.fixture(scope="module")
def markdown(tmp_path_factory):
    layouts = typeset_layouts(tmp_path_factory.mktemp("math_rows"), "amsmath,amssymb,mathtools", SOURCE)
    return "\n\n".join(compose_pages([p.to_json() for p in layouts]))


def test_real_paper_shapes_are_read(markdown):
    # each row read apart (before, the rows' numerators and denominators interleaved by x), the
    # align's rows stacked in one display
    assert display_rows(markdown) == EXPECTED


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_align_rows_pass_olmocrs_math_test(markdown):
    rows = (r"+\left(\frac{t_k^2}{4}+\frac{s_kt_k}{2}\right)(f(x_{k+1})-f(x_k))",
            r"\frac{\sqrt{s}e^{\alpha_t}}{\mu}\nabla f(X_t) - \frac{t_k}{2\sqrt{L}}",
            r"\left(\sum_k \left( \frac{1}{N \cdot M} \sum_i \sum_j \frac{W_{ck}}{N \cdot M} \right) F^k \right)")
    tests = [{"id": f"row-{k}", "type": "math", "math": row} for k, row in enumerate(rows)]
    assert judge(markdown, tests) == dict.fromkeys((t["id"] for t in tests), True)


def test_a_full_width_line_of_prose_with_inline_maths_is_no_display():
    from ocr_ray.layout.blocks import page_blocks
    from ocr_ray.layout.model import Fragment, PageLayout

    # dynamic-gqa's Definition 3.1: a third of the line in maths fonts, a run of prose in it (no
    # glyphs kept), the column's full width; the display below is centred
    prose = Fragment(72, 395, 540, 409, "[G]. Grouped attention with parameters {Wh Q} H h=1 ⊂ R d×dh computes,",
                     10, math=0.36)
    glyphs = [["Q", 183, 428, 191, 438, 438, 10, "CMMI10"], ["=", 195, 431, 202, 434, 438, 10, "CMR10"],
              ["X", 206, 428, 214, 438, 438, 10, "CMMI10"]]
    display = Fragment(183, 426, 214, 441, "Q = X", 10, math=1.0, glyphs=glyphs)
    page = PageLayout(612, 792, [Fragment(72, 383, 540, 393, "Fix a number of groups and a surjective group map,", 10),
                                 prose, display, Fragment(72, 469, 540, 480, "where M is the attention mask of it all.", 10)])
    out = page_blocks(page, 10, first_page=False)
    assert "$$\nQ=X\n$$" in out
    assert not any("unread" in b for b in out) and any("Grouped attention with parameters" in b and "$$" not in b
                                                        for b in out)


def test_a_word_of_the_text_font_in_a_formula_is_read_with_it():
    from ocr_ray.layout.blocks import page_blocks
    from ocr_ray.layout.model import Fragment, PageLayout

    # offline-rl's "linear CKA = ||Y^T X||_F": "linear CKA =" is set in the text font and, with
    # less than 15% maths characters, keeps no glyphs; the rest of the line does
    words = Fragment(230, 636, 281, 646, "linear CKA =", 10, math=0.08)
    glyphs = [["|", 284, 634, 286, 648, 644, 10, "CMSY10"], ["Y", 287, 637, 294, 644, 644, 10, "CMMI10"],
              ["|", 296, 634, 298, 648, 644, 10, "CMSY10"], ["F", 299, 644, 303, 649, 646, 7, "CMMI7"]]
    formula = Fragment(284, 634, 303, 649, "|Y| F", 10, math=1.0, glyphs=glyphs)
    prose = Fragment(108, 613, 379, 623, "are kernels. Particularly, linear CKA is defined as follows:", 10)
    page = PageLayout(612, 792, [prose, words, formula, Fragment(108, 658, 483, 668, "where the norm is the one of F.", 10)])
    out = page_blocks(page, 10, first_page=False)
    # (words of the text font are prose, as the paper's source sets them: \text{linear CKA})
    assert "$$\n\\text{linear CKA }=|Y|_{F}\n$$" in out, out
    # a phrase of prose beside the maths is a line of text, not a formula
    words.text = "we get from it ="
    assert not any("mathrm" in b for b in page_blocks(page, 10, first_page=False))


def test_a_formula_numbered_beside_it_is_a_display():
    from ocr_ray.layout.blocks import page_blocks
    from ocr_ray.layout.model import Fragment, PageLayout

    # moebias' (5): L_aux(phi) = N_e . CV(f)^2, under 0.3 of it in maths fonts, its number a line
    # of its own at its height right after it
    glyphs = [["L", 257, 389, 264, 397, 397, 10, "CMSY10"], ["=", 270, 392, 277, 395, 397, 10, "CMR10"],
              ["N", 281, 389, 289, 397, 397, 10, "CMMI10"], ["C", 300, 389, 307, 397, 397, 10, "NIMBUSROMNO9L-REGU"],
              ["V", 307, 389, 314, 397, 397, 10, "NIMBUSROMNO9L-REGU"], ["f", 316, 389, 320, 397, 397, 10, "CMBX10"]]
    formula = Fragment(257, 388, 354, 400, "L = N CVf", 10, math=0.29, glyphs=glyphs)
    page = PageLayout(612, 792, [Fragment(72, 366, 540, 375, "experts are ever chosen, we introduce a balancing loss.", 10),
                                 Fragment(72, 378, 115, 387, "we define:", 10), formula,
                                 Fragment(527, 390, 540, 400, "(5)", 10, glyphs=[[c, 527 + 4 * k, 390, 531 + 4 * k, 400, 397,
                                                                                  10, "NIMBUSROMNO9L-REGU"]
                                                                                 for k, c in enumerate("(5)")]),
                                 Fragment(72, 408, 540, 419, "where f is the average routing probability of an expert.", 10)])
    out = page_blocks(page, 10, first_page=False)
    assert "$$\n\\mathcal{L}=N\\mathrm{CV}\\mathbf{f} \\qquad (5)\n$$" in out, out


def test_mathabx_fonts_are_read_back_from_their_t1_placeholders(tmp_path):
    # rnn-extrapolation sets its maths in mathabx, whose fonts name T1 text glyphs: the text layer
    # reads "“" for "=", "p" for "(", "ÿ" for the sum, "9" for a dot accent, the ligature "fi" for
    # the top of a tall "]"
    if shutil.which("pdflatex") is None or subprocess.run(["kpsewhich", "mathabx.sty"], capture_output=True,
                                                             text=True).stdout.strip() == "":
        pytest.skip("pdflatex or mathabx not installed")
    layouts = typeset_layouts(tmp_path, "amsmath,mathabx,bm", (
        "Text before the formula.\n\\[\n\\dot{\\alpha} = 2 {\\bm{B}}^\\top \\left[ \\left( \\sum_{i=0}^{k-1} "
        "{\\bm{C}}{\\bm{A}}^{i}{\\bm{B}} x_{k-1-i} - \\sum_{j=0}^{k-1} w_j x_{k-1-j} \\right)^2 \\right] \\geq 1.5\\sqrt{n} "
        "\\sim \\mathcal{D}\n"
        "\\]\nText after."))
    markdown = "\n\n".join(compose_pages([p.to_json() for p in layouts]))
    assert display_rows(markdown) == [
        r"\dot{\alpha}=2\boldsymbol{B}^{\top}[(\sum_{i=0}^{k-1}\boldsymbol{C}\boldsymbol{A}^{i}\boldsymbol{B}x_{k-1-i}-\sum_{j=0}^{k-1}"
        r"w_{j}x_{k-1-j})^{2}]\ge1.5\sqrt{n}\sim\mathcal{D}"]
