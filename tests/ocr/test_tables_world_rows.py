"""Rows of tables as word processors and spreadsheets draw them (issue 36 items 3, 6: the real-world table
set, benchmarks/fulltext_tables_world, ICDAR 2013's government reports): a grid that rules every row,
whose head cells and row labels wrap over two lines inside their ruled row. Drawn here with reportlab's
canvas as Word and Excel export such a table (each cell's borders drawn by the cell), read by the text
layer through ``convert_pdf``; truth by hand from the drawn cells, judged with olmOCR-Bench's own test
classes."""
from __future__ import annotations

import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from benchmarks.fulltext_real.olmocr_judge import judge
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from tests.ocr.test_tables_world import _convert, _prose

WIDTHS = [130.0, 90.0, 90.0, 90.0]
LINE = 11.0  # a cell's line pitch (9 pt type)
PAD = 4.0


def _grid(c: canvas.Canvas, top: float, rows: list[list[list[str]]], ruled: list[bool], whole: int = 99,
          middle: bool = False, widths: list[float] = WIDTHS) -> float:
    """``rows`` of cells, each cell its lines, in a grid walled at every column edge; a rule over
    row k where ``ruled[k]`` (and under the last). Each cell's borders drawn by the cell itself, the
    rules from the ``whole``-th on drawn as one line across (Word draws both); ``middle``: each cell's lines
    centred on its row's height (Excel's vertical centring), else from its top. Returns the grid's bottom."""
    edges = [72.0]
    for w in widths:
        edges.append(edges[-1] + w)
    y = top
    c.setLineWidth(0.6)
    tops = []
    for k, row in enumerate(rows):
        height = max(len(cell) for cell in row) * LINE + 2 * PAD
        tops.append((y, ruled[k]))
        c.setFont("Helvetica-Bold" if k == 0 else "Helvetica", 9)
        for j in range(max(len(cell) for cell in row)):  # line by line across the row, as Word writes it
            for x, cell in zip(edges, row, strict=False):
                drop = (max(len(other) for other in row) - len(cell)) * LINE / 2 if middle else 0.0
                if j < len(cell):
                    c.drawString(x + 4, y - PAD - 8 - j * LINE - drop, cell[j])
        y -= height
    tops.append((y, True))
    for k, (yy, rule) in enumerate(tops):
        if rule and k >= whole:
            c.line(edges[0], yy, edges[-1], yy)
        elif rule:
            for a, b in zip(edges, edges[1:], strict=False):
                c.line(a, yy, b, yy)
    for x in edges:
        for (y0, _), (y1, _) in zip(tops, tops[1:], strict=False):
            c.line(x, y0, x, y1)
    return y


HEAD = [["Cost Category"], ["Total Costs", "All Funds"], ["Indirect", "Costs"], ["Federal", "Program"]]
BODY = [[["Salaries"], ["1,314,000"], ["373,250"], ["141,000"]],
        [["Consultant Services for", "the field offices"], ["26,000"], ["14,000"], ["1,800"]],
        [["Office Rent"], ["170,000"], ["20,000"], ["22,500"]],
        [["Telephone"], ["109,400"], ["55,000"], ["8,200"]],
        [["Printing and", "Reproduction"], ["48,000"], ["11,000"], ["5,500"]],
        [["Postage"], ["28,800"], ["8,800"], ["3,000"]]]


TALL = [["Cost", "Category"], ["Total Costs", "All Funds"], ["Less:", "Exclusions &", "Unallowables"], ["Federal", "Program"]]
BODY_ONE = [[["Salaries"], ["1,314,000"], [""], ["141,000"]], [["Staff Travel"], ["94,000"], [""], ["11,100"]],
            [["Bad Debts"], ["10,000"], ["10,000 (1)"], [""]], [["Office Rent"], ["170,000"], [""], ["22,500"]],
            [["Telephone"], ["109,400"], [""], ["8,200"]]]


