"""Table layouts the engine reads already, typeset here with pdflatex and held to their source
(issue 36 items 3, 6: the classes of table layout listed as read badly): ``tabular*`` spread to the
text width with ``@{\\extracolsep{\\fill}}``, a ``sidewaystable`` (rotating), a narrow table in one
column of a two-column paper, notes under a table (``\\footnotesize`` lines, a ``\\multicolumn``
note row under the ``\\bottomrule``), and ``\\multicolumn`` section rows spanning the body. The
expected cells are written by hand from the LaTeX source of each test."""
from __future__ import annotations

import subprocess

import pytest

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text."


def test_a_tabular_star_spread_to_the_text_width_keeps_its_columns(tmp_path):
    """``\\extracolsep{\\fill}`` puts wide, unequal white between the columns: one column each."""
    markdown = table_markdown(tmp_path, PROSE + r"""
\begin{table}[h]\caption{Full width.}
\begin{tabular*}{\textwidth}{@{\extracolsep{\fill}}lcccc}
\toprule
Method & MNIST & CIFAR-10 & SVHN & STL-10 \\
\midrule
Baseline & 98.1 & 91.2 & 95.0 & 80.3 \\
Ours (full) & 99.2 & 93.4 & 96.1 & 82.7 \\
\bottomrule
\end{tabular*}
\end{table}""")
    assert parse_tables(markdown) == [[["Method", "MNIST", "CIFAR-10", "SVHN", "STL-10"],
                                       ["Baseline", "98.1", "91.2", "95.0", "80.3"],
                                       ["Ours (full)", "99.2", "93.4", "96.1", "82.7"]]]


def test_a_sidewaystable_is_read_upright(tmp_path):
    """A ``sidewaystable`` on a page of its own, set at 90 degrees: its rows read left to right."""
    markdown = table_markdown(tmp_path, PROSE + r"""
\begin{sidewaystable}\centering\caption{Rotated.}
\begin{tabular}{lccc}
\toprule
Model & Alpha & Beta & Gamma \\
\midrule
First & 1.23 & 4.56 & 7.89 \\
Second & 2.34 & 5.67 & 8.90 \\
\bottomrule
\end{tabular}
\end{sidewaystable}""", packages="rotating,booktabs")
    assert parse_tables(markdown) == [[["Model", "Alpha", "Beta", "Gamma"], ["First", "1.23", "4.56", "7.89"],
                                       ["Second", "2.34", "5.67", "8.90"]]]


def test_a_narrow_table_in_one_column_of_a_two_column_paper(tmp_path):
    """A table one column wide beside the other column's prose: its cells only, not the prose
    beside them."""
    prose = " ".join(f"Sentence {k} of the running text fills the columns of the page." for k in range(60))
    markdown = table_markdown(tmp_path, prose[:2500] + r"""
\begin{table}[h]\centering\caption{Narrow.}\small
\begin{tabular}{lcc}
\toprule
Model & Top-1 & Top-5 \\
\midrule
ResNet-50 & 76.1 & 92.9 \\
ViT-B/16 & 81.8 & 95.9 \\
\bottomrule
\end{tabular}
\end{table}
""" + prose[2500:], options="twocolumn")
    assert parse_tables(markdown) == [[["Model", "Top-1", "Top-5"], ["ResNet-50", "76.1", "92.9"],
                                       ["ViT-B/16", "81.8", "95.9"]]]


def test_notes_under_a_table_stay_out_of_its_cells(tmp_path):
    """A note row (``\\multicolumn`` under the ``\\bottomrule``) and ``\\footnotesize`` lines under
    the tabular: the cells are the source's, and the notes are read whole after the table."""
    markdown = table_markdown(tmp_path, PROSE + r"""
\begin{table}[h]\centering\caption{Per-column notes.}
\begin{tabular}{lcc}
\toprule
Method & Acc.$^\dagger$ & Time (s)$^\ddagger$ \\
\midrule
Linear & 71.2 & 12 \\
Kernel & 73.5 & 15 \\
\bottomrule
\multicolumn{3}{l}{\footnotesize $^\dagger$ top-1. $^\ddagger$ per epoch.}
\end{tabular}

\vspace{2pt}{\footnotesize $^a$ Downloaded from the authors' page in 2019, the extra split unused.}
\end{table}""")
    assert parse_tables(markdown) == [[["Method", "Acc.†", "Time (s)‡"], ["Linear", "71.2", "12"], ["Kernel", "73.5", "15"]]]
    table_end = markdown.index("| Kernel | 73.5 | 15 |")
    assert markdown.index("† top-1. ‡ per epoch.") > table_end
    assert markdown.index("a Downloaded from the authors’ page in 2019, the extra split unused.") > table_end


