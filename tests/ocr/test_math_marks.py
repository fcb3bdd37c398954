"""Maths glyphs whose text the PDF gives wrong or oddly, and prose set tight around displays (issue 36
item 3, maths; the probes after 0a3ff42): each typeset here with pdflatex, the truth the LaTeX source,
judged by olmOCR-Bench's own ``TextPresenceTest`` and ``MathTest`` (``olmocr_judge``)."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.layout import compose_pages
from ocr_ray.layout.math_hook import UNREAD_MARK
from tests.ocr.conftest import display_rows, typeset_layouts

PROSE = ("The method is run on every step, and the text between the formulas is long enough to fill the "
         "column as a paper's prose does, so that nothing on this page looks like a column of its own.")


def _markdown(tmp: Path, packages: str, body: str, preamble: str = "") -> str:
    layouts = typeset_layouts(tmp, packages, body.replace("PROSE", PROSE), preamble)
    return "\n\n".join(compose_pages([p.to_json() for p in layouts]))


def _present(markdown: str, **texts: str) -> dict[str, bool]:
    return judge(markdown, [{"id": k, "type": "present", "text": t, "max_diffs": 0} for k, t in texts.items()])


def test_an_inline_big_operator_in_prose_is_its_symbol(tmp_path):
    r"""pdfTeX writes no ToUnicode by default: CMEX's text-size \sum and \int (summationtext,
    integraltext: no Adobe glyph names) came as their codes, "P" and "R", in prose ("We integrate
    R 1 0 f(x) dx and sum Pn i=1 xi"). The source's \int and \sum are U+222B and U+2211."""
    body = r"PROSE We integrate $\int_0^1 f(x)\,dx$ and sum $\sum_{i=1}^n x_i$ over the items of this sentence. PROSE"
    markdown = _markdown(tmp_path, "amsmath", body)
    assert _present(markdown, integral="We integrate ∫", sum="and sum ∑", prose=PROSE.replace("'", "’")) == \
        {"integral": True, "sum": True, "prose": True}, markdown
    assert judge(markdown, [{"id": "raw", "type": "absent", "text": "and sum P"}]) == {"raw": True}, markdown


SUMS = r"s = \sum_{i=1}^{n} x_i + \int_0^1 f(x)\,dx"


@pytest.fixture(scope="module")
def marked(tmp_path_factory) -> str:
    """A display whose \\sum and \\int the font's ToUnicode writes with a combining overline, as a
    real paper's own glyph map did (U+2211 U+0305): PDFium gives the mark as a character of its own
    in the glyph's box, and the display was left unread (plain text, counted as degraded)."""
    preamble = (r"\input{glyphtounicode}\pdfglyphtounicode{summationdisplay}{2211 0305}"
                r"\pdfglyphtounicode{integraldisplay}{222B 0305}\pdfgentounicode=1")
    return _markdown(tmp_path_factory.mktemp("marked"), "amsmath",
                     f"PROSE\n\\begin{{equation}}\n{SUMS}\n\\end{{equation}}\nPROSE\n", preamble)


def test_a_big_operator_with_a_combining_mark_is_the_operator(marked):
    assert UNREAD_MARK not in marked, marked
    assert r"$$" + "\n" + r"s=\sum_{i=1}^{n}x_{i}+\int_{0}^{1}f(x)dx \qquad (1)" in marked, marked


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_a_big_operator_with_a_combining_mark_passes_olmocr(marked):
    assert judge(marked, [{"id": "sums", "type": "math", "math": SUMS}]) == {"sums": True}, marked


# rnn-extrapolation (dev set) p27: a sentence with inline maths set 2 pt under a display (the page's
# display skips shrunk) joined it, "\mathrm{We}\ \text{make}\ \text{use}..." (Times text, mathabx's
# maths: its glyphs kept, a maths share over 0.15)
TIGHT = (r"PROSE\setlength\abovedisplayskip{1pt}\setlength\belowdisplayskip{1pt}" "\n"
         r"\begin{equation}\Rightarrow \|A(t_3)\|_F < \tilde{M}_2 \epsilon^{1.5} \frac{1}{2w_0}"
         r"\ln{\left(\frac{1}{\epsilon^{0.5}}\right)} + \|A(0)\|_F.\end{equation}" "\n"
         r"We make use of the fact that $\forall x>0$, $ln(x)<x$ to bound," "\n"
         r"\begin{equation}\tilde{M}_2 \epsilon^{1.5} \le \frac{\tilde{M_2}}{2w_0}\epsilon.\end{equation}" "\n"
         "PROSE\n")


def test_a_sentence_set_tight_under_a_display_stays_prose(tmp_path):
    markdown = _markdown(tmp_path, "amsmath,amssymb,mathabx,times", TIGHT)
    assert _present(markdown, sentence="We make use of the fact that") == {"sentence": True}, markdown
    assert sum(b.startswith("$$") for b in markdown.split("\n\n")) == 2, markdown  # both displays stay


# displays whose first line holds no maths glyph (issue 36, maths; docs/fulltext.md "still wrong"):
# words of the text font on both sides of a relation, numbered, and a fraction of words (its
# numerator a line of words over the bar) were prose ("covariance of the pair coefficient =" |
# "variance (1) The method..."; "loss = the cross entropy (2)"); word operators first (guards: read
# already by their limits under them)
WORDED = {"fraction": r"\text{coefficient} = \frac{\text{covariance of the pair}}{\text{variance}}",
          "row": r"\text{loss} = \text{the cross entropy}",
          "row2": r"= -\sum_{i=1}^n y_i \log p_i",
          "min": r"\min_{\theta \in \Theta} \mathcal{L}(\theta)",
          "argmax": r"\arg\max_{k} p(k \mid x)"}
WORDED_BODY = (f"PROSE\n\\begin{{equation}}\n{WORDED['fraction']}\n\\end{{equation}}\nPROSE\n"
               f"\\begin{{align}}\n\\text{{loss}} &= \\text{{the cross entropy}} \\\\\n&= -\\sum_{{i=1}}^n y_i \\log p_i\n\\end{{align}}\nPROSE\n"
               f"\\begin{{equation*}}\n{WORDED['min']}\n\\end{{equation*}}\nPROSE\n"
               f"\\begin{{equation*}}\n{WORDED['argmax']}\n\\end{{equation*}}\nPROSE\n")


@pytest.fixture(scope="module")
def worded(tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp("worded"), "amsmath", WORDED_BODY)


def test_a_display_of_words_first_is_a_display(worded):
    displays = display_rows(worded)  # (the align's two rows stacked in one display)
    assert len(displays) == 5 and all(r"\text{" in d for d in displays[:2]), worded
    # the prose around them stays prose, whole
    assert worded.count(PROSE.replace("'", "’")) == 5, worded


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_a_display_of_words_first_passes_olmocr(worded):
    assert judge(worded, [{"id": k, "type": "math", "math": m} for k, m in WORDED.items()]) == dict.fromkeys(WORDED, True), worded


def test_an_equation_number_at_the_top_of_a_one_page_input_stays(tmp_path):
    """IEEEtran's first display on a one-page input: its number sits in the page's top edge zone and
    was dropped as a page number ("(1)" reads like one; one page has no neighbours to disagree). An
    equation number is right of a formula on its row; the source numbers the displays (1) and (2)."""
    import shutil
    import subprocess

    import pypdfium2

    from ocr_ray.layout.pdftext import page_layout

    if shutil.which("pdflatex") is None or not subprocess.run(["kpsewhich", "IEEEtran.cls"], capture_output=True,
                                                               text=True).stdout.strip():
        pytest.skip("pdflatex or IEEEtran.cls not installed (texlive-publishers)")
    (tmp_path / "m.tex").write_text(
        "\\documentclass[conference]{IEEEtran}\n\\usepackage{amsmath}\n\\begin{document}\n"
        f"\\begin{{equation}}\nz = \\sum_{{i=1}}^{{n}} w_i x_i\n\\end{{equation}}\n{PROSE} {PROSE}\n"
        f"\\begin{{equation}}\ny = \\int_0^1 f(x)\\,dx\n\\end{{equation}}\n{PROSE}\n\\end{{document}}\n")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "m.tex"], cwd=tmp_path, check=True,
                   capture_output=True, timeout=180)
    doc = pypdfium2.PdfDocument(str(tmp_path / "m.pdf"))
    markdown = "\n\n".join(compose_pages([page_layout(doc[0]).to_json()]))
    assert _present(markdown, first="(1)", second="(2)") == {"first": True, "second": True}, markdown
    assert [b.split("\n")[1].rsplit(" ", 1)[-1] for b in markdown.split("\n\n") if b.startswith("$$")] == ["(1)", "(2)"], markdown


