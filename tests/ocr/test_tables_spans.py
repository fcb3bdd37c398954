"""Cells that span rows, typeset here with pdflatex: a ``\\multirow`` label is one cell over the rows
it spans (HTML ``rowspan``), so each of those rows has it as its row heading, whichever row the
source writes it in (``\\multirow{2}`` in the first, ``\\multirow{-2}`` in the last). Judged by
olmOCR-Bench's ``TableTest``; the expected cells are written by hand from the LaTeX source.

``make test`` installs no multirow.sty (texlive-latex-extra): ``MULTIROW`` sets a label as it does,
a box of no height raised or lowered to the middle of its rows counted at ``\\normalbaselineskip`` (down
from the first row for ``\\multirow{n}``, up from the last for ``\\multirow{-n}``)."""
from __future__ import annotations

from functools import partial

import pytest

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

MULTIROW = r"""\newcommand{\multirow}[3]{\ifnum#1<0 \raisebox{\dimexpr\normalbaselineskip*(-#1-1)/2\relax}[0pt][0pt]{#3}%
\else\raisebox{\dimexpr\normalbaselineskip*(1-#1)/2\relax}[0pt][0pt]{#3}\fi}"""
_markdown = partial(table_markdown, preamble=MULTIROW)  # every table here may set a \multirow


def test_a_multirow_label_is_the_row_heading_of_every_row_it_spans(tmp_path):
    """A label set with ``\\multirow{-2}`` in the second of its rows (datacomp's Table 17 on the
    dev set: its test asks for "FairFace" left of the second row's "76.5"), and labels of two and
    three rows set in the first. Before, the label went to the first row only and the others had
    an empty first cell: no row heading."""
    markdown = _markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Fairness.}
\begin{tabular}{llccc}
\toprule
Dataset & Track & Race & Gender & Age \\
\midrule
 & Filtering & 86.4 & 91.7 & 34.3 \\
\multirow{-2}{*}{FairFace} & BYOD & 76.5 & 93.9 & 33.8 \\
\midrule
 & Filtering & 86.2 & 93.8 & 39.5 \\
\multirow{-2}{*}{UTKFace} & BYOD & 86.1 & 95.5 & 38.6 \\
\bottomrule
\end{tabular}
\end{table}

\begin{table}[h]\centering\caption{Environments.}
\begin{tabular}{llcc}
\toprule
Dataset & Environment & GPT2 & Ours \\
\midrule
\multirow{3}{*}{Medium} & Hopper & 79.1 & 81.0 \\
 & HalfCheetah & 42.8 & 44.5 \\
 & Walker & 78.3 & 80.2 \\
\midrule
\multirow{2}{*}{Expert} & Hopper & 110.2 & 111.9 \\
 & Walker & 108.7 & 109.3 \\
