"""Tight tables and stacked header rows typeset here with pdflatex (issue 36 item 3): results
tables as ML papers set them (booktabs, ``\\small``/``\\footnotesize``, ``\\tabcolsep`` 2 pt), read by
the text layer and composed, judged by olmOCR-Bench's ``TableTest`` and its table parsers. The
expected cells are written by hand from the LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test


def test_tight_numeric_columns_are_cut_where_the_other_rows_show_their_gutters(tmp_path):
    """``\\small`` with ``\\tabcolsep`` 2 pt: 4 pt (0.44 em) between columns, under pdftext's cut
    (0.75 em). Four percentages came out as one body cell under a header cell holding all six
    benchmark names, and the last row's label and first score as one cell."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\small\setlength{\tabcolsep}{2pt}
\begin{tabular}{lcccccc}
\toprule
Method & BoolQ & PIQA & SIQA & WinoG & ARC-e & OBQA \\
\midrule
Zero-shot & 76.5\% & 79.8\% & 48.9\% & 70.1\% & 72.8\% & 57.2\% \\
LoRA & 80.3\% & 82.4\% & 52.6\% & 74.9\% & 77.0\% & 60.4\% \\
DoRA (ours) & 81.7\% & 83.9\% & 54.1\% & 76.3\% & 78.5\% & 62.0\% \\
\bottomrule
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert grid == [["Method", "BoolQ", "PIQA", "SIQA", "WinoG", "ARC-e", "OBQA"],
                    ["Zero-shot", "76.5%", "79.8%", "48.9%", "70.1%", "72.8%", "57.2%"],
                    ["LoRA", "80.3%", "82.4%", "52.6%", "74.9%", "77.0%", "60.4%"],
                    ["DoRA (ours)", "81.7%", "83.9%", "54.1%", "76.3%", "78.5%", "62.0%"]]
    tests = [table_test("79.8%", left="76.5%", right="48.9%", up="PIQA", top_heading="PIQA"),
             table_test("81.7%", left="DoRA (ours)", up="80.3%", top_heading="BoolQ"),
             table_test("72.8%", left="70.1%", right="57.2%", top_heading="ARC-e", left_heading="Zero-shot")]
    assert_table_tests_pass(markdown, tests)


def test_tight_footnotesize_columns_keep_multi_word_cells_and_plus_minus_whole(tmp_path):
    """``\\footnotesize``, ``\\tabcolsep`` 2 pt, benchmark names wider than their numbers: the body
    cut into columns; a row label of two words, a mean ``± std`` and a ``12.3 (0.4)`` stay one cell
    (their spaces are word spaces, under one header cell)."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\footnotesize\setlength{\tabcolsep}{2pt}
\begin{tabular}{lccccc}
\toprule
Model & MMLU & GSM8K & Acc & AUROC & Avg. \\
\midrule
Large baseline & 45.31 & 14.62 & $81.2 \pm 0.4$ & 12.3 (0.4) & 38.4 \\
Ours & 64.12 & 52.35 & $83.5 \pm 0.2$ & 14.5 (0.2) & 53.6 \\
Ours + aug & 65.02 & 53.17 & $84.1 \pm 0.3$ & 15.0 (0.3) & 54.3 \\
\bottomrule
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert grid == [["Model", "MMLU", "GSM8K", "Acc", "AUROC", "Avg."],
                    ["Large baseline", "45.31", "14.62", "81.2 ± 0.4", "12.3 (0.4)", "38.4"],
                    ["Ours", "64.12", "52.35", "83.5 ± 0.2", "14.5 (0.2)", "53.6"],
                    ["Ours + aug", "65.02", "53.17", "84.1 ± 0.3", "15.0 (0.3)", "54.3"]]
    tests = [table_test("45.31", left="Large baseline", right="14.62", top_heading="MMLU"),
             table_test("52.35", left="64.12", down="53.17", top_heading="GSM8K")]
    assert_table_tests_pass(markdown, tests)


def test_a_unit_row_and_a_second_word_row_under_the_header_stay_rows_of_their_own(tmp_path):
    """Two header rows with no rule between them, each column with a line on both: units under
    their quantities, a second word row. ``join_head_lines`` took them for the lines of wrapped
    cells and made one row ("Accuracy (%)", "Train images")."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering
