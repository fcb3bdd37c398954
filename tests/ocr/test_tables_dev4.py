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


_BODY = ("A paragraph of prose sets the page and its text body, running well past the end of one line of text "
         "so that the lines of the body say where the page's text begins and where it ends. ") * 4


def test_the_columns_of_a_table_wider_than_the_text_body_stay_in_it(tmp_path):
    """A results table wider than the text body, centred over it (``\\makebox[\\textwidth][c]``; a
    NeurIPS report's ``adjustbox{max width=1.3\\textwidth,center}``), its rules running into both
    margins: the cells set wholly in the right margin ("Mean", its MA/VA/TA and their numbers) were
    dropped as margin stamps. A rule reaching across a fragment above and below it, a few rows away,
    makes it a table's cell (a margin stamp has no rule over it)."""
    markdown = table_markdown(tmp_path, _BODY + "\n\n" + _BODY + r"""

\begin{table}[h]
\caption{Accuracy per dataset and split.}
\makebox[\textwidth][c]{\begin{tabular}{l|ccc|ccc|ccc|ccc|ccc}
\toprule
 & \multicolumn{3}{c|}{Iris} & \multicolumn{3}{c|}{BCW} & \multicolumn{3}{c|}{Letter} & \multicolumn{3}{c|}{Spam} & \multicolumn{3}{c}{Mean} \\
\cmidrule(lr){2-4}\cmidrule(lr){5-7}\cmidrule(lr){8-10}\cmidrule(lr){11-13}\cmidrule(lr){14-16}
\textbf{Model (Split)} & MA & VA & TA & MA & VA & TA & MA & VA & TA & MA & VA & TA & MA & VA & TA \\
\midrule
SVM (80/20) & .972 & .973 & 1.0 & .924 & .905 & .916 & .988 & .965 & .965 & .725 & .724 & .728 & .928 & .916 & .929 \\
SVM (50/50) & .972 & .973 & .920 & .924 & .905 & .910 & .988 & .965 & .961 & .725 & .724 & .727 & .928 & .916 & .913 \\
\midrule
RF (80/20) & 1.0 & .967 & 1.0 & 1.0 & .931 & .949 & .997 & .963 & .965 & 1.0 & .975 & .980 & 1.0 & .964 & .982 \\
RF (50/50) & 1.0 & .967 & .947 & 1.0 & .929 & .948 & 1.0 & .961 & .940 & 1.0 & .976 & .965 & 1.0 & .960 & .965 \\
\bottomrule
\end{tabular}}
\end{table}

""" + _BODY, packages="booktabs,times")
    [grid] = parse_tables(markdown)
    assert [len(row) for row in grid[1:]] == [16] * 5
    assert grid[2] == ["SVM (80/20)", ".972", ".973", "1.0", ".924", ".905", ".916", ".988", ".965", ".965",
                       ".725", ".724", ".728", ".928", ".916", ".929"]
    assert_table_tests_pass(markdown, [
        table_test(".929", up="TA", down=".913", left=".916", left_heading="SVM (80/20)", top_heading="Mean"),
        table_test(".960", left="1.0", right=".965", up=".964", left_heading="RF (50/50)"),
        table_test("SVM (50/50)", up="SVM (80/20)", right=".972")])


def test_the_wrapped_cells_of_a_grid_that_rules_each_row_stay_in_their_row(tmp_path):
    """``|p{20mm}|p{75mm}|p{31mm}|`` with ``\\hline`` after each row (a NeurIPS report's table of data
    fields): a description that wraps over four lines beside a data type broken at a hyphen
    ("Binary number (train-" / "ing), or empty (testing)"). The lines under the row's first came
    out as a row of their own, an empty first cell beside the rest of both paragraphs: two or more
    cells going on under a row that began under a rule, no rule between, are that row's."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[htbp]
    \centering
    \setlength{\extrarowheight}{3pt}
    \begin{tabular}{|p{20mm}|p{75mm}|p{31mm}|}
        \hline
        \textbf{Data Field} & \textbf{Description} & \textbf{Data Type} \\
        \hline
        \texttt{user} & The unique ID identifying each buyer & Integer \\
        \hline
        \texttt{merchant} & The unique ID identifying each vendor & Integer \\
        \hline
        \texttt{label} & A binary value indicating whether \texttt{user} became a repeated buyer at \texttt{merchant}. Encoded as: 1 for repeat buyer, 0 for non-repeat buyer. The label is only available for the training portion of the data & Binary number (training), or empty (testing) \\
        \hline
    \end{tabular}
    \caption{The Training and Testing Data Table}
\end{table}""", packages="array,times")
    description = ("A binary value indicating whether user became a repeated buyer at merchant. Encoded as: 1 for "
                   "repeat buyer, 0 for non-repeat buyer. The label is only available for the training portion of the data")
    [grid] = parse_tables(markdown)
    assert grid[1:] == [["user", "The unique ID identifying each buyer", "Integer"],
                        ["merchant", "The unique ID identifying each vendor", "Integer"],
                        ["label", description, "Binary number (training), or empty (testing)"]]
    assert_table_tests_pass(markdown, [
        table_test("Binary number (training), or empty (testing)", up="Integer", left_heading="label",
                   top_heading="Data Type"),
        table_test("label", up="merchant", right=description)])


def test_a_running_head_rule_is_no_top_rule_of_a_full_width_table(tmp_path):
    """A page whose running head has a rule under it (``fancyhdr``; ICML's head rule) and whose body
    opens with a heading, a paragraph and a table as wide as the text (an ICML 2025 paper's one-column
    appendix: ``tabular*{\\linewidth}``): the head rule, as wide as the table's rules, was taken for
    its top rule, and the headings and the paragraph became the table's first rows. The rule set tight
    under a running head removed on most pages, at one height, is furniture with it."""
    prose = ("A paragraph of prose fills the page and runs well past the end of one line of text, "
             "so that the page has a body of text under its running head. ") * 6
    markdown = table_markdown(tmp_path, r"""\pagestyle{fancy}\fancyhead[C]{Is Code Better Than Language for Reasoning?}
\fancyhead[L,R]{}
""" + "\n\n".join([prose] * 6) + r"""
\newpage
\section{Supplementary Route Results}
\subsection{Complexity-Stratified Route Accuracy}
We stratify the main route-accuracy evaluation by the asymptotic complexity class of each task to check
whether a single complexity regime drives the aggregate route pattern.

\begin{center}
\begin{tabular*}{\linewidth}{@{\extracolsep{\fill}}lrrrrr@{}}
\toprule
Complexity & Tasks & Inst. & R1 & R2 & R3 \\
\midrule
$O(1)$ & 3 & 180 & 46.2 & 47.3 & 86.2 \\
$O(\log n)$ & 1 & 35 & 22.4 & 28.6 & 32.9 \\
NP-hard & 6 & 360 & 17.6 & 16.8 & 69.7 \\
\bottomrule
\end{tabular*}
\captionof{table}{Route accuracy grouped by asymptotic complexity.}
\end{center}

""" + "\n\n".join([prose] * 3), packages="booktabs,fancyhdr,caption,times")
    assert "We stratify the main route-accuracy evaluation by the asymptotic complexity class of each task to check " \
           "whether a single complexity regime drives the aggregate route pattern." in markdown
    [grid] = parse_tables(markdown)
    assert grid[0] == ["Complexity", "Tasks", "Inst.", "R1", "R2", "R3"] and len(grid) == 4
    assert_table_tests_pass(markdown, [
        table_test("Complexity", down="O(1)", right="Tasks"),
        table_test("86.2", up="R3", left="47.3", left_heading="O(1)")])