\bottomrule
\end{tabular}
\end{table}""")
    fairness, environments = parse_tables(markdown)
    assert fairness == [["Dataset", "Track", "Race", "Gender", "Age"],
                        ["FairFace", "Filtering", "86.4", "91.7", "34.3"], ["FairFace", "BYOD", "76.5", "93.9", "33.8"],
                        ["UTKFace", "Filtering", "86.2", "93.8", "39.5"], ["UTKFace", "BYOD", "86.1", "95.5", "38.6"]]
    assert [row[0] for row in environments] == ["Dataset", "Medium", "Medium", "Medium", "Expert", "Expert"]
    assert environments[3] == ["Medium", "Walker", "78.3", "80.2"]
    tests = [table_test("76.5", right="93.9", left_heading="FairFace"),
             table_test("86.4", right="91.7", left_heading="FairFace"),
             table_test("BYOD", left="UTKFace", right="86.1"),
             table_test("42.8", left="HalfCheetah", left_heading="Medium"),
             table_test("80.2", left="78.3", left_heading="Medium"),
             table_test("108.7", left="Walker", left_heading="Expert")]
    assert_table_tests_pass(markdown, tests)


def test_a_row_label_beside_a_wrapped_paragraph_cell_stays_in_its_row(tmp_path):
    """A ``tabularx`` ``X`` column of definitions, each wrapping onto a second line, beside short
    row labels: "Recall", set on the first line of its definition with a wrapped line above and
    below it, was taken for a ``\\multirow`` label centred on three rows and moved up to the
    previous definition's last line ("posed."), and the wrapped lines stayed rows of their own
    (fewer than three lines of the column end flush, the old sign of a paragraph cell)."""
    markdown = _markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Text cells.}
\begin{tabularx}{\linewidth}{lX}
\toprule
Term & Definition \\
\midrule
Precision & The fraction of retrieved instances that are relevant to the query posed. \\
Recall & The fraction of relevant instances that were retrieved by the system under test. \\
F1 & The harmonic mean of precision and recall, a single summary number. \\
\bottomrule
\end{tabularx}
\end{table}""", "booktabs,tabularx")
    [grid] = parse_tables(markdown)
    assert grid == [["Term", "Definition"],
                    ["Precision", "The fraction of retrieved instances that are relevant to the query posed."],
                    ["Recall", "The fraction of relevant instances that were retrieved by the system under test."],
                    ["F1", "The harmonic mean of precision and recall, a single summary number."]]
    tests = [table_test("Recall", up="Precision", down="F1", top_heading="Term")]
    assert_table_tests_pass(markdown, tests)


def test_group_labels_in_the_white_between_two_columns_and_a_label_over_ruled_header_rows(tmp_path):
    """Two header rows as IEEE and ACL papers set them: group labels "Dev" and "Test" over two
    columns each, in a ruled grid wide enough that the short label stands in the white between its
    two columns (it touches no cell of either, so it was made a column of its own between them,
    every body row getting an empty cell there); and "Method", a ``\\multirow{2}`` label beside both
    header rows, with the \\cmidrule's space between them that multirow does not count (it sits
    above the rows' middle, and was a row of its own)."""
    markdown = _markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Grid.}\setlength{\tabcolsep}{10pt}
\begin{tabular}{|c|c|c|c|c|}
\hline
\multirow{2}{*}{Method} & \multicolumn{2}{c|}{Dev} & \multicolumn{2}{c|}{Test} \\
\cline{2-5}
 & EM & F1 & EM & F1 \\
\hline
BiDAF & 67.7 & 77.3 & 68.0 & 77.4 \\
BERT & 84.1 & 90.9 & 85.1 & 91.8 \\
\hline
\end{tabular}
\end{table}

\begin{table}[h]\centering\caption{Booktabs.}\footnotesize
\begin{tabular}{lcccc}
\toprule
\multirow{2}{*}{Method} & \multicolumn{2}{c}{CIFAR-10} & \multicolumn{2}{c}{CIFAR-100} \\
\cmidrule(lr){2-3}\cmidrule(lr){4-5}
 & Acc & Prec & Acc & Prec \\