\begin{tabular}{lcccc}
\toprule
Model & Accuracy & Latency & Memory & Throughput \\
 & (\%) & (ms) & (GB) & (tok/s) \\
\midrule
Small & 71.2 & 12.5 & 1.2 & 820 \\
Base & 75.4 & 20.1 & 2.4 & 510 \\
\bottomrule
\end{tabular}
\end{table}

\begin{table}[h]\centering
\begin{tabular}{lccc}
\toprule
Dataset & Train & Validation & Test \\
 & images & images & images \\
\midrule
CIFAR-10 & 50000 & 5000 & 10000 \\
ImageNet & 1281167 & 50000 & 100000 \\
\bottomrule
\end{tabular}
\end{table}""")
    units, words = parse_tables(markdown)
    assert units == [["Model", "Accuracy", "Latency", "Memory", "Throughput"], ["", "(%)", "(ms)", "(GB)", "(tok/s)"],
                     ["Small", "71.2", "12.5", "1.2", "820"], ["Base", "75.4", "20.1", "2.4", "510"]]
    assert words == [["Dataset", "Train", "Validation", "Test"], ["", "images", "images", "images"],
                     ["CIFAR-10", "50000", "5000", "10000"], ["ImageNet", "1281167", "50000", "100000"]]
    tests = [table_test("(%)", up="Accuracy", down="71.2", right="(ms)"),
             table_test("(tok/s)", up="Throughput", down="820"),
             table_test("images", up="Validation", down="5000", left="images", right="images")]
    assert_table_tests_pass(markdown, tests)


def test_a_wrapped_p_header_cell_is_one_cell_beside_a_unit_row(tmp_path):
    """A ``p{..}`` header cell wraps into three justified lines ("Number of" / "training to-" /
    "kens": the stretched spaces wider than pdftext's cut) beside a unit row: the wrapped cell is
    one cell (its words were a column of their own, its lines one row each), the units a row."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering
\begin{tabular}{lp{2.2cm}ccc}
\toprule
Model & Number of training tokens & Accuracy & Latency & Memory \\
 & & (\%) & (ms) & (GB) \\
\midrule
Alpha & 300B & 61.2 & 12.5 & 1.2 \\
Beta & 1.4T & 67.5 & 20.1 & 2.4 \\
\bottomrule
\end{tabular}
\end{table}

\begin{table}[h]\centering
\begin{tabular}{lp{2.2cm}cc}
\toprule
Model & Number of training tokens & Acc & F1 \\
\midrule
Alpha & 300B & 61.2 & 65.8 \\
Beta & 1.4T & 67.5 & 70.1 \\
\bottomrule
\end{tabular}
\end{table}""")
    with_units, wrapped = parse_tables(markdown)
    assert with_units == [["Model", "Number of training tokens", "Accuracy", "Latency", "Memory"],
                          ["", "", "(%)", "(ms)", "(GB)"],
                          ["Alpha", "300B", "61.2", "12.5", "1.2"], ["Beta", "1.4T", "67.5", "20.1", "2.4"]]
    assert wrapped == [["Model", "Number of training tokens", "Acc", "F1"], ["Alpha", "300B", "61.2", "65.8"],
                       ["Beta", "1.4T", "67.5", "70.1"]]
    tests = [table_test("Number of training tokens", left="Model", right="Acc", down="300B"),
             table_test("(ms)", up="Latency", down="12.5", left="(%)")]
    assert_table_tests_pass(markdown, tests)


def test_a_header_of_names_wider_than_their_numbers_is_cut_on_the_body_columns(tmp_path):
    """``\\tabcolsep`` 1.5 pt: the body's numbers stand apart, so the body has its eight columns,
    but the header's names, wider than their numbers, are 3 pt (0.3 em) apart: the header stayed
    one cell spanning every column. Multi-word heads over ``l`` and ``r`` columns are cut between
    the columns, not inside a name."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Zero-shot.}\setlength{\tabcolsep}{1.5pt}
\begin{tabular}{lccccccc}
\toprule
Method & HellaSwag & WinoGrande & PIQA & OpenBookQA & BoolQ & ARC-easy & Average \\
\midrule
GPT-2 & 31.1 & 51.6 & 62.5 & 16.4 & 48.7 & 39.5 & 41.6 \\
Pythia & 40.2 & 52.9 & 68.1 & 20.0 & 55.3 & 45.0 & 46.9 \\
Ours & 44.8 & 55.1 & 70.2 & 23.6 & 60.8 & 49.7 & 50.7 \\
\bottomrule
\end{tabular}
\end{table}

\begin{table}[h]\centering\caption{Settings.}\setlength{\tabcolsep}{1.5pt}
\begin{tabular}{lllr}
\toprule
Model name & Training steps & Batch size & Learning rate \\
\midrule
A & 100 & 32 & 0.1 \\
Bigger one & 2000 & 64 & 0.01 \\
\bottomrule
\end{tabular}
\end{table}""")
    names, settings = parse_tables(markdown)
    assert names[0] == ["Method", "HellaSwag", "WinoGrande", "PIQA", "OpenBookQA", "BoolQ", "ARC-easy", "Average"]
    assert names[3] == ["Ours", "44.8", "55.1", "70.2", "23.6", "60.8", "49.7", "50.7"]
    assert settings == [["Model name", "Training steps", "Batch size", "Learning rate"], ["A", "100", "32", "0.1"],
                        ["Bigger one", "2000", "64", "0.01"]]
    tests = [table_test("16.4", up="OpenBookQA", top_heading="OpenBookQA", left="62.5"),
             table_test("0.01", up="0.1", top_heading="Learning rate", left="64")]
    assert_table_tests_pass(markdown, tests)


def test_multi_word_group_labels_over_tight_columns_stay_spanning_cells(tmp_path):
    """``\\multicolumn`` labels of several words over columns 6 pt apart (``\\tabcolsep`` 3 pt,
    under pdftext's cut): the body is cut into its columns (it was one cell of four numbers), and a
    label's word spaces that fall in the white between two columns are no column boundaries (the
    words do not line up with the cells under them): each label is one cell over its columns."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Groups.}\setlength{\tabcolsep}{3pt}
\begin{tabular}{lcccccc}
\toprule
 & \multicolumn{3}{c}{Zero shot accuracy} & \multicolumn{3}{c}{Few shot with chain of thought} \\
\cmidrule(lr){2-4} \cmidrule(lr){5-7}
Method & Acc & F1 & EM & Acc & F1 & EM \\
\midrule
Baseline & 71.2 & 70.1 & 69.5 & 61.2 & 60.1 & 59.5 \\
Ours & 75.4 & 74.9 & 73.2 & 65.4 & 64.9 & 63.2 \\
\bottomrule
\end{tabular}
\end{table}

\begin{table}[h]\centering\caption{Groups without rules under them.}\setlength{\tabcolsep}{3pt}
\begin{tabular}{lcccc}
\toprule
 & \multicolumn{2}{c}{Zero shot} & \multicolumn{2}{c}{Few shot} \\
Method & Acc & F1 & Acc & F1 \\
\midrule
Baseline & 71.2 & 70.1 & 69.5 & 61.2 \\
Ours & 75.4 & 74.9 & 73.2 & 65.4 \\
\bottomrule
\end{tabular}
\end{table}""")
    assert '<tr><th></th><th colspan="3">Zero shot accuracy</th><th colspan="3">Few shot with chain of thought</th></tr>' \
        in markdown
    assert '<tr><th></th><th colspan="2">Zero shot</th><th colspan="2">Few shot</th></tr>' in markdown
    assert "<tr><td>Baseline</td><td>71.2</td><td>70.1</td><td>69.5</td><td>61.2</td></tr>" in markdown
    tests = [table_test("69.5", left="70.1", right="61.2", up="Acc", top_heading="Few shot")]
    assert_table_tests_pass(markdown, tests)


def test_labels_of_two_words_aligned_in_every_row_are_no_columns(tmp_path):
    """Row labels whose word spaces line up in every row ("Model A", "Model B"; typewriter
    ``gpt 4o``, ``gpt 35``, whose space is 0.525 em) under one header word: the space is no column
    gap, while the tight numbers beside them are cut (before, neither table was found: each row
    was one fragment)."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Same words.}\footnotesize\setlength{\tabcolsep}{2pt}
\begin{tabular}{lccc}
\toprule
Name & Acc & F1 & EM \\
\midrule
Model A & 71.2 & 70.1 & 69.5 \\
Model B & 75.4 & 74.9 & 73.2 \\
Model C & 76.4 & 75.9 & 74.2 \\
\bottomrule
\end{tabular}
\end{table}

\begin{table}[h]\centering\caption{Typewriter names.}\footnotesize\setlength{\tabcolsep}{2pt}
\begin{tabular}{lccc}
\toprule
Name & Acc & F1 & EM \\
\midrule
\texttt{gpt 4o} & 71.2 & 70.1 & 69.5 \\
\texttt{gpt 35} & 75.4 & 74.9 & 73.2 \\
\bottomrule
\end{tabular}
\end{table}""")
    words, typewriter = parse_tables(markdown)
    assert words == [["Name", "Acc", "F1", "EM"], ["Model A", "71.2", "70.1", "69.5"],
                     ["Model B", "75.4", "74.9", "73.2"], ["Model C", "76.4", "75.9", "74.2"]]
    assert typewriter == [["Name", "Acc", "F1", "EM"], ["gpt 4o", "71.2", "70.1", "69.5"],
                          ["gpt 35", "75.4", "74.9", "73.2"]]
    tests = [table_test("70.1", left="71.2", right="69.5", top_heading="F1", left_heading="gpt 4o")]
    assert_table_tests_pass(markdown, tests)


def test_a_mean_and_its_error_stay_one_cell_under_a_header_whose_space_lines_up(tmp_path):
    """Times (0.25 em word space): the space after the ± of "$85.62 \\pm 0.09\\%$" lies right under
    the word space of the header "Test F1" (cheblienet's Table 1 on the real-paper dev set): the
    header's space is no evidence of a column gap that narrow, the cell stays whole."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Mean of test performance.}
\begin{tabular}{llcccc}
\toprule
 & & \multicolumn{2}{c}{ClimateNet} & \multicolumn{2}{c}{STL10} \\
$\epsilon$ & & Test F1 & Duration & Test accuracy & Duration \\
\midrule
1 & (invariant) & $85.62 \pm 0.09\%$ & $\sim 2$ d & $68.98 \pm 0.56\%$ & $\sim 9$ h \\
0.1 & (equivariant) & $85.25 \pm 0.19\%$ & $\sim 7$ d & $74.02 \pm 1.10\%$ & $\sim 16$ h \\
\bottomrule
\end{tabular}
\end{table}""", "booktabs,times")
    [grid] = parse_tables(markdown)
    assert grid[-2:] == [["1", "(invariant)", "85.62 ± 0.09%", "∼ 2 d", "68.98 ± 0.56%", "∼ 9 h"],
                         ["0.1", "(equivariant)", "85.25 ± 0.19%", "∼ 7 d", "74.02 ± 1.10%", "∼ 16 h"]]
    tests = [table_test("85.25 ± 0.19%", left="(equivariant)", top_heading="ClimateNet", left_heading="0.1")]
    assert_table_tests_pass(markdown, tests)


def test_tight_numeric_columns_under_heads_narrower_than_their_numbers_are_cut(tmp_path):
    """``\\small``, ``\\tabcolsep`` 2 pt: 4 pt (0.44 em in 9 pt type) between the numbers, and
    heads (shot counts) narrower than the numbers under them, so the header has wide white over
    each gap and does not vouch for it. Before, each row's six scores were one cell (the body's
    gutters were taken for word spaces: under 0.45 em) under one header cell "0 1 2 4 8 16"."""
    markdown = table_markdown(tmp_path, r"""
Accuracy by the number of in-context examples, for three models.
\begin{table}[h]\centering\small\setlength{\tabcolsep}{2pt}
\begin{tabular}{lrrrrrr}
\toprule
Model & 0 & 1 & 2 & 4 & 8 & 16 \\
\midrule
GPT-2 & 12.1 & 13.4 & 14.5 & 15.6 & 16.7 & 17.8 \\
OPT & 22.1 & 23.4 & 24.5 & 25.6 & 26.7 & 27.8 \\
Llama & 32.9 & 33.0 & 34.2 & 35.3 & 36.4 & 37.5 \\
\bottomrule
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert grid == [["Model", "0", "1", "2", "4", "8", "16"],
                    ["GPT-2", "12.1", "13.4", "14.5", "15.6", "16.7", "17.8"],
                    ["OPT", "22.1", "23.4", "24.5", "25.6", "26.7", "27.8"],
                    ["Llama", "32.9", "33.0", "34.2", "35.3", "36.4", "37.5"]]
    tests = [table_test("23.4", left="22.1", right="24.5", top_heading="1", left_heading="OPT"),
             table_test("37.5", up="27.8", top_heading="16")]
    assert_table_tests_pass(markdown, tests)


def test_a_unit_row_under_a_header_with_no_label_column_is_a_row_of_its_own(tmp_path):
    """``Time & Memory \\\\ (s) & (GB)``: a unit line under every column of a table with no row
    label column (TableTest's ``up`` of "12.5" is "(s)", its ``top_heading`` "Time"). The label
    column was left out of the count of columns the second line fills, so one column with a unit
    was under two and the unit row was joined into the header ("Time (s)"). Cells of ``p{..}``
    columns that wrap in lower case ("Number of" / "layers") are still one cell each."""
    markdown = table_markdown(tmp_path, r"""
Some text before the tables.
\begin{table}[h]\centering
\begin{tabular}{cc}
\toprule
Time & Memory \\
(s) & (GB) \\
\midrule
12.5 & 1.2 \\
10.1 & 0.9 \\
\bottomrule
\end{tabular}
\end{table}

\begin{table}[h]\centering
\begin{tabular}{p{1.4cm}p{1.4cm}}
\toprule
Number of layers & Hidden units \\
\midrule
12 & 768 \\
24 & 1024 \\
\bottomrule
\end{tabular}
\end{table}""")
    units, wrapped = parse_tables(markdown)
    assert units == [["Time", "Memory"], ["(s)", "(GB)"], ["12.5", "1.2"], ["10.1", "0.9"]]
    assert wrapped == [["Number of layers", "Hidden units"], ["12", "768"], ["24", "1024"]]
    tests = [table_test("(s)", up="Time", down="12.5", right="(GB)"),
             table_test("12.5", up="(s)", down="10.1", right="1.2", top_heading="Time"),
             table_test("1024", up="768", left="24", top_heading="Hidden units")]
    assert_table_tests_pass(markdown, tests)


def test_column_heads_under_cmidrule_group_labels_vouch_for_tight_gutters(tmp_path):
    """Springer's llncs sets ``\\tabcolsep`` 1.4 pt: 2.8 pt (0.31 em) between columns. Group labels
    over ``\\cmidrule``s, the column heads under them, then the ``\\midrule``: the header ended at
    the first inner rule, a ``\\cmidrule``, so the heads "Method Acc F1 ..." were taken for a body
    row and the only header row left had no white over the row labels' gutter: "Baseline 71.2"
    stayed one cell. The header runs to the first rule across the table."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\small\setlength{\tabcolsep}{1.4pt}
\begin{tabular}{lcccc}
\toprule
 & \multicolumn{2}{c}{Dataset A} & \multicolumn{2}{c}{Dataset B} \\
\cmidrule(lr){2-3}\cmidrule(lr){4-5}
Method & Acc & F1 & Acc & F1 \\
\midrule
Baseline & 71.2 & 70.1 & 61.2 & 60.1 \\
Ours & \textbf{75.4} & \underline{74.9} & 65.4 & 64.9 \\
\bottomrule
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert grid[1:] == [["Method", "Acc", "F1", "Acc", "F1"], ["Baseline", "71.2", "70.1", "61.2", "60.1"],
                        ["Ours", "75.4", "74.9", "65.4", "64.9"]]
    tests = [table_test("71.2", left="Baseline", right="70.1", up="Acc", down="75.4", top_heading="Dataset A"),
             table_test("61.2", left="70.1", top_heading="Dataset B", left_heading="Baseline")]
    assert_table_tests_pass(markdown, tests)


def test_heads_wider_than_their_numbers_at_llncs_column_spacing_are_cut(tmp_path):
    """llncs' ``\\tabcolsep`` of 1.4 pt, ``\\small``, ``\\hline`` rules: "Precision" and "Recall",
    each centred over narrower numbers, start left of the white before their column, so the cut
    of the header fragment "Precision Recall F1 Time" counted its first piece from the column
    before (the label's) and found no cut that lines up: "Precision Recall" was one cell."""
    markdown = table_markdown(tmp_path, r"""
Some prose before the table.
\begin{table}[h]\centering\small\setlength{\tabcolsep}{1.4pt}
\begin{tabular}{lcccc}
\hline
Approach & Precision & Recall & F1 & Time \\
\hline
Rule-based & 0.71 & 0.65 & 0.68 & 12s \\
Ours & 0.82 & 0.79 & 0.80 & 15s \\
Ours + ctx & 0.85 & 0.81 & 0.83 & 21s \\
\hline
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert grid == [["Approach", "Precision", "Recall", "F1", "Time"], ["Rule-based", "0.71", "0.65", "0.68", "12s"],
                    ["Ours", "0.82", "0.79", "0.80", "15s"], ["Ours + ctx", "0.85", "0.81", "0.83", "21s"]]
    tests = [table_test("0.79", left="0.82", up="0.65", top_heading="Recall", left_heading="Ours")]
    assert_table_tests_pass(markdown, tests)


LLNCS_TIGHT = r"""
\begin{table}[h]\centering\small\setlength\tabcolsep{1.4pt}
\begin{tabular}{cc|ccccc}
\hline
\textbf{Category} & & $d$ & $r$ & $|I|=w/2$ & unoptimized version & optimized version \\ \hline
\multirow{2}{*}{128-bit} & BIKE-[1,2] & $64$ & $10163$ & $71$ & $180{,}624$ & $90{,}880$ \\
 & BIKE-[3] & $64$ & $11027$ & $67$ & $185{,}456$ & $93{,}264$ \\ \hline
\multirow{2}{*}{192-bit} & BIKE-[1,2] & $64$ & $19853$ & $103$ & $512{,}528$ & $257{,}088$ \\
 & BIKE-[3] & $64$ & $21683$ & $99$ & $536{,}976$ & $269{,}280$ \\ \hline
\end{tabular}
\end{table}"""


def test_columns_closer_than_a_word_space_under_heads_of_their_own_are_cut(tmp_path):
    """llncs sets \\tabcolsep 1.4 pt (a real paper's cycle-count table, in \\small): "$64$" and
    "$10163$" 2.8 pt apart in every row were one cell, though "$d$" and "$r$" head each side; the
    header's white between those single letters (14 pt) was too wide for a tight header's cut.
    And the header "$|I|=w/2$ unoptimized version optimized version", one fragment, was cut at its
    word spaces (wider than the maths spaces around "="), not at the body's column gaps: the white
    left of its first column, which a maths space of "|I| = w/2" lies in, made the cut fail."""
    markdown = table_markdown(tmp_path, LLNCS_TIGHT, packages="booktabs,multirow")
    tests = [table_test("10163", left="64", right="71", up="r", top_heading="r"),
             table_test("19853", left="64", right="103", top_heading="r", left_heading="192-bit"),
             table_test("unoptimized version", left="|I| = w/2", right="optimized version"),
             table_test("257,088", left="512,528", up="93,264", top_heading="optimized version")]
    assert_table_tests_pass(markdown, tests)


def test_a_number_with_maths_commas_is_one_number(tmp_path):
    """``$512,528$``: TeX sets a maths comma as punctuation, a thin space (3 mu) after it, and PDFium
    put a space there: "512, 528" matched no cell "512,528" (the source's number)."""
    markdown = table_markdown(tmp_path, LLNCS_TIGHT.replace("{,}", ","), packages="booktabs,multirow")
    tests = [table_test("512,528", left="103", right="257,088", up="185,456"),
             table_test("93,264", left="185,456", down="257,088")]
    assert_table_tests_pass(markdown, tests)
    assert "10163" in markdown and "512, 528" not in markdown


def test_columns_under_more_spanning_rows_than_rows_of_their_own_stay_apart(tmp_path):
    """A results table of llncs (\\tabcolsep 1.4 pt): each device pair of columns has four rows of
    its own numbers and five rows of one \\multicolumn{2}{c} value centred over both. A cell was
    spanning only when it covered two cells in at least half of the rows reaching under it: the
    centred values outnumbered the split rows, were kept as cells, and joined each pair into one
    column ("1055 993"). Rows whose one cell is centred where the cell is (the same span) now
    say nothing about it."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\small\setlength\tabcolsep{1.4pt}
\begin{tabular}{lcccccc}
\hline
Aspect & \multicolumn{2}{c}{BIKE-1} & \multicolumn{2}{c}{BIKE-2} & \multicolumn{2}{c}{BIKE-3}\\
 & Virtex-7 & Spartan-7 & Virtex-7 & Spartan-7 & Virtex-7 & Spartan-7\\
\hline
FFs & 1055 & 993 & 2159 & 2098 & 955 & 911\\
LUTs & 1970 & 1897 & 4445 & 3872 & 1482 & 1402\\
Slices & 612 & 544 & 1483 & 1272 & 472 & 423\\
\hline
Time/Op(ms) & 0.273 & 0.597 & 6.719 & 14.334 & 0.273 & 0.492\\
\hline
Cycles: Compute $h_0$ & \multicolumn{2}{c}{$1279$} & \multicolumn{2}{c}{$1279$} & \multicolumn{2}{c}{$1062$}\\
Cycles: Compute $g$ & \multicolumn{2}{c}{$2068$} & \multicolumn{2}{c}{---} & \multicolumn{2}{c}{$2250$}\\
Cycles: Compute $f_0$ & \multicolumn{2}{c}{$90{,}880$} & \multicolumn{2}{c}{---} & \multicolumn{2}{c}{$94{,}135$}\\
Cycles: Compute $h$ & \multicolumn{2}{c}{---} & \multicolumn{2}{c}{$90{,}880$} & \multicolumn{2}{c}{---}\\
Cycles: Total & \multicolumn{2}{c}{$95{,}506$} & \multicolumn{2}{c}{$2{,}150{,}121$} & \multicolumn{2}{c}{$98{,}509$}\\
\hline
\end{tabular}
\end{table}""", packages="booktabs,multirow")
    tests = [table_test("1897", left="1970", right="4445", up="993", down="544"),
             table_test("3872", left="4445", right="1482", up="2098", down="1272"),
             table_test("14.334", left="6.719", right="0.273", left_heading="Time/Op(ms)")]
    assert_table_tests_pass(markdown, tests)
