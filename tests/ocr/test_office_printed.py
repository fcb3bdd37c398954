"""Documents laid out by LibreOffice Writer (7.4), not typeset by TeX (issue 36 items 3, 6: the judges'
probes include office documents, a large share of real-world PDFs). The PDFs are committed beside
their sources (tests/ocr/office/*.fodt, written by hand through tests/ocr/office/build.py, which says
how they were made; LibreOffice is no dependency: the tests read the PDFs only). Read by the text
layer through ``convert_pdf``; truth by hand from each source, judged with olmOCR-Bench's own test
classes where a class says it (present, order, absent, table), else by the markdown itself."""
from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pyarrow.fs as pafs
import pytest

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.conversion import convert_pdf
from ocr_ray.engines import get_engine

OFFICE = Path(__file__).parent / "office"


@pytest.fixture(scope="module")
def read():
    cache: dict[str, str] = {}

    def markdown(name: str) -> str:
        if name not in cache:
            row = convert_pdf({"task_index": 0, "forum_id": name, "pdf_path": str(OFFICE / f"{name}.pdf")},
                              filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
            assert row["error"] == "" and row["markdown"], row
            cache[name] = row["markdown"]
        return cache[name]
    return markdown


def _failed(markdown: str, tests: list[dict]) -> dict[str, bool]:
    return {k: v for k, v in judge(markdown, tests).items() if not v}


def test_a_word_processors_list_labels_hung_at_an_indent_stay_with_their_items(read):
    """Writer hangs a list item's text at 1.27 cm and its label ("1.", "•") at 0.635 cm: the white
    stripe between labels and texts, wider than MIN_COLUMN_GAP down the whole list, was taken for a
    column gutter, and the labels were read as a column before the items ("1. 2. 3. Approval ...
    Report ...", "• •"). The same for the footnotes at the page's foot, numbered at a hanging indent
    ("1 2 Most of them ... Subject to ...")."""
    markdown = read("notes")
    items = ["1. Approval of the minutes of the last meeting.", "2. Report of the treasurer on the accounts.",
             "3. Election of the new board members.", "• Repair the fence along the northern edge of the garden.",
             "• Buy two new benches for the rose beds.", "◦ One bench of painted iron."]
    tests = [{"id": f"item{i}", "type": "present", "text": t} for i, t in enumerate(items)]
    tests += [{"id": "order", "type": "order", "before": "One bench of painted iron.",
               "after": "Invite the school to the harvest day."},
              {"id": "box", "type": "present", "text": "Note from the board: the garden stays closed on public holidays."}]
    assert not _failed(markdown, tests), markdown
    assert "[^1]: Most of them were oaks and limes from the town nursery." in markdown, markdown
    assert "[^2]: Subject to the approval of the town council in September." in markdown, markdown


def test_a_sentence_set_large_and_bold_over_two_lines_is_one_paragraph(read):
    """A body paragraph in 16 pt bold, two lines: Writer's line boxes (Liberation Serif's ascent and
    descent) overlap by 2.5 pt, so the second line was no continuation of the first's run of type
    and the first line alone became a heading, the sentence cut in two. Writer's heading styles stay
    headings."""
    markdown = read("headings")
    sentence = "This sentence is set large and bold in the body but it is only a sentence of the text that runs on."
    assert not _failed(markdown, [{"id": "s", "type": "present", "text": sentence}]), markdown
    assert f"\n\n{sentence}\n\n" in markdown, markdown
    for heading in ("# Introduction", "## Methods of the survey", "## Results"):
        assert f"\n{heading}\n" in f"\n{markdown}\n", (heading, markdown)


def test_libreoffice_math_formulas_read_as_laid_out(read):
    """LibreOffice Math draws a fraction's bar 1.5-2.1 pt past its glyphs (a sixth of an em at its 12 pt,
    scaled with the object's frame): the bar fell outside the formula's reach (2 pt), and numerator
    and denominator were read as a matrix. Limits of the integral and the scripts as printed."""
    markdown = read("maths")
    displays = [b.split("\n")[1] for b in markdown.split("\n\n") if b.startswith("$$")]
    assert displays[:2] == [r"\int\limits_{a}^{b}f(x)dx=F(b)-F(a)", "y=x^{2}+x_{i}^{3}"], markdown
    assert r"\frac{a+b}{2c}" in displays, markdown
    assert "In the text the sum α+β of the two angles is written inline" in markdown, markdown


def test_a_word_processors_table_with_borders_takes_its_columns_from_its_walls(read):
    """Writer sets a table's cells at equal widths, heads flush left and numbers flush right, every
    cell walled by its borders: no white gap told a head over a number one column ("MMLU" over the
    empty column left of "61.2"), and "HumanEval", filling its cell, stood closer to "ARC" than any
    gutter ("HumanEval ARC" one cell). The walls say the columns. A head wrapped in its cell stays
    one cell; a unit row stays a row."""
    from benchmarks.fulltext_real.olmocr_judge import tables

    markdown = read("table_ruled")
    heads = ["Model", "MMLU", "GSM8K", "HumanEval", "ARC", "HellaSwag", "TruthfulQA", "Winogrande", "DROP"]
    assert tables(markdown) == [
        [heads, ["Baseline", "61.2", "45.3", "30.1", "77.9", "80.4", "41.7", "74.2", "55.0"],
         ["Ours", "64.8", "52.6", "33.4", "80.2", "82.9", "44.1", "76.5", "58.3"],
         ["Ours+RL", "66.1", "55.0", "35.2", "81.0", "83.3", "46.8", "77.0", "60.9"]],
        [["Dataset", "Latency", "Memory", "Accuracy"], ["", "ms", "GB", "%"], ["ImageNet", "12.4", "3.1", "76.5"],
         ["COCO", "20.7", "4.8", "41.2"]],
        [["Dataset used for the evaluation of every model", "Latency", "Memory", "Accuracy"],
         ["ImageNet", "12.4", "3.1", "76.5"], ["COCO", "20.7", "4.8", "41.2"]]], markdown
    tests = [{"id": "arc", "type": "table", "cell": "33.4", "top_heading": "HumanEval", "left": "52.6", "right": "80.2"},
             {"id": "mmlu", "type": "table", "cell": "64.8", "top_heading": "MMLU", "left_heading": "Ours"},
             {"id": "ms", "type": "table", "cell": "ms", "up": "Latency", "down": "12.4"},
             {"id": "wrapped", "type": "table", "cell": "Dataset used for the evaluation of every model",
              "right": "Latency"}]
    assert not _failed(markdown, tests), markdown


def test_a_word_processors_table_without_borders_keeps_a_head_flush_left_over_numbers_flush_right(read):
    """Writer sets a table without borders as it sets one with: heads flush left in their cells,
    numbers flush right. With no wall to say where a column is, the head ("Stores", "Revenue") and the
    numbers under it share no x, and each was a column of its own: every row read a blank cell between
    its numbers ("| North East |  | 14 |  | 2,481.3 |"). Two neighbouring columns whose texts never
    share a row, one's all above the other's, are one column (``table_head_columns``; report_tables.fodt,
    Table 1, truth from its source)."""
    from benchmarks.fulltext_real.olmocr_judge import tables

    markdown = read("report_tables")
    assert [["Region", "Stores", "Revenue", "Margin (%)", "Staff"],
            ["North East", "14", "2,481.3", "12.4", "316"], ["North West", "9", "1,902.7", "10.9", "204"],
            ["Midlands", "21", "3,377.0", "13.8", "455"], ["South East", "17", "2,950.2", "11.1", "389"],
            ["South West", "6", "874.5", "9.7", "121"], ["Total", "67", "11,585.7", "11.8", "1,485"]] in tables(markdown), \
        markdown
    tests = [{"id": "stores", "type": "table", "cell": "14", "top_heading": "Stores", "left": "North East", "right": "2,481.3"},
             {"id": "margin", "type": "table", "cell": "13.8", "top_heading": "Margin (%)", "up": "10.9", "right": "455"},
             {"id": "total", "type": "table", "cell": "11,585.7", "left": "67", "up": "874.5", "top_heading": "Revenue"}]
    assert not _failed(markdown, tests), markdown

def test_a_word_processors_table_with_a_head_band_of_colour_keeps_its_head(read):
    """Writer's table without borders whose head row is filled dark (white bold heads) and whose body
    rows are shaded in turn (report_tables.fodt, Table 2): the head row stands 1.4 body line heights
    over the first row, past the caption's run (ROW_GAP 0.9), and was read as a line of text above a
    table of the body alone. A first line of heads, each over a cell of the row under it, keeps that
    row at up to twice the gap (``table_unruled._heads_over``; chromium's padded <th>, the same)."""
    from benchmarks.fulltext_real.olmocr_judge import tables

    markdown = read("report_tables")
    assert [["Vehicle", "Fuel", "Distance (km)", "Cost per km", "Trips"], ["Van 1", "Diesel", "41,230", "0.38", "512"],
            ["Van 2", "Electric", "35,904", "0.21", "487"], ["Truck A", "Diesel", "88,117", "0.64", "233"],
            ["Truck B", "Diesel", "79,560", "0.61", "219"], ["Car 3", "Petrol", "22,418", "0.29", "640"],
            ["Car 4", "Hybrid", "19,877", "0.24", "602"]] in tables(markdown), markdown
    tests = [{"id": "fuel", "type": "table", "cell": "Electric", "top_heading": "Fuel", "up": "Diesel", "right": "35,904"}]
    assert not _failed(markdown, tests), markdown

def test_a_spreadsheets_tight_numeric_columns_without_rules_are_a_table(read):
    """Calc prints a sheet of twelve monthly columns 1.25 cm wide: the numbers stand 3 pt apart, under
    pdftext's cut, so each row of numbers was one fragment as wide as a line of prose, the block no
    table, and the page was read as the row labels' column, then every number as a paragraph
    (monthly.fods, Calc's own PDF export; no rule, no caption). A run of numbers alone keeps its
    word spaces and is judged cell by cell."""
    from benchmarks.fulltext_real.olmocr_judge import tables

    markdown = read("monthly")
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    assert tables(markdown) == [[["Line", *months],
                                 ["Sales", "1204.5", "1310.2", "1288.7", "1402.1", "1375.0", "1420.8", "1399.3", "1450.6",
                                  "1502.2", "1488.9", "1530.4", "1610.7"],
                                 ["Costs", "980.3", "1011.8", "1050.4", "1102.9", "1099.1", "1120.5", "1133.0", "1150.2",
                                  "1162.8", "1170.4", "1201.6", "1255.3"],
                                 ["Margin", "224.2", "298.4", "238.3", "299.2", "275.9", "300.3", "266.3", "300.4",
                                  "339.4", "318.5", "328.8", "355.4"]]], markdown
    tests = [{"id": "mar", "type": "table", "cell": "1050.4", "top_heading": "Mar", "left_heading": "Costs"},
             {"id": "nov", "type": "table", "cell": "1530.4", "left": "1488.9", "right": "1610.7", "down": "1201.6"}]
    assert not _failed(markdown, tests), markdown


def test_groffs_unembedded_times_roman_is_no_bold_and_its_numbered_items_are_items(read):
    """groff's ms macros through PostScript and Ghostscript's ps2pdf: the standard-14 fonts stay
    unembedded with a descriptor whose weight PDFium reads as 645, so every line was bold, no
    heading stood apart ("1. Method The team measured ...") and the ``.IP 1.`` items, labels at the
    margin, ran on after the paragraph. tbl's boxed table and eqn's integral as printed."""
    from benchmarks.fulltext_real.olmocr_judge import tables

    markdown = read("groff_report")
    blocks = markdown.split("\n\n")
    for block in ("## 1. Method", "## 2. Results", "1. Measure the depth at the marked post.",
                  "2. Record the speed of the current with the meter.", "3. Note the weather and the time of day."):
        assert block in blocks, (block, markdown)
    assert tables(markdown) == [[["Station", "Depth", "Speed", "Flow"], ["Upper", "1.20", "0.85", "1.02"],
                                 ["Middle", "2.45", "0.62", "1.52"], ["Lower", "3.10", "0.40", "1.24"]]], markdown
    assert "$$\nQ=\\int\\limits_{0}^{h}v(y)dy" in markdown, markdown
    assert "[^1]: The stations were chosen by the regional water office in the spring." in markdown, markdown


def test_three_writer_columns_three_points_apart_read_column_after_column(read):
    """Guard: a Writer section of three ragged-right columns 0.1 cm apart (narrower than
    MIN_COLUMN_GAP) is read column after column, each paragraph whole."""
    markdown = read("columns3")
    names = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]
    firsts = [f"{n} paragraph 1 tells of the {n.lower()} study and its results in plain words." for n in names]
    tests = [{"id": f"p{i}", "type": "present", "text": t} for i, t in enumerate(firsts)]
    tests += [{"id": f"o{i}", "type": "order", "before": a, "after": b} for i, (a, b) in enumerate(pairwise(firsts))]
    tests.append({"id": "end", "type": "order", "before": firsts[-1], "after": "End of the newsletter."})
    assert not _failed(markdown, tests), markdown