def test_mathabx_glyphs_in_prose_read_as_they_show(tmp_path):
    r"""mathabx's fonts carry no ToUnicode and PDFium names their glyphs by T1's layout: the dev
    paper rnn-extrapolation's prose read "@x ą 0, lnpxq ă x" for $\forall x>0$, $ln(x)<x$ (its
    source), "}Ap0q}F" for $\|A(0)\|_F$."""
    markdown = _markdown(tmp_path, "amsmath,amssymb,mathabx,times", TIGHT)
    assert _present(markdown, sentence="We make use of the fact that ∀x > 0, ln(x) < x to bound,") == \
        {"sentence": True}, markdown


# rnn-extrapolation (dev) p20: a short sentence a third of it maths ("establishing that
# \frac{d}{dt}(..) = 0.") set tight under a numbered display was a display of its own and took the
# display above with it, unread ("... ff “ 0. establishing that d dt ` }B} 2 F ..." marked unread)
AFTER = r"\dot{\alpha} = -2 \left[ B^\top \left( \sum_{i=0}^{k-1} \nabla \ell_i (A^\top)^i \right) C^\top \right] = 0."
ESTABLISHING = (r"PROSE\setlength\abovedisplayskip{1pt}\setlength\belowdisplayskip{1pt}" "\n"
                f"\\begin{{equation}}\n{AFTER}\n\\end{{equation}}\n"
                r"establishing that $\frac{d}{dt}\left(\|B\|_F^2 - \|C\|_F^2\right) = 0$." "\n\nPROSE\n")


def test_a_short_sentence_of_maths_under_a_display_is_prose(tmp_path):
    markdown = _markdown(tmp_path, "amsmath,amssymb,mathabx,times", ESTABLISHING)
    assert UNREAD_MARK not in markdown, markdown
    displays = [b.split("\n")[1] for b in markdown.split("\n\n") if b.startswith("$$")]
    assert len(displays) == 1 and displays[0].endswith(r"\qquad (1)"), markdown  # the display keeps its number
    assert _present(markdown, sentence="establishing that") == {"sentence": True}, markdown
    assert "$$\n\nestablishing that" in markdown, markdown  # a paragraph of its own after the display
