"""Table idioms found on papers_dev3.yaml's papers (issue 36 items 3, 6), typeset here with pdflatex:
a ``|p{..}|p{..}|`` grid with ``\\hline`` after every row whose row label wraps (an ACL paper), a
cell holding ``$|C|$`` (an IEEEtran paper's table of symbols), and a table whose rules hold only
its header (``\\hline\\hline`` over it, ``\\hline`` under it, none under the body: org-mode's
export), and a table drawn with column rules only (``c|l|p{..}``, no ``\\hline``: an acmart
paper's table of metrics). Judged by olmOCR-Bench's ``TableTest``; the expected cells are written by hand from the
LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

_PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"


def test_a_wrapped_row_label_in_a_grid_ruled_after_every_row_is_one_cell(tmp_path):
    """``|p{0.18\\textwidth}|p{0.18\\textwidth}|`` in Times 11 pt, two columns, ``\\hline`` after each
    row: "Correctly retrieved questions" wraps to two lines in its cell, and its second line
    ("questions") was a row of its own under the score (a first-column line alone was taken for a
    group label). No rule between two lines of a grid that rules its rows: one row."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]\centering
\begin{tabular}{|p{0.18\textwidth}|p{0.18\textwidth}|}
\hline
\textbf{Questions} & \textbf{Average Rouge 2 score} \\ \hline
All questions & 0.10917 \\ \hline
Correctly retrieved questions & 0.148497 \\ \hline
\end{tabular}
\caption{Scores.}
\end{table}""", packages="booktabs,times", options="11pt,twocolumn")
    [grid] = parse_tables(markdown)
    assert grid == [["Questions", "Average Rouge 2 score"], ["All questions", "0.10917"],
                    ["Correctly retrieved questions", "0.148497"]]
    assert_table_tests_pass(markdown, [
        table_test("0.148497", left="Correctly retrieved questions", up="0.10917",
                   left_heading="Correctly retrieved questions", top_heading="Average Rouge 2 score"),
        table_test("All questions", down="Correctly retrieved questions", up="Questions")])


def test_a_cell_holding_a_pipe_keeps_the_cells_after_it_in_their_columns(tmp_path):
    """``$|C|$`` in a table of symbols: written ``\\|C\\|`` in a pipe table, which olmOCR-Bench's
    reader (and other simple ones) splits at every pipe, so the row had five cells and the cells
    under it no cell above them. A table with a pipe in a cell is written as HTML."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]\centering
\begin{tabular}{|l|l|}
\hline
parameters & description \\ \hline
$w_i$ & i-th window \\
$|w|$ & number of windows used during training \\
$|C|$ & number of models used in the ensemble \\
$C_i$ & i-th classifier of the ensemble \\ \hline
\end{tabular}
\caption{Symbols.}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert [len(row) for row in grid] == [2] * 5
    assert_table_tests_pass(markdown, [
        table_test("i-th classifier of the ensemble", up="number of models used in the ensemble",
                   top_heading="description"),
        table_test("number of windows used during training", up="i-th window",
                   down="number of models used in the ensemble")])


def test_a_body_under_rules_that_hold_only_the_header_is_the_table_s(tmp_path):
    """``\\hline\\hline`` over the header, ``\\hline`` under it and no rule under the body (org-mode's
    LaTeX export): the rules hold one header row, one cell ("Reddit") over an empty one, which tells
    no columns, so the table was dropped and its cells read as prose column after column
    ("# Nodes # Edges ... 11,000 672,447"). The lines close under the last rule are its body."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[htbp]
\caption{Datasets}
\centering
\begin{tabular}{ll}
\hline
\hline
 & Reddit\\
\hline
\# Nodes & 11,000\\
\# Edges & 672,447\\
\# Edges Features & 172\\
Timestamp & 1 month\\
positive label percentages & 0.05 \%\\
\end{tabular}
\end{table}

Another paragraph of prose after the table, which runs well past the end of one line of text too.""",
        options="twocolumn")
    [grid] = parse_tables(markdown)
    assert grid[1:] == [["# Nodes", "11,000"], ["# Edges", "672,447"], ["# Edges Features", "172"],
                        ["Timestamp", "1 month"], ["positive label percentages", "0.05 %"]]
    assert_table_tests_pass(markdown, [
        table_test("672,447", left="# Edges", up="11,000", down="172", top_heading="Reddit"),
        table_test("Timestamp", up="# Edges Features", right="1 month")])
    assert "Another paragraph of prose after the table" in markdown.split("0.05 %")[-1]