def test_glyphs_of_several_code_points_in_writer_prose_and_math_objects(read):
    """Guard (passes before and after): glyphs of several code points in prose (Libertine's
    ligatures, emoji joined by U+200D, a flag, decomposed accents) as printed, and a Math object's
    accents over its letters. Still wrong (docs/fulltext.md): the display under it, a letter with a
    combining hat typed inside the formula, is left unread with the short paragraph under it (a line
    with no maths glyph right under a display joins it; letting such a line open prose cost two
    tests of the dev part, rnn-extrapolation p24)."""
    markdown = read("glyphs")
    displays = [b.split("\n")[1] for b in markdown.split("\n\n") if b.startswith("$$")]
    assert displays[0] == r"\hat{x}+\vec{v}=\tilde{y}\cdot\overline{z}", markdown
    tests = [{"id": "liga", "type": "present",
              "text": "The office staff affirmed the efficient fjord flight of the fifty waffles in Libertine."},
             {"id": "emoji", "type": "present", "text": "An emoji sequence \U0001F469\u200d\U0001F52C and a flag "
              "\U0001F1EB\U0001F1F7 and a family \U0001F468\u200d\U0001F469\u200d\U0001F467 stand in this sentence."},
             {"id": "accents", "type": "present", "text": "Decomposed letters: café, ñ, Å,"},
             {"id": "end", "type": "present", "text": "The end of the probe."}]
    assert not _failed(markdown, tests), markdown