\midrule
Baseline & 91.2 & 90.8 & 68.4 & 67.9 \\
Ours & 94.6 & 94.2 & 73.8 & 73.1 \\
\bottomrule
\end{tabular}
\end{table}""", "booktabs,times")
    grid, booktabs = parse_tables(markdown)
    assert grid[2:] == [["BiDAF", "67.7", "77.3", "68.0", "77.4"], ["BERT", "84.1", "90.9", "85.1", "91.8"]]
    assert booktabs[2:] == [["Baseline", "91.2", "90.8", "68.4", "67.9"], ["Ours", "94.6", "94.2", "73.8", "73.1"]]
    tests = [table_test("Method", right="Dev"), table_test("Dev", left="Method", right="Test"),
             table_test("67.7", left="BiDAF", right="77.3"), table_test("Method", right="CIFAR-10"),
             table_test("CIFAR-100", left="CIFAR-10", left_heading="Method")]
    assert_table_tests_pass(markdown, tests)


def test_group_labels_set_on_the_first_row_of_their_group_span_nothing(tmp_path):
    """Group labels in the first column with no ``\\multirow``: each set on its group's first row,
    the rows under it empty there, no rule between the groups. "Deep", on the middle row of the
    three that are empty there but for it, looked like a ``\\multirow{3}`` centred on them: it went
    up into "SVM"'s row (the first group's) and spanned three rows. The rows are the source's."""
    markdown = _markdown(tmp_path, r"""
Prose before the table, a line of text that sets the page and its body.
\begin{table}[h]\centering\caption{Groups.}
\begin{tabular}{llcc}
\toprule
Group & Method & Acc & F1 \\
\midrule
\textbf{Linear} & Logistic & 71.2 & 68.4 \\
 & SVM & 73.5 & 70.2 \\
\textbf{Deep} & SimCLR & 75.8 & 72.9 \\
 & BYOL & 76.4 & 73.1 \\
\bottomrule
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert grid == [["Group", "Method", "Acc", "F1"], ["Linear", "Logistic", "71.2", "68.4"], ["", "SVM", "73.5", "70.2"],
                    ["Deep", "SimCLR", "75.8", "72.9"], ["", "BYOL", "76.4", "73.1"]]
    tests = [table_test("SimCLR", left="Deep", up="SVM", right="75.8"), table_test("SVM", down="SimCLR", right="73.5")]
    assert_table_tests_pass(markdown, tests)


GROUPS_OF_FOUR = r"""
\begin{table}[h]\centering
\begin{tabular}{lccc}
\toprule
Method & Acc & F1 & EM \\
\midrule
\multicolumn{4}{c}{\textit{Supervised}} \\
Baseline & 71.2 & 70.1 & 69.5 \\
Ours & 75.4 & 74.9 & 73.2 \\
\midrule
\multicolumn{4}{c}{\textit{Zero-shot}} \\
GPT-3 & 61.2 & 60.1 & 59.5 \\
Ours & 65.4 & 64.9 & 63.2 \\
\bottomrule
\end{tabular}
\end{table}"""

GROUPS_OF_THREE = r"""
\begin{table}[h]\centering
\begin{tabular}{lcc}
\toprule
Method & Accuracy & Macro F1 \\
\midrule
\multicolumn{3}{c}{\textit{Small}} \\
Baseline & 71.2 & 70.1 \\
Ours & 75.4 & 74.9 \\
\multicolumn{3}{c}{\textit{Large models}} \\
GPT-3 & 61.2 & 60.1 \\
Ours & 65.4 & 64.9 \\
\bottomrule
\end{tabular}
\end{table}"""


@pytest.mark.parametrize(("body", "rows", "tests"), [
    # ``\multicolumn{4}{c}{Supervised}`` and ``{Zero-shot}`` rows that name the rows below them (a
    # results table split into settings). Before, the first was a cell of three columns from the
    # first, the second a cell of two from the second (where its left end fell), so "Zero-shot"
    # stood over no row label.
    (GROUPS_OF_FOUR,
     ['<tr><td colspan="4">Supervised</td></tr>', '<tr><td colspan="4">Zero-shot</td></tr>',
      "<tr><td>GPT-3</td><td>61.2</td><td>60.1</td><td>59.5</td></tr>"],
     [table_test("GPT-3", up="Zero-shot", down="Ours", right="61.2"),
      table_test("Baseline", up="Supervised", right="71.2"),
      table_test("61.2", left="GPT-3", top_heading="Acc")]),
    # Three columns: "Small" fits inside the middle column (it was that column's cell of a row with
    # no label), "Large models" crossed into it and, its column's numbers all as wide as each other
    # (their right ends in line, as a paragraph cell's are), was joined to the row above as the next
    # line of "75.4".
    (GROUPS_OF_THREE,
     ['<tr><td colspan="3">Small</td></tr>', '<tr><td colspan="3">Large models</td></tr>',
      "<tr><td>Ours</td><td>75.4</td><td>74.9</td></tr>"],
     [table_test("75.4", left="Ours", right="74.9", up="71.2", top_heading="Accuracy"),
      table_test("GPT-3", up="Large models", right="61.2"),
      table_test("Baseline", up="Small", down="Ours")]),
], ids=["in_the_body_of_four_columns", "inside_the_middle_column_of_three"])
def test_a_centred_group_label_is_a_row_over_every_column(tmp_path, body, rows, tests):
    """A label centred on the table between body rows (``\\multicolumn{n}{c}``) is one cell over
    every column, a row of its own, wherever its ends fall among the columns."""
    markdown = _markdown(tmp_path, body)
    for row in rows:
        assert row in markdown, markdown
    assert_table_tests_pass(markdown, tests)


def test_multirow_heads_beside_group_labels_span_both_header_rows(tmp_path):
    """``\\multirow{2}{*}{Method}`` first and ``\\multirow{2}{*}{Avg.}`` last, beside group labels
    over their column heads: TeX centres both on the two header rows, a line of their own between
    the labels and the heads. That line and the heads' line had no column in common, yet were
    joined as the lines of wrapped header cells, so "Avg." stood in the heads' row (its left
    neighbour "F1", not "Dataset B")."""
    markdown = _markdown(tmp_path, r"""
