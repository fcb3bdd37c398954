"""Group labels and cells bounded by drawn column rules (``|l|r|r|``, ``\\multicolumn{6}{c|}``) or
by nothing, typeset here with pdflatex (issue 36 items 3, 6): a rule drawn between two cells is their
edge, however close the text on either side (llncs' ``\\tabcolsep`` of 1.4 pt, a table scaled down
to the line); group labels with no rule at all share the gap between them. Judged by olmOCR-Bench's
``TableTest``; the expected cells are written by hand from the LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

# The header and body rows of the two group-label tables below (the same results set under
# column rules and scaled to the line, and with no rule at all): only their heads differ.
_ZERO_FEW_SHOT_ROWS = r"""Model & BoolQ & PIQA & SIQA & HS & WG & OBQA & BoolQ & PIQA & SIQA & HS & WG & OBQA & Avg \\
\midrule
LLaMA-7B & 76.5 & 79.8 & 48.9 & 76.1 & 70.1 & 57.2 & 78.1 & 80.2 & 50.3 & 77.0 & 71.4 & 58.8 & 68.7 \\
LLaMA-13B & 78.1 & 80.1 & 50.4 & 79.2 & 73.0 & 56.4 & 80.3 & 81.0 & 51.9 & 80.1 & 74.2 & 57.9 & 70.2 \\
Ours-7B & 79.4 & 81.5 & 52.1 & 78.8 & 72.6 & 59.0 & 81.2 & 82.4 & 53.6 & 79.9 & 73.8 & 60.1 & 71.2 \\
\bottomrule
"""


def test_a_drawn_column_rule_parts_heads_set_closer_than_a_word_space(tmp_path):
    """A ``|l|r|r|r|r|`` table at llncs' ``\\tabcolsep`` of 1.4 pt: the heads "Params", "FLOPs",
    "Top-1", "Top-5" are 2.8 pt (0.31 em) apart with a vertical rule between each two, and were read
    as one cell spanning four columns ("Model Params" and "Top-5" over two). A drawn column rule is
    a cell's edge."""
    markdown = table_markdown(tmp_path, r"""
Some prose before the table.
\begin{table}[h]\centering\small\setlength{\tabcolsep}{1.4pt}
\begin{tabular}{|l|r|r|r|r|}
\hline
Model & Params & FLOPs & Top-1 & Top-5 \\
\hline
ResNet-50 & 25.6M & 4.1G & 76.1 & 92.9 \\
ViT-B & 86.6M & 17.6G & 79.9 & 94.6 \\
Ours & 22.1M & 3.9G & 80.4 & 95.1 \\
\hline
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert grid == [["Model", "Params", "FLOPs", "Top-1", "Top-5"], ["ResNet-50", "25.6M", "4.1G", "76.1", "92.9"],
                    ["ViT-B", "86.6M", "17.6G", "79.9", "94.6"], ["Ours", "22.1M", "3.9G", "80.4", "95.1"]]
    tests = [table_test("4.1G", left="25.6M", right="76.1", top_heading="FLOPs", left_heading="ResNet-50"),
             table_test("Params", right="FLOPs", left="Model", down="25.6M"),
             table_test("95.1", top_heading="Top-5", up="94.6", left="80.4")]
    assert_table_tests_pass(markdown, tests)


def test_a_group_label_between_column_rules_spans_the_columns_they_enclose(tmp_path):
    """``\\multicolumn{6}{c|}{Zero-shot}`` in an ``l|cccccc|cccccc|c`` table scaled to the line
    (``\\resizebox``), no ``\\cmidrule`` under it: the label, centred between the column rules,
    was one cell over the two middle columns of its six, so the first and last numbers of each group
    had no "Zero-shot" / "Few-shot" over them. The rules drawn either side bound its span."""
    markdown = table_markdown(tmp_path, r"""
A paragraph of prose sets the page before the table and runs well past the end of one line of text.

\begin{table}[h]\centering
\resizebox{\linewidth}{!}{%
\begin{tabular}{l|cccccc|cccccc|c}
\toprule
 & \multicolumn{6}{c|}{Zero-shot} & \multicolumn{6}{c|}{Few-shot} & \\
""" + _ZERO_FEW_SHOT_ROWS + r"""\end{tabular}}
\end{table}""", packages="booktabs,graphicx")
    tests = [table_test("76.5", top_heading="Zero-shot", right="79.8", up="BoolQ", left="LLaMA-7B"),
             table_test("77.0", top_heading="Few-shot", left="50.3"),
             table_test("81.2", left="59.0", top_heading="Few-shot", left_heading="Ours-7B"),
             table_test("Zero-shot", right="Few-shot"),
             table_test("68.7", top_heading="Avg", up="Avg")]
    assert_table_tests_pass(markdown, tests)


def test_group_labels_with_no_rule_to_bound_them_span_their_columns(tmp_path):
    """``\\multicolumn{6}{c}{Zero-shot}`` and ``\\multicolumn{6}{c}{Few-shot}`` over twelve columns,
    neither a ``\\cmidrule`` under them nor column rules beside them (``\\scriptsize``,
    ``\\tabcolsep`` 3 pt): each label, centred on its six columns, was one cell over the middle two.
    Two labels side by side share the column gap between their centres' middle and reach as far on
    their other side."""
    markdown = table_markdown(tmp_path, r"""
A paragraph of prose sets the page before the table and runs well past the end of one line of text.

\begin{table}[h]\centering\scriptsize\setlength{\tabcolsep}{3pt}
\begin{tabular}{lccccccccccccc}
\toprule
 & \multicolumn{6}{c}{Zero-shot} & \multicolumn{6}{c}{Few-shot} & \\
""" + _ZERO_FEW_SHOT_ROWS + r"""\end{tabular}
\end{table}""")
    tests = [table_test("76.5", top_heading="Zero-shot", right="79.8", up="BoolQ", left="LLaMA-7B"),
             table_test("57.2", top_heading="Zero-shot", right="78.1"),
             table_test("78.1", top_heading="Few-shot", left="57.2", up="BoolQ"),
             table_test("Zero-shot", right="Few-shot")]
    assert_table_tests_pass(markdown, tests)


ALGORITHM_PROSE = "A paragraph of prose sets the page before the algorithm and runs past the end of one line of text. "


def test_an_algorithm_between_its_float_s_rules_is_no_table(tmp_path):
    """An ``algorithmic`` block in an ``algorithm`` float (its rules above and below, papers_dev2.yaml's
    daa-arbitrator): numbered lines, a comment set right with ``\\hfill``, a long statement. Its lines
    are not a table's rows (they became one once a column of long lower-case cells no longer read as
    prose unless justified); their text stays in order."""
    markdown = table_markdown(tmp_path, ALGORITHM_PROSE + r"""

\begin{algorithm}[h]
\caption{Recursive verification and retry}
\begin{algorithmic}[1]
\REQUIRE Current output $y_t$, error description $e$, retries $K = 3$
\FOR{$k = 1$ to $K$}
\STATE Construct critique: the step contains an error, so revise the reasoning and give a corrected response.
\STATE $p \gets h_t \oplus c$ \hfill (concatenate history and feedback)
\STATE $y \gets \mathrm{Model}(p)$
\STATE $\epsilon \gets \mathrm{Error}(y)$ \hfill (via diversity or explicit checking)
\IF{$\epsilon < 0.1$}
\RETURN $y$, approved
\ENDIF
\ENDFOR
\STATE Escalate to human verification or accept the best attempt
\end{algorithmic}
\end{algorithm}
""" + ALGORITHM_PROSE, packages="booktabs,algorithm,algorithmic")
    assert "<table>" not in markdown and "|---" not in markdown, markdown
    assert "Escalate to human verification or accept the best attempt" in markdown
