"""Displays in maths fonts nobody tuned on (issue 36 item 3, maths; helper maths12): STIX Two, kpfonts
and fourier, typeset here with pdflatex, the truth the LaTeX source, judged by olmOCR-Bench's own
``MathTest`` (``olmocr_judge``).

Read wrong before, each in one font or more: a limit under ``\\arg\\min`` whose letters reach above
the "g"'s descender (STIX Two, kpfonts, fourier: ``\\arg\\min_{\\in\\Theta}{}_{\\theta}``); STIX Two's
``\\ell`` (U+1D4C1, read ``\\mathcal{l}``), its ratio colon (U+2236) and division slash (U+2215: the
display was unread); fourier's big delimiters (fourier-mex keeps cmex's first codes at 161-196 with no
ToUnicode: ``\\Bigg(`` was "Ã", ``\\tilde{A}``) and its symbols whose glyph names PDFium does not
know (radicallow, mapstochar, emptysetstress: ``\\frac{1}{\\mathrm{p}2\\pi}``)."""
from __future__ import annotations

import pytest

from tests.ocr.math_typeset import body_of
from tests.ocr.math_typeset import displays as _displays
from tests.ocr.math_typeset import markdown_of as _markdown
from tests.ocr.math_typeset import math_verdicts as _math

FORMULAS = {
    "argmin": r"\hat{\theta} = \arg\min_{\theta \in \Theta} \sum_{j} \ell(f_\theta(x_j), y_j)",
    "kl": r"D_{\mathrm{KL}}(q \,\|\, p) = \mathbb{E}_{x \sim q}\left[\log \frac{q(x)}{p(x)}\right]",
    "gauss": r"p(x) = \frac{1}{\sqrt{2\pi\sigma^2}} \exp\left(-\frac{(x-\mu)^2}{2\sigma^2}\right)",
    "prod": r"p(x_{1:T}) = \prod_{t=1}^{T} p(x_t \mid x_{<t})",
    "symbols": r"a \mapsto b, \quad c \in \emptyset, \quad r = \sqrt{x}",
    # what stays: an integral's limits beside it
    "int": r"F(x) = \int_{-\infty}^{x} f(t)\, dt",
    # STIX Two's slash in maths is U+2215, a division slash (the display was unread)
    "slash": r"r = \sqrt{\frac{\log(1/\delta)}{2n}}",
}
BODY = body_of(FORMULAS.values())
OTHER_FONTS = {"stix2": "amsmath,stix2", "kpfonts": "amsmath,kpfonts", "fourier": "amsmath,amssymb,fourier"}


@pytest.fixture(scope="module", params=sorted(OTHER_FONTS))
def other(request, tmp_path_factory) -> str:
    return _markdown(tmp_path_factory.mktemp(f"other-{request.param}"), OTHER_FONTS[request.param], BODY)


def test_displays_in_other_fonts_are_read(other):
    displays = _displays(other)
    assert len(displays) == len(FORMULAS) and "<!-- math: unread -->" not in other, other
    assert r"\arg\min_{\theta\in\Theta}\sum_{j}\ell(" in displays[0], other
    assert r"\tilde{A}" not in displays[1] + displays[2] and r"\sqrt{2\pi\sigma^{2}}" in displays[2], other
    assert r"p(x_{1:T})" in displays[3], other
    assert displays[4] == r"a\mapsto b,c\in\emptyset,r=\sqrt{x}", other  # (a \quad is not written)
    assert displays[5] == r"F(x)=\int_{-\infty}^{x}f(t)dt", other
    assert displays[6] == r"r=\sqrt{\frac{\log(1/\delta)}{2n}}", other


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_displays_in_other_fonts_pass_olmocr(other):
    assert _math(other, **FORMULAS) == dict.fromkeys(FORMULAS, True), other


# the variant Greek letters of fonts that set maths letters as Unicode's maths alphabets (newtx,
# newpx, STIX Two): NFKC folded 𝜖 and 𝜙 into ε and φ, and \epsilon read \varepsilon, \phi \varphi
GREEK = {"variants": r"a = \epsilon + \varepsilon, \quad b = \phi + \varphi, \quad c = \vartheta + \varrho + \varpi"}
ALPHABET_FONTS = {"newtx": "amsmath,newtxtext,newtxmath", "newpx": "amsmath,newpxtext,newpxmath",
                  "stix2": "amsmath,stix2"}


@pytest.fixture(scope="module", params=sorted(ALPHABET_FONTS))
def greek(request, tmp_path_factory) -> str:
    body = f"PROSE\n\\begin{{equation*}}\n{GREEK['variants']}\n\\end{{equation*}}\nPROSE\n"
    return _markdown(tmp_path_factory.mktemp(f"greek-{request.param}"), ALPHABET_FONTS[request.param], body)


def test_variant_greek_letters_of_maths_alphabets_are_read(greek):
    assert _displays(greek) == [r"a=\epsilon+\varepsilon,b=\phi+\varphi,c=\vartheta+\varrho+\varpi"], greek


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
def test_variant_greek_letters_pass_olmocr(greek):
    assert _math(greek, **GREEK) == {"variants": True}, greek