ITEMS = [[["Books and", "school supplies"], ["Books can be expensive. School supplies can include book bags,",
                                           "notebooks, pens, pencils, paper and folders. The national average",
                                           "cost for textbooks at public colleges was $1,122."]],
         [["Equipment and", "room materials"], ["Equipment may include a computer and a printer. Room materials",
                                                "may include reading lamps, sheets and towels."]],
         [["Travel and", "other expenses"], ["If you live on campus, you will need to travel during the breaks.",
                                             "Other expenses can include clothing and a phone."]]]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("rows")
    out = {}
    # every row ruled, heads and two labels wrapped over two lines inside their rows
    wrapped = folder / "wrapped.pdf"
    c = canvas.Canvas(str(wrapped), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    y = _grid(c, y, [HEAD, *BODY], [True] * (1 + len(BODY)))
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    # guard: a walled grid whose body rows have no rule between them (a rule under the head only):
    # each line of the body is a row of its own
    banded = folder / "banded.pdf"
    c = canvas.Canvas(str(banded), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    one_line = [[["Salaries"], ["1,314,000"], ["373,250"], ["141,000"]], [["Office Rent"], ["170,000"], ["20,000"], ["22,500"]],
                [["Telephone"], ["109,400"], ["55,000"], ["8,200"]], [["Postage"], ["28,800"], ["8,800"], ["3,000"]]]
    y = _grid(c, y, [HEAD, *one_line], [True, True, False, False, False])
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    # guard: a second header row with a rule of its own over it (units under the heads) stays a row
    units = folder / "units.pdf"
    c = canvas.Canvas(str(units), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    heads = [["Country"], ["Domestic"], ["Imported"], ["Total"]]
    second = [[""], ["(%)"], ["(%)"], ["(n)"]]
    data = [[["Austria"], ["86.2"], ["13.8"], ["3,375"]], [["Belgium"], ["40.5"], ["59.5"], ["3,973"]],
            [["Bulgaria"], ["71.0"], ["29.0"], ["1,136"]], [["Cyprus"], ["81.0"], ["19.0"], ["158"]]]
    y = _grid(c, y, [heads, second, *data], [True] * 6)
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    # every head wrapped, one over three lines, every row ruled, the label column's cells one line each
    tall = folder / "tall.pdf"
    c = canvas.Canvas(str(tall), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    y = _grid(c, y, [TALL, *[[cell, *rest] for cell, *rest in BODY_ONE]], [True] * (1 + len(BODY_ONE)), whole=2, middle=True)
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    # a table of text: every row ruled, every row wrapped (the item over two lines, its description
    # over two to four), each cell padded under and over its rules
    text = folder / "text.pdf"
    c = canvas.Canvas(str(text), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    y = _grid(c, y, [[["Item"], ["Description"]], *ITEMS], [True] * (1 + len(ITEMS)), widths=[110.0, 300.0])
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    for path in (wrapped, banded, units, tall, text):
        out[path.stem] = _convert(path)
    return out


def test_cells_wrapped_inside_a_ruled_row_are_one_row(drawn):
    """Before: each head's second line ("All Funds", "Costs", "Program") was a second header row, so
    olmOCR's column heads were "Total Costs" without "All Funds"; a label's second line ("the field
    offices") was a row of its own, empty but for it."""
    markdown = drawn["wrapped"]
    heads = [" ".join(cell) for cell in HEAD]
    assert parse_tables(markdown) == [[heads, *[[" ".join(cell) for cell in row] for row in BODY]]], markdown
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "373,250", "top_heading": "Indirect Costs", "left": "1,314,000"},
        {"id": "b", "type": "table", "cell": "Consultant Services for the field offices", "right": "26,000",
         "up": "Salaries", "down": "Office Rent", "top_heading": "Cost Category"},
        {"id": "c", "type": "table", "cell": "48,000", "top_heading": "Total Costs All Funds",
         "left": "Printing and Reproduction"},
        {"id": "d", "type": "table", "cell": "Federal Program", "left": "Indirect Costs", "down": "141,000"}])
    assert all(verdicts.values()), (verdicts, markdown)


def test_body_lines_of_a_grid_with_no_rule_between_them_stay_rows(drawn):
    """Guard: a grid walled by column rules whose body has no rule between its rows (one under the
    head, one under the body) is no grid that rules each row: every body line is a row. Its head, set
    between two rules with every wall running through its lines, is one row of wrapped heads (before:
    "Federal" and "Program" were two header rows, the lines written across the row as Word writes them)."""
    markdown = drawn["banded"]
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "170,000", "up": "1,314,000", "down": "109,400", "left": "Office Rent"},
        {"id": "b", "type": "table", "cell": "Postage", "up": "Telephone", "right": "28,800"},
        {"id": "c", "type": "table", "cell": "8,200", "top_heading": "Federal Program"}])
    assert all(verdicts.values()), (verdicts, markdown)


