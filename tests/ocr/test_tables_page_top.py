"""A table set at the very top of a page, typeset here with pdflatex: its header row lies in the
page's top edge zone, where running heads and page numbers are looked for (``furniture``). A header
of bare numbers, or a header between the table's \\toprule and \\midrule, is the table's, never a
running head with its page number. The expected cells are written by hand from the LaTeX source."""
from __future__ import annotations

import pytest

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

SHOTS = r"""
\begin{table}[t]\centering
\begin{tabular}{lrrrrrr}
\toprule
Model & 0 & 1 & 2 & 4 & 8 & 16 \\
\midrule
GPT-2 & 12.1 & 13.4 & 14.5 & 15.6 & 16.7 & 17.8 \\
OPT & 22.1 & 23.4 & 24.5 & 25.6 & 26.7 & 27.8 \\
\bottomrule
\end{tabular}
\caption{Accuracy by the number of in-context examples.}
\end{table}
A paragraph of prose follows the table on this page, long enough to run onto a second line of text."""

CONFIG = r"""
\begin{table}[t]\centering
\begin{tabular}{lr}
\toprule
Width & 512 \\
\midrule
Depth & 12 \\
Heads & 8 \\
Dropout & 0.1 \\
\bottomrule
\end{tabular}
\caption{The configuration.}
\end{table}
A paragraph of prose follows the table on this page, long enough to run onto a second line of text."""


@pytest.mark.parametrize(("body", "expected"), [
    # a header of shot counts: six bare numbers on the line, and "Model" a wide space from them
    (SHOTS, [["Model", "0", "1", "2", "4", "8", "16"], ["GPT-2", "12.1", "13.4", "14.5", "15.6", "16.7", "17.8"],
             ["OPT", "22.1", "23.4", "24.5", "25.6", "26.7", "27.8"]]),
    # one bare number, between the \toprule and the \midrule
    (CONFIG, [["Width", "512"], ["Depth", "12"], ["Heads", "8"], ["Dropout", "0.1"]]),
], ids=["numbers-header", "ruled-header"])
def test_a_table_header_at_the_top_of_a_page_is_no_running_head(tmp_path, body, expected):
    """Before, the header row was dropped whole: its numbers taken for page numbers (each counts
    with the pages of a one-page paper) and "Model" / "Width" for a running head beside them."""
    markdown = table_markdown(tmp_path, body)
    assert parse_tables(markdown) == [expected]


def test_a_longtable_header_repeated_at_the_top_of_each_page_is_no_running_head(tmp_path):
    """A ``longtable`` that starts at the top of a page and runs onto the next, its header
    (``\\endhead``, between \\toprule and \\midrule) repeated at the top of each: a line at one
    height on every page, so it was taken for a running head and dropped on both pages, and with
    it the first page's table (left as three columns of words read down)."""
    rows = "\n".join(f"Task{i} & {50 + i / 10:.1f} & {40 + i / 10:.1f} \\\\" for i in range(70))
    body = rf"""\begin{{longtable}}{{lcc}}
\toprule
Task & Acc & F1 \\
\midrule
\endhead
{rows}
\bottomrule
\end{{longtable}}"""
    # longtable sets its columns' widths from the last run's (.aux): a second run, as a paper is built
    pages = typeset_layouts(tmp_path, "booktabs,longtable", body, runs=2)
    assert len(pages) == 2
    first, second = (parse_tables(markdown) for markdown in compose_pages([page.to_json() for page in pages]))
    assert [len(first), len(second)] == [1, 1]
    assert first[0][:3] == [["Task", "Acc", "F1"], ["Task0", "50.0", "40.0"], ["Task1", "50.1", "40.1"]]
    assert second[0][0] == ["Task", "Acc", "F1"] and second[0][-1] == ["Task69", "56.9", "46.9"]
    assert len(first[0]) + len(second[0]) == 70 + 2


def test_group_labels_at_the_top_of_a_page_are_no_part_numbers(tmp_path):
    """A table at the very top of a page, its group labels "CIFAR-10" "CIFAR-100" between the
    \\toprule and their \\cmidrule: one token of capitals and digits each, in the top edge zone,
    they were dropped as part numbers ("SN74HC00A") and the table lost its first header row."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[t]\centering
\begin{tabular}{lcccc}
\toprule
 & \multicolumn{2}{c}{CIFAR-10} & \multicolumn{2}{c}{CIFAR-100} \\
\cmidrule(lr){2-3}\cmidrule(lr){4-5}
Method & Top-1 & Top-5 & Top-1 & Top-5 \\
\midrule
ResNet & 93.2 & 99.1 & 71.5 & 90.3 \\
Ours & 95.1 & 99.6 & 75.4 & 92.9 \\
\bottomrule
\end{tabular}
\end{table}
A paragraph of prose follows the table on this page, long enough to run onto a second line of text.""")
    assert '<tr><th></th><th colspan="2">CIFAR-10</th><th colspan="2">CIFAR-100</th></tr>' in markdown
    assert parse_tables(markdown)[0][2] == ["ResNet", "93.2", "99.1", "71.5", "90.3"]


def test_a_column_of_numbers_in_a_table_at_the_top_of_a_two_column_page_is_no_page_number(tmp_path):
    """A ``\\footnotesize`` table at the top of a column, set under one \\hline with no rule between
    its rows (proteus, a CVPR paper): its rows, set close, all fall in the page's top edge zone,
    and each row's bare core count ("4", "8", "16") was taken for a page number and the rest of the
    row, a wide space away, for its running head: the whole body was dropped (and a line of the
    prose column beside it). The counts stand in one column: a table's, a page has one number."""
    prose = " ".join(["The second column holds prose that runs on beside the table for several lines."] * 12)
    markdown = table_markdown(tmp_path, r"""
\begin{table}[t]\centering\footnotesize
\begin{tabular}{cccccc}
\hline
System & CPU & Cores & XOR & HD & Full Query \\ \hline
Laptop & 12$^{th}$Gen i5 & 4 & 200 ms & 1.29 s & 1.3 s \\
Laptop & 12$^{th}$Gen i5 & 8 & 105 ms & 747 ms & 773 ms \\
Laptop & 12$^{th}$Gen i5 & 16 & 67 ms & 467 ms & 472 ms \\
MB Pro & Apple M4 & 10 & 59 ms & 421 ms & 440 ms \\
Server & AMD 7B13 & 56 & 26 ms & 134 ms & 137 ms \\ \hline
\end{tabular}
\caption{The average latency of one query.}
\end{table}
""" + prose, preamble=r"\usepackage[top=1in]{geometry}", options="twocolumn")  # CVPR's top margin
    tests = [table_test("137 ms", left="134 ms", up="440 ms", top_heading="Full Query", left_heading="Server"),
             table_test("16", right="67 ms", up="8", down="10", top_heading="Cores", left_heading="Laptop"),
             table_test("Apple M4", left="MB Pro", down="AMD 7B13", top_heading="CPU")]
    assert_table_tests_pass(markdown, tests)
