"""Displays of several rows read as one formula, and rows in bold letters or with words (issue 36 item 3,
maths; helper maths10): each typeset here with pdflatex in the fonts papers use, the truth the LaTeX
source, judged by olmOCR-Bench's own ``MathTest`` (``olmocr_judge``: KaTeX renders the test's LaTeX and
each candidate, and a candidate passes when it holds the test's symbols with the same neighbours).

An align, a gather or equations set one under the other were written one ``$$`` block per row: a test
of one row passed, a test of the whole align (olmOCR-Bench writes a formula as its source does) passed
no block. Written as one ``aligned`` (or ``gathered``) formula, both pass."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.ocr.math_typeset import FONTS, PROSE, body_of
from tests.ocr.math_typeset import displays as _displays
from tests.ocr.math_typeset import markdown_of as _markdown
from tests.ocr.math_typeset import math_verdicts as _math


def _installed(style: str) -> bool:
    return bool(shutil.which("kpsewhich")) and bool(
        subprocess.run(["kpsewhich", style], capture_output=True, text=True).stdout.strip())



# an align of two rows, the second continuing the first at its "=", each numbered; a gather of two
# centred rows. mathptmx sets \sum from the Symbol font at 14.3 pt beside 10 pt letters: at that
# size no glyph of the align was full size, no row had a baseline, and its two rows were read as one
# ("\mathcal{L}==\frac{\sum_{i=}1}{n}...")
ROWS = [r"\mathcal{L} = \sum_{i=1}^n \ell(y_i, \hat{y}_i)", r"= \frac{1}{n}\sum_i (y_i - \hat{y}_i)^2"]
ALIGN = r"\begin{aligned} \mathcal{L} &= \sum_{i=1}^n \ell(y_i, \hat{y}_i) \\ &= \frac{1}{n}\sum_i (y_i - \hat{y}_i)^2 \end{aligned}"
GATHER = [r"a + b = c", r"x^2 + y^2 = z^2"]
STACKED = (f"PROSE\n\\begin{{align}}\n{ROWS[0].replace(' = ', ' &= ', 1)} \\\\\n&{ROWS[1]}\n\\end{{align}}\nPROSE\n"
           f"\\begin{{gather*}}\n{GATHER[0]} \\\\\n{GATHER[1]}\n\\end{{gather*}}\nPROSE\n")


@pytest.fixture(scope="module", params=sorted(FONTS))
def stacked(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"stacked-{request.param}"), FONTS[request.param], STACKED)


def test_the_rows_of_an_align_are_one_display(stacked):
    displays = _displays(stacked)
    assert len(displays) == 2, stacked
    assert displays[0].startswith(r"\begin{aligned}") and displays[0].count("&=") == 2, stacked
    assert displays[0].count(r"\qquad (") == 2, stacked  # each row keeps its number
    assert displays[1].startswith(r"\begin{gathered}") and "&" not in displays[1], stacked


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_the_whole_align_and_each_row_pass_olmocr(stacked):
    gather = r"\begin{gathered} " + r" \\ ".join(GATHER) + r" \end{gathered}"
    assert _math(stacked, align=ALIGN, row0=ROWS[0], row1=ROWS[1], gather=gather, gather0=GATHER[0],
                 gather1=GATHER[1]) == dict.fromkeys(["align", "row0", "row1", "gather", "gather0", "gather1"], True), stacked


# an aligned inside an equation in bold letters: CMBX is a text font (a fifth of "z = Wx" is maths),
# the rows sit 15 pt apart (their glyph boxes 6 pt), and the number is centred between them: the
# second row was read as prose ("z = Wx (3) The method is run..."), and in Libertine and Palatino
# the number between the rows chained their baselines into one row, read as a matrix
BOLD = r"\begin{aligned} \mathbf{x} &= \mathbf{A}\mathbf{y} + \mathbf{b} \\ \mathbf{z} &= \mathbf{W}\mathbf{x} \end{aligned}"
# prose in a display's row before a maths letter: the line's words made a phrase, so the line kept
# no glyphs and its text was laid out again, the letter a word's ("\text{subject to y }\ge0"); in
# mathptmx the italic y of the text font was named prose by the text layer
SUBJECT = r"\min_{x} f(x) \quad \text{subject to } y \ge 0"
# lmodern's LMMathSymbols10 "|" (a full em at the text's size) was read as an OpenType font's \big|
BAR = r"\log p(x) \geq \mathbb{E}_{q(z|x)}[\log p(x|z)] - D_{\mathrm{KL}}(q(z|x) \| p(z))"
ROWS_BODY = body_of((BOLD, SUBJECT, BAR), "equation")


@pytest.fixture(scope="module", params=sorted(FONTS))
def rows(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"rows-{request.param}"), FONTS[request.param], ROWS_BODY)


def test_a_bold_aligned_keeps_its_rows_and_words_keep_their_maths(rows):
    displays = _displays(rows)
    assert len(displays) == 3 and displays[0].count(r" \\ ") == 1, rows
    assert r"\text{subject to }y" in displays[1], rows
    assert r"\big|" not in displays[2], rows
    assert rows.count(PROSE.replace("'", "’")) == 4, rows  # the prose after each display stays whole


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_a_bold_aligned_and_words_before_a_letter_pass_olmocr(rows):
    assert _math(rows, bold=BOLD, subject=SUBJECT, bar=BAR) == {"bold": True, "subject": True, "bar": True}, rows


# fractions of words in an unnumbered display (dev4's fraud-neurips, newpx; the display's lines hold no
# maths font: "Precision = True Positives + False Positives True Positives" was a paragraph, its
# denominator read before its numerator), and two fractions a \qquad apart (dev2's qt-coyotes: the
# reading order cut the display at the \qquad, "TP" a display of its own, "Precision =" prose)
WORDS = {"precision": r"\text{Precision} = \frac{\text{True Positives}}{\text{True Positives} + \text{False Positives}}",
         "f1": r"\text{F1 Score} = 2 \times \frac{\text{Precision} \times \text{Recall}}{\text{Precision} + \text{Recall}}",
         "pair": r"\text{Precision} = \frac{TP}{TP+FP} \qquad \text{Recall} = \frac{TP}{TP+FN}",
         # upright names (dev4's bayes-tools): CMR's letters, a tenth of the line in maths fonts, left in
         # the prose's block by the reading order: "∆Sim−NL = Acc(Sim) − Acc(NL)" as prose
         "upright": r"\Delta_{\mathrm{Sim-NL}} = \mathrm{Acc}(\mathrm{Sim}) - \mathrm{Acc}(\mathrm{NL})",
         # a hyphenated word (dev4's cil-report): "\text{cosine }-\text{sim }", "\mathrm{cosine}-\mathrm{sim}",
         # the hyphen read as a minus
         "hyphen": r"\log \frac{\exp(\text{cosine-sim}(\mathbf{z}_i, \mathbf{z}_j) / \tau)}{\sum_{k \neq i} "
                   r"\exp(\text{cosine-sim}(\mathbf{z}_i, \mathbf{z}_k) / \tau)}"}
WORDS_BODY = (f"PROSE\n\\[\n{WORDS['precision']}\n\\]\nPROSE\n\\[\n{WORDS['f1']}\n\\]\nPROSE\n"
              f"\\begin{{equation}}\n{WORDS['pair']}\n\\end{{equation}}\nPROSE\n\\[\n{WORDS['upright']}\n\\]\nPROSE\n"
              f"\\begin{{equation}}\n{WORDS['hyphen']}\n\\end{{equation}}\nPROSE\n")


@pytest.fixture(scope="module", params=["cm", "newpx"])
def worded(request, tmp_path_factory) -> str:
    packages = {"cm": "amsmath", "newpx": "amsmath,newpxtext,newpxmath"}[request.param]
    if request.param == "newpx" and not _installed("newpxmath.sty"):
        pytest.skip("newpx not installed (texlive-fonts-extra, make bench's deps)")
    return _markdown(tmp_path_factory.mktemp(f"worded-{request.param}"), packages, WORDS_BODY)


def test_fractions_of_words_are_displays(worded):
    displays = _displays(worded)
    assert len(displays) == 5 and all(r"\frac{" in d for d in displays[:3]), worded
    assert displays[4].count(r"\text{cosine-sim") == 2, worded
    assert worded.count(PROSE.replace("'", "’")) == 6, worded  # the prose around them stays whole


def test_a_denominator_of_words_under_its_display_is_the_formula_s(tmp_path):
    """mathptmx: the display of F1's words has a block of its own, its denominator ("Precision+Recall",
    a twentieth of it in maths) under it ran into the next paragraph."""
    markdown = _markdown(tmp_path, "amsmath,mathptmx", f"PROSE\n\\[\n{WORDS['f1']}\n\\]\nPROSE\n")
    assert r"\frac{\text{Precision }\times\ \text{Recall}}{\text{Precision }+\ \text{Recall}}" in markdown, markdown
    assert markdown.count(PROSE.replace("'", "’")) == 2, markdown


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_fractions_of_words_pass_olmocr(worded):
    assert _math(worded, **WORDS) == dict.fromkeys(WORDS, True), worded


def test_an_equation_number_alone_is_the_number_of_its_row():
    """dev4's bayes-tools (two columns): "(3)" was cut from its display by the reading order and
    stacked as a row of its own between two formulas; it is the number of the row above it (else
    below). Rows by hand: (LaTeX, first relation's x, x0, x1)."""
    from ocr_ray.layout.math_aligned import stacked

    assert stacked([("S_{N}=(B,U_{N}),", None, 140, 204), ("(3)", None, 280, 290), (r"Y=\theta^{\top}B", None, 142, 203)]) \
        == r"\begin{gathered}S_{N}=(B,U_{N}), \qquad (3) \\ Y=\theta^{\top}B\end{gathered}"
    assert stacked([(r"a=b \qquad (2)", 10, 0, 20), ("(3)", None, 280, 290), ("c=d", 10, 0, 20)]) \
        == r"\begin{aligned}a&=b \qquad (2) \\ c&=d \qquad (3)\end{aligned}"


# a display that fills a column, cut at its \qquad by the two-column reading order (dev4's bayes-tools
# p5, ICML's Times with CM maths): its number set on the line under it, "and" and the next display set
# tight below, the pieces were read as columns ("S_C=(B,U_C)," | "and", "S_N=.." | "Y=..", "U_N=.."),
# the number a paragraph's ("(1) and")
QQUAD = {"row": r"S_C=(B,U_C), \qquad S_N=(B,U_N), \qquad U_N=U_C+\eta_N,", "next": r"Y=\theta^\top B+\varepsilon."}
QQUAD_BODY = (f"PROSE There exist variables $B$, $U_C$, $\\eta_N$, and $\\varepsilon$ such that\n\\begin{{equation}}\n"
              f"{QQUAD['row']}\n\\end{{equation}}\nand\n\\begin{{equation}}\n{QQUAD['next']}\n\\end{{equation}}\nPROSE\n")


@pytest.fixture(scope="module", params=["times", "cm"])
def qquad(request, tmp_path_factory) -> str:
    packages = "amsmath,amssymb" + (",times" if request.param == "times" else "")
    tmp = tmp_path_factory.mktemp(f"qquad-{request.param}")
    return _markdown(tmp, packages, QQUAD_BODY, options="twocolumn")


def test_a_display_cut_at_its_qquad_is_read_whole(qquad):
    displays = _displays(qquad)
    assert displays == [r"S_{C}=(B,U_{C}),S_{N}=(B,U_{N}),U_{N}=U_{C}+\eta_{N}, \qquad (1)",
                        r"Y=\theta^{\top}B+\varepsilon. \qquad (2)"], qquad
    assert "$$\n\nand\n\n$$" in qquad, qquad


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_a_display_cut_at_its_qquad_passes_olmocr(qquad):
    assert _math(qquad, **QQUAD) == dict.fromkeys(QQUAD, True), qquad


# an aligned whose first row has words in it (\text{class}, a quarter of the row in maths) and whose
# second, longer row sets the block's edges (dev3's masterarbeit p33): the first row, flush with its
# block, was prose ("z0 = [ xclass; x1 pE; ..]"), the number a paragraph's first word
INSET = (r"\mathbf{z}_0 =\left[\mathbf{x}_{\text {class}} ; \mathbf{x}_p^1 \mathbf{E} ; \mathbf{x}_p^2 \mathbf{E} ; \cdots ; "
         r"\mathbf{x}_p^N \mathbf{E}\right]")
INSET_BODY = (f"PROSE\n\\begin{{equation}}\n\\begin{{aligned}}\n{INSET.replace(' =', ' & =', 1)} \\\\\n"
              r"& \quad +\mathbf{E}_{\text {pos}}, \quad \mathbf{E} \in \mathbb{R}^{\left(P^2 \cdot C\right) \times D}, \quad "
              r"\mathbf{E}_{\text {pos}} \in \mathbb{R}^{(N+1) \times D}"
              "\n\\end{aligned}\n\\end{equation}\nPROSE\n")


@pytest.mark.parametrize("packages", ["amsmath,amssymb,times", "amsmath,amssymb"])
def test_an_aligned_s_worded_first_row_is_the_display_s(tmp_path, packages):
    markdown = _markdown(tmp_path, packages, INSET_BODY)
    displays = _displays(markdown)
    assert len(displays) == 1 and displays[0].startswith(r"\begin{aligned}\mathbf{z}_{0}&=\big["), markdown
    assert markdown.count(PROSE.replace("'", "’")) == 2 and "(1) The" not in markdown, markdown


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_an_aligned_s_worded_first_row_passes_olmocr(tmp_path):
    assert _math(_markdown(tmp_path, "amsmath,amssymb", INSET_BODY), inset=INSET) == {"inset": True}
