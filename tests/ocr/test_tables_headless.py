"""Tables whose header row has no rule above it at all (issue 36 items 3, 6): the ICLR template's own
example table (bold ``\\multicolumn{1}{c}`` heads, ``\\\\ \\hline \\\\``, no other rule) and a
results table ruled only under its header and under its body, its heads wider than the numbers
under them. Typeset here with pdflatex, judged by olmOCR-Bench's ``TableTest``; the expected cells
are written by hand from the LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

_PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"


def test_the_iclr_template_s_table_one_rule_and_an_empty_row_under_its_header(tmp_path):
    """The ICLR template's Table 1: one ``\\hline`` under the header and an empty row under it, no
    other rule, words only. The white over the rule (a row and a half) ended the caption's run of
    rows at the header, so the header read as two headings and the body as prose, column after
    column. A rule under the line's cells in the white: one more row of white is the table's."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[t]
\caption{Sample table title}
\begin{center}
\begin{tabular}{ll}
\multicolumn{1}{c}{\bf PART}  &\multicolumn{1}{c}{\bf DESCRIPTION}
\\ \hline \\
Dendrite         &Input terminal \\
Axon             &Output terminal \\
Soma             &Cell body (contains cell nucleus) \\
\end{tabular}
\end{center}
\end{table}""", options="twocolumn")
    [grid] = parse_tables(markdown)
    assert grid == [["PART", "DESCRIPTION"], ["Dendrite", "Input terminal"], ["Axon", "Output terminal"],
                    ["Soma", "Cell body (contains cell nucleus)"]]
    assert_table_tests_pass(markdown, [
        table_test("Output terminal", left="Axon", up="Input terminal", top_heading="DESCRIPTION"),
        table_test("Dendrite", up="PART", down="Axon")])


def test_heads_wider_than_their_numbers_over_the_first_rule_are_the_table_s_header(tmp_path):
    """``\\multicolumn{1}{c}{\\bf Accuracy} .. \\\\ \\hline`` first, no rule over it, an ``\\hline``
    under the body: "Accuracy" is wider than "71.2" under it, so it was within no column and the
    header was left out of the table (two headings over it); then, placed by its left edge, it
    reached over the middle of the white beside it and was joined with "Method" into one cell
    over two columns. A head whose middle is in a column and whose ends clear its neighbours'
    cells is that column's."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\caption{Results on the test sets.}
\begin{center}
\begin{tabular}{lcc}
\multicolumn{1}{c}{\bf Method} & \multicolumn{1}{c}{\bf Accuracy} & \multicolumn{1}{c}{\bf Macro F1} \\ \hline
Baseline & 71.2 & 68.4 \\
Ours & 75.9 & 73.1 \\
Ours + pretraining & 78.3 & 76.0 \\ \hline
\end{tabular}
\end{center}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert grid == [["Method", "Accuracy", "Macro F1"], ["Baseline", "71.2", "68.4"], ["Ours", "75.9", "73.1"],
                    ["Ours + pretraining", "78.3", "76.0"]]
    assert_table_tests_pass(markdown, [
        table_test("75.9", left="Ours", up="71.2", top_heading="Accuracy", left_heading="Ours"),
        table_test("Macro F1", left="Accuracy", down="68.4")])


def test_lines_of_prose_and_a_list_over_a_rule_stay_text(tmp_path):
    """Guards: a paragraph and an itemize over an ``\\hrule`` stay what they are (no header over
    columns, no caption's run of rows)."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{itemize}
\item first point of the list
\item second point, a little longer than the first
\end{itemize}
\noindent\rule{\linewidth}{0.4pt}

Another paragraph under the rule runs on past the end of its first line into a second line.""")
    assert "|" not in markdown and "<table>" not in markdown
