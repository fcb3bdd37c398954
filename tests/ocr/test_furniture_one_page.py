"""Page furniture of one-page inputs NOT typeset by TeX (issue 36, "Furniture on one-page inputs"):
pages drawn here with reportlab the way office suites, report designers and browsers print them, each
after a real page of the one-page furniture set (benchmarks/fulltext_furniture/pages.yaml, named in
each test). Truth by hand: the strings drawn as furniture must go, the body lines drawn next to them
must stay."""
from __future__ import annotations

import pypdfium2
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from ocr_ray.layout.furniture import remove_furniture
from ocr_ray.layout.pdftext import page_layout

WIDTH, HEIGHT = letter
BODY = ("Handguns and other weapons were used in about half of the campus murders, which mirrored",
        "the rate of murders involving handguns in the general community, as the report noted.",
        "As the professional literature does not offer a comprehensive perspective on the subject,",
        "the search focused on published lists of incidents of school violence in the period.")


def _page(tmp_path, draw, body=BODY, font=("Times-Roman", 11), top=700.0, crop=None) -> tuple[list[str], list[str]]:
    """One letter page: ``body`` as lines from ``top`` down, then ``draw(c, right)`` adds the furniture
    within the body's width (``right``: its right edge; nothing in the margins, which the body extent
    alone removes). The kept and the removed texts after ``remove_furniture``, each top to bottom."""
    path = tmp_path / "page.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    if crop:
        c.setCropBox(crop)
    c.setFont(*font)
    for k, line in enumerate(body * 6):  # a page of text: the body's extent and size are its own
        c.drawString(72, top - 14 * k, line)
    draw(c, 72 + max(c.stringWidth(line, *font) for line in body))
    c.showPage()
    c.save()
    pages = [page_layout(pypdfium2.PdfDocument(path)[0])]
    removed = remove_furniture(pages)
    order = lambda fs: [f.text for f in sorted(fs, key=lambda f: (f.y0, f.x0))]  # noqa: E731
    return order(pages[0].fragments), order(removed[0])


def _body_kept(kept: list[str], body=BODY) -> bool:
    """Every body line is kept, the first under the head and the last over the foot among them."""
    return kept[0] == body[0] and kept[-1] == body[-1] and len(kept) >= len(body) * 6


def test_a_foot_with_a_worded_page_number_goes_whole(tmp_path):
    """338c0cb8a9cea35f (Ghostscript): "Campus Attacks" at the foot's left, "Page 5" at its right.
    "Page 5" went, the document's title beside it stayed: only a plain number took its line with it
    (and a head in parts only when flush with both edges of the body)."""
    def draw(c, right):
        c.setFont("Times-Roman", 9)
        c.drawString(72, 40, "Campus Attacks")
        c.drawRightString(right - 36, 40, "Page 5")  # as printed: short of the body's right edge
    kept, removed = _page(tmp_path, draw)
    assert removed == ["Campus Attacks", "Page 5"]
    assert _body_kept(kept)


def test_a_bold_folio_and_its_title_close_beside_it_go_at_the_foot(tmp_path):
    """8494d067a27d28ed (an annual report) and Nature's pages: the page number set bold, the report's
    title one em before it. A bold number was no page number (a section's number may be bold), and a
    title nearer than 1.5 em to its number stayed (a heading "3  Methods")."""
    def draw(c, right):
        c.setFont("Helvetica-Bold", 11)
        c.drawRightString(right - 23, 40, "FY 2011 GSA OCSIT ANNUAL REPORT")
        c.drawRightString(right, 40, "15")
    kept, removed = _page(tmp_path, draw)
    assert removed == ["FY 2011 GSA OCSIT ANNUAL REPORT", "15"]
    assert _body_kept(kept)


def test_a_forms_head_over_its_worded_page_number_goes(tmp_path):
    """429b0f3ab81f71b4 (a guide's appendix, Ghostscript): "Appendix 5" over "Page 8 of 11", right
    aligned, bold and larger than the page's 9 pt text. Neither went (bold, larger than the body,
    and the appendix's name is no number)."""
    def draw(c, right):
        c.setFont("Helvetica-Bold", 10)
        c.drawRightString(right, 740, "Appendix 5")
        c.drawRightString(right, 728, "Page 8 of 11")
    kept, removed = _page(tmp_path, draw, font=("Times-Roman", 9))
    assert removed == ["Appendix 5", "Page 8 of 11"]
    assert _body_kept(kept)


