"""A head rule just above where a table's column rules start (issue 36 items 3, 6; tables12rw; ICDAR
2013's us-020 on tablesworld's dev half, a statistics report's appendix table): a head of up to four
wrapped lines over a rule, no rule in the body, and column rules drawn row by row from the second row
on (the cell edges of a shaded body). The column rules made the table start at the second row: the
first row and the head were read as a paragraph, and no column had a head. Drawn here with reportlab's
canvas as such a report draws it, read by the text layer through ``convert_pdf``; truth by hand from the
drawn cells, judged with olmOCR-Bench's own test classes."""
from __future__ import annotations

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from benchmarks.fulltext_real.olmocr_judge import judge
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.test_tables_world import _convert, _prose

EDGES = [72.0, 230.0, 320.0, 410.0, 480.0, 545.0]
HEADS = [["", "", "Households", "", ""], ["", "Surveyed", "in original", "", "Responding"],
         ["", "households in", "sample that", "Substitute", "households"],
         ["Region", "first wave", "responded", "households", "interviewed"]]
BODY = [["Northern Coast", "1,240", "1,118", "34", "1,152"], ["Central Plain", "2,015", "1,870", "61", "1,931"],
        ["Eastern Hills", "875", "790", "22", "812"], ["Southern Delta", "1,630", "1,507", "40", "1,547"],
        ["Western Uplands", "940", "861", "19", "880"], ["Capital District", "3,210", "2,948", "88", "3,036"]]


def _report_table(path) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, y, "Table B-1. Households surveyed and interviewed, by region: 2019")
    y -= 14
    c.setFont("Helvetica", 8)
    for line in HEADS:
        y -= 9
        for k, text in enumerate(line):
            if k == 0:
                c.drawString(EDGES[0] + 2, y, text)
            else:
                c.drawRightString(EDGES[k + 1] - 4, y, text)
    y -= 3
    c.rect(EDGES[0], y - 0.75, EDGES[-1] - EDGES[0], 1.5, stroke=0, fill=1)  # the head rule, the only one
    pitch = 11.0
    for r, row in enumerate(BODY):
        if r > 0:  # the body's cells from the second row on, each edged by column rules
            c.setFillGray(0.92 if r % 2 else 1.0)
            c.rect(EDGES[0], y - pitch, EDGES[-1] - EDGES[0], pitch, stroke=0, fill=1)
            c.setFillGray(1.0)
            for x in EDGES[2:]:
                c.rect(x - 1, y - pitch, 2, pitch, stroke=0, fill=1)
            c.setFillGray(0.0)
        c.setFont("Helvetica", 8)
        c.drawString(EDGES[0] + 2, y - 8, row[0])
        for b, text in zip(EDGES[2:], row[1:], strict=True):
            c.drawRightString(b - 4, y - 8, text)
        y -= pitch
    c.setFont("Helvetica", 7)
    c.drawString(72, y - 12, "See notes at end of table.")
    _prose(c, y - 40, 3)
    c.showPage()
    c.save()


def test_a_head_rule_over_the_first_row_starts_the_table_and_its_four_line_head_is_the_tables(tmp_path):
    """The rule across the columns one row above their rules' start, one line of cells between, is the
    table's head rule (``table_head_rule``); the head's four lines above it are the table's head
    (``tables._rows_above`` took two lines at most: the heads were cut to their last two lines)."""
    path = tmp_path / "report.pdf"
    _report_table(path)
    markdown = _convert(path)
    heads = [" ".join(line[k] for line in HEADS if line[k]) for k in range(len(HEADS[0]))]
    tables = parse_tables(markdown)  # (the note under it, "See notes at end of table.", is read as a last row: not asserted)
    assert len(tables) == 1 and tables[0][:len(BODY) + 1] == [heads, *BODY], markdown
    tests = [{"id": "first", "type": "table", "cell": "Northern Coast", "right": "1,240", "down": "Central Plain",
              "top_heading": "Region"},
             {"id": "head", "type": "table", "cell": "1,118", "down": "1,870",
              "top_heading": "Households in original sample that responded"},
             {"id": "last", "type": "table", "cell": "3,036", "up": "880", "top_heading": "Responding households interviewed"}]
    verdicts = judge(markdown, tests)
    assert all(verdicts.values()), (verdicts, markdown)
