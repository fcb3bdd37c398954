"""Table idioms found on papers_dev2.yaml's papers (issue 36 items 3, 6), typeset here with
pdflatex: a ``c|c|c`` table whose group label stands over a ``\\cline{2-3}`` (tuning-lda's Table 5,
an elsarticle paper). Judged by olmOCR-Bench's ``TableTest``; the expected cells are written by hand
from the LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

_PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"


def test_a_cline_under_a_group_label_in_a_table_of_column_rules_is_no_table_of_its_own(tmp_path):
    """``c|c|c``, "Size" over a ``\\cline{2-3}``, ``\\hline`` under each row: the \\cline, crossed by
    the column rules, made a table of its own over columns 2 and 3, grown down along the column
    rules to the last row, so the first column (the data set names) was left out and read as a
    line of words. A \\cline inside the area the \\hline's bound is that table's."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]\centering
\caption{Statistics on our datasets.}
\begin{tabular}{c|c|c}
 & \multicolumn{2}{c}{\textbf{Size}} \\
\cline{2-3}
 & \textbf{Before} & \textbf{After}\\
\textbf{Data set} & \textbf{Preprocessing} & \textbf{Preprocessing}\\
\hline
PitsA & 1.2 MB & 292 KB \\
\hline
PitsB & 704 KB & 188 KB \\
\hline
Citemap & 8.6 MB & 3.7 MB \\
\hline
Stackoverflow & 7 GB & 589 MB \\
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert [row[0] for row in grid[-4:]] == ["PitsA", "PitsB", "Citemap", "Stackoverflow"]
    assert_table_tests_pass(markdown, [
        table_test("589 MB", left="7 GB", up="3.7 MB", left_heading="Stackoverflow"),
        table_test("PitsB", up="PitsA", down="Citemap", right="704 KB")])
