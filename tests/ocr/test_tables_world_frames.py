"""Grids as report writers lay them out on a page (issue 36 items 3, 6: the real-world table set,
benchmarks/fulltext_tables_world, ICDAR 2013's government reports): grids of one width stacked, each
under its own heading; a walled cell holding a justified paragraph whose words are placed one by one;
a grid framed by two rules across the page (a guard). Drawn here with reportlab's canvas, read by the text layer
through ``convert_pdf``; truth by hand from the drawn cells, judged with olmOCR-Bench's own test
classes."""
from __future__ import annotations

import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from benchmarks.fulltext_real.olmocr_judge import judge
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.test_tables_world import ROWS, _convert, _prose, _walled_grid

EDGES = [72.0, 182.0, 272.0, 362.0, 442.0]
OTHER = [["Item", "Before", "After"], ["Reclassified to loans", "27", "16"], ["Reclassified to sale", "23", "15"],
         ["Total", "50", "31"]]


def _three_columns(c: canvas.Canvas, top: float, rows: list[list[str]]) -> float:
    """``rows`` in a walled grid of three columns as wide as EDGES' grid (its walls elsewhere)."""
    edges = [EDGES[0], 262.0, 352.0, EDGES[-1]]
    y = top
    c.setFont("Helvetica", 9)
    for row in rows:
        for x, text in zip(edges, row, strict=False):
            c.drawString(x + 4, y - 11, text)
        y -= 16
    for k in range(len(rows) + 1):
        c.line(edges[0], top - 16 * k, edges[-1], top - 16 * k)
    for x in edges:
        c.line(x, top, x, y)
    return y


JUSTIFIED = [(["Number of member states in", "the analysis"], ["21", "8", "29"]),
             (["Number of member states", "where one or more of the", "companies applied it"], ["11", "3", "14"]),
             (["Number of companies that", "applied the amendment"], ["52", "14", "66"])]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("frames")
    out = {}
    # two grids of one width stacked, a heading between them and no rule across the white there
    stacked = folder / "stacked.pdf"
    c = canvas.Canvas(str(stacked), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, y - 10, "Cases by country")
    y = _walled_grid(c, y - 18, EDGES, 16.0)
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, y - 16, "Reclassifications by category")
    y = _three_columns(c, y - 24, OTHER)
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    # a grid between two rules across the page, wider than it, a heading and a note inside them
    framed = folder / "framed.pdf"
    c = canvas.Canvas(str(framed), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    c.setLineWidth(0.5)
    c.line(50, y, 562, y)
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, y - 14, "Pesticides")
    y = _walled_grid(c, y - 40, EDGES, 16.0)
    c.setFont("Helvetica", 8)
    c.drawString(72, y - 16, "Thresholds are given in kilograms a year.")
    c.drawString(72, y - 26, "Releases under a threshold need not be reported by the operator of a facility.")
    c.line(50, y - 36, 562, y - 36)
    _prose(c, y - 56, 3)
    c.showPage()
    c.save()
    # a walled grid whose label cells are justified paragraphs, each word placed by itself
    justified = folder / "justified.pdf"
    c = canvas.Canvas(str(justified), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    edges, top = [72.0, 232.0, 322.0, 412.0, 492.0], y
    c.setFont("Helvetica", 9)
    for label, values in JUSTIFIED:
        for j, line in enumerate(label):
            words = line.split()
            if j < len(label) - 1 and len(words) > 1:  # justified: the words spread to the cell's width
                room = edges[1] - edges[0] - 8 - sum(c.stringWidth(w, "Helvetica", 9) for w in words)
                x = edges[0] + 4
                for w in words:
                    c.drawString(x, y - 11 - 11 * j, w)
                    x += c.stringWidth(w, "Helvetica", 9) + room / (len(words) - 1)
            else:
                c.drawString(edges[0] + 4, y - 11 - 11 * j, line)
        for x, text in zip(edges[1:-1], values, strict=True):
            c.drawString(x + 4, y - 11, text)
        y -= 11 * len(label) + 6
        c.line(edges[0], y, edges[-1], y)
    c.line(edges[0], top, edges[-1], top)
    for x in edges:
        c.line(x, top, x, y)
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    for path in (stacked, framed, justified):
        out[path.stem] = _convert(path)
    return out


def test_grids_of_one_width_stacked_under_their_headings_are_two_tables(drawn):
    """Before: the rules of both grids, of one extent, were one table's, the white between them (no
    wall across it) and the heading in it a row: one table of the columns of both."""
    markdown = drawn["stacked"]
    assert parse_tables(markdown) == [ROWS, OTHER], markdown
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "59.5", "left": "40.5", "top_heading": "Imported (%)"},
        {"id": "b", "type": "table", "cell": "16", "left": "27", "top_heading": "After", "down": "15"},
        {"id": "heading", "type": "present", "text": "Reclassifications by category"}])
    assert all(verdicts.values()), (verdicts, markdown)


def test_a_grid_between_two_rules_across_the_page_is_read_by_its_own_rules(drawn):
    """Guard: two rules across the page, over a heading and under the notes, around a walled grid narrower
    than they are: the grid is read with its columns, the heading and the notes stay text by it."""
    markdown = drawn["framed"]
    assert parse_tables(markdown) == [ROWS], markdown
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "86.2", "left": "Austria", "top_heading": "Domestic (%)"},
        {"id": "heading", "type": "present", "text": "Pesticides"},
        {"id": "note", "type": "present", "text": "Thresholds are given in kilograms a year."}])
    assert all(verdicts.values()), (verdicts, markdown)


def test_a_justified_paragraph_in_a_walled_cell_is_one_cell(drawn):
    """Before: the words of the label cells, placed one by one with stretched spaces between them, made
    columns of their own between the grid's first two walls ("Number" | "of" | "member" | "states")."""
    markdown = drawn["justified"]
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "Number of member states in the analysis", "right": "21",
         "down": "Number of member states where one or more of the companies applied it"},
        {"id": "b", "type": "table", "cell": "14", "left": "3", "up": "29", "down": "66"}])
    assert all(verdicts.values()), (verdicts, markdown)
