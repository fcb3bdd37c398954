"""Table idioms found on papers_dev7.yaml's papers (NLP papers in the ACL styles and journal classes:
IEEEtran, acmart, elsarticle; issue 36 items 3, 6), typeset here with pdflatex and judged by
olmOCR-Bench's ``TableTest``; the expected cells are written by hand from the LaTeX source of each
test."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

_PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"


def _class_markdown(tmp: Path, documentclass: str, preamble: str, body: str) -> str:
    """``body`` in ``documentclass`` (``[options]{class}``) typeset by pdflatex, read back by the text
    layer and composed; skips where pdflatex or the class is not installed."""
    import pypdfium2

    from ocr_ray.layout import compose_pages
    from ocr_ray.layout.pdftext import page_layout

    name = documentclass.rsplit("{", 1)[-1].rstrip("}") + ".cls"
    if shutil.which("pdflatex") is None or not subprocess.run(["kpsewhich", name], capture_output=True,
                                                               text=True).stdout.strip():
        pytest.skip(f"pdflatex or {name} not installed")
    (tmp / "m.tex").write_text(f"\\documentclass{documentclass}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "m.tex"], cwd=tmp, check=True,
                   capture_output=True, timeout=180)
    doc = pypdfium2.PdfDocument(str(tmp / "m.pdf"))
    return "\n\n".join(compose_pages([page_layout(doc[i]).to_json() for i in range(len(doc))]))


_IEEE_TWO_TABLES = r"""
A paragraph of prose sets the page before the tables and runs well past the end of one line of text in the column.

\begin{table}[h]
\centering
\caption{Training Configuration Across Model Scales}
\begin{tabular}{@{}lcc@{}}
\toprule
\textbf{Configuration} & \textbf{Small-3B} & \textbf{Large-8B} \\
\midrule
Batch Size & 24 & 6 \\
Sequence Length & 512 & 512 \\
Learning Rate & 1e-5 & 1e-5 \\
Epochs & 3 & 3 \\
Gradient Accumulation & 4 & 4 \\
\bottomrule
\end{tabular}
\end{table}

\section{Results and Analysis}
\subsection{Memory Efficiency}

\begin{table}[h]
\centering
\caption{Memory Utilization and Training Time}
\begin{tabular}{@{}lccc@{}}
\toprule
\textbf{Model} & \textbf{Precision} & \textbf{VRAM (GB)} & \textbf{Time} \\
\midrule
Small-3B & BF16 & 82.4 & 3.6 h \\
Small-3B & FP8 & 74.2 & 2.1 h \\
Large-8B & BF16 & 80.0 & 9.1 h \\
Large-8B & FP8 & 88.3 & 6.6 h \\
\bottomrule
\end{tabular}
\end{table}