def test_a_browsers_print_date_and_address_go(tmp_path):
    """70d8b9280391b2ed (Chrome's print of an SEC filing): "26/03/2024, 22:30" and the page's address
    in the head. A date written with slashes was no date, and a stamp opening with a digit was left."""
    def draw(c, right):
        c.setFont("Helvetica", 8)
        c.drawString(72, 740, "26/03/2024, 22:30")
        c.drawRightString(right, 740, "sec.gov/Archives/edgar/data/1704287/ea190737ex10-17_bluejay.htm")
    kept, removed = _page(tmp_path, draw)
    assert removed == ["26/03/2024, 22:30", "sec.gov/Archives/edgar/data/1704287/ea190737ex10-17_bluejay.htm"]
    assert _body_kept(kept)


def test_text_off_the_visible_page_goes(tmp_path):
    """4041c1e3e2446bd2 (an annual report's spread): a printer's slug drawn outside the crop box
    ("2021/07/06 13:43:28 / <job>.pdf") is printed nowhere a reader sees; it was the page's top row."""
    def draw(c, right):
        c.setFont("Helvetica", 8)
        c.drawString(72, 770, "2021/07/06 13:43:28 / 20731115 annual report job.pdf")
    kept, removed = _page(tmp_path, draw, crop=(0, 0, WIDTH, 750))
    assert removed == ["2021/07/06 13:43:28 / 20731115 annual report job.pdf"]
    assert _body_kept(kept)


def test_body_lines_at_the_edges_stay(tmp_path):
    """Guards: a bold section number and its title one em apart at the head (a bold number is a page
    number at the foot only), a worded page number inside a sentence, and a short last line opening
    with a number at the foot, set apart from the text above it."""
    body = BODY + ("See Page 4 of 11 in the appendix for the questionnaire used in the study.",)

    def draw(c, right):
        c.setFont("Times-Bold", 12)
        c.drawString(72, 724, "3")
        c.drawString(96, 724, "Methods")
        c.setFont("Times-Roman", 11)
        c.drawString(72, 700 - 14 * len(body) * 6 - 16, "12 participants completed it.")
    kept, removed = _page(tmp_path, draw, body=body)
    assert removed == []
    assert kept[:3] == ["3", "Methods", body[0]] and kept[-1] == "12 participants completed it."


def test_a_footer_paragraph_over_the_page_numbers_own_goes(tmp_path):
    """429b0f3ab81f71b4 (Word's footer, printed through Ghostscript): "Prospective New Awardee Guide ...
    June 2011" a paragraph of its own over the page number's, a gap apart, not flush with the body's
    right edge. Only the number went: the edge zone ended at the gap."""
    def draw(c, right):
        c.setFont("Times-Italic", 9)
        c.drawString(72, 60, "Prospective New Awardee Guide")
        c.drawRightString(right - 30, 60, "June 2011")
        c.setFont("Times-Roman", 9)
        c.drawCentredString(306, 20, "26")
    kept, removed = _page(tmp_path, draw)
    assert removed == ["Prospective New Awardee Guide", "June 2011", "26"]
    assert _body_kept(kept)


def test_an_issue_date_under_a_head_in_parts_goes(tmp_path):
    """ccc9f0d80145c1e3 (a NIST report, Adobe PDF Library): "NIST SP 800-223 ... High-Performance
    Computing Security" over "February 2024". The head in parts went, its date under it stayed (a
    date stamp was looked for in the outermost row only, and a month with its year was no date)."""
    def draw(c, right):
        c.setFont("Helvetica", 10)
        c.drawString(72, 752, "NIST SP 800-223")
        c.drawRightString(right, 752, "HPC Security")
        c.drawString(72, 740, "February 2024")
    kept, removed = _page(tmp_path, draw)
    assert removed == ["NIST SP 800-223", "HPC Security", "February 2024"]
    assert _body_kept(kept)


