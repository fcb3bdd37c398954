"""Row-group labels inside a table's body (issue 36 items 3, 6): ``\\multicolumn{2}{l}{Encoder-only}``,
a row of one left-aligned label between data rows, in a table set without rules (its caption over
or under it) or with one ``\\hline`` under its header. Typeset here with pdflatex, judged by
olmOCR-Bench's ``TableTest``; the expected cells are written by hand from the LaTeX source."""
from __future__ import annotations

import pytest

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

_PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"
_TABLE = r"""
\begin{table}[h]
ABOVE\centering
\begin{tabular}{lccc}
Model & MNLI & QQP & SST-2 \\ RULE
\multicolumn{2}{l}{Encoder-only} \\
BERT-base & 84.6 & 71.2 & 93.5 \\
RoBERTa-base & 87.6 & 72.1 & 94.8 \\
\multicolumn{2}{l}{Decoder-only} \\
GPT-2 & 82.3 & 69.8 & 92.1 \\
OPT-350M & 83.0 & 70.4 & 92.7 \\
\end{tabular}
BELOW\end{table}"""
_CAPTION = "\\caption{Accuracy by model family.}\n"


@pytest.mark.parametrize(("above", "below", "rule"), [(_CAPTION, "", ""), ("", _CAPTION, ""), (_CAPTION, "", r"\hline")],
                         ids=["caption-over", "caption-under", "one-rule"])
def test_a_group_label_between_data_rows_keeps_the_table_whole(tmp_path, above, below, rule):
    """The caption's run of rows ended at the first line of one text ("Encoder-only"), so the table
    had one row and its numbers were read as text, column after column. One text flush with the
    first column, a row of cells close beyond it: a group's label, a row of the table."""
    markdown = table_markdown(tmp_path, _PROSE + _TABLE.replace("ABOVE", above).replace("BELOW", below).replace("RULE", rule))
    [grid] = parse_tables(markdown)
    assert [row[0] for row in grid] == ["Model", "Encoder-only", "BERT-base", "RoBERTa-base", "Decoder-only", "GPT-2", "OPT-350M"]
    assert_table_tests_pass(markdown, [
        table_test("GPT-2", up="Decoder-only", down="OPT-350M", right="82.3"),
        table_test("72.1", left="87.6", up="71.2", top_heading="QQP", left_heading="RoBERTa-base")])


def test_a_paragraph_of_one_line_after_an_unruled_table_stays_prose(tmp_path):
    """Guard: a short paragraph right under an unruled table (one text flush with its first column,
    nothing beyond it) is no group label."""
    markdown = table_markdown(tmp_path, _PROSE + r"""
\begin{table}[h]
\caption{Accuracy.}\centering
\begin{tabular}{lccc}
Model & MNLI & QQP & SST-2 \\
BERT-base & 84.6 & 71.2 & 93.5 \\
RoBERTa-base & 87.6 & 72.1 & 94.8 \\
\end{tabular}
\end{table}
Short closing note.""")
    [grid] = parse_tables(markdown)
    assert grid[-1][0] == "RoBERTa-base" and "Short closing note." in markdown