def test_a_sheets_column_of_small_steps_is_no_column_of_line_numbers(read):
    """Calc prints a sheet whose "Units" column counts up by three (10, 13, ... 43) between the regions
    and the revenues (units.fods, Calc's own PDF export; no rule): the furniture step took the column
    for a review copy's line numbers (bare integers, consecutive but for a skip, beside lines of text)
    and dropped it, the table losing a column. Numbers with text in their own size on both sides are
    a table's (line numbers stand in a margin or a gutter, set smaller). Truth: the sheet's cells."""
    markdown = read("units")
    tests = [{"id": "units", "type": "table", "cell": "16", "left": "Q3", "right": "1274", "up": "13", "down": "19"},
             {"id": "last", "type": "table", "cell": "43", "left": "Q3", "right": "2507"},
             {"id": "first", "type": "table", "cell": "10", "left": "Q1", "right": "1000"}]
    assert not _failed(markdown, tests), markdown


def test_a_sheets_default_name_printed_as_its_head_goes(read):
    """Calc prints a sheet's name as the page's head and "Page 1" as its foot (its default page style);
    on a one-page print nothing repeats, and "Sheet1" stayed over the table. A default sheet name
    ("Sheet1", "Tabelle1", ...) in an edge zone reads as furniture; the foot went already. Truth: the
    page style (units.fods: sheet "Sheet1", Calc's default head and foot)."""
    markdown = read("units")
    tests = [{"id": "head", "type": "absent", "text": "Sheet1"}, {"id": "foot", "type": "absent", "text": "Page 1"},
             {"id": "body", "type": "present", "text": "Region"}]
    assert not _failed(markdown, tests), markdown