def test_a_table_drawn_with_column_rules_only_is_a_table(tmp_path):
    """``\\begin{tabular}{c|l|p{4.4in}}`` in a ``table*`` with no horizontal rule at all, its last
    column's cells wrapping in lower case: no two horizontal rules bound it, and its rows were read
    as prose, column after column ("amc avg, cc ca cam ..."). Two column rules from the same top
    to the same bottom with cells on both sides bound a table; a wrapped cell walled by column
    rules is no running prose."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table*}[!t]
\begin{center}
\caption{Code metrics used in this paper.}
{\footnotesize
\begin{tabular}{c|l|p{4.4in}}
amc & average method complexity & e.g., number of JAVA byte codes\\
avg, cc & average McCabe & average McCabe's cyclomatic complexity seen in class\\
ca & afferent couplings & how many other classes use the specific class. \\
cam & cohesion amongst classes & summation of number of different types of method parameters in every method divided by a multiplication of number of different method parameter types in whole class and number of methods. \\
cbm &coupling between methods & total number of new/redefined methods to which all the inherited methods are coupled\\
dit & depth of inheritance tree & \\
ic & inheritance coupling & number of parent classes to which a given class is coupled\\
\end{tabular}}
\end{center}
\end{table*}

Another paragraph of prose after the table, which runs well past the end of one line of text too.""",
        options="twocolumn")
    [grid] = parse_tables(markdown)
    assert [row[0] for row in grid] == ["amc", "avg, cc", "ca", "cam", "cbm", "dit", "ic"]
    assert_table_tests_pass(markdown, [
        table_test("afferent couplings", left="ca", up="average McCabe", right="how many other classes use the specific class.",
                   top_heading="average method complexity"),
        table_test("number of parent classes to which a given class is coupled", left="inheritance coupling",
                   top_heading="e.g., number of JAVA byte codes", left_heading="ic"),
        table_test("cohesion amongst classes", right="summation of number of different types of method parameters in every "
                   "method divided by a multiplication of number of different method parameter types in whole class and "
                   "number of methods.")])


def test_a_table_of_symbols_under_rules_that_hold_only_its_header_is_no_prose(tmp_path):
    """The same org-mode shape with a header of two cells and a third column of descriptions, each
    in lower case (the IEEEtran paper's table of symbols): its body, found under the last rule, is
    no running prose either (a description under another in lower case is the next row's cell)."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[htbp]
\caption{Parameters symbols and descriptions}
\centering
\begin{tabular}{lll}
\hline
\hline
 & parameters & description\\
\hline
window parameters & \(w_i\) & i-th window\\
 & \(ws\) & window size\\
 & \(\vert w \vert\) & number of window used during training\\
 & \(bs\) & batch size for a given window where \(bs < ws\)\\
temporal parameters & \(s\) & window stride\\
 & \(kl\) & number of window to keep as window slides forward\\
 & \(total\) & total number of instances to be trained for\\
ensemble parameters & \(C_{i}\) & i-th classifier model in ensemble\\
 & \(\vert C \vert\) & number of models used in ensemble\\
\end{tabular}
\end{table}

Another paragraph of prose after the table, which runs well past the end of one line of text too.""",
        options="twocolumn")
    assert_table_tests_pass(markdown, [
        table_test("number of window to keep as window slides forward", up="window stride",
                   down="total number of instances to be trained for", top_heading="description"),
        table_test("number of models used in ensemble", up="i-th classifier model in ensemble", left="|C|"),
        table_test("batch size for a given window where bs < ws", up="number of window used during training")])


def test_a_justified_paragraph_beside_a_side_column_between_two_rules_is_no_table(tmp_path):
    """MDPI's first page (an algorithms-mdpi paper): the side column (dates, licence) beside the
    body between two rules across the page. The body's lines are justified, but with microtype a
    line ends a point or two short of the edge a protruding stop or hyphen reaches: they were taken
    for a column ending ragged (a table of word lists), the page for one table. A justified line
    ends within 3 pt of the column's edge."""
    markdown = table_markdown(tmp_path, r"""\noindent\rule{\linewidth}{0.4pt}

\noindent\begin{minipage}[t]{0.26\linewidth}\raggedright\small
Received: 16 December 2022\\[4pt] Revised: 10 January 2023\\[4pt] Accepted: 12 January 2023\\[4pt] Published: 13 January 2023\\[4pt]
Copyright: 2023 by the author. Licensee MDPI, Basel, Switzerland. This article is an open access article distributed under the terms and conditions of the Creative Commons Attribution license.
\end{minipage}\hfill
\begin{minipage}[t]{0.70\linewidth}
Numerical methods for simulating the behavior of structures subjected to high thermomechanical loads, as in the case of the high-temperature forming of metallic materials, are generally based on the use of finite element codes, either commercial ones or laboratory codes, such as those developed by many teams in the world. These codes are based on two types of conservation equations and constitutive equations, written on the basis of physics and mechanics, which describe the behavior of the material through the constitutive equations. The conservation laws result from the fundamental principles of physics, such as the conservation of mass, the conservation of momentum and the conservation of energy, together with the second principle of thermodynamics. By themselves, these laws are not sufficient to describe the behavior of a material or a structure, because they do not take into account the nature of the material's behavior, which was introduced in the system previously proposed.
\end{minipage}

\noindent\rule{\linewidth}{0.4pt}
""", packages="booktabs,microtype")
    assert "<table>" not in markdown and "|---|" not in markdown
    assert "These codes are based on two types of conservation" in markdown.replace("equa-\n", "equa")
