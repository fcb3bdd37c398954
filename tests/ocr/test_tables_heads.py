"""Header cells set on two or three lines inside one header row (a nested ``tabular``, what
``\\makecell`` makes, ``\\shortstack``) against a second header row beside ``\\multirow`` labels
(issue 36 item 3: "Tell a wrapped header cell from a second header row"), and row labels stacked
so in a body row, typeset here with pdflatex and judged by olmOCR-Bench's ``TableTest`` and its
table parsers. On the page a stacked header cell and a second header row are
alike to a tenth of a point (TeX sets a nested tabular's lines at the outer rows' pitch and centres
it on the row, as ``\\multirow{2}`` centres its label on two rows); the text stream tells them
apart. ``make test`` installs no makecell.sty or multirow.sty (texlive-latex-extra): ``MAKECELL``
and ``MULTIROW`` set their cells as they do. The expected cells are written by hand from the
LaTeX source of each test."""
from __future__ import annotations

import pytest

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text."
# \makecell{A\\B}: a one-column tabular with no padding, its lines centred, the box centred on the row
MAKECELL = r"\newcommand{\makecell}[1]{\begin{tabular}{@{}c@{}}#1\end{tabular}}"
# \multirow{n}{*}{text}: raised or lowered by half a line per spanned row, no height (multirow.sty's
# placement; tests/ocr/test_tables_spans.py sets it the same way)
MULTIROW = r"""\newcommand{\multirow}[3]{\ifnum#1<0 \raisebox{\dimexpr\normalbaselineskip*(-#1-1)/2\relax}[0pt][0pt]{#3}%
\else\raisebox{\dimexpr\normalbaselineskip*(1-#1)/2\relax}[0pt][0pt]{#3}\fi}"""
STACKS = {"nested-tabular": r"\begin{{tabular}}{{@{{}}c@{{}}}}{}\end{{tabular}}", "makecell": r"\makecell{{{}}}",
          "shortstack": r"\shortstack{{{}}}"}


@pytest.mark.parametrize("stack", STACKS)
def test_stacked_header_cells_are_one_cell_each(tmp_path, stack):
    """``Method & \\makecell{Top-1\\\\Acc.} & \\makecell{Params\\\\(M)} & FLOPs``: two lines in two
    columns beside one-line cells centred on them (bottom-aligned under ``\\shortstack``) came out
    as two header rows ("Top-1" over "Acc."); and a second table of three-line cells."""
    top1, params, zero, few = (STACKS[stack].format(text) for text in (
        r"Top-1\\Acc.", r"Params\\(M)", r"Zero-shot\\top-1\\accuracy", r"Few-shot\\top-1\\accuracy"))
    markdown = table_markdown(tmp_path, PROSE + rf"""

\begin{{table}}[h]\centering\small
\begin{{tabular}}{{lccc}}
\toprule
Method & {top1} & {params} & FLOPs \\
\midrule
ResNet-50 & 76.1 & 25.6 & 4.1 \\
ViT-B/16 & 81.8 & 86.6 & 17.6 \\
\bottomrule
\end{{tabular}}
\caption{{Two-line header cells.}}
\end{{table}}

\begin{{table}}[h]\centering\small
\begin{{tabular}}{{lccc}}
\toprule
Model & {zero} & {few} & Size \\
\midrule
Alpha & 61.2 & 65.8 & 7B \\
Beta & 67.5 & 70.1 & 13B \\
\bottomrule
\end{{tabular}}
\caption{{Three-line header cells.}}
\end{{table}}""", preamble=MAKECELL)
    two, three = parse_tables(markdown)
    assert two == [["Method", "Top-1 Acc.", "Params (M)", "FLOPs"], ["ResNet-50", "76.1", "25.6", "4.1"],
                   ["ViT-B/16", "81.8", "86.6", "17.6"]]
    assert three == [["Model", "Zero-shot top-1 accuracy", "Few-shot top-1 accuracy", "Size"],
                     ["Alpha", "61.2", "65.8", "7B"], ["Beta", "67.5", "70.1", "13B"]]
    tests = [table_test("76.1", up="Top-1 Acc.", right="25.6", top_heading="Top-1 Acc."),
             table_test("Params (M)", left="Top-1 Acc.", right="FLOPs", down="25.6"),
             table_test("70.1", up="65.8", top_heading="Few-shot top-1 accuracy", left_heading="Beta")]
    assert_table_tests_pass(markdown, tests)


