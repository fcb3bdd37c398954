"""Row numbers set apart from the labels they number (issue 36 items 3, 6; tables12rw): a budget
statement (camelot's budget.pdf on the hand-truth set realtables_dev.yaml, an Indian government
statement printed by PDFium) numbers its demands "1." "2." at the left edge, their labels at an indent,
and sets each ministry's label, in bold, from the numbers' edge over both, its totals beside it. Read as
two columns, every ministry label spanned both (HTML ``colspan``) and olmOCR-Bench's reader, which does
not widen a spanned row, shifted the ministry's totals one column left: four of the page's five tests
failed. Drawn here with reportlab's canvas as such a statement is printed, read by the text layer through
``convert_pdf``; truth by hand from the drawn cells, judged with olmOCR-Bench's own test classes."""
from __future__ import annotations

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from benchmarks.fulltext_real.olmocr_judge import judge
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.test_tables_world import _convert, _prose

NUMBER_X, LABEL_X, EDGES = 72.0, 86.0, [330.0, 400.0, 470.0, 540.0]
HEADS = ["Revenue", "Capital", "Total"]
ROWS = [("MINISTRY OF FISHERIES", None, ["2841.30", "60.70", "2902.00"]),
        ("Department of Inland Fisheries", "1.", ["1620.15", "35.85", "1656.00"]),
        ("Department of Marine Fisheries", "2.", ["1221.15", "24.85", "1246.00"]),
        ("MINISTRY OF RAILWAYS", None, ["518.40", "9301.60", "9820.00"]),
        ("Railway Board", "3.", ["212.40", "18.60", "231.00"]),
        ("Metro Rail Schemes", "4.", ["306.00", "9283.00", "9589.00"]),
        ("MINISTRY OF TEXTILES", None, ["1094.25", "75.75", "1170.00"]),
        ("Ministry of Textiles", "5.", ["1094.25", "75.75", "1170.00"])]


def _statement(path, numbers: bool = True) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER)
    y = _prose(c, 720, 3) - 16
    c.setLineWidth(0.5)
    c.line(NUMBER_X, y, EDGES[-1], y)
    c.setFont("Helvetica", 8)
    c.drawString(NUMBER_X + 60, y - 14, "Ministry/Demand")
    for b, text in zip(EDGES[1:], HEADS, strict=True):
        c.drawRightString(b - 4, y - 14, text)
    y -= 22
    c.line(NUMBER_X, y, EDGES[-1], y)
    y -= 6
    for label, number, values in ROWS:
        y -= 11
        if number is None:
            c.setFont("Helvetica-Bold", 8)
            c.drawString(NUMBER_X, y, label)
        else:
            c.setFont("Helvetica", 8)
            if numbers:
                c.drawString(NUMBER_X, y, number)
            c.drawString(LABEL_X, y, label)
        for b, text in zip(EDGES[1:], values, strict=True):
            c.drawRightString(b - 4, y, text)
    c.line(NUMBER_X, y - 5, EDGES[-1], y - 5)
    _prose(c, y - 30, 3)
    c.showPage()
    c.save()


def test_a_numbered_label_keeps_its_number_and_a_group_label_spans_nothing(tmp_path):
    """A column of list numbers ("1.", "2."), no head of its own, each beside a label, with group labels
    starting at its edge and running over the labels' column, is the labels' (``table_ordinals``): one
    cell "1. Department of Inland Fisheries", and each ministry's label one cell beside its totals."""
    path = tmp_path / "statement.pdf"
    _statement(path)
    markdown = _convert(path)
    body = [[label if number is None else f"{number} {label}", *values] for label, number, values in ROWS]
    assert parse_tables(markdown) == [[["Ministry/Demand", *HEADS], *body]], markdown
    tests = [{"id": "group", "type": "table", "cell": "2841.30", "left": "MINISTRY OF FISHERIES",
              "right": "60.70", "down": "1620.15"},
             {"id": "total", "type": "table", "cell": "9820.00", "left": "9301.60", "down": "231.00",
              "up": "1246.00", "top_heading": "Total"},
             {"id": "numbered", "type": "table", "cell": "3. Railway Board", "up": "MINISTRY OF RAILWAYS",
              "right": "212.40"}]
    verdicts = judge(markdown, tests)
    assert all(verdicts.values()), (verdicts, markdown)


def test_without_numbers_the_labels_stay_as_they_were(tmp_path):
    """The same statement without its numbers: one label column, nothing joined (a guard)."""
    path = tmp_path / "plain.pdf"
    _statement(path, numbers=False)
    markdown = _convert(path)
    tests = [{"id": "group", "type": "table", "cell": "2841.30", "left": "MINISTRY OF FISHERIES",
              "down": "1620.15"},
             {"id": "plain", "type": "table", "cell": "Railway Board", "right": "212.40", "down": "Metro Rail Schemes"}]
    verdicts = judge(markdown, tests)
    assert all(verdicts.values()), (verdicts, markdown)
