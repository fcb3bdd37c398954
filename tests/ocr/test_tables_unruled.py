"""Tables set without any rule (no \\toprule, no \\hline: columns parted by white space only),
typeset here with pdflatex (issue 36 items 3, 6): found from their caption (``table_unruled``),
above or below them, in a one- or a two-column page. The expected cells are written by hand from
the LaTeX source of each test."""
from __future__ import annotations

import pytest

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

PROSE = "Sentence of the running text fills the columns of the page with words and more words. "


def test_a_table_without_rules_under_its_caption_is_a_table(tmp_path):
    """Before, no rule meant no table: its columns were read as columns of text, one after the
    other ("Model Baseline Ours Ours + LM BLEU 21.4 25.9 26.3 ROUGE ...")."""
    markdown = table_markdown(tmp_path, PROSE * 2 + r"""
\begin{table}[h]\centering\caption{Scores without rules.}
\begin{tabular}{lccc}
Model & BLEU & ROUGE & METEOR \\
Baseline & 21.4 & 33.0 & 18.2 \\
Ours & 25.9 & 36.8 & 20.1 \\
Ours + LM & 26.3 & 37.5 & 20.7 \\
\end{tabular}
\end{table}
""" + PROSE * 2)
    assert parse_tables(markdown) == [[["Model", "BLEU", "ROUGE", "METEOR"], ["Baseline", "21.4", "33.0", "18.2"],
                                       ["Ours", "25.9", "36.8", "20.1"], ["Ours + LM", "26.3", "37.5", "20.7"]]]
    tests = [table_test("36.8", left="25.9", up="33.0", top_heading="ROUGE", left_heading="Ours")]
    assert_table_tests_pass(markdown, tests)
    assert "Sentence of the running" in markdown.split("Table 1")[0]


def test_a_table_without_rules_over_its_caption_is_a_table(tmp_path):
    """The caption under the table (ACL's styles), 10 pt (\\abovecaptionskip) under its last row."""
    markdown = table_markdown(tmp_path, PROSE * 2 + r"""
\begin{table}[h]\centering
\begin{tabular}{lcc}
Split & Images & Classes \\
Train & 50000 & 10 \\
Test & 10000 & 10 \\
\end{tabular}
\caption{Caption below.}
\end{table}
""" + PROSE * 2)
    assert parse_tables(markdown) == [[["Split", "Images", "Classes"], ["Train", "50000", "10"], ["Test", "10000", "10"]]]


def test_a_table_without_rules_in_one_column_of_a_two_column_page(tmp_path):
    """Its rows share their height with the other column's prose: the table's cells only."""
    markdown = table_markdown(tmp_path, PROSE * 12 + r"""
\begin{table}[h]\centering\caption{Narrow, no rules.}\small
\begin{tabular}{lcc}
Model & Top-1 & Top-5 \\
ResNet-50 & 76.1 & 92.9 \\
ViT-B/16 & 81.8 & 95.9 \\
\end{tabular}
\end{table}
""" + PROSE * 36, options="twocolumn")
    assert parse_tables(markdown) == [[["Model", "Top-1", "Top-5"], ["ResNet-50", "76.1", "92.9"],
                                       ["ViT-B/16", "81.8", "95.9"]]]


def test_a_tight_table_without_rules_has_its_header_cut_on_the_columns(tmp_path):
    """Issue 36 (tight table columns; a probe of another table): a table with no rules, its columns
    2 pt apart (\\tabcolsep) in \\small Times. The header's heads are closer than pdftext's cut, one
    fragment "MMLU GSM8K HumanEval ARC"; its word spaces were dropped (kept only between rules), so
    nothing could cut it and it was one cell spanning the five columns over the body's cut numbers."""
    markdown = table_markdown(tmp_path, PROSE * 2 + r"""

\begin{table}[h]\centering\small\setlength{\tabcolsep}{2pt}\caption{Accuracy of the models.}
\begin{tabular}{lrrrr}
Model & MMLU & GSM8K & HumanEval & ARC \\
Base-7B & 61.3 & 45.2 & 30.1 & 78.9 \\
Tuned-7B & 63.8 & 52.7 & 35.4 & 80.2 \\
Large-70B & 78.5 & 81.0 & 60.3 & 91.7 \\
\end{tabular}
\end{table}

""" + PROSE * 2, packages="times")
    assert parse_tables(markdown) == [[["Model", "MMLU", "GSM8K", "HumanEval", "ARC"],
                                       ["Base-7B", "61.3", "45.2", "30.1", "78.9"],
                                       ["Tuned-7B", "63.8", "52.7", "35.4", "80.2"],
                                       ["Large-70B", "78.5", "81.0", "60.3", "91.7"]]], markdown
    tests = [table_test("52.7", left="63.8", right="35.4", up="45.2", top_heading="GSM8K", left_heading="Tuned-7B"),
             table_test("60.3", top_heading="HumanEval", left="81.0")]
    assert_table_tests_pass(markdown, tests)


