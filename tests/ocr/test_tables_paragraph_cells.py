"""Paragraph cells of a booktabs ``tabularx`` (issue 36 items 3, 6): the next line of a row whose
label takes one line, its cells going on in the columns beside it, one of them a new sentence
(a capital after a full stop). Typeset here with pdflatex, judged by olmOCR-Bench's ``TableTest``;
the expected cells are written by hand from the LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

_PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"
_RAGGED = r">{\raggedright\arraybackslash}"


def test_a_cell_s_next_line_that_starts_a_sentence_stays_in_its_row(tmp_path):
    """"AdamW with weight decay. Warmup of 2k steps" wraps after "decay."; beside it "Stable training
    at large batch sizes" wraps after "large", and "Optimizer" takes one line. The line under it
    ("Warmup of 2k steps", "batch sizes", no row label) was a row of its own: a cell's next line
    had to start in lower case, all of them. One cell going on in lower case, the others broken
    before a word the line above had no room for: the same row."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\caption{Design choices.}
\begin{tabularx}{\linewidth}{RAGGEDp{2.2cm}RAGGEDXRAGGEDX}
\toprule
Component & Choice & Reason \\
\midrule
Tokenizer of the input text & Byte-level BPE with a vocabulary of 50k entries. Trained on the corpus & Handles rare words and scripts \\
Optimizer & AdamW with weight decay. Warmup of 2k steps & Stable training at large batch sizes \\
Positional encoding scheme & Rotary embeddings applied to queries. Keys are rotated too & Extrapolates to longer contexts \\
\bottomrule
\end{tabularx}
\end{table}""".replace("RAGGED", _RAGGED), packages="booktabs,tabularx,array")
    [grid] = parse_tables(markdown)
    assert grid[2] == ["Optimizer", "AdamW with weight decay. Warmup of 2k steps", "Stable training at large batch sizes"]
    assert len(grid) == 4
    assert_table_tests_pass(markdown, [
        table_test("AdamW with weight decay. Warmup of 2k steps", left="Optimizer", top_heading="Choice",
                   down="Rotary embeddings applied to queries. Keys are rotated too"),
        table_test("Positional encoding scheme", up="Optimizer")])


def test_a_row_with_no_label_under_a_group_s_first_row_stays_a_row(tmp_path):
    """Guard: a model's sizes set without repeating its name (``BERT & base & 84.1 \\\\ & large &
    86.0``), the size in lower case under a short one: rows of their own, not a cell's next line."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\caption{Sizes.}
\centering
\begin{tabular}{llcc}
\toprule
Model & Size & MNLI & QQP \\
\midrule
BERT & base & 84.1 & 71.2 \\
 & large & 86.0 & 72.1 \\
RoBERTa & base & 87.6 & 72.5 \\
 & large & 90.2 & 74.3 \\
\bottomrule
\end{tabular}
\end{table}""")
    [grid] = parse_tables(markdown)
    assert len(grid) == 5
    assert_table_tests_pass(markdown, [table_test("86.0", up="84.1", down="87.6", top_heading="MNLI")])


def test_justified_paragraph_cells_read_line_by_line(tmp_path):
    """The same table justified (``p{2.2cm}XX``, tabularx's default): a justified line's stretched
    spaces cut it into fragments ("Tokenizer" "of"; "cabulary" "of" "50k" "entries."), which came
    into the cell out of order ("of Tokenizer the input text", "a vo-of 50k entries. cabulary"), and
    a line under a row already two lines deep ("Trained on the corpus", "kens") was a row of its own.
    A row's lines are read top to bottom, each left to right; a cell's next line is judged against
    the row's last line."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\caption{Design choices.}
\begin{tabularx}{\linewidth}{p{2.2cm}XX}
\toprule
Component & Choice & Reason \\
\midrule
Tokenizer of the input text & Byte-level BPE with a vocabulary of 50k entries. Trained on the corpus & Handles rare words and scripts without unknown tokens \\
Optimizer & AdamW with weight decay. Warmup of 2k steps & Stable training at large batch sizes \\
Positional encoding scheme & Rotary embeddings. Applied to queries and keys & Extrapolates to longer contexts than seen in training \\
\bottomrule
\end{tabularx}
\end{table}""", packages="booktabs,tabularx")
    [grid] = parse_tables(markdown)
    assert grid[1] == ["Tokenizer of the input text", "Byte-level BPE with a vocabulary of 50k entries. Trained on the corpus",
                       "Handles rare words and scripts without unknown tokens"]
    assert len(grid) == 4
    assert_table_tests_pass(markdown, [
        table_test("Byte-level BPE with a vocabulary of 50k entries. Trained on the corpus", left="Tokenizer of the input text",
                   down="AdamW with weight decay. Warmup of 2k steps", top_heading="Choice"),
        table_test("Rotary embeddings. Applied to queries and keys", left="Positional encoding scheme")])


def test_lower_case_rows_of_a_table_of_symbols_stay_rows(tmp_path):
    """Guard (an IEEEtran paper's table of parameters, papers_dev3.yaml's ensemble-ieee): under
    "total_train | total number of instances to be trained for", the row "pw | granularity of
    prediction. Prediction length during training" starts in lower case in both cells, but the
    line above had room for "granularity": a row of its own, not that row's next line. Nor is
    "text_features | In separate file." under the same description (datacomp's table of fields):
    a full line over a capital proves no break."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\caption{Parameters.}\centering
\begin{tabular}{lll}
\toprule
group & parameter & description \\
\midrule
window parameters & kl & number of windows to keep as the window slides forward \\
 & total\_train & total number of instances to be trained for \\
 & pw & granularity of prediction. Prediction length during training \\
ensemble parameters & ci & i-th classifier model in the ensemble \\
 & image\_features & In separate file. \\
 & text\_features & In separate file. \\
\bottomrule
\end{tabular}
\end{table}""", preamble=r"\usepackage[T1]{fontenc}")
    [grid] = parse_tables(markdown)
    assert [row[1] for row in grid] == ["parameter", "kl", "total_train", "pw", "ci", "image_features", "text_features"]
    assert_table_tests_pass(markdown, [
        table_test("granularity of prediction. Prediction length during training", left="pw",
                   up="total number of instances to be trained for")])