\begin{table}[h]\centering
\begin{tabular}{lccccc}
\toprule
\multirow{2}{*}{Method} & \multicolumn{2}{c}{Dataset A} & \multicolumn{2}{c}{Dataset B} & \multirow{2}{*}{Avg.} \\
\cmidrule(lr){2-3}\cmidrule(lr){4-5}
 & Acc & F1 & Acc & F1 & \\
\midrule
Baseline & 71.2 & 70.1 & 61.2 & 60.1 & 65.6 \\
Ours & 75.4 & 74.9 & 65.4 & 64.9 & 70.2 \\
\bottomrule
\end{tabular}
\end{table}""")
    assert '<tr><th rowspan="2">Method</th><th colspan="2">Dataset A</th><th colspan="2">Dataset B</th>' \
        '<th rowspan="2">Avg.</th></tr>' in markdown
    assert "<tr><td>Acc</td><td>F1</td><td>Acc</td><td>F1</td></tr>" in markdown
    tests = [table_test("Avg.", left="Dataset B"), table_test("65.6", left="60.1", top_heading="Avg."),
             table_test("71.2", left="Baseline", right="70.1", top_heading="Dataset A")]
    assert_table_tests_pass(markdown, tests)


def test_a_narrow_value_centred_over_two_body_columns_spans_them(tmp_path):
    """Issue 36 item 3 (tables8b (f); seen in papers_dev2.yaml's bike-fpga, llncs): a body row's
    ``\\multicolumn{2}{c}{450}``, as narrow as the numbers above and below it, overlaps one of them
    and reaches into the white before the next: it widened the first column to its right edge and
    was that column's cell ("450" under "120", nothing under "340"); it is one cell over both."""
    markdown = _markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Resources.}
\begin{tabular}{lccc}
\toprule
Design & LUT & FF & Time \\
\midrule
A & 120 & 340 & 1.2 \\
B & \multicolumn{2}{c}{450} & 2.3 \\
C & 130 & 360 & 1.5 \\
\bottomrule
\end{tabular}
\end{table}
""")
    assert "<td colspan=\"2\">450</td>" in markdown, markdown
    # (olmocr's table parser moves a row's cells right of a colspan one column left: their up and
    # down neighbours are not judged here)
    tests = [table_test("450", left="B", right="2.3", top_heading="LUT"), table_test("2.3", left="450"),
             table_test("360", left="130", right="1.5", top_heading="FF")]
    assert_table_tests_pass(markdown, tests)
    # (a column of wider cells beside narrow ones, and a lone cell, span nothing)
    plain = _markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Plain.}
\begin{tabular}{lccc}
\toprule
Design & LUT & FF & Time \\
\midrule
A & 12000 & 3 & 1.2 \\
B & 1 & 34 & 2.3 \\
C & 130 &  & 1.5 \\
\bottomrule
\end{tabular}
\end{table}
""")
    assert "colspan" not in plain, plain
