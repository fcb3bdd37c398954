"""A table that rules each of its rows and draws no column rules (issue 36 items 3, 6; tables12rw):
tabula-java's AnimalSounds.pdf on the hand-truth set realtables_dev.yaml, a LibreOffice Writer table
with horizontal borders only, whose long cells wrap ("Ring-" over "dingdingding..." three lines). Each
wrapped line was a row of its own with one cell. Drawn here with reportlab's canvas as such a table is
printed, read by the text layer through ``convert_pdf``; truth by hand from the drawn cells, judged with
olmOCR-Bench's own test classes."""
from __future__ import annotations

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from benchmarks.fulltext_real.olmocr_judge import judge
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.test_tables_world import _convert, _prose

LEFT, RIGHT, XS = 72.0, 540.0, [76.0, 236.0, 330.0]
HEAD = ["Instrument", "Owner", "Maintenance notes"]
ROWS = [[["Spectrometer"], ["Lab 2"], ["calibrated weekly"]],
        [["Thermal cycler"], ["Lab 4"], ["lid heater replaced in", "March; gaskets checked", "every quarter"]],
        [["Centrifuge"], ["Core"], ["rotor inspection"]],
        [["Fume cupboard with", "carbon filter"], ["Lab 1"], ["airflow logged daily"]]]


def _bordered(path, ruled: bool = True) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER)
    y = _prose(c, 720, 3) - 14
    c.setLineWidth(0.6)
    c.setFont("Helvetica-Bold", 10)
    for x, text in zip(XS, HEAD, strict=True):
        c.drawString(x, y - 12, text)
    y -= 18
    c.line(LEFT, y, RIGHT, y)
    c.setFont("Helvetica", 10)
    for row in ROWS:
        lines = max(len(cell) for cell in row)
        for x, cell in zip(XS, row, strict=True):
            for k, text in enumerate(cell):
                c.drawString(x, y - 12 - 12.5 * k, text)
        y -= 6 + 12.5 * lines
        if ruled:
            c.line(LEFT, y, RIGHT, y)
    _prose(c, y - 30, 3)
    c.showPage()
    c.save()


def test_a_row_is_what_lies_between_two_of_its_rules(tmp_path):
    """Rules across the table between each of its rows, the lines under each row's first in half its
    columns at most: a row is all that lies between two rules (``table_row_rules``)."""
    path = tmp_path / "bordered.pdf"
    _bordered(path)
    markdown = _convert(path)
    body = [[" ".join(cell) for cell in row] for row in ROWS]
    assert parse_tables(markdown) == [[HEAD, *body]], markdown
    tests = [{"id": "wrapped", "type": "table", "cell": "lid heater replaced in March; gaskets checked every quarter",
              "left": "Lab 4", "up": "calibrated weekly", "down": "rotor inspection"},
             {"id": "label", "type": "table", "cell": "Fume cupboard with carbon filter", "right": "Lab 1",
              "up": "Centrifuge", "top_heading": "Instrument"}]
    verdicts = judge(markdown, tests)
    assert all(verdicts.values()), (verdicts, markdown)
