"""Tables typeset here with pdflatex (booktabs, and plain ``tabular`` with ``|`` and ``\\hline``),
read by the text layer and composed: each document shows one defect of issue 27 (tables that must
come out as tables, with the neighbours and headings olmOCR-Bench's ``table`` tests check). The grids
are read back by olmocr's own table parsers (markdown tables first, then HTML ones); a span is checked
on the HTML the layout writes, since olmocr's parser does not place a spanning cell's columns."""
from __future__ import annotations

import pytest

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import table_markdown


def test_a_header_of_tight_columns_is_split_on_the_body_columns(tmp_path):
    """``\\tabcolsep`` 3 pt: the header's words are 6 pt apart, under the gap that splits fragments,
    so the header row came out as one cell spanning six columns."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\setlength{\tabcolsep}{3pt}
\begin{tabular}{lrrrrr}
\toprule
Method & Accuracy & Precision & Recall & F1 score & Params \\
\midrule
Baseline & 71.2 & 70.1 & 69.5 & 69.8 & 110M \\
Ours & 75.4 & 74.9 & 73.2 & 74.0 & 110M \\
Large model & 77.1 & 76.3 & 75.0 & 75.6 & 340M \\
\bottomrule
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert grid[0] == ["Method", "Accuracy", "Precision", "Recall", "F1 score", "Params"]
    assert grid[3] == ["Large model", "77.1", "76.3", "75.0", "75.6", "340M"]


def test_a_tight_header_under_group_labels_is_split(tmp_path):
    """The same under ``\\multicolumn`` group labels and ``\\cmidrule``s, scaled by ``\\resizebox``:
    the cut pieces, under half an em apart, must not be glued back into one cell."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\setlength{\tabcolsep}{2.5pt}
\resizebox{0.8\linewidth}{!}{\begin{tabular}{lcccccc}
\toprule
 & \multicolumn{3}{c}{In-distribution} & \multicolumn{3}{c}{Out-of-distribution} \\
\cmidrule(lr){2-4} \cmidrule(lr){5-7}
Method & Accuracy & Precision & Recall & Accuracy & Precision & Recall \\
\midrule
Baseline & 71.2 & 70.1 & 69.5 & 61.2 & 60.1 & 59.5 \\
Ours & 75.4 & 74.9 & 73.2 & 65.4 & 64.9 & 63.2 \\
\bottomrule
\end{tabular}}
\end{table}""", "booktabs,graphicx")
    [grid] = parse_tables(markdown)
    assert grid[1] == ["Method", "Accuracy", "Precision", "Recall", "Accuracy", "Precision", "Recall"]
    assert '<tr><th></th><th colspan="3">In-distribution</th><th colspan="3">Out-of-distribution</th></tr>' in markdown


def test_row_numbers_are_kept(tmp_path):
    """A first column 1, 2, 3 ... right-aligned, consecutive, crossed by no other text: what the
    furniture step takes for a review copy's line numbers, which it drops."""
    rows = "\n".join(f"{k} & Method {chr(64 + k)} & {60 + k}.5 & {50 + k}.1 \\\\" for k in range(1, 8))
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering
\begin{tabular}{rlcc}
\toprule
\# & Method & Acc & F1 \\
\midrule
""" + rows + r"""
\bottomrule
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert [row[0] for row in grid] == ["#", "1", "2", "3", "4", "5", "6", "7"]
    assert grid[3] == ["3", "Method C", "63.5", "53.1"]


def test_rotated_column_heads_are_read_into_their_columns(tmp_path):
    """``\\rotatebox{90}`` heads (graphicx) were dropped with all rotated text (margin stamps, axis
    labels): the table had three headless columns."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering
\begin{tabular}{lccc}
\toprule
Model & \rotatebox{90}{Reasoning} & \rotatebox{90}{Code tasks} & \rotatebox{90}{Math} \\
\midrule
Alpha & 61.2 & 45.3 & 30.1 \\
Beta & 67.5 & 52.8 & 41.9 \\
\bottomrule
\end{tabular}
\end{table}""", "booktabs,graphicx")
    [grid] = parse_tables(markdown)
    assert grid == [["Model", "Reasoning", "Code tasks", "Math"], ["Alpha", "61.2", "45.3", "30.1"],
                    ["Beta", "67.5", "52.8", "41.9"]]


