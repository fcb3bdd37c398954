"""Maths idioms of real papers (issue 36 item 3, maths), each typeset here with pdflatex from its
LaTeX: the LaTeX is the truth. Each case checks the display's LaTeX as the builder spells it (by
hand, from the source) and olmOCR-Bench's own ``MathTest`` on the source (KaTeX in chromium:
marker ``browser``). The fixes' cases failed before them; the idioms read right already are kept
as guards."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from benchmarks.fulltext_real.olmocr_judge import judge
from tests.ocr.test_math_olmocr import PROSE, _displays, _markdown

# \underbrace and \overbrace: TeX draws the brace from four pieces of cmex (ends and tip halves,
# 0x7A-0x7D) joined by rules. The pieces were dropped and the label read as a script of the
# symbol before it (``a+^{n}b``) or as a paragraph after the display ("label"), and a wide brace's
# rules became fraction bars (``a\frac{{}_{1}+\cdot}{n}...``)
BRACES = [r"s = \underbrace{x+y}_{\text{label}} + z", r"t = \overbrace{a+b+c}^{n} + d",
          r"u = \underbrace{a_1 + \cdots + a_n}_{n \text{ terms}}",
          r"E = \underbrace{\frac{1}{2} m v^2}_{\text{kinetic}} + \underbrace{m g h}_{\text{potential}}",
          r"L = \overbrace{\sum_{i=1}^{n} \ell_i}^{\text{data}} + \lambda R"]
# a root's index was a superscript after it (``\surd[3]{z}``, ``\sqrt{z}^{3}``); a radical taller
# than cmex's largest is drawn as a bottom, a column and a top, and its vinculum starts at the top:
# it was no \sqrt (``\surd\frac{1}{n}...``)
ROOTS = [r"r = \sqrt{x^2 + y^2} + \sqrt[3]{z}",
         r"q = \sqrt[3]{\frac{a}{b}} + \sqrt{\frac{1}{n}\sum_{i=1}^{n} x_i^2}",
         r"v = \sqrt[p]{\sum_i |x_i|^p}"]
# a label over a relation (\stackrel, \overset) was a superscript of the symbol before it
# (``+^{\mathrm{def}}=1``, ``a^{(}=^{i)}b``); a \tfrac in the label (the dev paper hr-odes, the rows before its (98)) was a
# fraction of the row after the relation (``{}^{\alpha}=^{=}\tfrac{3}{4}``)
RELATIONS = [r"c = \binom{n}{k} + \stackrel{\text{def}}{=} 1", r"a \overset{(i)}{=} b",
             r"x \overset{\alpha=\tfrac{3}{4}}{=} 4c^3"]
# an arrow TeX draws as minus signs overlapping a "\to" (\longrightarrow; \xrightarrow stretched
# under its label) was "-\to", its label a superscript of each piece (``-^{n}-^{\to}--^{\infty}\to``)
ARROWS = [r"\mathbb{E}_{x \sim p}\left[\log q(x)\right] \xrightarrow{n\to\infty} 0",
          r"c \xrightarrow{f} d + e \longrightarrow f + g \to h"]
# limits of two lines (\substack): the second line's glyphs were read with the first's in x order
# (``\sum_{ji=\neq1i}``) or, under a \prod, as scripts of the symbols around (``+_{k}\prod_{k\in S}{}_{>0}``);
# a limit with a script of its own stays one line
LIMITS = [r"s = \sum_{\substack{i=1 \\ j \neq i}}^{n} a_{ij} + \prod_{\substack{k \in S \\ k > 0}} b_k",
          r"t = \sum_{i \in S_k} c_i"]
# read right already (probed 2026-11-29): guards
GUARDS = [r"\hat{y} = \widetilde{X} + \widehat{W}", r"T(n) = \mathcal{O}(n\log n)",
          r"p = \exp\left(-\frac{\|x - \mu\|_2^2}{2\sigma^2}\right)",
          r"s = \langle u, v\rangle + \lVert w \rVert",
          r"g = \nabla_\theta \mathcal{L}(\theta) + \mathbf{W}^\top x", r"W \in \mathbb{R}^{d\times d}",
          r"y = \mathop{\mathrm{softmax}}(x)"]
CASES = {"braces": BRACES, "roots": ROOTS, "relations": RELATIONS, "arrows": ARROWS, "limits": LIMITS,
         "guards": GUARDS}


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("math-idioms")
    return {name: _markdown(root / name, "amsmath,amssymb", formulas) for name, formulas in CASES.items()}


def test_braces_keep_what_they_span_and_their_labels(pages):
    assert _displays(pages["braces"]) == [
        r"s=\underbrace{x+y}_{\mathrm{label}}+z", r"t=\overbrace{a+b+c}^{n}+d",
        # a word set a word space after a letter keeps its space (it was n\mathrm{terms})
        r"u=\underbrace{a_{1}+\cdots+a_{n}}_{n\ \text{terms}}",
        r"E=\underbrace{\frac{1}{2}mv^{2}}_{\mathrm{kinetic}}+\underbrace{mgh}_{\text{potential}}",
        r"L=\overbrace{\sum_{i=1}^{n}\ell_{i}}^{\mathrm{data}}+\lambda R"], pages["braces"]
    assert "label\n" not in pages["braces"] and "\ndata\n" not in pages["braces"]


def test_roots_keep_their_index_and_their_vinculum(pages):
    assert _displays(pages["roots"]) == [r"r=\sqrt{x^{2}+y^{2}}+\sqrt[3]{z}",
                                         r"q=\sqrt[3]{\frac{a}{b}}+\sqrt{\frac{1}{n}\sum_{i=1}^{n}x_{i}^{2}}",
                                         r"v=\sqrt[p]{\sum_{i}|x_{i}|^{p}}"], pages["roots"]


def test_a_label_over_a_relation_is_set_over_it(pages):
    displays = _displays(pages["relations"])
    assert [d.split("+")[-1] for d in displays[:1]] == [r"\overset{\mathrm{def}}{=}1"], pages["relations"]
    assert displays[1:] == [r"a\overset{(i)}{=}b", r"x\overset{\alpha=\tfrac{3}{4}}{=}4c^{3}"], pages["relations"]


def test_long_and_labelled_arrows_are_one_arrow(pages):
    assert _displays(pages["arrows"]) == [r"\mathbb{E}_{x\sim p}[\log q(x)]\xrightarrow{n\to\infty}0",
                                          r"c\xrightarrow{f}d+e\longrightarrow f+g\to h"], pages["arrows"]


def test_limits_of_two_lines_are_a_substack(pages):
    assert _displays(pages["limits"]) == [
        r"s=\sum_{\substack{i=1 \\ j\neq i}}^{n}a_{ij}+\prod_{\substack{k\in S \\ k>0}}b_{k}",
        r"t=\sum_{i\in S_{k}}c_{i}"], pages["limits"]


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
@pytest.mark.parametrize("case", list(CASES))
def test_olmocr_math_tests_pass_on_the_idioms(pages, case):
    tests = [{"id": f"{case}-{k}", "type": "math", "math": m} for k, m in enumerate(CASES[case])]
    assert judge(pages[case], tests) == dict.fromkeys((t["id"] for t in tests), True), pages[case]


# an align's rows, some unnumbered (\nonumber), each starting at its "&=": one display per row,
# the number beside its own row (a guard: read so already)
ALIGN = [r"\mathcal{L}(\theta) = \sum_{i=1}^{n} \ell(f_\theta(x_i), y_i)",
         r"= \frac{1}{n} \sum_{i=1}^{n} (y_i - \theta^\top x_i)^2 + \lambda \|\theta\|_2^2", r"\le C"]


@pytest.mark.browser
def test_an_align_with_unnumbered_rows_reads_row_by_row(tmp_path):
    from ocr_ray.layout import compose_pages
    from tests.ocr.conftest import display_rows, typeset_layouts

    body = (f"{PROSE}\n\\begin{{align}}\n{ALIGN[0].replace(' = ', ' &= ', 1)} \\nonumber \\\\\n&{ALIGN[1]} \\\\\n"
            f"&{ALIGN[2]} \\nonumber\n\\end{{align}}\n{PROSE}\n")
    markdown = "\n\n".join(compose_pages([p.to_json() for p in typeset_layouts(tmp_path, "amsmath,amssymb", body)]))
    blocks = display_rows(markdown)  # (one display, its rows stacked)
    assert [b.endswith(r"\qquad (1)") for b in blocks] == [False, True, False], markdown
    tests = [{"id": f"align-{k}", "type": "math", "math": m} for k, m in enumerate(ALIGN)]
    assert judge(markdown, tests) == dict.fromkeys((t["id"] for t in tests), True), markdown


def _typeset_class(tmp: Path, documentclass: str, preamble: str, body: str) -> str:
    """``body`` in ``documentclass`` (``[options]{class}``) typeset by pdflatex, read back, composed."""
    import pypdfium2

    from ocr_ray.layout import compose_pages
    from ocr_ray.layout.pdftext import page_layout

    (tmp / "m.tex").write_text(f"\\documentclass{documentclass}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "m.tex"], cwd=tmp, check=True,
                   capture_output=True, timeout=180)
    doc = pypdfium2.PdfDocument(str(tmp / "m.pdf"))
    return "\n\n".join(compose_pages([page_layout(doc[i]).to_json() for i in range(len(doc))]))


NUMBERED = [rf"z_{{{k}}} = \sum_{{i=1}}^{{n}} w_i \mathbf{{x}}_i^{{{k}}}" for k in range(1, 13)]


@pytest.mark.browser
@pytest.mark.parametrize("documentclass,cls,preamble", [
    ("[conference]{IEEEtran}", "IEEEtran.cls", r"\usepackage{amsmath,amssymb}\usepackage{hyperref}"),
    ("[sigconf]{acmart}", "acmart.cls", r"\settopmatter{printacmref=false}\setcopyright{none}"
                                        r"\renewcommand\footnotetextcopyrightpermission[1]{}"),
    ("[twocolumn]{article}", "article.cls", r"\usepackage{amsmath,amssymb}\usepackage{hyperref}")])
def test_numbered_equations_in_two_column_classes(tmp_path, documentclass, cls, preamble):
    """Numbered displays in two columns over several pages (hyperref makes each number a link
    target; acmart sets newtx maths): each read with its own number, in order (a guard)."""
    if subprocess.run(["kpsewhich", cls], capture_output=True, text=True).stdout.strip() == "":
        pytest.skip(f"{cls} not installed (texlive-publishers)")
    title = r"\title{Numbered equations}\maketitle" if "acmart" in cls else ""
    body = title + "\n" + "\n".join(f"{PROSE} {PROSE}\n\\begin{{equation}}\n{f}\n\\label{{e{k}}}\n\\end{{equation}}"
                                    for k, f in enumerate(NUMBERED)) + f"\n{PROSE} As in (\\ref{{e0}}).\n"
    markdown = _typeset_class(tmp_path, documentclass, preamble, body)
    blocks = [b.split("\n")[1] for b in markdown.split("\n\n") if b.startswith("$$")]
    assert [b.rsplit(r"\qquad ", 1)[-1] for b in blocks] == [f"({k})" for k in range(1, 13)], markdown
    tests = [{"id": f"eq-{k}", "type": "math", "math": m} for k, m in enumerate(NUMBERED)]
    assert judge(markdown, tests) == dict.fromkeys((t["id"] for t in tests), True), markdown
