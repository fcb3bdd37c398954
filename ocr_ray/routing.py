"""Per page, the text layer where it reads as language, an OCR engine where it does not.

* ``text-layer`` (the default): the text layer through the layout step; the rare page whose text
  layer is empty, image-only or garbled is OCR'd in the same task by a CPU engine (``rapidocr``
  unless ``REVIEWBENCH_AUTO_OCR=tesseract``), so a paper costs what its text layer costs unless a
  page needs OCR. ``fallback=None`` never OCRs.
* ``auto``: the same routing, with the OCR engine in its own Ray stage (actors, GPUs: ``vllm``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ocr_ray.engine_base import BLANK, Engine, blank, render_page_jpeg
from ocr_ray.layout.math_hook import unreadable_math
from ocr_ray.layout.model import PageLayout
from ocr_ray.layout.order import lines_of
from ocr_ray.layout.page_objects import count_images
from ocr_ray.layout.pdftext import page_layout
from ocr_ray.layout.quality import classify_text
from ocr_ray.ocr_engines import RapidOcrEngine, TesseractEngine
from ocr_ray.ocr_text_layer import OCR_LAYER, invisible_share, ocr_layer_layout, ocr_text_layer
from ocr_ray.pdf_limits import RenderCapError
from ocr_ray.text_repair import recode_garbled

# The layout step's version, in every engine's cache id that goes through it (``paper_markdown``
# caches each paper's markdown per (PDF sha256, engine@version)): raised when its output changes, so
# that a re-run reads the PDFs again. 5: issue 36 (rules fall back per block, pages per page, tables,
# columns, furniture and maths fixes). 6: tables' \multirow labels as rowspan cells, wrapped X cells
# joined, tight columns and header rows (issue 36 item 3, after 5). 7: maths: an align's numbers
# with their rows, CMR's Omega, the calligraphic capitals of newtx/txfonts, kpfonts, fourier and STIX
# Two, a limit of digits alone, limits a thin space apart, \ne and \notin, \iint (issue 36 item 3).
# 8: a glyph is rotated by its own effective matrix, not its text object's (text inside a turned
# form XObject: iText's form-field appearances, a rotated included figure).
# 9: maths: a fraction inside a script in STIX Two, kpfonts, fourier; prose words in a display.
# 10: tables: tight gutters from 0.40 em; a table's header at a page's top is no running head;
# group labels set on their group's first row are no \multirow.
# 11: tables set without any rule, found from their caption.
# 12: equation numbers within sections, (3.1), (A.2); a prose line under a display stays prose.
# 13: tables: a centred group label spans every column.
# 14: maths: a matrix's column gaps between its tall delimiters are no column gutter; \sum\nolimits
# and \int\limits as set; a display ending a column keeps the next column's line out.
# 15: furniture: an edge-zone fragment between two rules is a table's, not a running head.
# 16: maths: a matrix with no delimiters.
# 17: maths: \operatorname*{arg\,max} with its limit under both words.
# 18: maths: a maths letter in a fragment of prose keeps its glyph (pdftext keeps the glyphs of a
# fragment of prose with maths letters, its prose ones named TEXT); a big delimiter keeps its size.
# 19: tables: a drawn column rule between two fragments of a row parts them into two cells; a
# label centred between two column rules spans the columns they enclose; the lines of paragraph
# cells in p{} columns side by side are one row, a justified line cut at its stretched spaces one cell;
# a row label wrapped in a p{} first column is one cell; a centred group row widens no column;
# group labels with no rule to bound them share the column gap between them.
# 20: routing: a scanned sheet under a stamp of text (a picture over the page, at most 4 lines of
# text layer) is OCR'd, not read as its stamp.
# 21: reading order: a narrow gutter is found between the second and third of three columns and
# beside a side box, justified or ragged right; furniture: a one-page head or foot in fancyhdr's parts
# (left ... right), a date stamp alone in the edge row, handling marks (CONFIDENTIAL, Internal report);
# tables: the word spaces of a table set without rules (near its caption) are kept, its tight
# header cut on its columns.
# 22: maths: \underbrace/\overbrace with their labels, \sqrt[n], radicals taller than cmex's
# largest, \overset labels over relations, a word after a word space, LaTeX's named operators.
# 23: OCR'd pages: a skewed scan's rules, seen on the image as pieces a pixel row apart, are chained
# into one rule each and turned back by the page's skew (tables on scans); a bare integer at an OCR
# line's start or end, set off by a wide gap, is a box of its own (margin line numbers); a title's
# lines on a scan are of one size, and a title's next line continues it whatever its first word;
# maths: an arrow drawn as minus signs and a \to is one (\longrightarrow, \xrightarrow{label}), a
# limit of two lines is a \substack.
# 24: tables: a header cell stacked on two or three lines (a nested tabular, \makecell,
# \shortstack) is one cell, told from a second header row by the text stream's order; a text-font
# superscript after a cell's value (threeparttable's \tnote) is marked <sup>..</sup>.
# 25: maths: a numerator of words in the text font over its fraction bar is the display's, not prose;
# a \tfrac in a label over a relation is in the label.
# 26: tables: columns closer than a word space are cut where a header row gives each side a head
# of its own; a tight header is cut at the body's column gaps past a white its first word stands
# in; a number with maths commas ($1,203,384$) is one number; a table's column of bare numbers at
# the top of a page is no page number.
# 27: tables: a wrapped p{} header cell's justified first line is one cell (its next line flush under it).
# 28: tables: a pair of columns under more rows of one value centred over both than rows of their
# own stays two columns.
# 29: maths: a numerator over a fraction bar narrower than Rule.horizontal's 8 pt (mathptmx's \frac{a}{b}).
# 30: furniture of one-page inputs: a worded page number ("Page 5", "Page 8 of 11", "-2-", "| 41")
# takes its row and the short rows of its zone, a bold folio at the foot, a foot's text at any
# distance from its number, dates written with slashes, text off the page's box; a foot in parts
# over its page number's zone, a date under a head that is furniture.
# Also (this round's 30): tables without rules: a one-fragment header (cells a browser pads by a
# pixel or two) under a caption; maths: an accent as a combining mark (U+0302, an OpenType maths
# font's) and an accented letter ("ŷ") in a display; a scanned blank sheet with punch holes is blank.
# 31: maths: CMEX's big operators in prose as their symbols (∑, ∫), a combining mark in a glyph's
# ToUnicode, displays of words first (numbered, a fraction of words), a sentence tight under a
# display stays prose, an equation number in a one-page input's top edge zone stays; mathabx's
# glyphs in prose read as they show ("∀x > 0", not "@x ą 0").
# Also (31): two ragged-right columns 4 pt apart; a caption flush left over a table centred on a
# one-column page; a unit row padded under its quantities is no wrapped cell's next line.
# Also (31), tables8b: a table with neither rules nor a caption (short cells, numbers in two
# columns); a header row over the first rule; a stacked cell in the last column one cell; a narrow
# \multicolumn value in a body row spans its columns; topic word lists no prose; an algorithm
# between rules no table; a figure grid's numbered labels read row by row, its row labels a column.
# Also (31), OCR'd pages: a line with no maths symbol is no formula; a page scanned sideways or upside
# down is turned upright; a header line right under the heads continues their cells; stray ideographs
# on a page of Latin script are dropped; a misread margin line number ("s9") goes with its column.
# Also (31), tables8: a wrapped row label in a grid ruled after each row, a cell holding a pipe (HTML),
# a body under rules that hold only the header, a table drawn with column rules only.
# 32, tables9c (papers_dev4.yaml, ML conference papers): a stacked row label beside one value is one
# row; a table wider than the text body keeps its cells in the margins; the wrapped cells of a grid
# that rules each row stay in their row; a running head's rule goes with its head (no table's top
# rule); a heading broken after a hyphen joins as a paragraph's lines do ("GPT-3").
# Also (32), probes9 (office documents: LibreOffice Writer and Calc, groff): a list's labels hung at an
# indent read with their items (no column of labels), a bullet opens an item; a sentence set large
# over two overlapping line boxes one block; a fraction bar reaching 2 pt past its glyphs; a grid of
# walled cells takes its columns from its walls; a run of numbers alone (a sheet's tight columns)
# keeps its word spaces for the table finder; unembedded standard-14 fonts are bold by name only.
# Also (32), prose9: a page shown turned by /Rotate 90 or 270 is read in its own unrotated frame (its
# top lines fell above the page and went as text off it); a line break PDFium generates at a script's
# edge in prose stays inside the line ("10 -3", "H2 O"); a head in parts one of whose parts reads as
# furniture goes whole without being flush with the body; an appendix's page number ("A-5") is one.
# Also (32), maths9: a phrase of upright words in a Times display, an arrow accent, \Bigg( and the other
# cmex glyphs at control codes, sized bars, a limit nearer another operator, \tag{A1}, \intercal.
# Also (32), tables9a (real-world tables): cell borders drawn cell by cell are one rule line; a grid
# walled by column rules ends at its last walled row (not at the page's footer rule); a report's title
# set larger in a walled grid's frame, and its notes set smaller, are text by the table, not its rows.
# Also (32), scans9 (OCR'd pages): a browser's print head of the page's title beside its address is
# furniture, and a book's folio beside its running head set tight on the text; a typewritten table
# without rules or numbers (cells flush in three columns or more) is a table, a pen's underline across
# it no figure's rule, a lone digit's box a few pixels off joins its row; the angle classifier's labels
# of the first reading make the page's orientation vote.
# Also (32), tables9b: a header row with no rule over it (the ICLR template's table: one rule and an empty
# row under the header; heads wider than the numbers under them are their columns'); a row group's
# label in an unruled table; a paragraph cell's next line that starts a sentence, a multi-line row
# read line by line; a \cline inside a c|c|c table; narrow \multicolumn{2}{c} values in a tight table span their columns.
# 33, tablesml10 (papers_dev5.yaml): two tables side by side, their rules at one height, are two; a
# group head over walls its row does not draw is one cell; a \multirow label of stacked lines spans its rows;
# two tables of one width parted by a line of prose are two; a tight header whose last head is wider
# than its column is cut on the columns it reaches across; a subscript number after a cell's value is
# spaced ("96.0 0.1"); a head flush with its column's edge, wider than its cells, is that column's.
# Also (33), scansfurn10: an OCR'd page's sides follow the image read (a scan shown upright by /Rotate
# 90 was scaled by its unrotated frame since 32's prose9 change: its lower part fell off the page); a
# bare numeral with a fragment over or under it on its row (a formula's "i" under its arrow) is no page
# number; a column of numbers with text in their size on both sides (a sheet's column counting by three)
# is a table's, no column of line numbers; a spreadsheet's default sheet name ("Sheet1") in an edge zone
# is furniture (Calc prints it as the page's head); on an OCR'd page a line opening with one of the margin's
# line numbers (read into it by OCR) no longer keeps the column of numbers in the text.
# Also (33), producers10 (producers the sets lack): a scan under an invisible OCR text layer (tesseract's
# PDF) is OCR'd (without an OCR engine its layer's words are read as OCR'd lines); a line taller by a
# footnote mark and cut at a stretched sentence space is one
# line; a bar drawn as an image (dvips' rules) is a rule; Ghostscript's byte-swapped ligatures and
# its StemV (a font named regular is not bold); a row is in a page's edge band by its middle.
# 34 (stop 49), furnprod11: lines set wholly in a typewriter font, three or more one under the other, are a
# fenced code listing with their indents; a right-to-left run (Hebrew, Arabic) goes on leftward in one
# fragment and a line mostly of such letters reads right to left; a chart's tick label (a column of
# numbers at one step) is no page number; a C1 control code opening a line before a space is a bullet.
# Also (34), tables11w: a walled LaTeX grid's head of two \\ rows stays two rows, rows at a stretched
# pitch stay rows, every row of a ruled grid wrapping in a p{} column reads row by row; tables11ml: a
# table of text in p{} columns is a table, a row label broken in its citation one row, a justified
# cell's stretched line one cell; tables11rw: a head flush left over numbers flush right is their column,
# a slide's table of tall rows, a head on a padded band, a label column outside a walled grid; maths11:
# parenthesised phrases, typed dots, operator names over their limits, displays cut at \qquad whole,
# lualatex's OpenType boxes. The markdown of stop 48's engine (33) is converted again.
# 35 (stop 50): a page of names or codes, and a text layer in another script than Latin (Cyrillic,
# Greek, Arabic, Hebrew, Thai, CJK, Devanagari), is read, not OCR'd as garbled; a page in faint ink is
# OCR'd, not blank; a running head flush right alone, a web page's menu, a section reference; tables12ml
# (papers_dev7): stacked tables, heads over a \cmidrule, paragraph cells under justified lines, a label a
# tie's width from its score, a one-cell second head row; tables12rw: a column of list numbers joined to
# its labels, a head rule over the column rules, rows between rules without column rules, spanned head
# cells; maths12: scripts on and in groups, limits under words, STIX Two, fourier, kpfonts, variant
# Greek, bars reaching past their glyphs, \mid. The markdown of stop 49's engine (34) is converted again.
LAYOUT_VERSION = "35"
OCR_ROUTES = ("no_text", "image_only", "garbled", OCR_LAYER)
# pages with display maths the builder (``ocr_ray.layout.math``) cannot read: routed only to an
# engine that writes LaTeX itself (``vllm``); a CPU OCR engine would flatten them further
MATH_ROUTE = "unreadable_math"
OVER_CAP = "over_cap"  # a page routed to OCR whose rendering the image cap refused (``pdf_limits``)
# A picture over this share of the page is a scan of the whole sheet (a figure keeps the margins) ...
SCAN_COVER = 0.85
# ... and a text layer of at most this many lines on it is a stamp put on the scan (a repository's
# "This content downloaded from ...", an arXiv id, a page number), not the OCR layer of its page
STAMP_LINES = 4
_CPU_OCR = {"rapidocr": RapidOcrEngine, "tesseract": TesseractEngine}
_LOADED: dict[str, Engine] = {}  # per worker process: the fallback OCR engine, set up once


def cpu_ocr(name: str) -> Engine:
    """The CPU OCR engine ``name``, set up once per process."""
    if name not in _LOADED:
        engine = _CPU_OCR[name]()
        engine.setup()
        _LOADED[name] = engine
    return _LOADED[name]


def route_page(pdf_page: Any, ocr: Engine | None, routes: tuple[str, ...]) -> dict[str, Any]:
    """The row payload of a routed page: the text layer's layout always, an image for OCR when the
    text layer is unusable; ``route`` is ``<engine>:<reason>``."""
    layout = page_layout(pdf_page)
    text = layout.to_json()
    if blank(pdf_page, layout):  # nothing drawn, or a scan of an empty sheet: nothing to OCR
        return {"text": text, "image": b"", "route": f"text-layer:{BLANK}"}
    kind = classify_text(layout.plain_text(), images=count_images(pdf_page)) if ocr is not None else "prose"
    if kind == "prose" and stamped_scan(layout):
        kind = "image_only"  # the stamp reads as prose; the page under it is a scan nobody has read
    elif kind == "prose" and scanned_sheet(layout) and ocr_text_layer(layout, invisible_share(pdf_page)):
        # an OCR program's invisible words over the scan: the page is OCR'd as the scan it is (on
        # the real scans' development pages given tesseract's layer, the OCR route read 164 of their
        # 202 tests, the layer's own words 96: rotated, skewed and worn pages); with no OCR
        # engine, the layer's words are read as the OCR'd lines they are
        if ocr is None or OCR_LAYER not in routes:
            return {"text": ocr_layer_layout(pdf_page, layout), "image": b"", "route": f"text-layer:{OCR_LAYER}"}
        kind = OCR_LAYER
    if ocr is None:
        return {"text": text, "image": b"", "route": "text-layer"}
    if kind == "prose" and MATH_ROUTE in routes and unreadable_math(layout):
        kind = MATH_ROUTE  # formulas the math builder cannot read: a VLM reads the page
    if kind in routes:
        try:
            image = render_page_jpeg(pdf_page, ocr.image_longest_side)
        except RenderCapError:
            # an image too large to decode: the page keeps what its text layer has, the paper its
            # other pages (the cap bounds rendering one page, it is no reason to lose a paper)
            return {"text": text, "image": b"", "route": f"text-layer:{kind}+{OVER_CAP}"}
        return {"text": text, "image": image, "route": f"{ocr.name}:{kind}"}
    return {"text": text, "image": b"", "route": f"text-layer:{kind}"}


def stamped_scan(layout: PageLayout) -> bool:
    """A scanned sheet whose only text layer is a stamp: a picture covers the page (``SCAN_COVER``)
    and the text layer holds at most ``STAMP_LINES`` lines. An archive's download line (~150
    characters) made such a page ``prose``, and the scan's own text was never read."""
    if not layout.fragments or not scanned_sheet(layout):
        return False
    return len(lines_of(layout.fragments)) <= STAMP_LINES


