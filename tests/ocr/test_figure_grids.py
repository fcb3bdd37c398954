"""Figure grids set as tabulars of pictures (issue 36 item 3, tables8b (d)), typeset here with
pdflatex: what a reader expects of them is their labels, present and in reading order, and no
table of garbage. olmOCR-Bench has no table test there; the labels are judged by its present and
order tests, written by hand from the LaTeX source of each test."""
from __future__ import annotations

from PIL import Image

from benchmarks.fulltext_real.olmocr_judge import judge
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.typeset_tables import table_markdown

PROSE = "A paragraph of prose sets the page before the figure and runs well past the end of one line of text."
PICTURE = r"\includegraphics[width=3cm,height=2cm]{p.png}"


def _grid(tmp_path, body: str) -> str:
    Image.new("RGB", (60, 40), (120, 160, 200)).save(tmp_path / "p.png")
    return table_markdown(tmp_path, PROSE + body.replace("PIC", PICTURE) + PROSE, packages="graphicx")


def _order(before: str, after: str) -> dict:
    return {"id": f"{before}<{after}", "type": "order", "before": before, "after": after}


def test_numbered_labels_under_a_grid_of_pictures_are_read_row_by_row(tmp_path):
    """Two rows of three pictures, a numbered label under each: read column by column between the
    pictures' columns, "(a) Input" was followed by "(d) Noisy" and "(b) Ours" came after it."""
    markdown = _grid(tmp_path, r"""
\begin{figure}[h]\centering
\begin{tabular}{ccc}
PIC & PIC & PIC \\
(a) Input & (b) Ours & (c) Truth \\
PIC & PIC & PIC \\
(d) Noisy & (e) Denoised & (f) Residual \\
\end{tabular}
\caption{Qualitative results.}
\end{figure}
""")
    labels = ["(a) Input", "(b) Ours", "(c) Truth", "(d) Noisy", "(e) Denoised", "(f) Residual"]
    tests = [_order(a, b) for a, b in zip(labels, labels[1:], strict=False)] + [_order(labels[-1], "Figure 1: Qualitative results.")]
    assert all(judge(markdown, tests).values()), markdown
    assert "<table>" not in markdown and "|---" not in markdown, markdown


def test_row_labels_beside_a_grid_of_pictures_are_its_rows(tmp_path):
    """Column heads over the pictures and a row label left of each row: the row labels, set on the
    pictures' baseline, fell outside the grid's columns; "Scene 1" was lost and "Scene 2" read
    before the heads."""
    markdown = _grid(tmp_path, r"""
\begin{figure}[h]\centering
\begin{tabular}{lccc}
 & Input & Ours & Truth \\
Scene 1 & PIC & PIC & PIC \\
Scene 2 & PIC & PIC & PIC \\
\end{tabular}
\caption{Qualitative results.}
\end{figure}
""")
    assert parse_tables(markdown) == [[["", "Input", "Ours", "Truth"], ["Scene 1", "", "", ""], ["Scene 2", "", "", ""]]], markdown
    tests = [_order("Input", "Scene 1"), _order("Scene 1", "Scene 2"), _order("Scene 2", "Figure 1: Qualitative results.")]
    assert all(judge(markdown, tests).values()), markdown


def test_numbered_labels_of_two_lines_are_each_read_whole(tmp_path):
    """Sub-captions of two lines side by side under two pictures (bike-fpga, papers_dev2.yaml):
    each label's lines are read whole, one label after the other, not line by line across both."""
    markdown = _grid(tmp_path, r"""
\begin{figure}[h]\centering
\begin{tabular}{cc}
PIC & PIC \\
\parbox{3cm}{\centering (a) Primitive operation pipelining for square} &
\parbox{3cm}{\centering (b) Optimised operation pipelining for square} \\
PIC & PIC \\
(c) Input & (d) Output \\
\end{tabular}
\caption{Timing diagrams.}
\end{figure}
""")
    tests = [{"id": f"present-{k}", "type": "present", "text": text} for k, text in enumerate(
        ["(a) Primitive operation pipelining for square", "(b) Optimised operation pipelining for square"])]
    tests += [_order("(a) Primitive operation pipelining for square", "(b) Optimised operation pipelining for square"),
              _order("(b) Optimised operation pipelining for square", "(c) Input"), _order("(c) Input", "(d) Output")]
    assert all(judge(markdown, tests).values()), markdown
