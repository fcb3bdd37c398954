"""What page furniture reads as: the patterns of how heads, footers and stamps are phrased (venue
notices, download and licence stamps, journal lines, dates, arXiv's side stamp, part numbers), for pages
that no repetition can show (page one of a review copy, a one-page input). ``furniture`` applies them
to the fragments of a page's edge zones only."""
from __future__ import annotations

import re

VENUE_NOTICE = re.compile(
    r"(do not distribute|under review|^preprint\b|^(submitted to|published as|accepted (at|to)|postprint of|to appear in)\b"
    r"|^(\d+(st|nd|rd|th)\s+)?(annual\s+)?conference on\b|^proceedings of\b"
    r"|^downloaded from\b"
    # a digital library's download stamp ("Authorized licensed use limited to: <institution>.
    # Downloaded on March 03,2024 at 12:34:56 UTC from IEEE Xplore.  Restrictions apply.")
    r"|^authorized licensed use limited to\b|\bdownloaded on\b.{0,40}\bat\b.{0,20}\b(utc|gmt)\b"
    # copyright and licence lines ("(c) 2021 Elsevier", "Published under a CC BY 4.0 licence", IEEE's
    # "978-1-6654-XXXX-X/23/$31.00 ©2023 IEEE", its template's "©20XX")
    r"|^copyright\b|^©|©\s*[12][\dX]{3}\b|^\(c\)\s*\d{4}|\ball rights reserved\b|\bcreative commons\b|\bCC[ -]BY\b"
    # a document's handling marks ("CONFIDENTIAL", "Draft -- do not cite", "Internal report RB-17")
    r"|^(confidential|strictly confidential|draft|internal (report|use)|for internal use|not for (distribution|citation))\b)",
    re.I)
# a date as stamps print it: 2024-05-17, 17 May 2024, May 17, 2024, 26/03/2024 (a browser's print), 27/06/08
MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
DATE = re.compile(rf"\b((19|20)\d\d-\d\d-\d\d|\d{{1,2}}/\d{{1,2}}/(19|20)?\d\d|\d{{1,2}}\s+{MONTH},?\s+(19|20)\d\d|{MONTH}\s+\d{{1,2}},?\s+(19|20)\d\d)\b", re.I)
# a date or a month and year, as a report's issue date under its running head ("February 2024")
ISSUE_DATE = re.compile(rf"{DATE.pattern}|\b{MONTH}\s+(19|20)\d\d\b", re.I)
STAMP_WORDS = 8  # a date stamp's words at most ("Compiled on 17 May 2024", "Generated 2024-05-17 14:22 UTC")
# what a journal's header or footer line cites of the article: two of them on one line (or one in a
# line cut by "|") make a journal line; one alone may be a footnote's DOI
JOURNAL_PARTS = re.compile(
    r"\bdoi(\.org/|:\s*)10\.\d{4,}|\bvol(\.|ume)?\s*\d+|\bissue\s*\d+|\bno\.\s*\d+|\bpp?\.\s*\d+\s*[-–]\s*\d+"
    r"|\be\d{5,}\b|\bissn\b|\(\d{4}\)\s*\d+(:\d+)?", re.I)
# a journal's "<volume> (<year>) <first>-<last>" ("Journal of Machine Learning Research 21 (2020) 1-45")
VOLUME_YEAR_PAGES = re.compile(r"\b\d{1,4}\s*\((19|20)\d\d\)\s*\d+\s*[-–]\s*\d+\b")
# arXiv's side stamp, whole: "arXiv:2401.01234v2 [cs.LG] 3 Jan 2024"
ARXIV_STAMP = re.compile(r"^arxiv:\s*\d{4}\.\d{4,5}(v\d+)?\s*\[[\w.-]+\]\s*\d{1,2}\s*[a-z]{3}\w*\s*\d{4}$", re.I)


# where on a page of a code, a standard or a body of rules one stands, as its running head says it: two
# divisions or more, each a division's name and its number or letter ("Pt C, Ch 1, Sec 2" over a class
# society's rules, "Title 40, Part 60", "Art. 5, Sec. 2"); a heading names one division ("Section 2")
_DIVISION = r"(pt|part|ch|chap|chapter|sec|sect|section|art|article|title|annex|app|appendix|div|division|subpart)\.?\s*[A-Z0-9]{1,4}(\.\d+)*"
SECTION_REFERENCE = re.compile(rf"^{_DIVISION}(\s*,\s*{_DIVISION})+$", re.I)