def test_multicolumn_section_rows_span_the_body(tmp_path):
    """``\\multicolumn{4}{l}{\\emph{..}}`` section rows between body rows: a row of their own, the
    rows under them the source's."""
    markdown = table_markdown(tmp_path, PROSE + r"""
\begin{table}[h]\centering\caption{Grouped rows.}
\begin{tabular}{lccc}
\toprule
Method & Acc & F1 & AUC \\
\midrule
\multicolumn{4}{l}{\emph{Supervised}} \\
Logistic & 71.2 & 68.4 & 80.1 \\
SVM & 73.5 & 70.2 & 81.7 \\
\multicolumn{4}{l}{\emph{Self-supervised}} \\
SimCLR & 75.8 & 72.9 & 83.3 \\
BYOL & 76.4 & 73.1 & 84.0 \\
\bottomrule
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert [row for row in grid if row[1:] != ["", "", ""]] == [
        ["Method", "Acc", "F1", "AUC"], ["Logistic", "71.2", "68.4", "80.1"], ["SVM", "73.5", "70.2", "81.7"],
        ["SimCLR", "75.8", "72.9", "83.3"], ["BYOL", "76.4", "73.1", "84.0"]]
    assert [row[0] for row in grid if row[1:] == ["", "", ""]] == ["Supervised", "Self-supervised"]
    tests = [table_test("SimCLR", up="Self-supervised", right="75.8"),
             table_test("Logistic", up="Supervised", down="SVM")]
    assert_table_tests_pass(markdown, tests)


def test_siunitx_s_columns_aligned_on_the_decimal_point_read_as_their_numbers(tmp_path):
    """siunitx ``S`` columns (texlive-science, installed by ``make test``): numbers of different
    lengths aligned on their decimal point, so neither their left nor right edges nor their
    centres line up down a column; a signed column of its own ``table-format``."""
    if subprocess.run(["kpsewhich", "siunitx.sty"], capture_output=True).returncode != 0:
        pytest.skip("siunitx.sty not installed (texlive-science; make system-deps installs it)")
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\sisetup{table-format=2.3}
\begin{tabular}{lSSS[table-format=-1.2]}
\toprule
Model & {Top-1} & {Top-5} & {$\Delta$} \\
\midrule
ResNet-18 & 69.758 & 89.078 & -1.25 \\
ResNet-50 & 76.13 & 92.862 & 0.5 \\
ViT-B & 81.1 & 95.3 & 2.75 \\
\bottomrule
\end{tabular}
\end{table}""", "booktabs,siunitx")
    assert parse_tables(markdown) == [[["Model", "Top-1", "Top-5", "∆"], ["ResNet-18", "69.758", "89.078", "−1.25"],
                                       ["ResNet-50", "76.13", "92.862", "0.5"], ["ViT-B", "81.1", "95.3", "2.75"]]]
    tests = [table_test("76.13", up="69.758", down="81.1", right="92.862", top_heading="Top-1",
                        left_heading="ResNet-50")]
    assert_table_tests_pass(markdown, tests)


def test_paragraph_cells_in_several_p_columns_are_one_cell_each(tmp_path):
    """Three ``p{..}`` columns side by side, each cell a justified paragraph of two or three lines:
    TeX stretched the spaces of the narrow first column ("Prompt      injec-") past pdftext's cut,
    so its two words stood as two columns, and each next line of the row (under booktabs, no
    rule between rows) was a row of its own: "tion | documents override the system | stripped of
    control tokens." One cell per paragraph, as the source writes them."""
    markdown = table_markdown(tmp_path, PROSE + r"""

\begin{table}[h]\centering\small
\begin{tabular}{p{2.2cm}p{4.5cm}p{4.5cm}}
\toprule
Attack type & Description of the threat & Mitigation in our system \\
\midrule
Prompt injection & Instructions hidden in retrieved documents override the system prompt. & Retrieved text is quoted and stripped of control tokens. \\
Data poisoning & Adversarial samples inserted into the fine-tuning corpus. & Provenance filtering and deduplication before training. \\
Model extraction & Repeated queries reconstruct the weights. & Rate limits per key. \\
\bottomrule
\end{tabular}
\caption{Several wrapped columns.}
\end{table}""")
    tests = [table_test("Prompt injection", right="Instructions hidden in retrieved documents override the system prompt.",
                        up="Attack type", down="Data poisoning"),
             table_test("Adversarial samples inserted into the fine-tuning corpus.", left="Data poisoning",
                        right="Provenance filtering and deduplication before training.",
                        top_heading="Description of the threat"),
             table_test("Rate limits per key.", left="Repeated queries reconstruct the weights.",
                        up="Provenance filtering and deduplication before training.", left_heading="Model extraction")]
    assert_table_tests_pass(markdown, tests)


