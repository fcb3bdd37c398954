"""A table set at the very top of a page, typeset here with pdflatex: its header row lies in the
page's top edge zone, where running heads and page numbers are looked for (``furniture``). A header
of bare numbers, or a header between the table's \\toprule and \\midrule, is the table's, never a
running head with its page number. The expected cells are written by hand from the LaTeX source."""
from __future__ import annotations

import pytest

from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts

SHOTS = r"""
\begin{table}[t]\centering
\begin{tabular}{lrrrrrr}
\toprule
Model & 0 & 1 & 2 & 4 & 8 & 16 \\
\midrule
GPT-2 & 12.1 & 13.4 & 14.5 & 15.6 & 16.7 & 17.8 \\
OPT & 22.1 & 23.4 & 24.5 & 25.6 & 26.7 & 27.8 \\
\bottomrule
\end{tabular}
\caption{Accuracy by the number of in-context examples.}
\end{table}
A paragraph of prose follows the table on this page, long enough to run onto a second line of text."""

CONFIG = r"""
\begin{table}[t]\centering
\begin{tabular}{lr}
\toprule
Width & 512 \\
\midrule
Depth & 12 \\
Heads & 8 \\
Dropout & 0.1 \\
\bottomrule
\end{tabular}
\caption{The configuration.}
\end{table}
A paragraph of prose follows the table on this page, long enough to run onto a second line of text."""


@pytest.mark.parametrize(("body", "expected"), [
    # a header of shot counts: six bare numbers on the line, and "Model" a wide space from them
    (SHOTS, [["Model", "0", "1", "2", "4", "8", "16"], ["GPT-2", "12.1", "13.4", "14.5", "15.6", "16.7", "17.8"],
             ["OPT", "22.1", "23.4", "24.5", "25.6", "26.7", "27.8"]]),
    # one bare number, between the \toprule and the \midrule
    (CONFIG, [["Width", "512"], ["Depth", "12"], ["Heads", "8"], ["Dropout", "0.1"]]),
], ids=["numbers-header", "ruled-header"])
def test_a_table_header_at_the_top_of_a_page_is_no_running_head(tmp_path, body, expected):
    """Before, the header row was dropped whole: its numbers taken for page numbers (each counts
    with the pages of a one-page paper) and "Model" / "Width" for a running head beside them."""
    pages = typeset_layouts(tmp_path, "booktabs", body)
    markdown = "\n\n".join(compose_pages([page.to_json() for page in pages]))
    assert parse_tables(markdown) == [expected]
