"""A label column outside a walled grid, under a rule of its own (issue 36 items 3, 6; ICDAR 2013's
us-009 on tablesworld's dev half, a cost proposal from a spreadsheet): the grid's cells are walled and
ruled row by row, its row labels stand left of the grid with no wall, and the head rule under
"Cost Category" continues the grid's head rule at its height. Drawn here with reportlab's canvas, read by
the text layer through ``convert_pdf``; truth by hand from the drawn cells, judged with olmOCR-Bench's own
test classes."""
from __future__ import annotations

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from benchmarks.fulltext_real.olmocr_judge import judge
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.test_tables_world import _convert, _prose

LABEL_X0, EDGES = 72.0, [182.0, 262.0, 342.0, 422.0]
HEADS = ["Total Costs", "Indirect Costs", "Direct Costs"]
BODY = [["Wages", "812,000", "230,400", "581,600"], ["Benefits", "214,500", "61,000", "153,500"],
        ["Travel", "48,200", "9,100", "39,100"], ["Rent", "96,000", "96,000", "0"],
        ["Printing", "12,750", "3,200", "9,550"], ["Total", "1,183,450", "399,700", "783,750"]]


def _labelled_grid(path) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER)
    y = _prose(c, 720, 3) - 14
    head = 26.0
    c.setLineWidth(0.5)
    c.line(EDGES[0], y, EDGES[-1], y)  # the head's top rule: over the grid only
    c.setFont("Helvetica-Bold", 9)
    c.drawString(LABEL_X0 + 20, y - head + 6, "Cost Category")
    for (a, b), text in zip(zip(EDGES, EDGES[1:], strict=False), HEADS, strict=True):
        c.drawCentredString((a + b) / 2, y - head + 8, text)
    for x in EDGES:
        c.line(x, y, x, y - head)
    y -= head
    c.line(LABEL_X0, y, EDGES[0], y)  # the label column's own rule, ending where the grid's pieces start
    for a, b in zip(EDGES, EDGES[1:], strict=False):
        c.line(a, y, b, y)
    for row in BODY:
        c.setFont("Helvetica", 9)
        c.drawString(LABEL_X0 + 2, y - 10, row[0])
        for b, text in zip(EDGES[1:], row[1:], strict=True):
            c.drawRightString(b - 4, y - 10, text)
        for x in EDGES:
            c.line(x, y, x, y - 14)
        y -= 14
        c.line(EDGES[0], y, EDGES[-1], y)
    c.setFont("Helvetica", 9)
    c.drawString(LABEL_X0, y - 22, "Notes:")
    c.drawString(LABEL_X0, y - 34, "(1) Rent is charged to the indirect pool in full under the agreement of the year.")
    _prose(c, y - 60, 3)
    c.showPage()
    c.save()


def test_a_label_column_outside_a_walled_grid_under_a_rule_of_its_own_is_the_tables(tmp_path):
    """The labels stood under a rule (the label column's own, under its head) and were taken for
    another table's beside this one: the grid was read without its labels, which went as a paragraph
    above it ("Cost Category Wages Benefits ..."). A rule left of the grid that continues one of the
    grid's rules at its height is the table's (``tables._label_rules``); a label under it may stand as
    far from the numbers as its column is wide; a line wholly left of the grid under it (a note) is
    no row. (The "Notes:" line under the grid is read before the table, with or without this change:
    not asserted here.)"""
    path = tmp_path / "labelled.pdf"
    _labelled_grid(path)
    markdown = _convert(path)
    assert parse_tables(markdown) == [[["Cost Category", *HEADS], *BODY]], markdown
    tests = [{"id": "wages", "type": "table", "cell": "Wages", "right": "812,000", "down": "Benefits",
              "top_heading": "Cost Category"},
             {"id": "rent", "type": "table", "cell": "96,000", "left": "Rent", "up": "48,200"},
             {"id": "notes", "type": "present", "text": "(1) Rent is charged to the indirect pool in full under the agreement of the year."},
             {"id": "order", "type": "order", "before": "1,183,450", "after": "(1) Rent is charged"}]
    verdicts = judge(markdown, tests)
    assert all(verdicts.values()), (verdicts, markdown)
