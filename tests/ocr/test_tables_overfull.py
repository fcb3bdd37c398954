"""Tables wider than the text body (issue 36 items 3, 6): an overfull results table whose last
columns stand in the right margin, and a ``table*`` on a float page of a two-column paper whose
text fills only the left column. Typeset here with pdflatex, judged by olmOCR-Bench's
``TableTest``; the expected cells are written by hand from the LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test


def test_columns_past_the_right_margin_stay_the_table_s(tmp_path):
    """Nine columns of GLUE scores set in a one-column article run 130 pt past the right margin
    (an overfull \\hbox, common in results tables): every fragment right of the text body's extent
    was dropped as a margin stamp, and with them the last three columns. A cell under a rule and
    over another, both across it, is a table's."""
    markdown = table_markdown(tmp_path, r"""\lipsum[1]
\begin{table}[h]
\caption{Results on all tasks.}
\centering
\begin{tabular}{lcccccccc}
\toprule
Method & MNLI-m & MNLI-mm & QQP-acc & QNLI-acc & SST-2-acc & CoLA-mcc & STS-B-pc & MRPC-f1 \\
\midrule
BERT & 84.6 & 83.4 & 71.2 & 90.5 & 93.5 & 52.1 & 85.8 & 88.9 \\
RoBERTa & 87.6 & 87.2 & 72.1 & 92.8 & 94.8 & 63.6 & 91.2 & 90.2 \\
Ours & 88.9 & 88.1 & 73.4 & 93.7 & 95.6 & 65.0 & 92.0 & 91.4 \\
\bottomrule
\end{tabular}
\end{table}
\lipsum[2-4]""", packages="booktabs,lipsum")
    [grid] = parse_tables(markdown)
    assert grid[0] == ["Method", "MNLI-m", "MNLI-mm", "QQP-acc", "QNLI-acc", "SST-2-acc", "CoLA-mcc", "STS-B-pc", "MRPC-f1"]
    assert_table_tests_pass(markdown, [
        table_test("90.2", left="91.2", up="88.9", down="91.4", top_heading="MRPC-f1", left_heading="RoBERTa"),
        table_test("85.8", left="52.1", right="88.9", top_heading="STS-B-pc")])
    assert "Lorem ipsum dolor sit amet" in markdown


def test_a_table_star_on_a_page_whose_text_fills_one_column(tmp_path):
    """A ``table*`` across both columns on a page of a two-column article whose text runs in the left
    column only: the text body's extent ends at the left column, so the table's last column (right
    of it) was dropped as a margin stamp."""
    markdown = table_markdown(tmp_path, r"""
\begin{table*}[t]
\caption{Results across two columns.}
\centering
\begin{tabular}{lcccccc}
\toprule
Method & MNLI & QQP & SST-2 & BoolQ & CB & RTE \\
\midrule
BERT & 84.6 & 71.2 & 93.5 & 77.4 & 83.6 & 66.4 \\
RoBERTa & 87.6 & 72.1 & 94.8 & 86.9 & 89.3 & 78.7 \\
Ours & 88.9 & 73.4 & 95.6 & 88.1 & 92.9 & 81.2 \\
\bottomrule
\end{tabular}
\end{table*}
\lipsum[1-3]""", packages="booktabs,lipsum", options="twocolumn")
    [grid] = parse_tables(markdown)
    assert grid[0] == ["Method", "MNLI", "QQP", "SST-2", "BoolQ", "CB", "RTE"]
    assert_table_tests_pass(markdown, [table_test("78.7", left="89.3", up="66.4", down="81.2", top_heading="RTE")])


def test_a_margin_note_beside_the_text_is_still_dropped(tmp_path):
    """Guard: a stamp in the right margin (``\\marginpar``-like, set with ``\\llap`` far past the
    text) beside a page of prose, no rules over and under it, stays out of the text."""
    markdown = table_markdown(tmp_path, r"""\lipsum[1]

\noindent\makebox[\linewidth][l]{\hspace{\dimexpr\linewidth+1.5cm\relax}\smash{DRAFT COPY 7}}

\lipsum[2-3]""", packages="booktabs,lipsum")
    assert "DRAFT COPY 7" not in markdown
