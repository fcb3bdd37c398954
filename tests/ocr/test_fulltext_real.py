"""The real-paper test generator (benchmarks/fulltext_real) on a LaTeX snippet written here, and the
tests it writes as olmOCR-Bench's own classes judge them: the generator must be deterministic, keep
only what the PDF prints as the source says, and each test type must fail on an output that gets it
wrong."""
from __future__ import annotations

import json

import pytest

from benchmarks.fulltext_real import derive, latex
from benchmarks.fulltext_real.olmocr_judge import judge

STYLE = r"""
\ifpaperfinal \lhead{Published as a conference paper at TESTCONF 2024}
\else \lhead{Under review as a conference paper at TESTCONF 2024} \fi
"""

PAPER = r"""\documentclass{article}
\usepackage{teststyle}
\newcommand{\R}{\mathbb{R}}
\icmltitlerunning{Short Running Title Here}
\begin{document}
\title{A Paper}
\maketitle
\begin{abstract}
We study how reviewers read papers with many tables. Our method is simple and it works well in practice.
\end{abstract}
\section{Introduction}
Large language models read scientific text in reading order. They fail when the columns are mixed up badly.
This sentence cites a paper \citep{smith} and must not become a test at all.

The second paragraph starts with a plain sentence of words. It has a \emph{styled} word that prints plainly here.
% a commented sentence that the reader never sees in the paper at all.
A footnote\footnote{Footnote text.} makes this sentence print a mark in the middle of it.

\begin{table}[t]
\begin{tabular}{lcc}
\toprule
Method & Accuracy & Speed \\
\midrule
Baseline & 71.2 & slow \\
Ours & \textbf{85.3} & fast \\
\multicolumn{2}{c}{Spanning cell} & x \\
\bottomrule
\end{tabular}
\caption{Results on the benchmark dataset for every method.}
\end{table}

\begin{align}
f(x) &= \sum_{i=1}^{n} \alpha_i x_i \label{eq:f} \\
g(x) &= \mycustom{x} + y + z + w
\end{align}
\[ \|x\|_2 \leq \lambda, \quad x \in \R^d \]
\bibliography{refs}
\end{document}
"""


def _tests():
    return derive.derive(latex.strip_comments(PAPER), [STYLE], pdf="snippet.pdf")


def test_generator_is_deterministic_and_in_olmocr_shape():
    first, second = _tests(), _tests()
    assert first == second
    assert json.loads(json.dumps(first)) == first
    for test in first:
        assert test["pdf"] == "snippet.pdf" and test["id"].startswith(test["type"] + "-")
    assert len({t["id"] for t in first}) == len(first)


def test_present_and_order_keep_plain_sentences_only():
    tests = _tests()
    present = [t["text"] for t in tests if t["type"] == "present"]
    assert "Large language models read scientific text in reading order." in present
    assert "It has a styled word that prints plainly here." in present  # \emph printed as its words
    assert "We study how reviewers read papers with many tables." in present
    joined = " ".join(present)
    assert "cites a paper" not in joined  # a citation prints a number or a name we cannot know
    assert "makes this sentence print a mark" not in joined  # a footnote mark sits in the sentence
    assert "commented sentence" not in joined
    assert "Results on the benchmark dataset" not in joined  # a caption is not running prose
    order = [(t["before"], t["after"]) for t in tests if t["type"] == "order"]
    assert ("Large language models read scientific text in reading order.",
            "The second paragraph starts with a plain sentence of words.") in order


def test_absent_candidates_are_the_heads_the_source_and_its_style_set():
    tests = _tests()
    absent = {t["text"] for t in tests if t["type"] == "absent"}
    assert {"Short Running Title Here", "Under review as a conference paper at TESTCONF 2024",
            "Published as a conference paper at TESTCONF 2024"} <= absent


def test_table_cells_with_neighbours_and_headings(monkeypatch):
    assert any(t["type"] == "table" for t in _tests())
    grid = derive.tabular_grid(r"Method & Accuracy \\ \midrule Ours & \textbf{85.3} \\ \multicolumn{2}{c}{Both} \\")[0]
    assert [[c for c, _ in row] for row in grid] == [["Method", "Accuracy"], ["Ours", "85.3"], ["Both", "Both"]]
    assert grid[2][0][1] == grid[2][1][1]  # one spanning cell, one id
    monkeypatch.setattr(derive, "MAX_TABLE_PER_TABULAR", 100)
    tests = {t["cell"]: t for t in derive.table_tests(derive.document_body(PAPER))}
    assert tests["85.3"] == {"type": "table", "cell": "85.3", "left": "Ours", "right": "fast", "up": "71.2", "down": "Spanning cell",
                             "top_heading": "Accuracy", "left_heading": "Ours"}
    assert "Spanning cell" in tests and tests["Spanning cell"]["right"] == "x"