def test_a_title_blocks_date_and_a_last_short_paragraph_stay(tmp_path):
    """Guards: a report's title and its date under it at the top of the page (a title is no
    furniture, so its date is none either); a one-line last paragraph set apart over the page
    number (one piece, not a foot in parts)."""
    def draw(c, right):
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, 748, "High-Performance Computing Security")
        c.setFont("Times-Roman", 11)
        c.drawString(72, 730, "February 2024")
        c.drawString(72, 62, "Thank you for reading this report.")
        c.drawCentredString(306, 20, "7")
    kept, removed = _page(tmp_path, draw)
    assert removed == ["7"]
    assert kept[:2] == ["High-Performance Computing Security", "February 2024"]
    assert kept[-1] == "Thank you for reading this report."


def test_two_columns_footnotes_over_the_page_number_stay(tmp_path):
    """Guard: two short footnotes side by side (a two-column page's), set apart over the page number,
    are a row in parts too; each opens with its mark."""
    def draw(c, right):
        c.setFont("Times-Roman", 8)
        c.drawString(72, 62, "1 Code at example.org.")
        c.drawString(320, 62, "2 Data on request.")
        c.setFont("Times-Roman", 11)
        c.drawCentredString(306, 20, "7")
    kept, removed = _page(tmp_path, draw)
    assert removed == ["7"]
    assert kept[-2:] == ["1 Code at example.org.", "2 Data on request."]


def test_a_browsers_print_foot_of_address_and_date_goes(tmp_path):
    """2e8b87ea72de7dd5 (a web survey printed to PDF through Ghostscript): the page's address and the
    print date in the foot, bold and larger than the page's 9 pt text. Both stayed (a date stamp is
    in body size, not bold; an address was no furniture)."""
    def draw(c, right):
        c.setFont("Times-Bold", 12)
        c.drawString(72, 14, "http://surveymanager.hudson.com/pages/Design/Master.aspx?lang=EN_I...")
        c.drawRightString(right, 14, "27/06/08")
    kept, removed = _page(tmp_path, draw, font=("Times-Roman", 9))
    assert removed == ["http://surveymanager.hudson.com/pages/Design/Master.aspx?lang=EN_I...", "27/06/08"]
    assert _body_kept(kept)


def test_the_folios_of_a_spread_and_their_titles_go(tmp_path):
    """4041c1e3e2446bd2 (an annual report's two pages printed on one sheet): "62" at the foot's left
    end, "63" at its right, each beside the report's title in 5.5 pt, over 7 pt tables. Two numbers
    on a row were a table's row, and a 9 pt number over 7 pt text no page number."""
    def draw(c, right):
        c.setFont("Helvetica", 9.2)
        c.drawString(72, 30, "62")
        c.drawRightString(right, 30, "63")
        c.setFont("Helvetica", 5.5)
        c.drawString(90, 31, "MITSUBISHI ELECTRIC ANNUAL REPORT 2021")
        c.drawRightString(right - 18, 31, "MITSUBISHI ELECTRIC ANNUAL REPORT 2021")
    kept, removed = _page(tmp_path, draw, font=("Helvetica", 7))
    assert sorted(removed) == sorted(["62", "63"] + ["MITSUBISHI ELECTRIC ANNUAL REPORT 2021"] * 2)
    assert _body_kept(kept)


def test_a_tables_last_row_of_two_numbers_at_the_foot_stays(tmp_path):
    """Guard: a row "Total  12  40" at the foot is a table's (its numbers are not a spread's two ends
    counting on, and a label opens it)."""
    def draw(c, right):
        c.setFont("Times-Roman", 11)
        c.drawString(72, 40, "Total")
        c.drawString(300, 40, "12")
        c.drawRightString(right, 40, "40")
    kept, removed = _page(tmp_path, draw)
    assert removed == [] and kept[-3:] == ["Total", "12", "40"]


def test_a_charts_axis_at_the_foot_stays(tmp_path):
    """Guard (pdfminer.six's chart page be3ce724d545b09d): a chart's x axis "0 2 4 6 8" at the foot
    over a lone "0" is a row of numbers, no row of a foot, and stays beside that lone number."""
    def draw(c, right):
        c.setFont("Helvetica", 10)
        for k, tick in enumerate("02468"):
            c.drawString(100 + 80 * k, 40, tick)
        c.drawString(72, 22, "0")
    kept, removed = _page(tmp_path, draw)
    assert "2" not in removed and kept[-5:] == list("02468")


