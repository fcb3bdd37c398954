"""Display maths read back as LaTeX from glyph geometry (``ocr_ray.layout.math``), on formulas
typeset here with pdflatex, and judged by olmOCR-Bench's own ``MathTest`` (KaTeX renderings compared
in chromium: ``benchmarks/fulltext_real/olmocr_judge.py``)."""
from __future__ import annotations

import subprocess

import pytest

from benchmarks.fulltext_real.olmocr_judge import judge, olmocr_test
from ocr_ray.layout import compose_pages
from ocr_ray.layout.math_hook import unreadable_math
from tests.ocr.conftest import displays, typeset_layouts

FORMULAS = [
    r"w_{t,i} = \frac{P_{t,i}}{\sum_{j \in \mathcal{T}_t} P_{t,j}} \quad \forall i \in \mathcal{T}_t",
    r"b_t(\phi) = \sum_{i=1}^{n} w_{t,i} B_i + \int_0^1 f(x)\,dx",
    r"\lambda_g = \biggl( \sum_{s \in S} \zeta^n \psi(gs) \biggr) + \sqrt{a^2+b}",
    r"\mathbb{E}[x] \le \alpha \mathbf{K}^2 + \max_{s} D_{KL}",
    r"L = \left(\frac{D}{5.4 \times 10^{13}}\right)^{-0.095}",
]
# what the builder writes for them (one spelling among many; the KaTeX test below compares renderings),
# each with its number: the source's equations are numbered (1) to (5) in turn. The numbers stand
# in a column of their own beside short lines of text; they are read with their rows, not apart.
EXPECTED = [rf"{tex} \qquad ({n})" for n, tex in enumerate([
    r"w_{t,i}=\frac{P_{t,i}}{\sum_{j\in\mathcal{T}_{t}}P_{t,j}}\forall i\in\mathcal{T}_{t}",
    r"b_{t}(\phi)=\sum_{i=1}^{n}w_{t,i}B_{i}+\int_{0}^{1}f(x)dx",
    r"\lambda_{g}=\bigg(\sum_{s\in S}\zeta^{n}\psi(gs)\bigg)+\sqrt{a^{2}+b}",
    r"\mathbb{E}[x]\le\alpha\mathbf{K}^{2}+\max_{s}D_{KL}",
    r"L=\bigg(\frac{D}{5.4\times10^{13}}\bigg)^{-0.095}",
], start=1)]


@pytest.fixture(scope="module")
def typeset(tmp_path_factory):
    body = "\n".join(f"Text before formula {k}.\n\\begin{{equation}}\n{f}\n\\end{{equation}}"
                     for k, f in enumerate(FORMULAS))
    layouts = typeset_layouts(tmp_path_factory.mktemp("math"), "amsmath,amssymb", body)
    return layouts, "\n\n".join(compose_pages([p.to_json() for p in layouts]))


def test_display_formulas_become_latex(typeset):
    layouts, markdown = typeset
    blocks = displays(markdown)
    assert blocks == EXPECTED, blocks
    assert sum(unreadable_math(p) for p in layouts) == 0


def test_a_glyph_without_reading_is_unreadable_and_marked():
    from ocr_ray.layout.blocks import page_blocks
    from ocr_ray.layout.model import Fragment, PageLayout

    glyphs = [["x", 100, 100, 105, 105, 105, 10, "CMMI10"], ["=", 107, 101, 113, 104, 105, 10, "CMR10"],
              ["\ue0ff", 115, 98, 125, 108, 105, 10, "WEIRDMATH"]]
    frag = Fragment(100, 98, 125, 108, "x = \ue0ff", 10, math=1.0, glyphs=glyphs)
    page = PageLayout(600, 800, [Fragment(50, 80, 500, 90, "Some body text of the page here.", 10), frag])
    assert unreadable_math(page) == 1
    out = "\n\n".join(page_blocks(page, 10, first_page=False))
    assert "<!-- math: unread -->" in out and "x =" in out


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_olmocr_math_tests_pass_on_the_formulas_read(typeset):
    _, markdown = typeset
    for block in displays(markdown):  # every block the builder writes is a math test olmocr can render
        olmocr_test({"id": "block", "type": "math", "math": block})
    tests = [{"id": f"formula-{k}", "type": "math", "math": source} for k, source in enumerate(FORMULAS)]
    assert judge(markdown, tests) == dict.fromkeys((t["id"] for t in tests), True)
    # a different spelling of the same drawing passes; a wrong script or symbol does not
    doc = "$$\n\\text{clip}\\left( x_{i} \\right)^2 \\quad = 1\n$$"
    assert judge(doc, [{"id": "same", "type": "math", "math": r"\mathrm{clip}(x_i)^{2} = 1"},
                       {"id": "script", "type": "math", "math": r"\mathrm{clip}(x^i)^{2} = 1"},
                       {"id": "symbol", "type": "math", "math": r"\mathrm{clip}(y_i)^{2} = 1"}]) == {
        "same": True, "script": False, "symbol": False}