def test_math_tests_skip_unknown_macros_and_expand_the_papers_own():
    maths = [t["math"] for t in _tests() if t["type"] == "math"]
    assert any("\\sum_{i=1}^{n} \\alpha_i x_i" in m for m in maths)
    assert not any("mycustom" in m for m in maths)  # a command we cannot render is left out
    assert any("\\mathbb{R}" in m for m in maths)  # \R expanded from the preamble


RIGHT = ("First paragraph here. Large language models read scientific text in reading order.\n\n"
         "Second paragraph here.\n\n| Method | Accuracy |\n|---|---|\n| Baseline | 71.2 |\n| Ours | **85.3** |\n\n"
         "$$ f ( x ) = \\sum _ { i = 1 } ^ { n } \\alpha _ i x _ i $$\n")
WRONG = ("Second paragraph here. First paragraph here.\nUnder review as a conference paper at TESTCONF 2024\n"
         "| Method | Accuracy |\n|---|---|\n| Ours | 85.3 |\n| Baseline | 71.2 |\n\nf(x) = sum alpha x\n")


def test_olmocr_judges_each_type_right_on_a_right_output_and_wrong_on_a_wrong_one():
    tests = [
        {"id": "p", "type": "present", "text": "Large language models read scientific text in reading order."},
        {"id": "a", "type": "absent", "text": "Under review as a conference paper at TESTCONF 2024"},
        {"id": "o", "type": "order", "before": "First paragraph here.", "after": "Second paragraph here."},
        {"id": "t", "type": "table", "cell": "85.3", "up": "71.2", "left": "Ours", "top_heading": "Accuracy",
         "left_heading": "Ours"},
    ]
    assert judge(RIGHT, tests) == dict.fromkeys("paot", True)
    assert judge(WRONG, tests) == dict.fromkeys("paot", False)


@pytest.mark.browser  # olmocr's MathTest renders both formulas with KaTeX in chromium
def test_olmocr_math_test_passes_on_the_formula_and_fails_without_it():
    test = {"id": "m", "type": "math", "math": r"f(x) = \sum_{i=1}^{n} \alpha_i x_i"}
    assert judge(RIGHT, [test]) == {"m": True}
    assert judge(WRONG, [test]) == {"m": False}
    assert judge(RIGHT.replace("\\alpha", "\\beta"), [test]) == {"m": False}  # one wrong symbol


def test_unstyle_removes_whole_commands_only():
    assert latex.unstyle(r"{\bf Bold} and \emph{this} cost 5\% more") == "Bold and this cost 5% more"
    assert not latex.is_plain(latex.unstyle(r"before \smallskip after"))  # \small must not leave "skip"


def test_quotes_and_angle_brackets_are_read_as_printed():
    """corl-noisy-reward, rasp-recogs: "`higher is better'" prints a left single quote (olmocr reads
    it as "'"), not a backtick; moebias: "(<0.1%)" in an OT1 font prints "(¡0.1%)" (slot 60 is ¡
    there, < only in T1): which one the PDF shows depends on the font encoding, so no test."""
    assert latex.unstyle("the intuitive `higher is better' principle") == "the intuitive 'higher is better' principle"
    assert latex.unstyle("``quoted'' text") == '"quoted" text'
    assert not latex.is_plain(latex.unstyle("a minuscule fraction of parameters (<0.1%)"))
    assert not latex.is_plain(latex.unstyle("a value > b"))


def test_a_row_end_before_a_comment_and_math_spacing_are_read_as_printed():
    """datacomp: "0.653 \\\\% & 0.695\\\\" ends the row at 0.653 (the rest is a comment), while "5\\%"
    prints a percent sign; corl-noisy-reward, cheblienet, muse: "$11.014\\pm0.190$" and
    "$512\\times512$" are printed with TeX's spaces around the operator, "$-0.24$" without."""
    assert latex.strip_comments("0.653 \\\\% & 0.695\\\\\nup 5\\% more % note\n") == "0.653 \\\\\nup 5\\% more \n"
    grid = derive.tabular_grid(latex.strip_comments("A & B \\\\\n0.792 & 0.653 \\\\% & 0.695\\\\\n"))[0]
    assert [[c for c, _ in row] for row in grid] == [["A", "B"], ["0.792", "0.653"]]
    assert latex.unstyle(r"$11.014\pm0.190$ and $512\times512$ or $-0.24$, $\pm 0.5$, $5\%$") \
        == "11.014 ± 0.190 and 512 × 512 or -0.24, ±0.5, 5%"