def test_a_pages_text_read_off_its_box_stays_when_it_is_most_of_the_page():
    """Guard (pdf.js's Word 2016 file 710402da97df04a6: a turned page whose one line the reading
    places above its box, y -106): text off the page goes only when it is the lesser part of the
    page's text; here it is all of it, and stays."""
    from ocr_ray.layout.model import Fragment, PageLayout

    line = Fragment(72, -106, 310, -95, "I am a lowly PDF file created in Microsoft Word 2016.", 11.0)
    page = PageLayout(width=792, height=612, fragments=[line])
    assert remove_furniture([page]) == [[]] and page.fragments == [line]


def test_a_bold_year_at_a_title_pages_foot_leaves_the_next_pages_number_alone(tmp_path):
    """Guard (pdfcpu's Walden excerpt 51a299dfa952d0d5): a title page with "1854" bold at its foot,
    then a page numbered "94" at its head. Read as a folio, the year made "94" disagree with its
    neighbour's numbering, and "94" stayed; the numbering is judged on the strict look only."""
    path = tmp_path / "two.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 28)
    c.drawCentredString(306, 650, "WALDEN")
    c.setFont("Times-Bold", 11.5)
    c.drawCentredString(306, 80, "1854")
    c.showPage()
    c.setFont("Times-Roman", 8)
    c.drawCentredString(306, 760, "94")
    c.setFont("Times-Roman", 11)
    for k, line in enumerate(BODY * 6):
        c.drawString(72, 700 - 14 * k, line)
    c.showPage()
    c.save()
    doc = pypdfium2.PdfDocument(path)
    pages = [page_layout(doc[i]) for i in range(2)]
    removed = remove_furniture(pages)
    assert [f.text for f in removed[1]] == ["94"]


def test_a_dated_last_line_over_a_foot_in_parts_stays(tmp_path):
    """Guard (grobid's guidelines d4cf6353a38f65f7, whose XML example "<date ...>Published: 10
    December ..." is the body's last line, just over the foot "Grobid - ... Guidelines ... - 4/11"):
    a date under furniture is an issue date at the head only."""
    def draw(c, right):
        c.setFont("Times-Roman", 11)
        c.drawString(72, 32, "<date>Published: 10 December 2003</date>")
        c.setFont("Times-Roman", 9)
        c.drawString(72, 20, "Grobid -")
        c.drawRightString(right, 20, "Guidelines for header training data - 4/11")
    kept, removed = _page(tmp_path, draw)
    assert "<date>Published: 10 December 2003</date>" in kept
    assert removed == ["Grobid -", "Guidelines for header training data - 4/11"]


def test_a_footnote_mark_at_the_foot_takes_no_text_with_it():
    """Guard (pdf.js's 3662ff519e485810, a two-column paper: the footnote "2 Instead of aborting ..."
    at the foot, its mark a piece of its own in 6 pt against 8 pt text, 1 pt before it): a number at
    the foot takes the text of its row only half an em away or more."""
    from ocr_ray.layout.model import Fragment, PageLayout

    body = [Fragment(54, 100 + 9 * k, 293, 107 + 9 * k, f"Body line {k} of the left column of this page.", 8.0)
            for k in range(60)]
    mark = Fragment(54, 690, 57, 695, "2", 6.0)
    note = Fragment(58, 691, 293, 698, "Instead of aborting the outer recording, we could suspend it.", 8.0)
    page = PageLayout(width=612, height=792, fragments=[*body, mark, note])
    remove_furniture([page])
    assert note in page.fragments


def test_a_head_in_parts_whose_left_part_reads_as_furniture_goes_whole(tmp_path):
    """A review copy's head printed once (a browser's fixed head, a word processor's header): the
    venue notice "Preprint. Under review." at the left, "Part No. 4711-B" at the right, ending short
    of the body's right edge. The notice went by its words and the part number stayed: a head in
    parts had to be flush with the body's edges on both sides, which a head set in the page's own
    box (chromium's position:fixed, left:0; right:0) is not. One part reading as furniture vouches
    for the row."""
    def draw(c, right):
        c.setFont("Times-Roman", 8)
        c.drawString(72, 752, "Preprint. Under review.")
        c.drawRightString(right - 14, 752, "Part No. 4711-B")
    kept, removed = _page(tmp_path, draw)
    assert removed == ["Preprint. Under review.", "Part No. 4711-B"]
    assert _body_kept(kept)