def scanned_sheet(layout: PageLayout) -> bool:
    """A picture covers the page (``SCAN_COVER``): a scan of the whole sheet."""
    area = layout.width * layout.height
    return bool(area) and any(
        max(0.0, min(b.x1, layout.width) - max(b.x0, 0.0)) * max(0.0, min(b.y1, layout.height) - max(b.y0, 0.0))
        >= SCAN_COVER * area for b in layout.images)


def read_routed(pages: list[dict[str, Any]], ocr: Engine, recode: bool) -> list[str]:
    """Every page's payload: the text layer's, or ``ocr``'s for pages routed to it; with
    ``recode``, garbled pages are first recoded from a few OCR'd lines where that holds
    (``text_repair``: engines without ``ocr_lines``, such as vllm, never recode)."""
    if recode and any(not _on_text_layer(page) for page in pages):
        recode_garbled(pages, ocr)
    routed = [page for page in pages if not _on_text_layer(page)]
    return merge_routed(pages, ocr.process_batch(routed) if routed else [])


def merge_routed(pages: list[dict[str, Any]], ocr_texts: list[str]) -> list[str]:
    texts = iter(ocr_texts)
    return [page["text"] or "" if _on_text_layer(page) else next(texts) for page in pages]


def _on_text_layer(page: dict[str, Any]) -> bool:
    return (page.get("route") or "text-layer").startswith("text-layer")


