"""Table idioms found on papers_dev5.yaml's papers (machine-learning and NLP papers in the conference
styles; issue 36 items 3, 6), typeset here with pdflatex and judged by olmOCR-Bench's ``TableTest``;
the expected cells are written by hand from the LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

_PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"


def _subtable(caption: str, rows: str) -> str:
    return (r"\subfigure[" + caption + r"]{\centering\begin{tabular}{lccc}\toprule" "\n"
            r"Performance & failures & min & avg $\pm$ std \\ \midrule" "\n" + rows + r"\bottomrule\end{tabular}}")


def test_two_tables_side_by_side_are_two_tables(tmp_path):
    """Two booktabs tables set side by side in one float (``\\subfigure``, a NeurIPS 2020 paper's
    Table 1 (a) and (b)), 8 pt apart: their top, header and first body rules stand at one height, so
    each pair was joined into one rule line (as ``\\cmidrule`` segments are) and the two tables were
    read as one of eight columns, the left one's rows beside the right one's. Rule lines that all
    part at the same white, none running across it, are two tables' rules, not one table's."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\caption{Frequency of collision, minimum and average return.}
""" + _subtable("Performances on the obstacle task", r"""Oracle & 0\% & 11.6 & $14.2 \pm 1.3$ \\ \midrule
Nominal & 4\% & 2.8 & $13.8 \pm 2.0$ \\
Algorithm 1 & 0\% & 10.4 & $13.0 \pm 1.5$ \\ \midrule
DQN (trained) & 6\% & 1.7 & $12.3 \pm 2.5$ \\
""") + "\n\\quad\n" + _subtable("Performances on the driving task", r"""Oracle & 0\% & 6.9 & $7.4 \pm 0.5$ \\ \midrule
Nominal 1 & 4\% & 5.2 & $7.3 \pm 1.5$ \\
Nominal 2 & 33\% & 3.5 & $6.4 \pm 0.3$ \\
Algorithm 1 & 0\% & 6.8 & $7.1 \pm 0.3$ \\ \midrule
DQN (trained) & 3\% & 5.4 & $6.3 \pm 0.6$ \\
""") + r"""
\end{table}