Another paragraph of prose after the tables, which runs well past the end of one line of text too.
"""


def test_two_ieee_tables_stacked_in_a_column_are_two_tables(tmp_path):
    """IEEEtran (conference) sets a table's caption over it as its label on a line of its own,
    "TABLE II", then the caption in small capitals: two booktabs tables of about one width stacked in
    a column, a section heading and that caption between them (llm-fp8-ieee's Tables I and II), had
    their rules grouped into one area and read as one table, the heading and the caption its rows:
    a caption between two rules cuts the group, and IEEEtran's label is a caption's."""
    markdown = _class_markdown(tmp_path, "[conference]{IEEEtran}", "\\usepackage{booktabs}", _IEEE_TWO_TABLES)
    first, second = parse_tables(markdown)
    assert first[0] == ["Configuration", "Small-3B", "Large-8B"] and len(first) == 6
    assert second[0] == ["Model", "Precision", "VRAM (GB)", "Time"] and len(second) == 5
    assert_table_tests_pass(markdown, [
        table_test("Sequence Length", up="Batch Size", down="Learning Rate", right="512", top_heading="Configuration"),
        table_test("Gradient Accumulation", up="Epochs", right="4"),
        table_test("74.2", up="82.4", left="FP8", right="2.1 h", top_heading="VRAM (GB)")])


def test_a_wider_table_stacked_under_a_table_keeps_its_own_rows(tmp_path):
    """Two booktabs tables in ``center`` environments, no caption, one under the other
    (``@{}lp{8cm}@{}`` then a wider ``@{}lp{6cm}@{}`` of longer row labels: pick-a-model's notation
    and assumption tables). The first table's rows below its last rule (``_rows_below``, for a body
    under a header's rules) took the second's lines that fell in its columns: the second table
    lost its head and every cell but its labels. A rule reaching past the table's extent lies
    between: another table's, not this one's rows."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{center}
\small
\renewcommand{\arraystretch}{1.2}
\begin{tabular}{@{}lp{8cm}@{}}
\toprule
\textbf{Symbol} & \textbf{Definition} \\
\midrule
$\kappa(M)$ & Per-step cost of model $M$ \\
$G(M)$ & Information generation quality \\
$d = (M,H,\rho)$ & Worker model, strategy set, and allocation policy \\
$r_M$ & Additive residual from the packed log-time law \\
\bottomrule
\end{tabular}
\end{center}

\begin{center}
\small
\renewcommand{\arraystretch}{1.2}
\begin{tabular}{@{}lp{6cm}@{}}
\toprule
\textbf{Result} & \textbf{Assumptions Required} \\
\midrule
RI Identity (Thm.~3.2) & Packed family (Asm.~2.5), prior-matched baseline, expected-log functional \\
Four-term decomposition (Thm.~3.4) & Model-dependent packed family (Asm.~3.3), expected-log functional \\
Residual guarantee (Prop.~B.2) & Uniform $\eta$-approximate packed log-linearity; residual at most $2\eta$ \\
Crossover formula (Cor.~4.1) & Model-dependent packed family \\
\bottomrule
\end{tabular}
\end{center}

""" + _PROSE)
    first, second = parse_tables(markdown)
    assert len(first) == 5 and len(second) == 5
    assert_table_tests_pass(markdown, [
        table_test("Assumptions Required", left="Result", top_heading="Assumptions Required"),
        table_test("Model-dependent packed family (Asm. 3.3), expected-log functional",
                   left="Four-term decomposition (Thm. 3.4)", top_heading="Assumptions Required"),
        table_test("Crossover formula (Cor. 4.1)", right="Model-dependent packed family", top_heading="Result"),
        table_test("Additive residual from the packed log-time law", left="rM", top_heading="Definition")])


def test_a_header_row_over_a_cmidrule_with_no_rule_above_is_the_tables(tmp_path):
    """``& \\multicolumn{3}{c}{Patient Overlap} & Avg. tokens \\\\ \\cmidrule(lr){2-4}`` opens the
    tabular, no rule above it, the next header row over the first ``\\hline`` (health-query-agent's
    Table 2, ACL style, resized to the text width). The row over the first rule was taken in; the
    one above it was left as a line of text, the ``\\cmidrule`` between them read as the end of the
    table's header. A rule under a group label of the line, narrower than the table, centred under
    it, is that label's: the line is the table's first header row."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table*}[h]
\centering
\resizebox{\textwidth}{!}{
\begin{tabular}{lcccr}
& \multicolumn{3}{c}{Patient Overlap} & Avg. tokens \\
\cmidrule(lr){2-4}
Single Questions & Recall & Precision & F1-score & used ($\downarrow$) \\
\hline
\textsc{QueryAgent} & 0.78 & 0.75 & 0.69 & 48989.82 \\
\textsc{+ RetrievalAgent} & 0.81 & 0.74 & 0.73 & 48038.33 \\
\hline
\multicolumn{5}{l}{Chained Questions} \\
\hline
\textsc{QueryAgent} & 0.33 & 0.31 & 0.32 & 2509191.03 \\
\textsc{+ RetrievalAgent} & 0.70 & 0.75 & 0.66 & 1759280.67 \\
\hline
\end{tabular}}
\caption{QueryAgent's performance on cohort questions.}
\end{table*}

""" + _PROSE, packages="booktabs,graphicx")
    [grid] = parse_tables(markdown)
    assert len(grid) == 7
    assert_table_tests_pass(markdown, [
        table_test("Patient Overlap", down="Recall", right="Avg. tokens"),
        table_test("Single Questions", down="QueryAgent", right="Recall"),
        table_test("48038.33", up="48989.82", left="0.73")])


def test_a_paragraph_cell_goes_on_after_a_full_stop_microtype_set_past_the_edge(tmp_path):
    """``p{0.23\\linewidth}p{0.70\\linewidth}`` rules of an evaluation (nlp-stability's Table 10, ACL
    style: Times, ``microtype``), each cell a justified paragraph. A line that ends a sentence flush
    with the column ("... on unperturbed examples.") has its full stop protruded into the margin by
    microtype, 1.6 pt past the other lines' edge, so it was not taken for a justified line: the next
    line ("If the model fails ...", a capital after a full stop) became a row of its own with an empty
    label, and every line after it. A line ending in punctuation up to 0.3 em past the column's edge
    is flush."""
    markdown = _class_markdown(tmp_path, "[10pt]{article}",
                               "\\usepackage[textwidth=455.24pt]{geometry}\n\\usepackage[T1]{fontenc}\n"
                               "\\usepackage{booktabs,times,microtype}", _PROSE + r"""
\begin{table}[h]
\centering
\small
\setlength{\tabcolsep}{5pt}
\begin{tabular}{p{0.23\linewidth}p{0.70\linewidth}}
\toprule
Component & Rule \\
\midrule
OOTB screening &
Each model-dataset pair is first evaluated with the Control prompt on unperturbed examples. If the model fails the dataset-specific threshold, sensitivity results are not treated as meaningful evidence. \\
OOTB denominator &
Accuracy is computed over all sampled items. Unparseable outputs count as incorrect rather than being removed from the denominator. \\
Variation ratio &
The main reported VR is computed over raw decoded strings after minimal normalization. This means that formatting and response-style changes are counted as output instability. \\
Parsed-label VR &
The implementation also supports computing VR over parsed labels, but this is not the main setting reported in the paper. \\
\bottomrule
\end{tabular}
\caption{Summary of final evaluation and parsing rules.}
\end{table}

""" + _PROSE)
    [grid] = parse_tables(markdown)
    assert [row[0] for row in grid] == ["Component", "OOTB screening", "OOTB denominator", "Variation ratio",
                                        "Parsed-label VR"]
    assert_table_tests_pass(markdown, [
        table_test("OOTB denominator", up="OOTB screening", down="Variation ratio", top_heading="Component"),
        table_test("Parsed-label VR", up="Variation ratio", top_heading="Component")])


def test_paragraph_cells_side_by_side_go_on_whatever_their_next_lines_open_with(tmp_path):
    """``@{}p{4.2cm}p{3.1cm}p{8.2cm}@{}`` (pick-a-model's theorem-to-evidence audit): a wrapped row
    label beside a wrapped paragraph cell. The label's next line goes on in lower case ("and
    Routing-Information Iden-" / "tity", two lines already joined as one stacked cell), the paragraph's
    with "G = 0.128" or "|r_M| <= eta" under a justified line: neither is lower case, so the lines
    were a row of their own with an empty status. A line under a justified line of words, from its
    left edge, goes on in the cell (TeX broke the paragraph there), and a row's lines are measured
    from the last line above, not its middle."""
    markdown = _class_markdown(tmp_path, "[10pt]{article}",
                               "\\usepackage[letterpaper,margin=0.75in]{geometry}\n\\usepackage[T1]{fontenc}\n"
                               "\\usepackage{booktabs}\n\\usepackage[protrusion=true,expansion=true]{microtype}", _PROSE + r"""
\begin{center}
\small
\renewcommand{\arraystretch}{1.2}
\begin{tabular}{@{}p{4.2cm}p{3.1cm}p{8.2cm}@{}}
\toprule
\textbf{Result} & \textbf{Status} & \textbf{Evidence and limitation} \\
\midrule
Posterior-matched allocation and Routing-Information Identity
& Partial
& Calibrated posteriors and realized strategy shares identify $G=0.128$ nat
and $\varepsilon=0.052$ nat for the reported 7B configuration.  The measured
inverse-share slopes, $0.661$ in seconds and $0.707$ in tokens, differ from the
ideal value~$1$. \\
Model-selection crossover
& Partial
& Mode--strategy cells have different cost--success profiles.  The experiment
does not statistically identify a globally optimal worker for every mode. \\
Approximate-packedness residual
& Partial
& The observed closure residual is finite, but a uniform bound
$|r_M|\le\eta$ over all admissible allocations is not established. \\
\bottomrule
\end{tabular}
\end{center}

""" + _PROSE)
    [grid] = parse_tables(markdown)
    assert [row[0] for row in grid] == ["Result", "Posterior-matched allocation and Routing-Information Identity",
                                        "Model-selection crossover", "Approximate-packedness residual"]
    assert_table_tests_pass(markdown, [
        table_test("Approximate-packedness residual", up="Model-selection crossover", right="Partial",
                   top_heading="Result"),
        table_test("Model-selection crossover", up="Posterior-matched allocation and Routing-Information Identity",
                   right="Partial")])


def test_a_row_label_set_a_tie_from_its_first_value_is_cut_where_the_column_starts(tmp_path):
    """``l@{~~}ccccc`` (visual-ltr's Table 5, acmart in Linux Libertine): the row labels "RankBoost -
    46", "AdaRank - 11", "LambdaMart - 46" stand a tie's width from the first score, so each row's
    label and score came as one fragment ("RankBoost - 46 0.453") and the white left between them in
    the longest row is no wider than a word space: the label column and the first score column were
    one. The scores start at one x in every row while the labels end wherever their text does: a
    column's edge, however narrow the white. (Typeset here with labels of about one width and
    ``@{\\hspace{2pt}}``, so that every row comes as one fragment, as in the paper.)"""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\centering
\small
\begin{tabular}{l@{\hspace{2pt}}ccccc}
\toprule
 & p@1 & p@10 & ndcg@1 & ndcg@10 & MAP \\
\midrule
LambdaLoss - 46 & 0.453 & 0.371 & 0.391 & 0.430 & 0.457 \\
LambdaLoss - 11 & 0.448 & 0.372 & 0.381 & 0.431 & 0.453 \\
LambdaRank - 46 & 0.420 & 0.360 & 0.367 & 0.424 & 0.449 \\
LambdaRank - 11 & 0.385 & 0.287 & 0.364 & 0.394 & 0.386 \\
LambdaMart - 46 & 0.452 & 0.384 & 0.405 & 0.444 & 0.463 \\
LambdaMart - 11 & 0.448 & 0.380 & 0.397 & 0.443 & 0.455 \\
\bottomrule
\end{tabular}
\caption{Comparison of 46 and 11 features.}
\end{table}

""" + _PROSE)
    [grid] = parse_tables(markdown)
    assert [row[0] for row in grid[1:]] == ["LambdaLoss - 46", "LambdaLoss - 11", "LambdaRank - 46", "LambdaRank - 11",
                                            "LambdaMart - 46", "LambdaMart - 11"]
    assert_table_tests_pass(markdown, [
        table_test("0.420", up="0.448", down="0.385", left="LambdaRank - 46", right="0.360", top_heading="p@1"),
        table_test("0.452", left="LambdaMart - 46", top_heading="p@1")])


def test_a_second_header_row_of_one_cell_is_a_row_of_its_own(tmp_path):
    """``\\textbf{Training} & \\textbf{Method} & .. \\\\ \\textbf{Data Unseen} & & & .. \\\\`` (dev5's
    tracking-eccv24, a ``l|l|cccc|c`` grid under ``\\hline\\hline``): the second header row holds one
    cell, under "Training", and was joined to it as a wrapped cell's next line ("Training Data
    Unseen"): on the page the two read alike. The text stream tells them apart: TeX writes a second
    row after every cell of the first, a wrapped cell's next line before the next column's cells."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\centering
\small
\begin{tabular}{l|l|cccc|c}
    \hline \hline
    \textbf{Training} & \textbf{Method} & \textbf{AMOTA} $\uparrow$ & \textbf{AMOTP} (m) $\downarrow$ & \textbf{Recall} $\uparrow$ & \textbf{MOTA} $\uparrow$ & \textbf{Modality} \\
    \textbf{Data Unseen} & & & & & & \\
    \hline
$\times$ & PF-Track & 0.622 & 0.916 & 0.719 & 0.558 & Camera \\
$\times$ & QTrack & 0.692 & 0.753 & 0.760 & 0.596 & Camera \\
\hline \hline
\checkmark & AB3DMOT & 0.387 & 1.158 & 0.506 & 0.284 & Camera \\
\checkmark & Ours & 0.413 & 1.189 & 0.536 & 0.321 & Camera \\
\hline \hline
\end{tabular}
\caption{Camera-only multi-object tracking.}
\end{table}

""" + _PROSE, packages="booktabs,amssymb")
    assert_table_tests_pass(markdown, [
        table_test("Training", down="Data Unseen", right="Method"),
        table_test("0.692", up="0.622", left="QTrack", top_heading="AMOTA ↑")])



def test_a_group_label_row_in_the_body_does_not_hide_the_gutters_of_the_rows_of_numbers(tmp_path):
    """``llccc|ccc`` with ``\\tabcolsep`` 4 pt (pico-bionlp22's Table 4, ACL style): under the
    header, a body row of group labels (``& & \\multicolumn{3}{c}{I. EBM-PICO gold} & ..``) whose
    words cross the white between the P and R columns, whose scores 8 pt apart came as one fragment
    ("88.85 65.39"); and row labels joined back across a stretched space lost their word spaces, so
    they crossed every gutter too. The P and R columns were one. A row of words only in a table of
    numbers says nothing of its gutters (and is not cut), and a joined label keeps its spaces."""
    markdown = _class_markdown(tmp_path, "[11pt,twocolumn]{article}",
                               "\\usepackage[textwidth=455.24pt]{geometry}\n\\usepackage{times,amsmath}\n"
                               "\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage{microtype}\n"
                               "\\usepackage{array,makecell,booktabs}", _PROSE + r"""
\setlength{\tabcolsep}{4pt}
\begin{table*}[h]
    \centering
    \begin{tabular}{llccc|ccc}
        \Xhline{1pt}
        Dataset & Experimental setup & P & R & F1 $\pm\sigma$ & P & R & F1 $\pm\sigma$\\
        \hline
        & & \multicolumn{3}{c}{I. EBM-PICO gold} & \multicolumn{3}{c}{II. Physio set}  \\
        distant & $A_{+-}$ c[1,0.9] wPOS & 88.85 & 65.39 & 71.27 $\pm$0.007 & 86.13 & 63.70 & 69.14 $\pm$0.003\\
        distant & $A_{+-}$ c[1] wPOS  & 83.36 & 70.38 & \textbf{75.02} $\pm$0.013 & 79.45 & 66.28 & \textbf{70.63} $\pm$0.008\\
        distant & $A_{+}$ c[1] wPOS & 74.85 & 68.74 & 71.25 $\pm$0.005 & 70.52 & 66.37 & 68.14 $\pm$0.002 \\
        distant & $A_{+}$ c[1] POS ¬ BiLSTM att & 85.82 & 64.84 & 70.31 $\pm$0.002 & 79.97 & 60.79 & 65.14 $\pm$0.005 \\
        combined & $A_{+-}$ c[1,0.9] wPOS & 76.93  & 80.17  & \textbf{78.44}* $\pm$0.006 & 75.55  & 79.42 & 77.32 $\pm$0.010\\
        combined & $A_{+-}$ c[1] wPOS & 77.10 & 78.83 & 77.89 $\pm$0.007 & 76.29 & 80.18 & \textbf{78.07}* $\pm$0.009\\
        combined & $A_{+}$ c[1] wPOS & 67.65 & 85.02 & 72.18 $\pm$0.009  & 64.80 & 83.69 & 68.75 $\pm$0.011 \\
        combined & $A_{+}$ c[1] POS ¬ BiLSTM att & 70.91 & 77.38 & 73.60 $\pm$0.025 & 71.50 & 78.40 & 74.38 $\pm$0.020 \\
        \Xhline{1pt}
    \end{tabular}
    \caption{Macro-averaged scores of the NER models on the two benchmarks.}
\end{table*}

""" + _PROSE)
    [grid] = parse_tables(markdown)
    assert grid[0] == ["Dataset", "Experimental setup", "P", "R", "F1 ±σ", "P", "R", "F1 ±σ"]
    assert_table_tests_pass(markdown, [
        table_test("Experimental setup", right="P", left="Dataset"),
        table_test("65.39", left="88.85", right="71.27 ±0.007", top_heading="R"),
        table_test("64.84", left="85.82", top_heading="R")])


def test_a_lower_case_second_header_cell_centred_under_its_head_is_a_row_of_its_own(tmp_path):
    """``Model & Test & Accuracy \\\\ & size & \\\\`` (the walled-grid probes' "Test" over "size",
    docs/fulltext.md): a lower-case word centred under a head of about its width read as that head's
    next line ("Test size"), though the source sets it as a second header row. It comes in the text
    stream after "Accuracy", a cell right of it on the line above: TeX wrote it in the next row."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\centering
\begin{tabular}{lcc}
\toprule
Model & Test & Accuracy \\
 & size & \\
\midrule
Alpha & 100 & 90.1 \\
Beta & 200 & 91.2 \\
Gamma & 300 & 92.3 \\
\bottomrule
\end{tabular}
\caption{A table.}
\end{table}

""" + _PROSE)
    assert_table_tests_pass(markdown, [
        table_test("Test", down="size", right="Accuracy", left="Model"),
        table_test("200", up="100", left="Beta", right="91.2")])
