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


def test_narrow_multicolumn_values_in_a_tight_table_span_their_two_columns(tmp_path):
    """bike-fpga's Table 6 (llncs, ``\\tabcolsep`` 1.4 pt): ``\\multicolumn{2}{c}{$1279$}`` under the
    pairs "Virtex-7 Spartan-7", narrower than the two columns' boxes (their heads), centred on
    them and over no cell of either column in the rows above: the value was taken for a column's
    cell, the second column's box widened to it, and every narrow spanning value stayed in one
    column (the other empty); the second header row, its cells 2.8 pt apart, stayed one cell. A
    cell centred in the white between two columns' cells row after row spans both."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]\centering\setlength{\tabcolsep}{1.4pt}
\caption{Performance results.}
\begin{tabular}{lcccccc}
\hline
Aspect & \multicolumn{2}{c}{BIKE-1} & \multicolumn{2}{c}{BIKE-2} & \multicolumn{2}{c}{BIKE-3}\\
 & Virtex-7 & Spartan-7  & Virtex-7 & Spartan-7  & Virtex-7 & Spartan-7\\
\hline
FFs &1055   &993  &2159 &2098 &955 &911\\
LUTs & 1970  &1897  &4445 &3872&1482&1402  \\
Slices& 612 &544  &1483 &1272&472&423  \\
BRAM & 7  &7  &10 & 10& 4&4\\
\hline
Cycles: Compute g & \multicolumn{2}{c}{$2068$  } & \multicolumn{2}{c}{---} & \multicolumn{2}{c}{$2250$  }\\
Cycles: Compute f & \multicolumn{2}{c}{$90,880$  } & \multicolumn{2}{c}{---} &\multicolumn{2}{c}{$94,135$  }\\
Cycles: Compute h  &  \multicolumn{2}{c}{---}          & \multicolumn{2}{c}{$90,880$  } & \multicolumn{2}{c}{---}\\
\hline
Cycles: Total & \multicolumn{2}{c}{$95,506$  } & \multicolumn{2}{c}{$2,150,121$  } & \multicolumn{2}{c}{$98,509$  }\\
\hline
\end{tabular}
\end{table}""", packages="times")
    [grid] = parse_tables(markdown)
    assert grid[1][1:] == ["Virtex-7", "Spartan-7"] * 3
    assert '<td colspan="2">2068</td><td colspan="2">—</td><td colspan="2">2250</td>' in markdown
    assert '<td colspan="2">95,506</td><td colspan="2">2,150,121</td><td colspan="2">98,509</td>' in markdown
    assert_table_tests_pass(markdown, [
        table_test("98,509", left="2,150,121", top_heading="BIKE-3", left_heading="Cycles: Total"),
        table_test("2250", left="—", down="94,135", left_heading="Cycles: Compute g"),
        table_test("1897", left="1970", up="993", down="544")])