def test_a_second_header_row_with_a_rule_over_it_stays_a_row(drawn):
    """Guard: units set in a header row of their own, a rule between it and the heads, are that row."""
    markdown = drawn["units"]
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "Domestic", "down": "(%)", "right": "Imported"},
        {"id": "b", "type": "table", "cell": "3,375", "left": "13.8", "up": "(n)", "down": "3,973"}])
    assert all(verdicts.values()), (verdicts, markdown)


STATES = [["Region and state", "2003-04", "2004-05", "2005-06", "2006-07"],
          ["United States", "2,753,438", "2,799,250", "2,815,544", "2,893,045"],
          ["Northeast", "485,670", "503,528", "521,015", "536,697"],
          ["Connecticut", "34,573", "35,515", "36,222", "37,541"],
          ["District of Columbia", "3,031", "2,781", "3,150", "2,944"],
          ["Maine", "13,278", "13,077", "12,950", "13,151"],
          ["Vermont", "7,100", "7,152", "6,779", "7,317"]]
NOTE = "See notes at end of table."


@pytest.fixture(scope="module")
def bridged(tmp_path_factory) -> str:
    """A report writer's table: labels flush left, numbers flush right in their columns, rules over and
    under the head and under the body, and a note set in the table's last row from the label column
    on, reaching into the first column of numbers (its gutter 8 pt: the note is wider than the labels)."""
    path = tmp_path_factory.mktemp("bridged") / "bridged.pdf"
    c = canvas.Canvas(str(path), pagesize=LETTER)
    y = _prose(c, 720, 3) - 14
    rights = [None, 210.0, 270.0, 330.0, 390.0]
    c.setLineWidth(0.6)
    c.line(72, y + 10, 390, y + 10)
    for k, row in enumerate(STATES):
        c.setFont("Helvetica-Bold" if k == 0 else "Helvetica", 9)
        c.drawString(72, y, row[0])
        for x, text in zip(rights[1:], row[1:], strict=True):
            c.drawRightString(x, y, text)
        if k == 0:
            c.line(72, y - 4, 390, y - 4)
        y -= 13
    c.setFont("Helvetica", 9)
    c.drawString(72, y, NOTE)
    c.line(72, y - 4, 390, y - 4)
    _prose(c, y - 30, 3)
    c.showPage()
    c.save()
    return _convert(path)


def test_a_note_across_the_gutter_of_the_label_column_joins_no_columns(bridged):
    """Before: the note, wider than any label, reached into the first column of numbers, and the columns
    (the union of their cells) became one: "United States 2,753,438" was one cell, the heads one column
    on from their numbers."""
    markdown = bridged
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "United States", "right": "2,753,438", "down": "Northeast"},
        {"id": "b", "type": "table", "cell": "3,031", "left": "District of Columbia", "right": "2,781",
         "top_heading": "2003-04"},
        {"id": "c", "type": "table", "cell": "Vermont", "up": "Maine", "right": "7,100"},
        {"id": "d", "type": "table", "cell": "536,697", "up": "2,893,045", "top_heading": "2006-07"}])
    assert all(verdicts.values()), (verdicts, markdown)
    assert NOTE in markdown, markdown


