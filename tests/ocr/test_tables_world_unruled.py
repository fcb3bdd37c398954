"""A table set without rules, caption or frame under underlined heads (issue 36 items 3, 6: the real-world
table set, benchmarks/fulltext_tables_world; the U.S. Geological Survey's commodity summaries set their
world production tables so): each year's head underlined by a rule as wide as its column, group labels
over them, labels flush left, numbers flush right, rows 11 pt apart. Drawn here with reportlab's canvas,
read by the text layer through ``convert_pdf``; truth by hand from the drawn cells, judged with
olmOCR-Bench's own test classes."""
from __future__ import annotations

import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from benchmarks.fulltext_real.olmocr_judge import judge
from tests.ocr.test_tables_world import _convert, _prose

HEADS = ["2009", "2010", "2009", "2010"]
RIGHTS = [275.0, 355.0, 473.0, 538.0]
ROWS = [["United States and Canada", "60,400", "60,400", "42,600", "42,600"],
        ["Argentina", "—", "—", "5,000", "5,000"],
        ["Australia", "50,000", "50,000", "—", "—"],
        ["Brazil", "50,000", "50,000", "43,000", "43,000"],
        ["China", "700,000", "700,000", "455,000", "455,000"],
        ["France", "40,000", "40,000", "16,000", "16,000"],
        ["Other countries", "80,000", "80,000", "190,000", "190,000"]]


@pytest.fixture(scope="module")
def underlined(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("unruled") / "underlined.pdf"
    c = canvas.Canvas(str(path), pagesize=LETTER)
    y = _prose(c, 720, 3) - 16
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, y, "World Production Capacity:")
    y -= 12
    c.drawCentredString((RIGHTS[0] + RIGHTS[1]) / 2 - 10, y, "Fused aluminum oxide")
    c.drawCentredString((RIGHTS[2] + RIGHTS[3]) / 2 - 10, y, "Silicon carbide")
    y -= 11
    c.setLineWidth(0.8)
    for x, head in zip(RIGHTS, HEADS, strict=True):
        c.drawRightString(x, y, head)
        c.line(x - c.stringWidth(head, "Helvetica-Bold", 10), y - 2.5, x, y - 2.5)  # the head's underline
    c.setFont("Helvetica", 10)
    for row in ROWS:
        y -= 11
        c.drawString(72, y, row[0])
        for x, text in zip(RIGHTS, row[1:], strict=True):
            c.drawRightString(x, y, text)
    _prose(c, y - 30, 3)
    c.showPage()
    c.save()
    return _convert(path)


def test_a_table_without_rules_under_underlined_heads_is_a_table(underlined):
    """Before: each head's underline was a rule across the block, which tells a plot (its axes) from a
    table, so the block was no table and read as prose, column after column."""
    markdown = underlined
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "Australia", "up": "Argentina", "down": "Brazil", "right": "50,000"},
        {"id": "b", "type": "table", "cell": "700,000", "left": "China", "down": "40,000"},
        {"id": "c", "type": "table", "cell": "455,000", "up": "43,000", "right": "455,000"},
        {"id": "d", "type": "table", "cell": "190,000", "left": "80,000", "up": "16,000"}])
    assert all(verdicts.values()), (verdicts, markdown)