@dataclass
class TextLayerEngine(Engine):
    """The PDF's own text layer (pypdfium2) through the layout step (``ocr_ray.layout``): columns,
    headings, paragraphs, tables, equations. The layout comes from ``prepare_page`` so the PDF is
    parsed once. Pages whose text layer is unusable (``OCR_ROUTES``) are OCR'd by ``fallback``
    inside the same task (rendered only then)."""

    name: str = "text-layer"
    # Passing layouts on is microseconds per page: a quarter CPU per task keeps the
    # PDF-reading stage from being starved on small machines.
    num_cpus: float = 0.25
    batch_size: int = 64
    fallback: str | None = "rapidocr"
    # garbled pages: first try to recode the text layer from a few OCR'd lines (``text_repair``)
    recode: bool = True

    @property
    def version(self) -> str:
        return (f"{LAYOUT_VERSION}-layout" + ("-recode" if self.recode else "")
                + (f"+ocr={_CPU_OCR[self.fallback]().cache_id}" if self.fallback else ""))

    def check_available(self) -> None:
        if self.fallback:
            _CPU_OCR[self.fallback]().check_available()

    def prepare_page(self, pdf_page: Any) -> dict[str, Any]:
        ocr = _CPU_OCR[self.fallback]() if self.fallback else None  # a config object: cheap
        return route_page(pdf_page, ocr, OCR_ROUTES)

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        # Every page on the text layer (fallback None routes them all there): no OCR engine is loaded,
        # which costs a worker ~1-2 s (onnxruntime, OpenCV), more than a ten-page paper's text.
        if self.fallback is None or all(_on_text_layer(page) for page in pages):
            return merge_routed(pages, [])
        return read_routed(pages, cpu_ocr(self.fallback), self.recode)