def test_a_wrapped_header_cell_is_one_cell(tmp_path):
    """A header cell on several lines (a ``p{..}`` column's wrapped head, ``\\shortstack``, a nested
    ``tabular``: what ``\\makecell`` makes) gave one table row per line, each with one cell."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering
\begin{tabular}{lp{2cm}cc}
\toprule
Model & Training data size in tokens & \shortstack{Zero-shot\\accuracy} &
\begin{tabular}[c]{@{}c@{}}Few-shot\\accuracy\end{tabular} \\
\midrule
Alpha & 300B & 61.2 & 65.8 \\
Beta & 1.4T & 67.5 & 70.1 \\
\bottomrule
\end{tabular}
\end{table}

\begin{table}[h]\centering
\begin{tabular}{|l|c|c|}
\hline
Task & \begin{tabular}[c]{@{}c@{}}Exact\\match\end{tabular} & \begin{tabular}[c]{@{}c@{}}Token\\F1 score\end{tabular} \\
\hline
SQuAD & 80.1 & 87.9 \\
\hline
TriviaQA & 61.4 & 66.3 \\
\hline
\end{tabular}
\end{table}""")
    booktabs, ruled = parse_tables(markdown)
    assert booktabs[0] == ["Model", "Training data size in tokens", "Zero-shot accuracy", "Few-shot accuracy"]
    assert booktabs[1] == ["Alpha", "300B", "61.2", "65.8"]
    assert ruled[0] == ["Task", "Exact match", "Token F1 score"] and ruled[2] == ["TriviaQA", "61.4", "66.3"]


def test_a_table_whose_rules_differ_in_extent_stays_whole(tmp_path):
    """Rules over some columns only: ``\\cmidrule`` pairs closing the header and the body (one
    table per column group came out, the row labels left outside as text); a ``\\toprule`` over
    them, and a column rule ``|`` the header's ``\\multicolumn`` interrupts; ``\\cline{2-4}`` under
    the rows of a label set once for several rows (each such row's cells became one cell over
    three columns)."""
    markdown = table_markdown(tmp_path, r"""
\begin{table}[h]\centering\caption{Rules under column groups only.}
\begin{tabular}{lcccc}
 & \multicolumn{2}{c}{Vision} & \multicolumn{2}{c}{Language} \\
\cmidrule(lr){2-3} \cmidrule(lr){4-5}
Model & Acc & Loss & Acc & Loss \\
\cmidrule(lr){2-3} \cmidrule(lr){4-5}
Alpha & 93.1 & 0.21 & 76.0 & 0.92 \\
Beta & 98.1 & 0.11 & 81.8 & 0.59 \\
\cmidrule(lr){2-3} \cmidrule(lr){4-5}
\end{tabular}
\end{table}

\begin{table}[h]\centering\caption{A top rule over cmidrules.}
\begin{tabular}{lcc|cc}
\toprule
 & \multicolumn{2}{c|}{Small} & \multicolumn{2}{c}{Large} \\
Data & Acc & F1 & Acc & F1 \\
\cmidrule(lr){1-3} \cmidrule(lr){4-5}
SST-2 & 91.2 & 90.8 & 94.5 & 94.1 \\
MNLI & 84.3 & 83.9 & 87.6 & 87.2 \\
\cmidrule(lr){1-3} \cmidrule(lr){4-5}
\end{tabular}
\end{table}

\begin{table}[h]\centering\caption{Partial rules in a ruled grid.}
\begin{tabular}{|c|l|c|c|}
\hline
Group & Method & Acc & F1\\
\hline
A & first & 71.2 & 70.3 \\ \cline{2-4}
 & second & 72.9 & 71.0 \\ \cline{2-4}
 & third & 73.3 & 72.2 \\ \hline
B & fourth & 68.1 & 67.5 \\ \cline{2-4}
 & fifth & 69.4 & 69.9 \\ \hline
\end{tabular}
\end{table}""")
    ruled, groups, sizes = parse_tables(markdown)
    assert '<tr><th></th><th colspan="2">Vision</th><th colspan="2">Language</th></tr>' in markdown
    assert groups[1:] == [["Model", "Acc", "Loss", "Acc", "Loss"], ["Alpha", "93.1", "0.21", "76.0", "0.92"],
                          ["Beta", "98.1", "0.11", "81.8", "0.59"]]
    assert '<tr><th></th><th colspan="2">Small</th><th colspan="2">Large</th></tr>' in markdown
    assert sizes[1:] == [["Data", "Acc", "F1", "Acc", "F1"], ["SST-2", "91.2", "90.8", "94.5", "94.1"],
                         ["MNLI", "84.3", "83.9", "87.6", "87.2"]]
    assert ruled[1:4] == [["A", "first", "71.2", "70.3"], ["", "second", "72.9", "71.0"], ["", "third", "73.3", "72.2"]]


