"""Tables as word processors, spreadsheets and report writers draw them (issue 36 items 3, 6: the real-world
table set, benchmarks/fulltext_tables_world, ICDAR 2013's government reports): every cell's border drawn
by itself, overlapping its neighbour's by the border's width; a grid walled by column rules, prose under
it and the page's footer rule as wide as the table. Drawn here with reportlab's canvas, read by the
text layer through ``convert_pdf``; truth by hand from the drawn cells, judged with olmOCR-Bench's own
test classes."""
from __future__ import annotations

from pathlib import Path

import pyarrow.fs as pafs
import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from benchmarks.fulltext_real.olmocr_judge import judge
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from ocr_ray.conversion import convert_pdf
from ocr_ray.engines import get_engine

ROWS = [["Country", "Domestic (%)", "Imported (%)", "Total (n)"], ["Austria", "86.2", "13.8", "3,375"],
        ["Belgium", "40.5", "59.5", "3,973"], ["Bulgaria", "71.0", "29.0", "1,136"], ["Cyprus", "81.0", "19.0", "158"]]
PROSE = ("The following paragraph of running text explains what the table above shows and how its numbers "
         "were gathered from the reports of the member states over the year.")


def _convert(path: Path) -> str:
    row = convert_pdf({"task_index": 0, "forum_id": path.stem, "pdf_path": str(path)},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
    assert row["error"] == "" and row["markdown"], row
    return row["markdown"]


def _prose(c: canvas.Canvas, y: float, lines: int) -> float:
    c.setFont("Helvetica", 10)
    for _ in range(lines):
        c.drawString(72, y, PROSE[:95])
        y -= 13
    return y


def _walled_grid(c: canvas.Canvas, top: float, edges: list[float], height: float,
                 rows: list[list[str]] = ROWS) -> float:
    """``rows`` in a grid ruled over and under each row and at each column edge; returns the grid's bottom."""
    y = top
    for row in rows:
        c.setFont("Helvetica", 9)
        for x, text in zip(edges, row, strict=False):
            c.drawString(x + 4, y - height + 5, text)
        y -= height
    c.setLineWidth(0.5)
    for k in range(len(rows) + 1):
        c.line(edges[0], top - k * height, edges[-1], top - k * height)
    for x in edges:
        c.line(x, top, x, y)
    return y


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("world")
    widths, height, border = [110, 90, 90, 80], 16.0, 1.0
    out = {}
    # each cell's top and bottom borders drawn by the cell itself, a border's width longer at each end
    # (an Excel/InDesign export), so neighbouring cells' borders overlap by 1-2 pt; no column rules
    cells = folder / "cells.pdf"
    c = canvas.Canvas(str(cells), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    for r, row in enumerate(ROWS):
        x = 72.0
        for w, text in zip(widths, row, strict=True):
            c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 9)
            c.drawString(x + 4, y - height + 5, text)
            for edge in (y, y - height):
                c.rect(x - border, edge - border / 2, w + 2 * border, border, stroke=0, fill=1)
            x += w
        y -= height
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    # a grid walled by column rules, two paragraphs under it, and the page's footer rule as wide as it
    grid = folder / "grid.pdf"
    c = canvas.Canvas(str(grid), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    top, edges = y, [72.0]
    for w in widths:
        edges.append(edges[-1] + w)
    y = _walled_grid(c, top, edges, height)
    _prose(c, y - 24, 12)
    c.line(edges[0], 60, edges[-1], 60)  # the footer's rule, as wide as the table
    c.setFont("Helvetica", 8)
    c.drawString(72, 48, "Annual report 2009")
    c.showPage()
    c.save()
    # a report's exhibit: its title and a note set inside the table's frame, across every column
    framed = folder / "framed.pdf"
    c = canvas.Canvas(str(framed), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    frame_top, edges = y, [72.0]
    for w in widths:
        edges.append(edges[-1] + w)
    c.setFont("Helvetica-Bold", 11)
    c.drawCentredString((edges[0] + edges[-1]) / 2, y - 14, "Exhibit 7")
    c.drawCentredString((edges[0] + edges[-1]) / 2, y - 28, "Cases by country and origin, 2007")
    y -= 36
    top = y
    y = _walled_grid(c, top, edges, height)
    c.setFont("Helvetica", 8)
    c.drawString(edges[0] + 4, y - 12, "Note: shares are rounded to one decimal.")
    for x0, y0, x1, y1 in ((edges[0], frame_top, edges[-1], frame_top), (edges[0], y - 20, edges[-1], y - 20),
                           (edges[0], frame_top, edges[0], y - 20), (edges[-1], frame_top, edges[-1], y - 20)):
        c.line(x0, y0, x1, y1)  # the exhibit's frame, as wide as the table
    _prose(c, y - 44, 3)
    c.showPage()
    c.save()
    for path in (cells, grid, framed):
        out[path.stem] = _convert(path)
    return out


def test_cell_by_cell_borders_overlapping_by_a_border_width_are_one_table(drawn):
    """Before: two rule segments that overlap in part were taken for two tables side by side, so
    each column was read as a table of its own (or as prose): no cell had its row's neighbour."""
    markdown = drawn["cells"]
    assert parse_tables(markdown) == [ROWS], markdown
    verdicts = judge(markdown, [{"id": "a", "type": "table", "cell": "59.5", "left": "40.5", "right": "3,973",
                                 "top_heading": "Imported (%)"},
                                {"id": "b", "type": "table", "cell": "Cyprus", "up": "Bulgaria", "right": "81.0"}])
    assert all(verdicts.values()), (verdicts, markdown)


def test_a_walled_grid_ends_at_its_last_walled_row_not_at_the_footer_rule(drawn):
    """Before: the footer's rule, as wide as the table, was one more rule line of the table's group,
    so the table's area ran down over the paragraphs under it and was read as prose: no table."""
    markdown = drawn["grid"]
    assert parse_tables(markdown) == [ROWS], markdown
    verdicts = judge(markdown, [{"id": "a", "type": "table", "cell": "29.0", "left": "71.0", "up": "59.5",
                                 "top_heading": "Imported (%)"},
                                {"id": "prose", "type": "present", "text": PROSE[:95]}])
    assert all(verdicts.values()), (verdicts, markdown)


def test_a_title_and_a_note_set_in_the_tables_frame_are_text_by_it(drawn):
    """Before: the frame around the exhibit was the table's outer rules, so "Exhibit 7" and its caption
    were the table's first rows, each one cell across every column, and olmOCR took "Exhibit 7" for
    every column's head; the note under the body was one more row."""
    markdown = drawn["framed"]
    assert parse_tables(markdown) == [ROWS], markdown
    verdicts = judge(markdown, [{"id": "a", "type": "table", "cell": "13.8", "top_heading": "Imported (%)", "down": "59.5"},
                                {"id": "title", "type": "present", "text": "Exhibit 7"},
                                {"id": "caption", "type": "present", "text": "Cases by country and origin, 2007"},
                                {"id": "note", "type": "present", "text": "Note: shares are rounded to one decimal."},
                                {"id": "order", "type": "order", "before": "Cases by country and origin, 2007",
                                 "after": "Note: shares are rounded to one decimal."}])
    assert all(verdicts.values()), (verdicts, markdown)