# a spreadsheet's default sheet name, which LibreOffice Calc prints as the page's head ("Sheet1",
# "Tabelle1", "Feuille1", "Hoja1", "Foglio1", "Planilha1", "Blad1"): a page's head, never its text
SHEET_NAME = re.compile(r"^(sheet|tabelle|feuille|hoja|foglio|planilha|blad)\s?\d{1,3}$", re.I)


def reads_as_furniture(text: str) -> bool:
    text = " ".join(text.split())
    if VENUE_NOTICE.search(text) or SHEET_NAME.match(text) or SECTION_REFERENCE.match(text):
        return True
    if VOLUME_YEAR_PAGES.search(text):
        return True
    parts = {m.group(0).split()[0].lower()[:3] for m in JOURNAL_PARTS.finditer(text)}
    return len(parts) >= 2 or (len(parts) == 1 and text.count("|") >= 1)


# a part or document number standing alone in a head or foot ("SN74HC00A-Q1", "AD8221", "DS-0042-01"):
# one token of capitals and digits, two of each at least, no lowercase
PART_NUMBER = re.compile(r"^(?=(?:[^A-Z]*[A-Z]){2})(?=(?:\D*\d){2})[A-Z0-9][A-Z0-9./_-]{3,23}$")


# page numbers: bare ("12", "xiv"), with their word or rules ("Page 3", "- 3 -", "[3]", "3 of 10", "3/10")
PLAIN_NUMBER = re.compile(r"^(\d{1,4}|[ivxlc]{1,6})$", re.I)
PAGE_NUMBER = re.compile(r"^(page\s*)?[-–—(\[|]?\s*(\d{1,4}|[ivxlc]{1,6})\s*[-–—)\]|]?(\s*(of|/)\s*\d{1,4})?$", re.I)
# a page number said as one ("Page 5", "Page 2 of 9", "2 of 14", "-2-", "- 24 -", "| 41", an appendix's
# "A-5": a report numbers its appendix pages by the appendix's letter): no heading, list item or
# equation's number reads so, whatever its type (a form's "Page 8 of 11" is set bold, larger)
WORDED_NUMBER = re.compile(r"^(page\s*\d{1,4}(\s*of\s*\d{1,4})?|\d{1,4}\s*of\s*\d{1,4}|[-–—|]\s*\d{1,4}\s*[-–—|]?"
                           r"|(?-i:[A-Z])-\d{1,3})$", re.I)
WORDED_SIZE = 1.5  # of the body size: the largest a worded page number is set

# a page's address as a browser prints it in its head or foot ("http://...aspx?lang=EN_I...", "sec.gov/Archives/...htm")
ADDRESS = re.compile(r"^(https?://|www\.)\S+$|^([\w-]+\.)+[a-z]{2,}/\S*$", re.I)


# the rest of a page count an OCR engine read apart from its first number ("1" + "of 9", "1 von" + "19")
COUNT_TAIL = re.compile(r"^(of|von|de|sur|di|van|/)?\s*\d{1,4}$|^\d{1,4}\s*(of|von|de|sur|di|van|/)$", re.I)
TITLE_WORDS = 16  # the longest page title a browser's print head holds (it cuts longer ones: "the free e...")


def reads_as_address(texts, head: bool = False) -> bool:
    """Is a row (its pieces' texts) a browser's print head or foot: a page's address, with a date or
    the page's count beside it at most ("http://.../DesignMasterGeneric.aspx?lang=EN_I...  27/06/08")?
    At the page's head, the page's title may stand beside the address instead (Firefox prints "Linux -
    Wikipedia" over the left margin and "https://de.wikipedia.org/wiki/Linux" over the right one): a
    running head is no address, and a title beside an address is no line of the body."""
    texts = [" ".join(t.split()) for t in texts]
    other = [t for t in texts
             if not (ADDRESS.match(t) or DATE.fullmatch(t) or PAGE_NUMBER.match(t) or COUNT_TAIL.match(t))]
    title = head and len(other) == 1 and len(texts) >= 2 and len(other[0].split()) <= TITLE_WORDS
    return any(ADDRESS.match(t) for t in texts) and len(texts) <= 3 and (not other or title)