PROSE = ("We trained every model for three epochs on the same data and report the mean of five seeds in the "
         "table, which also lists the number of parameters of each model so that a reader can compare models "
         "of a similar size, and the paragraph goes on after the float")
RUN_ON = ("so that the sentence cut by the table is read whole, and the last words of this paragraph close "
          "it properly.")
TABLE = r"""\begin{table}[%s]\centering
\caption{Scores of the baselines.}
\begin{tabular}{lcc}
\toprule
Method & Acc & F1 \\
\midrule
Random & 50.0 & 33.3 \\
BERT & 84.1 & 83.7 \\
\bottomrule
\end{tabular}
\end{table}"""


def test_a_paragraph_interrupted_by_a_float_reads_whole(tmp_path):
    """``[h]`` in a paragraph puts the table after the line where it is written, the paragraph's
    rest under it: the sentence was cut, its first half before the table. In two columns, a ``[t]``
    table tops the right column while the left column's last paragraph runs on under it."""
    markdown = table_markdown(tmp_path,
                              f"\\section{{Results}}\n{PROSE} {TABLE % 'h'} {RUN_ON}\n\nAnother paragraph follows.")
    assert f"{PROSE} {RUN_ON}" in markdown
    assert markdown.index(RUN_ON) < markdown.index("| Method | Acc | F1 |") < markdown.index("Another paragraph")
    filler = " ".join(f"Sentence {k} of the left column is prose that fills the page." for k in range(27))
    markdown = table_markdown(tmp_path,
                              f"\\twocolumn\n{filler} {PROSE} {TABLE % 't'} {RUN_ON}\n\nAnother paragraph follows.")
    flat = " ".join(markdown.split())
    assert f"{filler} {PROSE} {RUN_ON}" in flat
    assert flat.index(RUN_ON) < flat.index("| Method | Acc | F1 |") < flat.index("Another paragraph")


def test_an_elsevier_article_info_block_is_no_table(tmp_path):
    """cas-dc (Elsevier, three papers of the development set): the front matter sets the keywords
    beside the abstract between two rules of the text's width. Read as a table, each row held a
    line of the abstract, its sentences cut at every line, and the table ran on over the first
    section. A column whose cells are the lines of running prose (each continued by the next, in
    lower case) is text, not a table."""
    import shutil
    import subprocess

    import pypdfium2

    from ocr_ray.layout import compose_pages
    from ocr_ray.layout.pdftext import page_layout

    if shutil.which("pdflatex") is None or subprocess.run(["kpsewhich", "cas-dc.cls"], capture_output=True).returncode:
        pytest.skip("pdflatex or the cas-dc class not installed")
    abstract = ("Large language models must follow complex instructions to address sophisticated real-world tasks. "
                "Existing synthesis methods, however, often produce data whose constraints depart from human "
                "preferences. We propose a framework that distills documents into instruction data and refines it "
                "step by step. Experiments show that the optimized models improve on every benchmark we tried, "
                "substantially outperforming existing baselines.")
    intro = "Body text of the introduction goes here and runs on for a while so that it makes a paragraph of several lines."
    (tmp_path / "m.tex").write_text(
        "\\documentclass[a4paper,fleqn]{cas-dc}\n\\usepackage{natbib}\n\\begin{document}\n"
        "\\shorttitle{A Study}\\shortauthors{A. Author}\n\\title [mode = title]{A Study of Things in Many Ways}\n"
        "\\author[1]{Ann Author}\n\\affiliation[1]{organization={Some University}, city={Town}, country={Country}}\n"
        f"\\begin{{abstract}}\n{abstract}\n\\end{{abstract}}\n\\begin{{keywords}}\nComplex instruction \\sep "
        "Instruction following \\sep Model alignment \\sep Large language models\n\\end{keywords}\n\\maketitle\n"
        f"\\section{{Introduction}}\n{intro}\n\\end{{document}}\n")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "m.tex"], cwd=tmp_path, capture_output=True, timeout=120)
    doc = pypdfium2.PdfDocument(tmp_path / "m.pdf")
    markdown = "\n\n".join(compose_pages([page_layout(doc[i]).to_json() for i in range(len(doc))]))
    assert abstract in markdown, markdown
    assert intro in markdown, markdown
