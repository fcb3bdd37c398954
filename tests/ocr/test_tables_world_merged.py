"""A grid's merged cell set flush left (issue 36 items 3, 6; tables12rw): Typst's default table strokes each
cell and sets its text at the start, so ``table.cell(colspan: 3)[Accuracy]`` stands over the first of its
three columns with the column rules of the rows under it stopping at its row; Word and Writer draw a merged
cell of a bordered table the same way, its text flush left. Such a cell spanned only the columns its own
text reaches ("Accuracy" over "Run 1" and half "Run 2": two). Drawn here with reportlab's canvas as a
stroked grid draws it (truth by hand from the drawn cells), and typeset with Typst when ``typst`` is
installed (it is no dependency of the project: skipped otherwise); read by the text layer through
``convert_pdf`` and judged with olmOCR-Bench's own test classes."""
from __future__ import annotations

import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from benchmarks.fulltext_real.olmocr_judge import judge
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.test_tables_world import _convert, _prose

EDGES = [72.0, 150.0, 210.0, 270.0, 330.0, 400.0]
HEAD = ["Method", "Accuracy", "", "", "Mean"]
SUB = ["", "Run 1", "Run 2", "Run 3", ""]
BODY = [["Baseline", "71.2", "70.8", "71.5", "71.2"], ["Ours", "74.9", "75.3", "74.6", "74.9"],
        ["Ours + aug", "76.1", "75.8", "76.4", "76.1"]]
TESTS = [{"id": "span", "type": "table", "cell": "75.3", "top_heading": "Accuracy", "up": "70.8"},
         {"id": "last", "type": "table", "cell": "76.4", "top_heading": "Accuracy", "right": "76.1"},
         {"id": "mean", "type": "table", "cell": "74.9", "left": "74.6", "top_heading": "Mean"}]


def _grid(path) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER)
    top = _prose(c, 720, 3) - 10
    height = 16.0
    rows = [HEAD, SUB, *BODY]
    c.setLineWidth(0.5)
    for r, row in enumerate(rows):
        y = top - r * height
        c.setFont("Helvetica", 10)
        for x, text in zip(EDGES, row, strict=False):
            if text:
                c.drawString(x + 5, y - 11.5, text)
        c.line(EDGES[0], y, EDGES[-1], y)
        for k, x in enumerate(EDGES):
            if r == 0 and k in (2, 3):  # the merged cell: no rule between its three columns in its row
                continue
            c.line(x, y, x, y - height)
    c.line(EDGES[0], top - len(rows) * height, EDGES[-1], top - len(rows) * height)
    _prose(c, top - len(rows) * height - 24, 3)
    c.showPage()
    c.save()


def test_a_merged_cell_set_flush_left_spans_the_columns_between_its_walls(tmp_path):
    """A cell whose text runs over where a column rule of the rows under it stops at its row spans the
    columns between the rules that do cross its row (``table_cells._walls``), centred or not."""
    path = tmp_path / "merged.pdf"
    _grid(path)
    markdown = _convert(path)
    assert '<th colspan="3">Accuracy</th>' in markdown, markdown
    assert parse_tables(markdown)[0][1:] == [SUB, *BODY], markdown  # (its reader does not widen the spanned head)
    verdicts = judge(markdown, TESTS)
    assert all(verdicts.values()), (verdicts, markdown)


def test_typsts_colspan_cell_in_its_default_strokes(tmp_path):
    typst = pytest.importorskip("typst")
    source = tmp_path / "table.typ"
    source.write_text("""#set page(width: 21cm, height: 29.7cm, margin: 2cm)
#set text(size: 10pt)
Results of the three runs are shown in the table below, with the mean of each method over the runs.

#table(
  columns: 5,
  [Method], table.cell(colspan: 3)[Accuracy], [Mean],
  [], [Run 1], [Run 2], [Run 3], [],
  [Baseline], [71.2], [70.8], [71.5], [71.2],
  [Ours], [74.9], [75.3], [74.6], [74.9],
  [Ours + aug], [76.1], [75.8], [76.4], [76.1],
)

The table shows that the method improves over the baseline in every run.
""", encoding="utf-8")
    path = tmp_path / "table.pdf"
    typst.compile(str(source), output=str(path))
    markdown = _convert(path)
    assert '<th colspan="3">Accuracy</th>' in markdown, markdown
    verdicts = judge(markdown, TESTS)
    assert all(verdicts.values()), (verdicts, markdown)
