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
    y = _walled_grid(c, y - 24, [EDGES[0], 262.0, 352.0, EDGES[-1]], 16.0, OTHER)  # (its walls elsewhere)
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


def test_cell_borders_stopping_short_of_the_walls_in_their_gaps_are_one_grid(tmp_path):
    """A word processor's grid (eu-024): each cell's top and bottom borders stop 1.5 pt short of the next
    cell's, the wall between them drawn in that gap. Before: every rule line parted at the same gaps, which
    tells two tables side by side (booktabs subtables), so each column was a table of its own."""
    path = tmp_path / "gapped.pdf"
    c = canvas.Canvas(str(path), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    top, height = y, 15.0
    for k, row in enumerate(ROWS):
        c.setFont("Helvetica-Bold" if k == 0 else "Helvetica", 9)
        for x, text in zip(EDGES, row, strict=False):
            c.drawString(x + 4, y - height + 4, text)
        y -= height
    for k in range(len(ROWS) + 1):
        yy = top - k * height
        for a, b in zip(EDGES, EDGES[1:], strict=False):
            c.rect(a + 0.75, yy - 0.7, b - a - 1.5, 1.4, stroke=0, fill=1)  # the cell's own border
    for x in EDGES:
        c.rect(x - 0.7, y, 1.4, top - y, stroke=0, fill=1)  # the walls, in the borders' gaps
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    markdown = _convert(path)
    assert parse_tables(markdown) == [ROWS], markdown
    verdicts = judge(markdown, [{"id": "a", "type": "table", "cell": "59.5", "left": "40.5", "top_heading": "Imported (%)"}])
    assert all(verdicts.values()), (verdicts, markdown)


CLUSTERS = [["Faculty cluster", "Population size", "Sample size"], ["Sciences", "1269 (19.9%)", "101 (20.4%)"],
            ["Social Sciences", "3212 (50.6%)", "247 (50.0%)"], ["Humanities", "1168 (18.4%)", "95 (19.3%)"],
            ["Civil Sciences", "705 (11.1%)", "51 (10.3%)"]]


def test_a_caption_set_inside_the_tables_rules_is_text_by_it(tmp_path):
    """Before: a word processor's caption set as the table's first row, inside its top rule ("Table 2.2:
    Number of ...", one cell across every column), was the table's head row: olmOCR took it for every
    column's heading."""
    path = tmp_path / "caption.pdf"
    c = canvas.Canvas(str(path), pagesize=LETTER)
    y = _prose(c, 720, 3) - 10
    c.setLineWidth(0.8)
    c.line(100, y, 460, y)
    c.setFont("Helvetica-Bold", 10)
    c.drawCentredString(280, y - 13, "Table 2.2: Number of students categorized by faculty cluster")
    y -= 20
    c.line(100, y, 460, y)
    for k, row in enumerate(CLUSTERS):
        c.setFont("Helvetica-Bold" if k == 0 else "Helvetica", 10)
        for x, text in zip((104.0, 244.0, 364.0), row, strict=True):
            c.drawString(x, y - 13, text)
        y -= 18
        if k == 0:
            c.line(100, y, 460, y)
    c.line(100, y, 460, y)
    _prose(c, y - 24, 3)
    c.showPage()
    c.save()
    markdown = _convert(path)
    assert parse_tables(markdown) == [CLUSTERS], markdown
    verdicts = judge(markdown, [
        {"id": "a", "type": "table", "cell": "1168 (18.4%)", "top_heading": "Population size", "right": "95 (19.3%)"},
        {"id": "caption", "type": "present", "text": "Table 2.2: Number of students categorized by faculty cluster"}])
    assert all(verdicts.values()), (verdicts, markdown)


def test_a_booktabs_table_over_a_walled_grid_keeps_its_head_and_body(tmp_path):
    """A booktabs table over a walled grid of the same width (the real set's dev paper distildoc:
    two results tables of one width on one page): their rules are one rule group, and the grid's
    walls do not run through the booktabs table's stretches, as they run through no stretch between
    two stacked grids (b5da402, eu-003). Only a stretch with walled rows on both sides is the white
    between two grids; the booktabs table lost its head and body rows to that rule, and the grid
    below, whose ``\\multicolumn`` heads draw no walls, its head."""
    from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test
    prose = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"
    markdown = table_markdown(tmp_path, prose + r"""
\begin{table}[h]\centering
\begin{tabular*}{9cm}{@{\extracolsep{\fill}}lrr}
\toprule
Teacher & Student & mAP \\ \midrule
Vit-B & ViT-T & 36.01 \\
Resnet-101 & Resnet-50 & 38.34 \\
\bottomrule
\end{tabular*}

\vspace{2cm}

\begin{tabular*}{9cm}{@{\extracolsep{\fill}}|l|r|r|}
\hline
\multicolumn{1}{c}{Method} & \multicolumn{1}{c}{ACC} & \multicolumn{1}{c}{AURC} \\
\hline
Teacher & 0.611 & 0.152 \\
\hline
FitNet & 0.534 & 0.246 \\
\hline
\end{tabular*}
\end{table}

""" + prose, packages="booktabs,times")
    assert_table_tests_pass(markdown, [
        table_test("38.34", up="36.01", top_heading="mAP", left_heading="Resnet-101"),
        table_test("0.246", up="0.152", top_heading="AURC", left_heading="FitNet")])