""" + _PROSE, packages="booktabs,subfigure,times")
    grids = parse_tables(markdown)
    assert len(grids) == 2 and all(len(row) == 4 for grid in grids for row in grid[-5:])
    assert_table_tests_pass(markdown, [
        table_test("12.3 ± 2.5", left="1.7", top_heading="avg ± std", left_heading="DQN (trained)"),
        table_test("6.3 ± 0.6", up="7.1 ± 0.3", left="5.4", top_heading="avg ± std", left_heading="DQN (trained)"),
        table_test("Nominal 2", up="Nominal 1", down="Algorithm 1", right="33%")])


def test_a_group_head_in_a_walled_grid_is_not_cut_at_the_walls_under_it(tmp_path):
    """``|c|c|c|c|c|c|c|`` with ``\\multicolumn{3}{c|}{Train Data - Train Centroids}`` over three
    columns (an AAAI 2025 submission's appendix tables): the head's row draws no wall inside its
    span, but the space before "Centroids" lies where the body's wall between "Total" and
    "Overlap" stands, and the head was cut there ("Train Data - Train" over two columns,
    "Centroids" over the third). A head's space over a wall its own row does not draw parts nothing."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]\centering
\begin{tabular}{|c|c|c|c|c|c|c|}
\hline
Class & \multicolumn{3}{c|}{Train Data - Train Centroids} & \multicolumn{3}{c|}{Test Data - Train Centroids} \\
\hline
 & Count & Total & Overlap & Count & Total & Overlap \\
\hline
plane & 13 & 4252 & 0.31\% & 1 & 990 & 0.10\% \\
auto & 1 & 4326 & 0.02\% & 0 & 989 & 0.00\% \\
bird & 9 & 4216 & 0.21\% & 0 & 993 & 0.00\% \\
deer & 14 & 4255 & 0.33\% & 0 & 991 & 0.00\% \\
\hline
\end{tabular}
\caption{Counts of correctly classified images.}
\end{table}""", packages="times")
    [grid] = parse_tables(markdown)
    assert "Train Data - Train Centroids" in grid[0] and "Test Data - Train Centroids" in grid[0]
    assert_table_tests_pass(markdown, [
        table_test("4255", up="4216", left="14", right="0.33%", top_heading="Train Data - Train Centroids",
                   left_heading="deer"),
        table_test("0.00%", up="0.00%", left="991", top_heading="Test Data - Train Centroids", left_heading="deer")])


def test_a_multirow_label_of_two_lines_spans_its_rows(tmp_path):
    """``\\multirow{3}{*}{\\begin{tabular}[c]{@{}l@{}}Prom.+ \\\\ Prof. + L1\\end{tabular}}`` beside
    three rows (Pr, Re, F1) parted by ``\\cline{2-4}`` (tablesgenerator.com's output, an ACL 2020
    workshop paper): a one-line label ("Prompt") spans its rows, but the label of two lines stayed
    in the middle row, so the first row had no label. A label of stacked lines is centred on its
    rows as a one-line label is, and spans them the same way."""
    def group(label: str, values: list[str]) -> str:
        pr, re_, f1 = values
        return (r"\multirow{3}{*}{" + label + r"} & Pr & " + pr + r" \\ \cline{2-4}" "\n"
                r" & Re & " + re_ + r" \\ \cline{2-4}" "\n" r" & F1 & " + f1 + r" \\ \hline" "\n")
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]\setlength{\tabcolsep}{2.5pt}\centering
\begin{tabular}{|l|l|l|l|}
\hline
 & & Verbs & All-POS \\ \hline
""" + group(r"\begin{tabular}[c]{@{}l@{}}Baseline\\ (no metadt.)\end{tabular}",
            ["0.53 (+/- 0.04) & 0.53 (+/- 0.04)", "0.64 (+/- 0.07) & 0.63 (+/- 0.05)", "0.57 (+/- 0.02) & 0.57 (+/- 0.03)"])
      + group("Prompt", ["0.50 (+/- 0.06) & 0.51 (+/- 0.05)", "0.66 (+/- 0.10) & 0.64 (+/- 0.05)",
                         "0.56 (+/- 0.02) & 0.56 (+/- 0.03)"])
      + group(r"\begin{tabular}[c]{@{}l@{}}Prom.+ \\ Prof. + L1\end{tabular}",
              ["0.54 (+/- 0.07) & 0.52 (+/- 0.06)", "0.62 (+/- 0.07) & 0.64 (+/- 0.05)", "0.57 (+/- 0.03) & 0.57 (+/- 0.03)"])
      + r"""\end{tabular}
\caption{10-fold CV comparison of training with different metadata.}
\end{table}""", packages="multirow,times", options="twocolumn")
    assert_table_tests_pass(markdown, [
        table_test("0.54 (+/- 0.07)", left="Pr", right="0.52 (+/- 0.06)", left_heading="Prom.+ Prof. + L1"),
        table_test("0.53 (+/- 0.04)", left="Pr", left_heading="Baseline (no metadt.)"),
        table_test("0.50 (+/- 0.06)", left="Pr", left_heading="Prompt")])


