"""Table idioms of real papers the engine reads already (issue 36 items 3, 6: probes of the table
goal), typeset here with pdflatex as regression guards: blank spacer columns (``@{\\hspace{1em}}``)
under ``\\multicolumn`` heads over ``\\cmidrule(lr)``, numbers in ``\\textbf``/``\\underline`` with
``$\\pm$`` std, ``--`` and ``-`` cells, empty cells, maths cells, italic group rows with
``\\addlinespace``, checkmark cells (pifont's ``\\ding``, amssymb's ``\\checkmark``), and a table
wider than the text under ``\\resizebox``. The expected cells are written by hand from the LaTeX
source of each test, judged by olmOCR-Bench's ``TableTest`` and its table parsers."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text."


def test_spacer_columns_under_group_heads_with_std_and_dash_cells(tmp_path):
    markdown = table_markdown(tmp_path, PROSE + r"""

\begin{table}[h]\centering\small
\begin{tabular}{l@{\hspace{1em}}cc@{\hspace{1.5em}}cc}
\toprule
 & \multicolumn{2}{c}{CIFAR-10} & \multicolumn{2}{c}{CIFAR-100} \\
\cmidrule(lr){2-3}\cmidrule(lr){4-5}
Method & Acc. & NLL & Acc. & NLL \\
\midrule
ERM & 94.2$\pm$0.1 & 0.21 & 76.8$\pm$0.3 & 0.95 \\
Mixup & \textbf{95.3}$\pm$0.2 & \underline{0.18} & 78.1$\pm$0.2 & -- \\
CutMix & \underline{95.1}$\pm$0.1 & \textbf{0.17} & \textbf{79.0}$\pm$0.4 & 0.88 \\
\bottomrule
\end{tabular}
\caption{Spacer columns.}
\end{table}""")
    tests = [table_test("95.3±0.2", left="Mixup", right="0.18", up="94.2±0.1", down="95.1±0.1"),
             table_test("–", left="78.1±0.2", up="0.95", down="0.88", left_heading="Mixup"),
             table_test("79.0±0.4", left="0.17", right="0.88", up="78.1±0.2")]
    assert_table_tests_pass(markdown, tests)


def test_maths_empty_and_dash_cells_under_italic_group_rows(tmp_path):
    markdown = table_markdown(tmp_path, PROSE + r"""

\begin{table}[h]\centering\small
\begin{tabular}{lccc}
\toprule
Setting & $\alpha=0.1$ & $\alpha=0.5$ & $\beta$ \\
\midrule
\multicolumn{4}{l}{\textit{Synthetic}} \\
Linear & 0.12 & -- & 0.7 \\
Quadratic & & 0.31 & - \\
\addlinespace
\multicolumn{4}{l}{\textit{Real}} \\
Housing & 0.45 & 0.52 & 0.9 \\
Wine & 0.38 & & 0.4 \\
\bottomrule
\end{tabular}
\caption{Maths, empty and dash cells.}
\end{table}""")
    assert parse_tables(markdown) == [[["Setting", "α = 0.1", "α = 0.5", "β"], ["Synthetic", "", "", ""],
                                       ["Linear", "0.12", "–", "0.7"], ["Quadratic", "", "0.31", "-"],
                                       ["Real", "", "", ""], ["Housing", "0.45", "0.52", "0.9"],
                                       ["Wine", "0.38", "", "0.4"]]]
    assert_table_tests_pass(markdown, [table_test("0.31", up="–", right="-", top_heading="α = 0.5")])


def test_checkmark_cells(tmp_path):
    markdown = table_markdown(tmp_path, PROSE + r"""

\begin{table}[h]\centering\small
\begin{tabular}{lccc}
\toprule
Method & Robust & Scalable & Private \\
\midrule
Alpha & \ding{51} & \ding{55} & \ding{51} \\
Beta & $\checkmark$ & $\times$ & \ding{55} \\
Ours & \ding{51} & \ding{51} & \ding{51} \\
\bottomrule
\end{tabular}
\caption{Checkmarks.}
\end{table}""", packages="booktabs,amssymb,pifont")
    assert parse_tables(markdown) == [[["Method", "Robust", "Scalable", "Private"], ["Alpha", "✓", "✗", "✓"],
                                       ["Beta", "✓", "×", "✗"], ["Ours", "✓", "✓", "✓"]]]


def test_a_table_resized_to_the_text_width(tmp_path):
    markdown = table_markdown(tmp_path, PROSE + r"""

\begin{table}[h]\centering
\resizebox{\textwidth}{!}{%
\begin{tabular}{lcccccccccc}
\toprule
Model & MMLU & GSM8K & MATH & HumanEval & MBPP & ARC-C & HellaSwag & WinoGrande & TruthfulQA & Avg \\
\midrule
Llama-2-7B & 45.3 & 14.6 & 2.5 & 12.8 & 20.8 & 53.1 & 78.6 & 74.0 & 38.8 & 37.8 \\
Mistral-7B & 64.1 & 52.2 & 13.1 & 30.5 & 47.5 & 59.9 & 83.3 & 78.4 & 42.2 & 52.4 \\
\bottomrule
\end{tabular}}
\caption{Resized.}
\end{table}""", packages="booktabs,graphicx")
    assert parse_tables(markdown) == [[
        ["Model", "MMLU", "GSM8K", "MATH", "HumanEval", "MBPP", "ARC-C", "HellaSwag", "WinoGrande", "TruthfulQA", "Avg"],
        ["Llama-2-7B", "45.3", "14.6", "2.5", "12.8", "20.8", "53.1", "78.6", "74.0", "38.8", "37.8"],
        ["Mistral-7B", "64.1", "52.2", "13.1", "30.5", "47.5", "59.9", "83.3", "78.4", "42.2", "52.4"]]]


def test_a_table_of_topic_word_lists_is_a_table(tmp_path):
    """Issue 36 item 3 (tables8b (e)): an LDA topic table, each row's cell a list of eight lower-case
    words. Each cell of six words or more with a lower-case one under it was taken for the lines of
    a paragraph set beside the table (``tables._prose_column``, cas-dc's abstract between two
    rules): the table was dropped and its words ran on as one paragraph. A paragraph's lines are
    justified, flush with its right edge; the word lists end ragged."""
    markdown = table_markdown(tmp_path, PROSE + r"""

\begin{table}[h]\centering
\begin{tabular}{ll}
\toprule
Topic & Top words \\
\midrule
Sports & game team player season coach league score win \\
Politics & vote party election senate law president campaign bill \\
Science & cell gene protein study brain research data model \\
Health & patient care hospital drug doctor treatment disease risk \\
\bottomrule
\end{tabular}
\caption{Topics found by LDA.}
\end{table}""")
    assert parse_tables(markdown) == [[["Topic", "Top words"], ["Sports", "game team player season coach league score win"],
                                       ["Politics", "vote party election senate law president campaign bill"],
                                       ["Science", "cell gene protein study brain research data model"],
                                       ["Health", "patient care hospital drug doctor treatment disease risk"]]], markdown
    assert_table_tests_pass(markdown, [table_test("cell gene protein study brain research data model", left="Science",
                                                  up="vote party election senate law president campaign bill",
                                                  top_heading="Top words")])
