"""Display maths as olmOCR-Bench's MathTest reads it (issue 27): the test renders its LaTeX and each
``$$...$$`` of the page with KaTeX and compares the renderings. Formulas typeset here with pdflatex;
each test checks a plain property of the markdown, and, where olmocr's own environment exists
(``REVIEWBENCH_OLMOCR_VENV``, as ``make bench`` makes it), olmocr's verdict on the formula's source."""
from __future__ import annotations

import json
import os
from pathlib import Path

from benchmarks.fulltext_real import olmocr_bench
from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts

PROSE = ("The method is run on every step, and the text between the formulas is long enough to fill the "
         "column as a paper's prose does, so that nothing on this page looks like a column of its own.")


def _olmocr_python() -> Path | None:
    venv = Path(os.environ.get("REVIEWBENCH_OLMOCR_VENV", "var/olmocr-venv"))
    return venv / "bin" / "python" if (venv / "bin" / "python").exists() else None


def olmocr_math_verdicts(tmp: Path, markdown: str, maths: list[str]) -> dict[str, bool] | None:
    """olmocr's MathTest verdict on each of ``maths`` against a one-page ``markdown``; None without
    olmocr's environment."""
    python = _olmocr_python()
    if python is None:
        return None
    (tmp / "set" / "pdfs").mkdir(parents=True)
    (tmp / "set" / "pdfs" / "doc.pdf").write_bytes(b"%PDF-1.4")  # olmocr's evaluate_candidate reads no PDF
    (tmp / "set" / "tests").mkdir()
    tests = [{"pdf": "doc.pdf", "page": 1, "id": f"doc-math-{k}", "type": "math", "math": m}
             for k, m in enumerate(maths)]
    (tmp / "set" / "tests" / "doc.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tests))
    out = olmocr_bench.score(tmp / "set", {"engine": {"doc": [markdown]}}, python=python)
    passed = {t["id"]: t["passed"] for t in out["engine"]["tests"]}
    return {m: passed[f"doc-math-{k}"] for k, m in enumerate(maths)}


def _markdown(tmp: Path, packages: str, formulas: list[str], preamble: str = "") -> str:
    body = "\n".join(f"{PROSE}\n\\begin{{equation}}\n{f}\n\\end{{equation}}" for f in formulas) + f"\n{PROSE}\n"
    layouts = typeset_layouts(tmp, packages, body, preamble)
    return "\n\n".join(compose_pages([p.to_json() for p in layouts]))


NUMBERED = [r"r/\sigma = r/(\sigma_0+\sigma_1)", r"\lambda \in \{0, 0.5, 1\}",
            r"d(p, q) = \inf_{\gamma} \int_0^1 \|\dot{\gamma}(\tau)\| d\tau"]


def test_equation_numbers_are_no_tag(tmp_path):
    """A numbered display keeps its number beside the formula, not as ``\\tag{n}``: KaTeX sets a
    tagged equation in a labelled table row, and olmocr's MathTest then fails a formula that ends in
    the sentence's punctuation (``r/\\sigma=r/(\\sigma_{0}+\\sigma_{1}), \\tag{5}`` against
    ``r/\\sigma = r/(\\sigma_0+\\sigma_1)``; it passes with the comma and no tag, or with the tag and
    no comma). Papers end most displays with "," or "."."""
    markdown = _markdown(tmp_path, "amsmath", [f + p for f, p in zip(NUMBERED, ",.,", strict=True)])
    displays = [b for b in markdown.split("\n\n") if b.startswith("$$")]
    assert len(displays) == 3, markdown
    assert r"\tag" not in markdown
    for k, block in enumerate(displays, 1):
        assert block.split("\n")[1].endswith(rf"\qquad ({k})"), block
    verdicts = olmocr_math_verdicts(tmp_path, markdown, NUMBERED)
    if verdicts is not None:
        assert all(verdicts.values()), verdicts


# glyphs of cmmi/cmsy whose names PDFium does not know (epsilon1, latticetop, circledot, pi1, lscript,
# precedesequal, mapsto...): without a ToUnicode map (pdfTeX's default, most arXiv papers) they
# arrived as their raw codes, \epsilon as U+000F (dropped), \top as ">", \varpi as "$"
RAW_CODED = [r"\frac{\mathcal{L}(\theta + \epsilon) - \mathcal{L}(\theta - \epsilon)}{2\epsilon} \approx K_{g}^{\top} x \odot y",
             r"\vartheta + \varpi + \varrho + \ell \preceq a \ll b \perp c \mapsto d \oslash e \diamond f"]
RAW_CODED_READ = [r"\frac{\mathcal{L}(\theta+\epsilon)-\mathcal{L}(\theta-\epsilon)}{2\epsilon}\approx K_{g}^{\top}x\odot y",
                  r"\vartheta+\varpi+\varrho+\ell\preceq a\ll b\perp c\mapsto d\oslash e\diamond f"]


def test_tex_maths_glyphs_without_tounicode_read_by_the_fonts_layout(tmp_path):
    markdown = _markdown(tmp_path, "amsmath,amssymb", RAW_CODED, preamble=r"\pdfgentounicode=0")
    displays = [b.split("\n")[1].split(r" \qquad (")[0] for b in markdown.split("\n\n") if b.startswith("$$")]
    assert displays == RAW_CODED_READ, markdown
    verdicts = olmocr_math_verdicts(tmp_path, markdown, RAW_CODED)
    if verdicts is not None:
        assert all(verdicts.values()), verdicts


def test_tex_maths_glyphs_without_tounicode_in_prose(tmp_path):
    """The same glyphs inline: prose shows them, never a raw "$" or "`" (a stray "$" opens maths in
    markdown)."""
    body = (r"Inline we write $\epsilon$ and $\varpi$ and $\ell$ and $A^\top$ and $a \odot b$ in a sentence."
            "\n\n" + PROSE)
    layouts = typeset_layouts(tmp_path, "amsmath,amssymb", body, r"\pdfgentounicode=0")
    markdown = "\n\n".join(compose_pages([p.to_json() for p in layouts]))
    assert "Inline we write ϵ and ϖ and ℓ and A⊤ and a ⊙ b in a sentence." in markdown, markdown


TEXT_STYLE = [r"O_h = \operatorname{softmax}\Big(\tfrac{1}{\sqrt{d_h}} Q_h K_{g}^{\top} + M\Big) V_{g}",
              r"y = \tfrac{1}{2} x + \frac{a}{b} + e^{\frac{c}{d}}"]


def test_a_text_style_fraction_in_a_display_is_tfrac(tmp_path):
    """``\\tfrac`` (and ``\\frac`` in text style) sets numerator and denominator at script size: read
    as ``\\frac``, KaTeX draws them at full size in a display, and olmocr's MathTest fails the formula.
    A fraction in a script stays ``\\frac`` (the script's style sets its size)."""
    markdown = _markdown(tmp_path, "amsmath", TEXT_STYLE)
    displays = [b.split("\n")[1].split(r" \qquad (")[0] for b in markdown.split("\n\n") if b.startswith("$$")]
    assert displays == [r"O_{h}=\mathrm{softmax}(\tfrac{1}{\sqrt{d_{h}}}Q_{h}K_{g}^{\top}+M)V_{g}",
                        r"y=\tfrac{1}{2}x+\frac{a}{b}+e^{\frac{c}{d}}"], markdown
    verdicts = olmocr_math_verdicts(tmp_path, markdown, TEXT_STYLE)
    if verdicts is not None:
        assert all(verdicts.values()), verdicts


ARGMAX = [r"\hat{y} = \arg\max_{k} \sum_{i=1}^{N} \log p_\theta(y_k \mid x_i)",
          r"\theta^* = \operatorname*{argmin}_{\theta \in \Theta} \mathcal{L}(\theta)"]


def test_argmax_takes_its_limit_below_as_printed(tmp_path):
    """``\\arg\\max_k`` (a thin space between the words) and ``\\operatorname*{argmax}_k`` (none) both
    print their limit under the word in a display; ``\\operatorname{argmax}_{k}`` sets it aside."""
    markdown = _markdown(tmp_path, "amsmath", ARGMAX)
    displays = [b.split("\n")[1].split(r" \qquad (")[0] for b in markdown.split("\n\n") if b.startswith("$$")]
    assert displays == [r"\hat{y}=\arg\max_{k}\sum_{i=1}^{N}\log p_{\theta}(y_{k}|x_{i})",
                        r"\theta^{\ast}=\operatorname*{argmin}_{\theta\in\Theta}\mathcal{L}(\theta)"], markdown
    verdicts = olmocr_math_verdicts(tmp_path, markdown, ARGMAX)
    if verdicts is not None:
        assert all(verdicts.values()), verdicts


ARRAYS = [r"A = \begin{pmatrix} a & b \\ c & d \end{pmatrix}",
          r"f(x) = \begin{cases} 1 & x > 0 \\ 0 & x \le 0 \end{cases}",
          r"\det \begin{vmatrix} a_{11} & a_{12} \\ a_{21} & a_{22} \end{vmatrix} = a_{11} a_{22} - a_{12} a_{21}",
          r"g(x) = \begin{cases} x^2 & \text{if } x > 0 \\ -x & \text{if } x < 0 \\ 1 & x = 0 \end{cases}"]


def test_matrices_and_cases_are_arrays(tmp_path):
    """Rows and columns of cells between tall delimiters (a left brace alone: cases) are an array
    environment; they were read as one row of glyphs in x order ("(acdb)"), and three rows were cut
    into three displays."""
    markdown = _markdown(tmp_path, "amsmath", ARRAYS)
    displays = [b.split("\n")[1].split(r" \qquad (")[0] for b in markdown.split("\n\n") if b.startswith("$$")]
    assert displays == [r"A=\begin{pmatrix}a & b \\ c & d\end{pmatrix}",
                        r"f(x)=\begin{cases}1 & x>0 \\ 0 & x\le0\end{cases}",
                        r"\det\begin{vmatrix}a_{11} & a_{12} \\ a_{21} & a_{22}\end{vmatrix}=a_{11}a_{22}-a_{12}a_{21}",
                        r"g(x)=\begin{cases}x^{2} & \mathrm{if}x>0 \\ -x & \mathrm{if}x<0 \\ 1 & x=0\end{cases}"], markdown
    verdicts = olmocr_math_verdicts(tmp_path, markdown, ARRAYS[:3])
    if verdicts is not None:
        assert all(verdicts.values()), verdicts