def test_two_tables_of_one_width_parted_by_prose_are_two(tmp_path):
    """Two small ``\\hline`` tables without captions in the items of a list (an ACL 2021 report's
    computational requirements), one under the other in a column and of one width, an item's lines
    of prose between them: their rules made one group, so neither was read as a table, and their
    cells low on the page ("10 GiB", "37 minutes") were taken for footnotes ("[^10]: GiB"). A line
    between two rules that runs across the whole of their extent and past it is no row of the
    table: the group is cut there."""
    def small(rows: list[tuple[str, str]]) -> str:
        return (r"\begin{small}\begin{tabular}{ ll }\hline" "\n"
                + "\n".join(rf"{a} & {b} \\ \hline" for a, b in rows) + "\n" r"\end{tabular}\end{small}")
    markdown = table_markdown(tmp_path, (_PROSE * 6) + r"""
\begin{itemize}
\item MIMIC-III datasets import and preprocessing: all the steps were performed on a personal machine on CPU.
\newline

""" + small([("Memory used", "10 GiB"), ("Time taken", "3-4 minutes"),
             (r"Disk space needed for \\ input datasets", "3.75 GB")]) + r"""
\newline

\item Word2Vec and Doc2Vec model training and vectors generation: all the steps were performed on a personal
machine, with the corpus streamed from disk, so there is no need to load the whole corpus in memory.
\newline

""" + small([(r"Word2Vec embeddings \\ generation time", "37 minutes"), ("Memory used", "1.5 GB"),
             (r"Disk space needed for \\ output embeddings", "70.1 MB")]) + r"""
\end{itemize}
""", packages="times", options="twocolumn")
    assert len(parse_tables(markdown)) == 2 and "[^" not in markdown
    assert_table_tests_pass(markdown, [
        table_test("10 GiB", left="Memory used", down="3-4 minutes"),
        table_test("1.5 GB", left="Memory used", up="37 minutes")])


def test_tight_heads_of_a_resized_table_are_cut_on_their_columns(tmp_path):
    """``\\resizebox{\\textwidth}{!}{..}`` of an ``l|l|cccc|c`` table whose heads are wider than the
    numbers under them (an ECCV 2024 submission's Table 1, llncs with a reduced \\tabcolsep): the
    four heads between the walls, "AMOTA ↑ AMOTP (m) ↓ Recall ↑ MOTA ↑", are one fragment whose
    spaces between heads are no wider than those inside one. The last head, wider than its
    column, puts its own space ("MOTA ↑") in the white after that column, so a cut was asked in
    that white too, no cut fitted and the four heads stayed one cell over four columns. Only the
    whites the fragment reaches across, from one column's cells into the next one's, are cut."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]\centering\setlength{\tabcolsep}{1.2pt}
\caption{Quantitative evaluation for camera-only multi-object tracking.}
\resizebox{\textwidth}{!}{
\begin{tabular}{l|l|cccc|c}
\hline \hline
\textbf{Training} & \textbf{Method} & \textbf{AMOTA} $\uparrow$ & \textbf{AMOTP} (m) $\downarrow$ & \textbf{Recall} $\uparrow$ & \textbf{MOTA} $\uparrow$ & \textbf{Modality} \\
\textbf{Data Unseen} & & & & & & \\
\hline
$\times$ & PF-Track & 0.622 & 0.916 & 0.719 & 0.558 & Camera \\
$\times$ & QTrack & 0.692 & 0.753 & 0.760 & 0.596 & Camera \\
$\times$ & QD-3DT & 0.425 & 1.258 & 0.563 & 0.358 & Camera \\
\hline \hline
\checkmark & QD-3DT (trained on WOD) & 0.000 & 1.893 & 0.226 & 0.000 & Camera \\
$\times$ (CP) & CenterTrack & 0.202 & 1.195 & 0.313 & 0.134 & Camera \\
\checkmark\ (CP) & Inverse Neural Rendering (ours) & \textbf{0.413} & \underline{1.189} & \textbf{0.536} & \textbf{0.321} & Camera \\
\hline \hline
\end{tabular}}
\end{table}""", packages="amssymb,graphicx,times")
    assert_table_tests_pass(markdown, [
        table_test("0.563", up="0.760", left="1.258", right="0.358", top_heading="Recall ↑"),
        table_test("0.358", left="0.563", right="Camera", top_heading="MOTA ↑"),
        table_test("0.916", left="0.622", top_heading="AMOTP (m) ↓")])