def test_pages_with_unreadable_math_are_routed_to_the_vlm(monkeypatch):
    from types import SimpleNamespace

    from ocr_ray import routing
    from ocr_ray.layout.model import Fragment, PageLayout

    prose = " ".join(["The method reads every page of the paper in order and keeps its words."] * 3)
    glyphs = [["x", 100, 100, 105, 105, 105, 10, "CMMI10"], ["\ue0ff", 115, 98, 125, 108, 105, 10, "WEIRDMATH"]]
    layout = PageLayout(600, 800, [Fragment(50, 80, 500, 90, prose, 10),
                                   Fragment(100, 98, 125, 108, "x \ue0ff", 10, math=1.0, glyphs=glyphs)])
    monkeypatch.setattr(routing, "page_layout", lambda page: layout)
    monkeypatch.setattr(routing, "count_images", lambda page: 0)
    monkeypatch.setattr(routing, "render_page_jpeg", lambda page, side: b"jpeg")
    vlm = SimpleNamespace(name="vllm", image_longest_side=1024)
    assert routing.route_page(None, vlm, (*routing.OCR_ROUTES, routing.MATH_ROUTE))["route"] == "vllm:unreadable_math"
    # a CPU OCR engine is never given them: the text layer keeps the page
    assert routing.route_page(None, vlm, routing.OCR_ROUTES)["route"] == "text-layer:prose"
    layout.fragments[1].glyphs = glyphs[:1]
    assert routing.route_page(None, vlm, (*routing.OCR_ROUTES, routing.MATH_ROUTE))["route"] == "text-layer:prose"


def test_a_contour_integral_over_a_boundary_is_read(tmp_path):
    """Issue 36 (maths): ``\\oint_{\\partial\\Omega}`` beside ``\\mathcal{L}`` stayed an unread display:
    CMR's capital Omega is named "Omega", which the Adobe Glyph List maps to the ohm sign U+2126
    (PDFium's pick), a character the builder had no reading for."""
    source = r"\mathcal{L}(\theta) = \oint_{\partial\Omega} \|\nabla u\|^{2}\, d\sigma + \Omega"
    body = f"Text before the formula.\n\\begin{{equation}}\n{source}\n\\end{{equation}}\nText after it."
    layouts = typeset_layouts(tmp_path, "amsmath,amssymb", body)
    markdown = "\n\n".join(compose_pages([p.to_json() for p in layouts]))
    assert displays(markdown) == [r"\mathcal{L}(\theta)=\oint_{\partial\Omega}\|\nabla u\|^{2}d\sigma+\Omega \qquad (1)"]
    assert sum(unreadable_math(p) for p in layouts) == 0


def test_an_upper_limit_of_digits_stays_with_its_operator(tmp_path):
    """Issue 36 (maths), integral limits split off: an upper limit of digits alone (the "2" of
    ``\\sum_{i=1}^{2}``, the "1" of ``\\int\\limits_{0}^{1}``) holds no maths font, so the short line it
    makes above the display was left to the paragraph before, and the display lost it. The
    integral's limits are written as set, \\limits (read as \\int_{0}^{1}, KaTeX sets them beside it)."""
    formulas = [r"S = \sum_{i=1}^{2} a_i + c", r"T = \int\limits_{0}^{1} b(t)\, dt", r"U = \prod_{k=0}^{10} u_k"]
    prose = "Some text before the display, long enough to be a line of prose of this page here."
    body = "\n".join(f"{prose}\n\\begin{{equation}}\n{f}\n\\end{{equation}}" for f in formulas)
    layouts = typeset_layouts(tmp_path, "amsmath", body)
    markdown = "\n\n".join(compose_pages([p.to_json() for p in layouts]))
    assert displays(markdown) == [r"S=\sum_{i=1}^{2}a_{i}+c \qquad (1)", r"T=\int\limits_{0}^{1}b(t)dt \qquad (2)",
                                  r"U=\prod_{k=0}^{10}u_{k} \qquad (3)"], markdown
    assert markdown.startswith(f"{prose}\n\n$$"), markdown