def test_math_tests_never_take_a_row_of_a_matrix_or_cases_alone():
    """A display is split into tests at its own row ends (align), never at the rows of a matrix or
    cases inside it: a matrix row rendered alone is no formula the page prints (its middle rows were
    tests: "2 & 0" gave "2 0", which KaTeX draws as the number 20), and a cases row is set in text
    style there (its fractions small), in display style alone."""
    from benchmarks.fulltext_real.derive import math_tests

    body = r"""
\begin{align}
C &= \begin{bmatrix} 1 & 1 \\ 2 & 0 \\ 3.5 & 4 \\ 1.25 & 5 \end{bmatrix} \\
g(x) &= \begin{cases} \frac{a_1}{b_1} + x_1 & x > 0 \\ \frac{a_2}{b_2} - x_2 & x < 0 \\ \frac{a_3}{b_3} & x = 0 \end{cases} \\
y_i &= \sum_{j=1}^{n} w_{ij} x_j
\end{align}
"""
    assert [t["math"] for t in math_tests(body)] == [r"y_i = \sum_{j=1}^{n} w_{ij} x_j"]


def test_a_tabular_nested_in_a_cell_is_that_cell_s_lines(monkeypatch):
    """``\\begin{tabular}[c]{@{}c@{}}CSMR-\\\\WCRE\\\\ / SANER\\end{tabular}`` inside a cell (a line
    break in one cell, no padding: tuning-lda's venue table) prints one cell of three lines. The
    outer tabular's body ended at the first nested \\end{tabular} (its later rows lost, its cells cut
    mid-row) and each nested line was a cell of a table of its own ("CSMR-" over "WCRE")."""
    monkeypatch.setattr(derive, "MAX_TABLE_PER_TABULAR", 100)
    body = r"""
\begin{tabular}{|l|l|c|}
\hline
Venue & Full name & Papers \\ \hline
ICSE & International Conference on Software Engineering & 4 \\ \hline
\begin{tabular}[c]{@{}c@{}}CSMR-\\WCRE\\ / SANER \end{tabular} & \begin{tabular}[c]{@{}l@{}}Software Maintenance\\ and Reengineering\end{tabular} & 3 \\ \hline
ICPC & International Conference on Program Comprehension & 2 \\ \hline
\end{tabular}
"""
    tests = {t["cell"]: t for t in derive.table_tests(body)}
    assert "CSMR-" not in tests and "WCRE" not in tests
    assert tests["CSMR- WCRE / SANER"] == {"type": "table", "cell": "CSMR- WCRE / SANER", "right": "Software Maintenance and Reengineering",
                                          "up": "ICSE", "down": "ICPC", "top_heading": "Venue"}
    assert tests["ICPC"]["right"] == "International Conference on Program Comprehension"  # the rows after it are read


def test_a_tabular_of_pictures_is_a_figure_grid_not_a_table():
    """``\\includegraphics`` cells over a row of labels ("MNIST & Occluded MNIST & Outputs":
    efficient-attention's image completion, set in a ``center``) lay pictures out side by side; the
    page prints a figure with a label under each picture, not a table (the engine keeps figure
    grids as figures): no table tests from it. A tabular of text beside it still gives them."""
    body = r"""
\begin{center}
    \begin{tabular}{c c c }
        \includegraphics[width=0.1\textwidth]{images/input0.png} & \includegraphics[width=0.1\textwidth]{images/occ0.png} & \includegraphics[width=0.2\textwidth]{images/result0.png} \\
        MNIST & Occluded MNIST & Outputs
    \end{tabular}
\end{center}
\begin{tabular}{c|c|c}
    Number of Images Completed & Linear & Softmax \\
    \hline
     100 & 33.45s & 367.91s\\
     200 & 67.46s & 811.99s
\end{tabular}
"""
    cells = {t["cell"] for t in derive.table_tests(body)}
    assert not cells & {"MNIST", "Occluded MNIST", "Outputs"}
    assert "33.45s" in cells or "67.46s" in cells