def test_a_first_row_in_parts_not_flush_without_furniture_words_stays(tmp_path):
    """Guard: the same geometry, neither part worded as furniture (a form's first row over its
    text): not flush with the body, nothing vouches for it, it stays."""
    def draw(c, right):
        c.setFont("Times-Roman", 8)
        c.drawString(72, 752, "Applicant: Jane Doe")
        c.drawRightString(right - 14, 752, "Request of 4 May")
    kept, removed = _page(tmp_path, draw)
    assert removed == []
    assert kept[:2] == ["Applicant: Jane Doe", "Request of 4 May"]


def test_a_page_printed_upright_and_shown_turned_keeps_its_top_lines(tmp_path):
    """A robustness-corpus page (a Wikipedia article printed by Chrome, Skia/PDF: portrait content
    in a portrait media box under ``/Rotate 90``) lost its title and first body line: PDFium gives
    the page's size as shown (792 x 612) and each character's box in the page's own portrait space,
    so the layout's frame was 180 pt too short and the top lines lay above the page, removed as
    text off the page. Drawn here the same way (``/Rotate 90`` set on a letter page): every line
    of the body is kept, nothing removed."""
    c = canvas.Canvas(str(tmp_path / "upright.pdf"), pagesize=letter)
    c.setFont("Times-Roman", 11)
    for k, line in enumerate(BODY * 6):
        c.drawString(72, 760 - 14 * k, line)
    c.showPage()
    c.save()
    doc = pypdfium2.PdfDocument(tmp_path / "upright.pdf")
    doc[0].set_rotation(90)
    doc.save(tmp_path / "turned.pdf")
    page = pypdfium2.PdfDocument(tmp_path / "turned.pdf")[0]
    assert page.get_rotation() == 90 and page.get_mediabox() == (0, 0, WIDTH, HEIGHT)
    pages = [page_layout(page)]
    removed = remove_furniture(pages)
    assert removed == [[]]
    assert [f.text for f in sorted(pages[0].fragments, key=lambda f: f.y0)] == list(BODY * 6)


def test_an_appendix_page_number_goes(tmp_path):
    """d884d32bd2a1d620 (an NCES report's appendix, "A-5" bold at the foot's right, 12 pt over 9 pt
    text): a report numbers its appendix pages by the appendix's letter; "A-5" read as no page
    number and stayed under the last body line."""
    def draw(c, right):
        c.setFont("Times-Bold", 12)
        c.drawRightString(right, 30, "A-5")
    kept, removed = _page(tmp_path, draw)
    assert removed == ["A-5"]
    assert _body_kept(kept)


def test_a_last_line_naming_an_appendix_page_stays(tmp_path):
    """Guard: "A-5" inside the body's last line, or a lower-case label ("x-1") alone, is no page number."""
    body = BODY + ("The full questionnaire is printed on page A-5 of the appendix.",)

    def draw(c, right):
        c.setFont("Times-Roman", 11)
        c.drawString(72, 30, "x-1")
    kept, removed = _page(tmp_path, draw, body=body)
    assert removed == []
    assert kept[-2:] == [body[-1], "x-1"]


def test_a_footnote_on_the_page_numbers_line_stays(tmp_path):
    """A robustness-corpus page (a pharmaceutical company's payment disclosure, Ghostscript): the
    table's two notes at the foot, the second on the same line as the page number "1" at the
    right. The text on a folio's line at the foot went at any distance (a running foot beside its
    number), the note with it. A piece opening with a footnote's mark is the page's text."""
    def draw(c, right):
        c.setFont("Helvetica", 8)
        c.drawString(72, 42, "*Parentheses indicate return of previous payments.")
        c.drawString(72, 32, "**Some payments have been made in conjunction with business partners.")
        c.drawRightString(right, 32, "1")
    kept, removed = _page(tmp_path, draw)
    assert removed == ["1"]
    assert kept[-2:] == ["*Parentheses indicate return of previous payments.",
                         "**Some payments have been made in conjunction with business partners."]