def test_a_relation_negated_with_not_is_read(tmp_path):
    """Issue 36 (maths): TeX draws ``\\ne`` and ``\\notin`` as CMSY's slash (read U+0338) over the
    relation: the display was left unread (``\\sum_{j \\ne i}``)."""
    source = r"R = \sum_{j \ne i} w_{ij} + [x \notin A] + [y \not\le z]"
    body = f"Text before the formula.\n\\begin{{equation}}\n{source}\n\\end{{equation}}\nText after it."
    layouts = typeset_layouts(tmp_path, "amsmath,amssymb", body)
    markdown = "\n\n".join(compose_pages([p.to_json() for p in layouts]))
    assert displays(markdown) == [r"R=\sum_{j\neq i}w_{ij}+[x\notin A]+[y\not\le z] \qquad (1)"], markdown


def test_double_and_triple_integral_glyphs_are_big_operators():
    from ocr_ray.layout.math_atoms import glyph_atom

    # newtx (TXEXS) and STIX Two write U+222C and U+222D for \iint and \iiint
    assert [(a.tex, a.kind) for a in (glyph_atom([ch, 0, 0, 9, 20, 15, 10, font]) for ch, font in
            (("∬", "TXEXS"), ("∭", "STIXTWOMATH")))] == [(r"\iint", "op"), (r"\iiint", "op")]


@pytest.mark.parametrize("packages", ["amsmath", "amsmath,eulervm"])
def test_amsmaths_multiple_integrals_in_computer_modern_are_one_operator(tmp_path, packages):
    """amsmath draws \\iint and \\iiint in Computer Modern as \\int signs kerned into each other (in
    eulervm's narrow upright signs 0.3 pt apart); the source's \\int_{0}^{1} \\int_{0}^{1}, two
    integrals apart, stays two."""
    if packages != "amsmath" and not subprocess.run(["kpsewhich", "eulervm.sty"], capture_output=True,
                                                    text=True).stdout.strip():
        pytest.skip("eulervm not installed")
    formulas = [r"A = \iint_{D} f\, dA + \iiint_{V} g\, dV", r"B = \int_{0}^{1} \int_{0}^{1} h(x, y)\, dx\, dy"]
    prose = "Some text before the display, long enough to be a line of prose of this page here."
    body = "\n".join(f"{prose}\n\\begin{{equation}}\n{f}\n\\end{{equation}}" for f in formulas)
    layouts = typeset_layouts(tmp_path, packages, body)
    markdown = "\n\n".join(compose_pages([p.to_json() for p in layouts]))
    assert displays(markdown) == [r"A=\iint_{D}fdA+\iiint_{V}gdV \qquad (1)",
                                  r"B=\int_{0}^{1}\int_{0}^{1}h(x,y)dxdy \qquad (2)"], markdown


def test_a_display_ending_a_column_leaves_the_next_columns_first_line_out(tmp_path):
    """Issue 36 (maths), the dev paper physics-ntp: a display at the foot of the left column, the
    right column's next line ("The information capacity ...") far above it. The rule for a row of
    cases whose cell is a word (a line inside the display's height) took that line: it ends above
    the display's foot and starts right of its left edge; the display and the line were unread
    together. Truth from the source below."""
    prose = " ".join(["The model is trained on every step of the data, and the text runs on here."] * 9)
    after = "The information capacity falls within a normal range, thus the law is consistent here."
    # unnumbered, as the paper sets it (in a narrow column a number goes to a line of its own)
    body = (f"{prose}\n\\begin{{equation*}}\n\\eta = \\frac{{H-L}}{{k}} \\in \\left[\\frac{{10-7}}{{26.08}}, "
            f"\\frac{{10-3}}{{26.08}}\\right] = [0.115, 0.268].\n\\end{{equation*}}\n\\newpage\n{after}\n{prose}\n")
    layouts = typeset_layouts(tmp_path, "amsmath", body, options="twocolumn")
    markdown = "\n\n".join(compose_pages([p.to_json() for p in layouts]))
    assert "math: unread" not in markdown, markdown
    [display] = displays(markdown)
    assert display.startswith(r"\eta=\frac{H-L}{k}\in") and "information" not in display, markdown
    assert after in markdown, markdown