def test_a_sheet_name_its_author_chose_printed_as_its_head_goes(read):
    """Calc prints the sheet's name as the page's head, centred, and "Page 1" as its foot, centred on
    the same axis (its default page style). A name the author chose ("Monthly", monthly.fods) stayed
    over the table: printed once, no repetition nor wording tells it. The foot's page number said in
    words is a page style's, and a short head alone in the top zone on its axis is that style's
    head. Truth: the page style (sheet "Monthly", Calc's default head and foot)."""
    markdown = read("monthly")
    tests = [{"id": "head", "type": "absent", "text": "Monthly"}, {"id": "foot", "type": "absent", "text": "Page 1"},
             {"id": "body", "type": "table", "cell": "1204.5", "top_heading": "Jan", "left_heading": "Sales"}]
    assert not _failed(markdown, tests), markdown


def test_an_arabic_phrase_inside_a_latin_sentence_reads_in_its_own_order(read):
    """Writer (glyphs.fodt): "Arabic text لا إله العربية sits inside a Latin sentence here." PDFium
    hands the phrase's words over left to right (each word's letters in logical order), and the
    phrase read "العربية إله لا", its words reversed. A fragment holds one direction, and a run of RTL
    fragments inside a Latin line reads right to left. Truth: the document's sentence."""
    tests = [{"id": "arabic", "type": "present",
              "text": "Arabic text \u0644\u0627 \u0625\u0644\u0647 \u0627\u0644\u0639\u0631\u0628\u064a\u0629 sits inside a Latin sentence here."}]
    assert not _failed(read("glyphs"), tests), read("glyphs")


def test_a_one_page_memos_header_without_a_page_number_goes(read):
    """Writer's header paragraph (aligned right, 9 pt: the Header style) over a one-page memo: no
    "Page 1" in a foot says it is a page style's head and no second page repeats it, so it was kept
    as the memo's first line. A short line alone in the top edge zone, set flush right, not bold,
    is a running head; the memo's title and first lines under it stay."""
    markdown = read("memo")
    tests = [{"id": "head", "type": "absent", "text": "Harbour Rowing Club · Board minutes"},
             {"id": "title", "type": "present", "text": "Minutes of the budget meeting"},
             {"id": "first", "type": "present", "text": "The committee met on a Tuesday to review the budget"},
             {"id": "order", "type": "order", "before": "Minutes of the budget meeting", "after": "The board then turned"}]
    assert not _failed(markdown, tests), markdown