def test_a_formulas_numeral_in_the_first_line_is_no_page_number(tmp_path):
    """A Thai exam page of the robustness corpus (01465d3183ca9518, not in the furniture set): its first
    line continues a question with a formula, "... i - j ...", the unit vectors set smaller under their
    arrows. The "i" read as a roman page number in the top edge zone, and took with it every word of
    its line a head's gap away: the line lost its words around the formula. Drawn here the same way
    (the formula's letters 8 pt under 6 pt arrows in an 11 pt line): the whole line stays. A folio
    stands clear on its row; a formula's numeral has its arrow over it."""
    def draw(c, right):
        x = 72.0

        def put(font, text, size, gap=0.0, dy=0.0):
            nonlocal x
            x += gap
            c.setFont(font, size)
            c.drawString(x, 724 + dy, text)
            x += c.stringWidth(text, font, size)

        def arrow():
            c.setFont("Symbol", 6)
            c.drawString(x - 4, 726, "\xae")  # Symbol's right arrow, on the letter just set (its row)

        put("Times-Roman", "Find the vector orthogonal to", 11)
        put("Times-Italic", "i", 8, gap=7, dy=-1)
        arrow()
        put("Symbol", "-", 8, gap=3)
        put("Times-Italic", "j", 8, gap=3, dy=-1)
        arrow()
        put("Times-Roman", "and to the plane through both points.", 11, gap=7)
    kept, removed = _page(tmp_path, draw)
    assert removed == []
    assert "Find the vector orthogonal to" in kept and "i" in kept and "and to the plane through both points." in kept
    assert _body_kept([text for text in kept if text in BODY])


def test_a_head_set_flush_right_alone_at_the_top_goes(tmp_path):
    """9097b54174b53ccd (a report's spread, printed one page): "2023 Environmental Report" alone at the
    top, flush right and a little past the text's edge (over the folio), 12 pt over 11 pt text under a
    larger heading. Nothing repeats it and no page number names it a page style's head: it stayed as
    a heading over the page. A right-aligned short line alone in the top edge zone is a running head."""
    def draw(c, right):
        c.setFont("Helvetica", 12)
        c.drawRightString(right + 10, 756, "2023 Environmental Report")
        c.setFont("Helvetica-Bold", 20)
        c.drawString(72, 722, "Our ambition")
    kept, removed = _page(tmp_path, draw, top=690.0)
    assert removed == ["2023 Environmental Report"]
    assert kept[0] == "Our ambition" and _body_kept(kept[1:])


def test_a_title_set_flush_right_at_the_top_stays(tmp_path):
    """Guard: a cover's title set flush right, the page's largest text, and a bold line so set (a
    heading) are no running heads; a short line at the left is none either (a title starts there)."""
    for font, size, text in (("Helvetica", 20, "Annual Report 2023"), ("Helvetica-Bold", 11, "Board of Directors"),
                             ("Helvetica", 10, "Notes for the board")):
        def draw(c, right, font=font, size=size, text=text):
            c.setFont(font, size)
            (c.drawString(72, 740, text) if text.startswith("Notes") else c.drawRightString(right, 740, text))
        kept, removed = _page(tmp_path, draw)
        assert removed == [] and kept[0] == text, (text, removed)


def test_a_charts_legend_at_the_top_right_stays(tmp_path):
    """Guard (f5998978d5ca24d5, a paper's page 3: a plot's legend in the top edge zone, right of the
    middle, its last entry at the text's edge): pieces set ems apart are no head's line of words."""
    def draw(c, right):
        c.setFont("Helvetica", 6)
        for k, label in enumerate(("1st", "2nd", "3rd", "Unit Tests")):
            c.drawRightString(right - 40 * (3 - k), 740, label)
    kept, removed = _page(tmp_path, draw)
    assert removed == [] and kept[:4] == ["1st", "2nd", "3rd", "Unit Tests"], (kept[:5], removed)


def test_a_section_reference_alone_at_the_top_goes(tmp_path):
    """6675404fa9f9cd8f (a classification society's rules, one page cut out): "Pt C, Ch 1, Sec 2"
    alone at the top, bold in body size, over the section's title. Only repetition told it from a
    heading; a locator of two divisions or more, each a division's name and its number, is a running
    head's wording. A heading naming one division ("SECTION 2") stays."""
    def draw(c, right):
        c.setFont("Helvetica-Bold", 11)
        c.drawString(72, 752, "Pt C, Ch 1, Sec 2")
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, 722, "SECTION 2")
    kept, removed = _page(tmp_path, draw, top=690.0)
    assert removed == ["Pt C, Ch 1, Sec 2"]
    assert kept[0] == "SECTION 2" and _body_kept(kept[1:])