def test_a_subscript_standard_deviation_is_set_apart_from_its_value(tmp_path):
    """``96.0\\textsubscript{0.1}`` (a mean and its standard deviation over seeds, the idiom of
    many ML results tables, papers_dev5's cudnn-cvpr among them): the script's digits follow the
    value's in the text layer with no space, read "96.00.1", another number. A smaller number
    lowered right after a digit, in a table's cells, is set apart by a space: "96.0 0.1". Prose and
    ``$95.1_{\\pm 0.2}$`` are read as before."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]\centering
\caption{Accuracy (mean and standard deviation over five seeds).}
\begin{tabular}{lccc}
\toprule
Method & CIFAR-10 & CIFAR-100 & SVHN \\
\midrule
ERM & 96.0\textsubscript{0.1} & 79.4\textsubscript{0.3} & 97.1\textsubscript{0.1} \\
Mixup & 96.8\textsubscript{0.2} & 81.2\textsubscript{0.4} & 97.3\textsubscript{0.1} \\
Ours & \textbf{97.2}\textsubscript{0.1} & \textbf{82.0}\textsubscript{0.15} & \textbf{97.6}\textsubscript{0.1} \\
F\textsubscript{1} & $95.1_{\pm 0.2}$ & $78.3_{\pm 0.4}$ & $96.4_{\pm 0.1}$ \\
\bottomrule
\end{tabular}
\end{table}

In prose the water molecule H\textsubscript{2}O keeps its script against its letter.""")
    [grid] = parse_tables(markdown)
    assert grid[1] == ["ERM", "96.0 0.1", "79.4 0.3", "97.1 0.1"]
    assert grid[3][2] == "82.0 0.15" and grid[4] == ["F1", "95.1±0.2", "78.3±0.4", "96.4±0.1"]
    assert "H2O" in markdown
    assert_table_tests_pass(markdown, [table_test("81.2 0.4", up="79.4 0.3", down="82.0 0.15", left="96.8 0.2",
                                                  top_heading="CIFAR-100", left_heading="Mixup")])


def test_a_head_wider_than_its_left_aligned_column_over_the_first_rule_is_the_table_s(tmp_path):
    """``lllll`` with ``\\multicolumn{1}{c}{\\textbf{Checkpoint}}`` over "100" (flush left in its
    column), the header set over the table's first ``\\hline`` with no rule above it (a thesis's
    results tables, papers_dev3.yaml's masterarbeit): "Checkpoint" is wider than the column's
    cells and its middle lies in the white after them, so it was over no column and the whole
    header stayed out of the table (read as headings). A head flush with its column's left (or
    right) edge whose ends clear the neighbour columns' cells is that column's."""
    def table(caption: str, rows: str) -> str:
        return (r"\begin{table}[h]\caption{" + caption + r"}\centering\begin{tabular}{lllll}" "\n"
                r"\multicolumn{1}{c}{\textbf{Splits}} & \multicolumn{1}{c}{\textbf{View}} & "
                r"\multicolumn{1}{c}{\textbf{Encoder}} & \multicolumn{1}{c}{\textbf{Checkpoint}} & "
                r"\multicolumn{1}{c}{\textbf{Test}} \\ \hline" "\n" + rows + r"\hline\end{tabular}\end{table}" "\n")
    markdown = table_markdown(tmp_path, _PROSE + table("Results on the test sets of the Kinect IR dataset.", r"""
Split 0 & Right Top & DINOv2-B & 100 & 71.80\% \\
Split 1 & Right Top & DINOv2-B & 100 & 56.64\% \\ \hline
Average & KIR Right Top & DINOv2-B & 100 & 64.22\% \\
""") + table("Results on the test sets of the NIR dataset.", r"""
Split 0 & Front Top & DINOv2-B & 100 & 50.05\% \\
Split 1 & Front Top & DINOv2-B & 100 & 51.10\% \\ \hline
Average & NIR Front Top & DINOv2-B & 100 & 50.58\% \\
"""), packages="times")
    assert len(parse_tables(markdown)) == 2 and "## " not in markdown
    assert_table_tests_pass(markdown, [
        table_test("71.80%", up="Test", down="56.64%", left="100", top_heading="Test"),
        table_test("50.05%", up="Test", left="100", top_heading="Test", left_heading="Split 0"),
        table_test("Front Top", up="View", left="Split 0", top_heading="View")])