@pytest.mark.parametrize("label_row", ["first", "second"])
def test_a_second_header_row_beside_multirow_labels_stays_a_row(tmp_path, label_row):
    """The same heads written as two rows, "Method" and "FLOPs" ``\\multirow`` labels over both
    (set from the first row, ``\\multirow{2}``, or from the second, ``\\multirow{-2}``): the units
    are a row of their own, as the source writes them."""
    first, second = (r"\multirow{2}{*}{Method}", r"\multirow{2}{*}{FLOPs}"), ("", "")
    if label_row == "second":
        first, second = second, (r"\multirow{-2}{*}{Method}", r"\multirow{-2}{*}{FLOPs}")
    markdown = table_markdown(tmp_path, PROSE + rf"""

\begin{{table}}[h]\centering\small
\begin{{tabular}}{{lccc}}
\toprule
{first[0]} & Top-1 & Params & {first[1]} \\
{second[0]} & Acc. & (M) & {second[1]} \\
\midrule
ResNet-50 & 76.1 & 25.6 & 4.1 \\
ViT-B/16 & 81.8 & 86.6 & 17.6 \\
\bottomrule
\end{{tabular}}
\caption{{Two header rows.}}
\end{{table}}""", preamble=MULTIROW)
    [grid] = parse_tables(markdown)
    assert [row[1:3] for row in grid] == [["Top-1", "Params"], ["Acc.", "(M)"], ["76.1", "25.6"], ["81.8", "86.6"]]
    tests = [table_test("Acc.", up="Top-1", down="76.1", right="(M)"),
             table_test("Params", left="Top-1", down="(M)")]
    assert_table_tests_pass(markdown, tests)


@pytest.mark.parametrize("stack", ["nested-tabular", "makecell"])
def test_a_row_label_stacked_on_two_lines_is_one_cell_of_its_row(tmp_path, stack):
    """Row labels stacked in a body row (``\\begin{tabular}[c]{@{}l@{}}Maximum\\\\likelihood
    \\end{tabular} & 27.1 & ..``; ``\\makecell``) beside one-line numbers TeX centres on them: each
    came out as three rows ("Maximum", the numbers with no label, "likelihood")."""
    cell = {"nested-tabular": r"\begin{{tabular}}[c]{{@{{}}l@{{}}}}{}\end{{tabular}}", "makecell": r"\makecell{{{}}}"}[stack]
    first, second = (cell.format(text) for text in (r"Maximum\\likelihood", r"Reinforcement\\learning"))
    markdown = table_markdown(tmp_path, PROSE + rf"""

\begin{{table}}[h]\centering\small
\begin{{tabular}}{{lccc}}
\toprule
Objective & BLEU & METEOR & ROUGE-L \\
\midrule
{first} & 27.1 & 24.3 & 51.2 \\
{second} & 28.4 & 25.0 & 52.6 \\
Ours & 29.9 & 26.1 & 54.0 \\
\bottomrule
\end{{tabular}}
\caption{{Stacked row labels.}}
\end{{table}}""", preamble=MAKECELL)
    assert parse_tables(markdown) == [[["Objective", "BLEU", "METEOR", "ROUGE-L"],
                                       ["Maximum likelihood", "27.1", "24.3", "51.2"],
                                       ["Reinforcement learning", "28.4", "25.0", "52.6"],
                                       ["Ours", "29.9", "26.1", "54.0"]]]
    tests = [table_test("Maximum likelihood", right="27.1", up="Objective", down="Reinforcement learning"),
             table_test("25.0", up="24.3", down="26.1", left="28.4", left_heading="Reinforcement learning",
                        top_heading="METEOR")]
    assert_table_tests_pass(markdown, tests)


def test_two_stacked_cells_of_one_body_row_make_one_row(tmp_path):
    """A stacked row label and a stacked cell in the last column of the same row, the numbers
    between them one line centred on both: the numbers became ``\\multirow`` cells over two rows
    ("Maximum" | "web" over "likelihood" | "crawl")."""
    markdown = table_markdown(tmp_path, PROSE + r"""

\begin{table}[h]\centering\small
\begin{tabular}{lccl}
\toprule
Method & Acc. & F1 & Data \\
\midrule
\begin{tabular}[c]{@{}l@{}}Maximum\\likelihood\end{tabular} & 27.1 & 24.3 & \makecell{web\\crawl} \\
Ours & 29.9 & 26.1 & books \\
\bottomrule
\end{tabular}
\caption{Two stacked cells in one body row.}
\end{table}""", preamble=MAKECELL)
    assert parse_tables(markdown) == [[["Method", "Acc.", "F1", "Data"], ["Maximum likelihood", "27.1", "24.3", "web crawl"],
                                       ["Ours", "29.9", "26.1", "books"]]]
    assert_table_tests_pass(markdown, [table_test("web crawl", left="24.3", up="Data", down="books",
                                                  left_heading="Maximum likelihood")])