@dataclass
class AutoEngine(Engine):
    """Text layer for pages whose text layer reads as language, an OCR engine for the rest;
    ``route`` says which engine read each page and why (``rapidocr:garbled``).

    Only routed pages are rendered, so an all-prose paper costs what ``text-layer`` costs. Every
    page (text layer or OCR) goes through the same layout step. ``ocr_routes``: the page classes
    sent to OCR (``ocr_ray.layout.quality.classify_text``: ``no_text``, ``image_only``,
    ``garbled``). Math and tables stay on the text layer: the layout step keeps them, a CPU OCR
    engine flattens them. With the ``vllm`` engine, pages whose display maths the math builder
    cannot read (``MATH_ROUTE``) go to it too.
    """

    name: str = "auto"
    ocr: Engine | None = None
    ocr_routes: tuple[str, ...] = OCR_ROUTES
    recode: bool = True  # as ``TextLayerEngine.recode``; engines without ``ocr_lines`` (vllm) never recode
    needs_image: bool = True
    uses_actor: bool = True
    num_cpus: float = 0.5
    batch_size: int = 8

    def __post_init__(self) -> None:
        if self.ocr is None:
            self.ocr = RapidOcrEngine()
        if self.ocr.name == "vllm" and MATH_ROUTE not in self.ocr_routes:
            self.ocr_routes = (*self.ocr_routes, MATH_ROUTE)
        self.model = self.ocr.model
        self.uses_actor = self.ocr.uses_actor
        self.num_cpus, self.num_gpus = self.ocr.num_cpus, self.ocr.num_gpus

    @property
    def version(self) -> str:
        return (f"routes={'+'.join(self.ocr_routes)};h{LAYOUT_VERSION}-layout;{'recode;' if self.recode else ''}"
                f"{self.ocr.cache_id}")

    def check_available(self) -> None:
        self.ocr.check_available()

    def prepare_page(self, pdf_page: Any) -> dict[str, Any]:
        return route_page(pdf_page, self.ocr, self.ocr_routes)

    def setup(self) -> None:
        self.ocr.setup()

    def process_batch(self, pages: list[dict[str, Any]]) -> list[str]:
        return read_routed(pages, self.ocr, self.recode)