@pytest.mark.parametrize("ruled", [False, True], ids=["booktabs", "ruled-grid"])
def test_a_row_label_wrapped_in_a_p_column_is_one_cell(tmp_path, ruled):
    """Row labels in a ``p{3.2cm}`` first column wrap to two or three lines beside one line of
    numbers: a line of the first column alone was always taken for a row of its own (a group
    label), so "Maximum likelihood" stood over "estimation only" and an empty row, and
    "Reinforcement learn-" / "ing with a learned re-" / "ward" were three rows."""
    spec, rule = (r"|p{3.2cm}|c|c|c|", r"\hline") if ruled else (r"p{3.2cm}ccc", "")
    top, mid, bottom = (r"\hline", r"\hline", r"\hline") if ruled else (r"\toprule", r"\midrule", r"\bottomrule")
    markdown = table_markdown(tmp_path, PROSE + rf"""

\begin{{table}}[h]\centering\small
\begin{{tabular}}{{{spec}}}
{top}
Training objective & BLEU & METEOR & ROUGE-L \\
{mid}
Maximum likelihood estimation only & 27.1 & 24.3 & 51.2 \\ {rule}
Reinforcement learning with a learned reward & 28.4 & 25.0 & 52.6 \\ {rule}
Ours & 29.9 & 26.1 & 54.0 \\
{bottom}
\end{{tabular}}
\caption{{Wrapped row labels.}}
\end{{table}}""")
    tests = [table_test("Maximum likelihood estimation only", right="27.1", up="Training objective",
                        down="Reinforcement learning with a learned reward"),
             table_test("28.4", left="Reinforcement learning with a learned reward", up="27.1", down="29.9",
                        top_heading="BLEU", left_heading="Reinforcement learning with a learned reward"),
             table_test("Ours", up="Reinforcement learning with a learned reward", right="29.9")]
    assert_table_tests_pass(markdown, tests)


def test_a_centred_group_row_keeps_the_columns_under_it_apart(tmp_path):
    """``\\multicolumn{7}{c}{\\textit{Zero-shot}}`` group rows in a ``\\footnotesize`` table of
    seven columns, the last row's numbers bold: the label, centred on the table, overlaps the bold
    "99.0" by under a point, so its extent joined the Image group's "R@5" and "R@10" columns into
    one ("81.5 88.1" in one cell, "Image" over two columns of its three)."""
    markdown = table_markdown(tmp_path, PROSE + r"""

\begin{table}[h]\centering\footnotesize\setlength{\tabcolsep}{4pt}
\begin{tabular}{lcccccc}
\toprule
 & \multicolumn{3}{c}{\textbf{Image}} & \multicolumn{3}{c}{\textbf{Text}} \\
\cmidrule(lr){2-4}\cmidrule(lr){5-7}
\textbf{Method} & \textbf{R@1} & \textbf{R@5} & \textbf{R@10} & \textbf{R@1} & \textbf{R@5} & \textbf{R@10} \\
\midrule
\multicolumn{7}{c}{\textit{Zero-shot}} \\
CLIP & 58.4 & 81.5 & 88.1 & 37.8 & 62.4 & 72.2 \\
ALIGN & 58.6 & 83.0 & 89.7 & 45.6 & 69.8 & 78.6 \\
\midrule
\multicolumn{7}{c}{\textit{Fine-tuned}} \\
CLIP & 88.0 & 98.7 & 99.4 & 68.7 & 90.6 & 95.2 \\
Ours & \textbf{90.1} & \textbf{99.0} & \textbf{99.6} & \textbf{71.3} & \textbf{91.8} & \textbf{95.9} \\
\bottomrule
\end{tabular}
\caption{Group rows centred.}
\end{table}""")
    tests = [table_test("81.5", left="58.4", right="88.1", down="83.0", top_heading="Image"),
             table_test("89.7", left="83.0", right="45.6", up="88.1", top_heading="Image"),
             table_test("99.0", left="90.1", right="99.6", up="98.7", left_heading="Ours")]
    assert_table_tests_pass(markdown, tests)


