"""Table idioms found on papers_dev4.yaml's papers (machine-learning papers in the conference styles,
like the real set's frozen part; issue 36 items 3, 6), typeset here with pdflatex and judged by
olmOCR-Bench's ``TableTest``; the expected cells are written by hand from the LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

_PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"


def test_a_stacked_row_label_beside_one_value_is_one_row(tmp_path):
    """A two-column results table (an ACL 2020 report) whose last row label is a nested
    ``\\begin{tabular}[c]{@{}l@{}}Min-max \\\\ normalization\\end{tabular}`` (as tablesgenerator.com
    writes a cell on two lines): TeX centres the one value beside it between its two lines, and the
    row came out as three ("Min-max", the value alone, "normalization"). One value to the right of
    the stacked label, written after it in the text stream, is the row's as two or more are."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]\centering
  \begin{tabular}{lc}
    \toprule
    Method & Recall \\
    \midrule
    Softmax, z-score & 43.44\% \\
    \begin{tabular}[c]{@{}l@{}}Min-max \\ normalization\end{tabular} & 62.04\% \\
    \bottomrule
  \end{tabular}
  \caption{Filters.}
\end{table}""", packages="booktabs,times", options="11pt,twocolumn")
    [grid] = parse_tables(markdown)
    assert grid == [["Method", "Recall"], ["Softmax, z-score", "43.44%"], ["Min-max normalization", "62.04%"]]
    assert_table_tests_pass(markdown, [
        table_test("Softmax, z-score", down="Min-max normalization", up="Method"),
        table_test("62.04%", up="43.44%", left="Min-max normalization", top_heading="Recall",
                   left_heading="Min-max normalization")])