@pytest.mark.parametrize("stack", ["nested-tabular", "makecell"])
def test_a_stacked_cell_in_the_last_column_is_one_cell_of_its_row(tmp_path, stack):
    """Issue 36 item 3 (tables8b (c)): a cell stacked on two lines in the LAST column, one-line cells
    left of it. No cell to its right says which row it is in; TeX centres the row's one-line cells
    midway between its lines, where a second row's cell would share a line with them. Before, the
    first line joined the row above as its cell's next line ("plain two") and the second was a row
    of its own. A row whose last cell alone goes on under it (a second row, its other cells empty)
    stays two rows."""
    cell = {"nested-tabular": r"\begin{{tabular}}[c]{{@{{}}c@{{}}}}{}\end{{tabular}}", "makecell": r"\makecell{{{}}}"}[stack]
    stacked = cell.format(r"two\\lines")
    markdown = table_markdown(tmp_path, PROSE + rf"""

\begin{{table}}[h]\centering
\begin{{tabular}}{{lccc}}
\toprule
Model & Score & Size & Note \\
\midrule
Base & 21.4 & 7B & plain \\
Ours & 25.9 & 13B & {stacked} \\
Big & 30.2 & 70B & wide \\
Huge & 31.0 & 175B & 4.1 \\
 & & & 5.2 \\
\bottomrule
\end{{tabular}}
\caption{{A stacked last cell.}}
\end{{table}}""", preamble=MAKECELL)
    assert parse_tables(markdown) == [[["Model", "Score", "Size", "Note"], ["Base", "21.4", "7B", "plain"],
                                       ["Ours", "25.9", "13B", "two lines"], ["Big", "30.2", "70B", "wide"],
                                       ["Huge", "31.0", "175B", "4.1"], ["", "", "", "5.2"]]], markdown
    assert_table_tests_pass(markdown, [table_test("two lines", left="13B", up="plain", down="wide", top_heading="Note",
                                                  left_heading="Ours"),
                                       table_test("4.1", down="5.2", left="175B")])


@pytest.mark.parametrize("rules", [(r"\toprule", r"\midrule", r"\bottomrule"), (r"\hline", r"\hline", r"\hline")])
def test_a_header_row_above_the_first_rule_is_the_table_s(tmp_path, rules):
    """Issue 36 item 3 (tables8b (b)): a group label row set above the table's first rule
    (``& \\multicolumn{2}{c}{Scores} & \\\\ \\toprule``) was outside the area between the rules:
    it stayed a line of text after the caption ("Table 1: Head above. Scores"). A caption of two
    lines right above the rule (its last line centred over the table) stays the caption."""
    top, mid, bottom = rules
    markdown = table_markdown(tmp_path, PROSE + rf"""

\begin{{table}}[h]\centering
\caption{{A header row above the first rule; a caption long enough to be set on two lines above
the table, its last line centred over it.}}
\begin{{tabular}}{{lccc}}
 & \multicolumn{{2}}{{c}}{{Scores}} & Cost \\
{top}
Model & BLEU & ROUGE & GPU h \\
{mid}
Base & 21.4 & 33.0 & 12 \\
Ours & 25.9 & 36.8 & 15 \\
{bottom}
\end{{tabular}}
\end{{table}}""")
    assert parse_tables(markdown) == [[["", "Scores", "Cost", ""], ["Model", "BLEU", "ROUGE", "GPU h"],
                                       ["Base", "21.4", "33.0", "12"], ["Ours", "25.9", "36.8", "15"]]], markdown
    assert_table_tests_pass(markdown, [table_test("BLEU", up="Scores", down="21.4"),
                                       table_test("25.9", top_heading="Scores", left_heading="Ours"),
                                       table_test("15", top_heading="Cost", up="12")])
    assert "its last line centred over it." in markdown.split("<table>")[0]