# threeparttable's layout set by hand (`make test` installs no texlive-latex-extra, where
# threeparttable.sty is): `\tnote{x}` a superscript italic letter after a value, the notes under the table
THREEPARTTABLE_BY_HAND = r"""\begin{table}[h]\centering\small
\newcommand{\tnote}[1]{\textsuperscript{\itshape #1}}
\begin{tabular}{lccc}
\toprule
Method & BLEU & chrF & Latency\tnote{a} \\
\midrule
Transformer & 27.3 & 55.1 & 120 \\
Ours\tnote{b} & \textbf{28.9}\tnote{c} & 56.4 & 95 \\
Ours (large) & 29.4 & 57.0\tnote{c} & 240 \\
\bottomrule
\end{tabular}\\[2pt]
\begin{minipage}{0.45\linewidth}\footnotesize
\tnote{a} Milliseconds per sentence on one GPU.\\
\tnote{b} Trained with back-translation.\\
\tnote{c} Significant under a paired bootstrap test.
\end{minipage}
\end{table}"""


def test_threeparttable_markers_and_notes_stay_out_of_the_grid(tmp_path):
    """threeparttable's layout set by hand (``make test`` installs no texlive-latex-extra, where
    threeparttable.sty is): a superscript italic letter after a cell value (``\\tnote{a}``) and a
    list of notes under the ``\\bottomrule``. The markers make no column or row of their own, the
    cells beside them are the source's, and the notes are read whole after the table."""
    markdown = table_markdown(tmp_path, PROSE + "\n\n" + THREEPARTTABLE_BY_HAND)
    [grid] = parse_tables(markdown)
    assert len(grid) == 4 and all(len(row) == 4 for row in grid), grid
    tests = [table_test("55.1", left="27.3", right="120", up="chrF", down="56.4", left_heading="Transformer"),
             table_test("29.4", left="Ours (large)", top_heading="BLEU"),
             table_test("95", up="120", down="240", left="56.4")]
    assert_table_tests_pass(markdown, tests)
    table_end = markdown.index("| Ours (large) |")
    for note in ("Milliseconds per sentence on one GPU.", "Trained with back-translation.",
                 "Significant under a paired bootstrap test."):
        assert markdown.index(note) > table_end, note


def test_threeparttable_markers_are_superscripts_after_their_values(tmp_path):
    """threeparttable's ``\\tnote{c}`` (set by hand as above) after "28.9" read "28.9c", another
    number: a superscript letter of a text font after a cell's value is written
    ``28.9<sup>c</sup>``, the value and its marker apart, as the page shows them (olmocr's
    ``TableTest`` compares a cell's text as written, tags and all). The notes under the table stay
    out of it. A power of ten in maths is marked so too (``$10^{-3}$``: "10−3" before, a number), a
    maths symbol set as a marker (``$^\\dagger$``) stays after its word as it was read ("Acc.†")."""
    markdown = table_markdown(tmp_path, PROSE + "\n\n" + THREEPARTTABLE_BY_HAND + r"""

\begin{table}[h]\centering\small
\begin{tabular}{lccc}
\toprule
Method & Acc.$^\dagger$ & F1\textsuperscript{1} & Scale \\
\midrule
Linear & 71.2 & 68.4\textsuperscript{2} & $10^{-3}$ \\
Kernel & 73.5 & 70.2 & $2.5\times10^{21}$ \\
\bottomrule
\end{tabular}
\end{table}""")
    marked, plain = parse_tables(markdown)
    assert marked == [["Method", "BLEU", "chrF", "Latency<sup>a</sup>"], ["Transformer", "27.3", "55.1", "120"],
                      ["Ours<sup>b</sup>", "28.9<sup>c</sup>", "56.4", "95"],
                      ["Ours (large)", "29.4", "57.0<sup>c</sup>", "240"]]
    assert plain == [["Method", "Acc.†", "F1<sup>1</sup>", "Scale"], ["Linear", "71.2", "68.4<sup>2</sup>", "10<sup>−3</sup>"],
                     ["Kernel", "73.5", "70.2", "2.5 × 10<sup>21</sup>"]]
    tests = [table_test("28.9<sup>c</sup>", left="Ours<sup>b</sup>", right="56.4", up="27.3", down="29.4",
                        top_heading="BLEU"),
             table_test("240", up="95", left="57.0<sup>c</sup>", top_heading="Latency<sup>a</sup>")]
    assert_table_tests_pass(markdown, tests)
    table_end = markdown.index("| Ours (large) |")
    assert markdown.index("a Milliseconds per sentence on one GPU.") > table_end
