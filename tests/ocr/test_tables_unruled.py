"""Tables set without any rule (no \\toprule, no \\hline: columns parted by white space only),
typeset here with pdflatex (issue 36 items 3, 6): found from their caption (``table_unruled``),
above or below them, in a one- or a two-column page. The expected cells are written by hand from
the LaTeX source of each test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

PROSE = "Sentence of the running text fills the columns of the page with words and more words. "


def test_a_table_without_rules_under_its_caption_is_a_table(tmp_path):
    """Before, no rule meant no table: its columns were read as columns of text, one after the
    other ("Model Baseline Ours Ours + LM BLEU 21.4 25.9 26.3 ROUGE ...")."""
    markdown = table_markdown(tmp_path, PROSE * 2 + r"""
\begin{table}[h]\centering\caption{Scores without rules.}
\begin{tabular}{lccc}
Model & BLEU & ROUGE & METEOR \\
Baseline & 21.4 & 33.0 & 18.2 \\
Ours & 25.9 & 36.8 & 20.1 \\
Ours + LM & 26.3 & 37.5 & 20.7 \\
\end{tabular}
\end{table}
""" + PROSE * 2)
    assert parse_tables(markdown) == [[["Model", "BLEU", "ROUGE", "METEOR"], ["Baseline", "21.4", "33.0", "18.2"],
                                       ["Ours", "25.9", "36.8", "20.1"], ["Ours + LM", "26.3", "37.5", "20.7"]]]
    tests = [table_test("36.8", left="25.9", up="33.0", top_heading="ROUGE", left_heading="Ours")]
    assert_table_tests_pass(markdown, tests)
    assert "Sentence of the running" in markdown.split("Table 1")[0]


def test_a_table_without_rules_over_its_caption_is_a_table(tmp_path):
    """The caption under the table (ACL's styles), 10 pt (\\abovecaptionskip) under its last row."""
    markdown = table_markdown(tmp_path, PROSE * 2 + r"""
\begin{table}[h]\centering
\begin{tabular}{lcc}
Split & Images & Classes \\
Train & 50000 & 10 \\
Test & 10000 & 10 \\
\end{tabular}
\caption{Caption below.}
\end{table}
""" + PROSE * 2)
    assert parse_tables(markdown) == [[["Split", "Images", "Classes"], ["Train", "50000", "10"], ["Test", "10000", "10"]]]


def test_a_table_without_rules_in_one_column_of_a_two_column_page(tmp_path):
    """Its rows share their height with the other column's prose: the table's cells only."""
    markdown = table_markdown(tmp_path, PROSE * 12 + r"""
\begin{table}[h]\centering\caption{Narrow, no rules.}\small
\begin{tabular}{lcc}
Model & Top-1 & Top-5 \\
ResNet-50 & 76.1 & 92.9 \\
ViT-B/16 & 81.8 & 95.9 \\
\end{tabular}
\end{table}
""" + PROSE * 36, options="twocolumn")
    assert parse_tables(markdown) == [[["Model", "Top-1", "Top-5"], ["ResNet-50", "76.1", "92.9"],
                                       ["ViT-B/16", "81.8", "95.9"]]]


def test_a_tight_table_without_rules_has_its_header_cut_on_the_columns(tmp_path):
    """Issue 36 (tight table columns; a probe of another table): a table with no rules, its columns
    2 pt apart (\\tabcolsep) in \\small Times. The header's heads are closer than pdftext's cut, one
    fragment "MMLU GSM8K HumanEval ARC"; its word spaces were dropped (kept only between rules), so
    nothing could cut it and it was one cell spanning the five columns over the body's cut numbers."""
    markdown = table_markdown(tmp_path, PROSE * 2 + r"""

\begin{table}[h]\centering\small\setlength{\tabcolsep}{2pt}\caption{Accuracy of the models.}
\begin{tabular}{lrrrr}
Model & MMLU & GSM8K & HumanEval & ARC \\
Base-7B & 61.3 & 45.2 & 30.1 & 78.9 \\
Tuned-7B & 63.8 & 52.7 & 35.4 & 80.2 \\
Large-70B & 78.5 & 81.0 & 60.3 & 91.7 \\
\end{tabular}
\end{table}

""" + PROSE * 2, packages="times")
    assert parse_tables(markdown) == [[["Model", "MMLU", "GSM8K", "HumanEval", "ARC"],
                                       ["Base-7B", "61.3", "45.2", "30.1", "78.9"],
                                       ["Tuned-7B", "63.8", "52.7", "35.4", "80.2"],
                                       ["Large-70B", "78.5", "81.0", "60.3", "91.7"]]], markdown
    tests = [table_test("52.7", left="63.8", right="35.4", up="45.2", top_heading="GSM8K", left_heading="Tuned-7B"),
             table_test("60.3", top_heading="HumanEval", left="81.0")]
    assert_table_tests_pass(markdown, tests)