INLINE = r"""

\begin{center}
\begin{tabular}{lrr}
Method & Acc & F1 \\
Baseline & 71.2 & 65.0 \\
Ours & 78.4 & 72.3 \\
Ours+ & 80.1 & 74.8 \\
\end{tabular}
\end{center}

"""


@pytest.mark.parametrize("options, before, after", [("", 2, 2), ("twocolumn", 3, 40)])
def test_a_table_without_rules_or_caption_is_a_table(tmp_path, options, before, after):
    """Issue 36 item 3 (tables8b (a)): a tabular set inline in the text (``center``, no float, no
    rule, no caption) was no table: its columns were read one after the other as a paragraph
    ("Method Baseline Ours Ours+ Acc 71.2 78.4 80.1 F1 ..."); in a page of one column and in one
    column of two."""
    markdown = table_markdown(tmp_path, PROSE * before + INLINE + PROSE * after, options=options)
    assert parse_tables(markdown) == [[["Method", "Acc", "F1"], ["Baseline", "71.2", "65.0"], ["Ours", "78.4", "72.3"],
                                       ["Ours+", "80.1", "74.8"]]], markdown
    assert_table_tests_pass(markdown, [table_test("72.3", left="78.4", up="65.0", down="74.8", top_heading="F1",
                                                  left_heading="Ours")])


def test_prose_lists_code_and_references_without_rules_stay_text(tmp_path):
    """What a table found without rules or caption must not take: two-column prose, an enumeration
    and a description list with numbers, verbatim code in columns, an algorithm's numbered lines,
    matrices of numbers without delimiters (numbered or not: no header, no row labels), a
    reference list; none of it is a table."""
    markdown = table_markdown(tmp_path, PROSE * 6 + r"""
\begin{enumerate}
\item Batch size 64, 12 epochs
\item Learning rate 0.01, 3 warm-up
\item Dropout 0.1, 2 layers
\end{enumerate}
\begin{description}
\item[Train] 50000 images 10 classes
\item[Valid] 5000 images 10 classes
\item[Test] 10000 images 10 classes
\end{description}
\begin{verbatim}
x = 1      y = 20     z = 300
a = 4      b = 50     c = 600
d = 7      e = 80     f = 900
\end{verbatim}
\noindent 1: $x \gets 0$ \hfill (init)\\
2: \textbf{for} $i = 1$ to 10 \hfill 3\\
3: \quad $x \gets x + i$ \hfill 4\\
4: \textbf{return} $x$ \hfill 5
\begin{equation}
N = \begin{matrix}1 & 2 & 3 \\ 4 & 5 & 6 \\ 7 & 8 & 9\end{matrix}
\end{equation}
\[ \begin{matrix}10 & 20 & 30 \\ 40 & 50 & 60 \\ 70 & 80 & 90\end{matrix} \]
""" + PROSE * 30 + r"""
\begin{thebibliography}{9}
\bibitem{a} A. Author, B. Writer. A title of a paper. In Proc. 2019, pp. 1--10.
\bibitem{b} C. Person. Another title. Journal 12(3), 2020, pp. 33--45.
\bibitem{c} D. Someone. Third title. arXiv 2101.00001, 2021.
\end{thebibliography}
""", packages="booktabs,amsmath", options="twocolumn")
    assert "<table>" not in markdown and "|---" not in markdown, markdown