def test_heads_wrapped_over_two_and_three_lines_in_a_ruled_row_are_one_row(drawn):
    """Before: the lines of the head row, every column's head wrapped (one over three lines), the rule
    over them a cell's padding above the first, were rows of their own: "Total Costs" without "All
    Funds" was the column's head (the rule under the head drawn cell by cell, the next one across: the
    first body row was taken into the header too)."""
    markdown = drawn["tall"]
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "1,314,000", "top_heading": "Total Costs All Funds", "left": "Salaries"},
        {"id": "b", "type": "table", "cell": "10,000 (1)", "top_heading": "Less: Exclusions & Unallowables",
         "left": "10,000"},
        {"id": "c", "type": "table", "cell": "Telephone", "top_heading": "Cost Category", "up": "Office Rent"},
        {"id": "d", "type": "table", "cell": "Federal Program", "down": "141,000"}])
    assert all(verdicts.values()), (verdicts, markdown)


def test_a_table_of_text_every_row_wrapped_and_ruled_reads_row_by_row(drawn):
    """Before: no row was one line, so nothing said the grid ruled its rows one by one: each line was a
    row ("Books and" beside the description's first line, "school supplies" beside its second). Lines a
    rule parts are set a cell's padding further apart than a cell's own lines."""
    markdown = drawn["text"]
    cells = [[" ".join(cell) for cell in row] for row in ITEMS]
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": cells[0][0], "right": cells[0][1], "down": cells[1][0],
         "top_heading": "Item"},
        {"id": "b", "type": "table", "cell": cells[1][1], "left": cells[1][0], "up": cells[0][1],
         "top_heading": "Description"},
        {"id": "c", "type": "table", "cell": cells[2][0], "up": cells[1][0], "right": cells[2][1]}])
    assert all(verdicts.values()), (verdicts, markdown)


def test_a_heading_across_two_gutters_joins_no_columns(tmp_path):
    """A section's heading set in the table's last row, centred, reaching from the label column over the
    first two columns of numbers (eu-001's "Chlorinated organic substances"): the three were one column
    and "Austria 86.2 13.8" one cell (no rule under the heads: they are rows as the body's are, and the
    heading reaches the head "Imported"). Before: a column was cut once only, at one of the two gutters."""
    path = tmp_path / "heading.pdf"
    c = canvas.Canvas(str(path), pagesize=LETTER)
    y = _prose(c, 720, 3) - 14
    centres = [None, 250.0, 320.0, 390.0]
    rows = [["Country", "Domestic", "Imported", "Total"], ["Austria", "86.2", "13.8", "3,375"],
            ["Belgium", "40.5", "59.5", "3,973"], ["Bosnia and Herzegovina Federation", "71.0", "29.0", "1,136"],
            ["Cyprus", "81.0", "19.0", "158"]]
    c.setLineWidth(0.6)
    c.line(72, y + 10, 420, y + 10)
    for k, row in enumerate(rows):
        c.setFont("Helvetica-Bold" if k == 0 else "Helvetica", 9)
        c.drawString(76, y, row[0])
        for x, text in zip(centres[1:], row[1:], strict=True):
            c.drawCentredString(x, y, text)
        y -= 13
    c.setFont("Helvetica-Bold", 10)
    c.drawRightString(308, y - 8, "Chlorinated substances")  # from the longest label's end to the head "Imported"
    c.line(72, y - 14, 420, y - 14)
    _prose(c, y - 30, 3)
    c.showPage()
    c.save()
    markdown = _convert(path)
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "Austria", "right": "86.2", "down": "Belgium"},
        {"id": "b", "type": "table", "cell": "13.8", "left": "86.2", "top_heading": "Imported", "down": "59.5"},
        {"id": "c", "type": "table", "cell": "Cyprus", "up": "Bosnia and Herzegovina Federation", "right": "81.0"}])
    assert all(verdicts.values()), (verdicts, markdown)
