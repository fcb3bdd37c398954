"""Fragments and ruling lines of a born-digital page, from PDFium (pypdfium2).

Per character: its code point, its loose box (font ascent to descent, so every character of a line
gets the same height and subscripts stay on their line), its font size and, once per text object,
its font (bold? a math font?) and angle. Characters that share a line and follow each other
without a wide gap make a ``Fragment``; the text layer's own word and line breaks are only used
as hints. Ruling lines are thin path objects (what LaTeX's \\hline, booktabs rules and fraction
bars are).
"""
from __future__ import annotations

import ctypes
from typing import Any

from ocr_ray.layout.accents import ACCENTS, LIGATURES, merge_accents
from ocr_ray.layout.digit_groups import THIN_SPACE, join_thousands
from ocr_ray.layout.glyph_geometry import glyph_geometry, matrix_scale
from ocr_ray.layout.italic_maths import ItalicRun
from ocr_ray.layout.model import Fragment, PageLayout
from ocr_ray.layout.page_objects import page_geometry
from ocr_ray.layout.pdffonts import (
    CMEX_FONTS,
    ITALIC,
    MATH_FONT,
    NOT_MATH,
    astral,
    beyond_unicode,
    cmex_at_break,
    control_tables,
    font_info,
    math_control_code,
    math_font_chars,
    symbol_bullet,
    text_object_address,
)
from ocr_ray.layout.right_to_left import changes_direction, goes_on_leftward, is_rtl
from ocr_ray.layout.rotated import RotatedRuns, page_size, reading_angle, sideways, turn_page
from ocr_ray.layout.script_edge import script_edge
from ocr_ray.layout.table_marks import (
    SUB_DROP,
    SUP_RAISE,
    SUP_SIZE,
    keep_table_gaps,
    mark_table_superscripts,
    space_table_subscripts,
)

# Fragments split at a horizontal gap wider than this many font sizes: table cells (LaTeX puts
# 2 x 6 pt between columns, tight tables less: 7 pt between a \multirow label and the next column
# in DataComp's Table 4) split, justified words (at most ~0.6 em apart) do not. 0.75 measured
# best on the real-paper set (tables 127/173 vs 124 at 0.95 and 126 at 0.6, present unchanged).
GAP_SPLIT = 0.75
# A fragment of prose with a maths letter keeps its glyphs up to this many characters (``flush``)
TEXT_RUN_CHARS = 40
# A gap wider than this (in font sizes) between two characters is a space even if PDFium
# generated none.
GAP_SPACE = 0.16
MATH_CHARS = set("∑∏∫∮∂∇√∞≈≠≡≤≥±×÷∈∉∋⊂⊃⊆⊇∪∩∧∨¬∀∃∅→←↔⇒⇔⊗⊕⊥∥∝′″‖⟨⟩|=+−<>^_"
                  "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩϵϑϕ")
class _Builder:
    def __init__(self, height: float):
        self.height = height
        self.out: list[Fragment] = []
        self.chars: list[str] = []
        self.box = [0.0, 0.0, 0.0, 0.0]
        self.size = self.bold = self.math = 0.0
        self.italic = ItalicRun()  # italic letters in a row just before: maths or words (``italic_maths``)
        self.italic_start = 0  # where the italic run's characters start in ``prose``
        self.fonts: dict[str, int] = {}
        self.space = False
        self.rtl = False  # the current fragment runs right to left (``right_to_left``)
        self.last_x0 = 0.0
        self.last_bold = False
        self.maths_comma = False  # the last character is a comma set in a maths font
        self.thin: list[int] = []  # where a space follows a maths comma after a digit (``digit_groups``)
        self.bars: list[tuple[float, float, float]] = []  # the page's vertical rules: (x, y0, y1)
        self.last_box = (0.0, 0.0, 0.0, 0.0)
        self.unit = ""  # letters of the current glyph so far (a ligature gives several)
        self.glyphs: list = []  # PDFium's index of each character, kept for fragments with maths
        self.prose: list = []  # per character: set in a text font (no maths font, no maths symbol)
        # fragments of prose with a maths character in them (``where W is a matrix``), by their
        # place in ``out``: their glyphs are kept, the prose ones named ``TEXT_FONT``
        self.text_runs: dict[int, list] = {}
        self.gaps: list = []  # [x0, x1] of each space put in the current fragment
        self.sups: list[int] = []  # places in ``chars`` of the current fragment's superscript letters
        self.superscripts: dict[int, list[int]] = {}  # fragment's place in ``out`` -> its ``sups``
        self.foot = 0.0  # the lowest foot of the current fragment's characters of its own size
        self.foot_char = -1  # the place of the last of them in ``chars``
        self.subs: list = []  # [place, x after the last digit, x of the script] of each subscript number
        self.subscripts: dict[int, list] = {}  # fragment's place in ``out`` -> its ``subs``

    def _italic_end(self, spaced: bool) -> int:
        """The italic run ends: how many of its letters are maths. A run read as maths is no prose:
        mathptmx's $y$ in a display's ``\text{subject to } y`` kept the text font's name (an
        italic letter of a text font was prose) and was read as a letter of the words."""
        letters = len(self.italic.letters)
        maths = self.italic.end(spaced)
        if letters and maths == letters:
            for k in range(self.italic_start, len(self.prose)):
                self.prose[k] = False
        return maths

    def _bar_between(self, left: float, right: float, y: float) -> bool:
        return any(left - 0.5 <= x <= right + 0.5 and y0 <= y <= y1 for x, y0, y1 in self.bars)

    def flush(self) -> None:
        self.math += self._italic_end(spaced=True)
        join_thousands(self.chars, self.gaps, self.thin)  # (and empties ``thin``)
        if self.chars:
            text = "".join(self.chars).strip()
            if "\x80" <= text[:1] <= "\x9f" and text[1:2] == " ":
                # a C1 control code opening a line before a space: a list's bullet in a font that
                # gives it no Unicode (TeX's bitmap Type 3 fonts and dvips' re-encoded ones: U+0088)
                text = "•" + text[1:]
            if text:
                n = len(self.chars)
                font = max(self.fonts, key=self.fonts.__getitem__) if self.fonts else ""
                maths = self.math >= 0.15 * n or n <= 8
                # prose with a maths letter, short enough to be a display's words ("where W is a
                # matrix" after its \quad): its glyphs too; a line of a paragraph (longer) keeps
                # none, as before (their geometry cost a fifth of the layout's time on maths papers)
                run = not maths and self.math > 0 and n <= TEXT_RUN_CHARS
                if run:
                    self.text_runs[len(self.out)] = self.prose
                if self.sups:
                    self.superscripts[len(self.out)] = self.sups
                if self.subs:
                    self.subscripts[len(self.out)] = self.subs
                self.out.append(Fragment(*self.box, text, self.size, self.bold / n > 0.5, self.math / n, font=font,
                                         glyphs=self.glyphs if maths or run else None,
                                         gaps=self.gaps or None))
        self.chars = []
        self.gaps = []
        self.sups = []
        self.subs = []
        self.glyphs = []
        self.prose = []
        self.fonts = {}
        self.space = False

    def add(self, ch: str, x0: float, y0: float, x1: float, y1: float, size: float, bold: bool, math: int,
            font: str = "", index: int = -1):
        """One character; ``math``: its font's maths grade (``_font_info``)."""
        box = (x0, y0, x1, y1)
        last = self.last_box
        if abs(x0 - last[0]) < 0.01 and abs(x1 - last[2]) < 0.01 and abs(y0 - last[1]) < 0.01 \
                and abs(y1 - last[3]) < 0.01 and self.chars and not self.space and ch.isalpha() \
                and self.chars[-1].isalpha():
            self.unit += ch  # another letter of the same glyph: a ligature
            self.chars[-1] = LIGATURES.get(self.unit, self.unit)
            # each letter keeps its index: the maths glyphs then spell the fragment's text ("fixed"
            # in a subscript), which the math builder checks before it trusts them
            self.glyphs.append(index)
            self.prose.append(self.prose[-1])
            return
        self.unit = ch
        self.last_box = box
        if self.chars:
            bx0, by0, bx1, by1 = self.box
            overlap = (by1 if by1 < y1 else y1) - (by0 if by0 > y0 else y0)
            gap = x0 - bx1
            unit = size if size < self.size else self.size
            if unit < 1.0:
                unit = 1.0
            # backwards only past the previous glyph's start: ligatures ("ff") give two characters one box
            spaced = self.space or gap > GAP_SPACE * unit
            if self.rtl and overlap >= 0.45 * min(by1 - by0, y1 - y0) and goes_on_leftward(ch, x0, x1, self.box, unit,
                                                                                          GAP_SPLIT):
                if (self.space or bx0 - x1 > GAP_SPACE * unit) and self.chars[-1] != " ":  # (right to left)
                    self.chars.append(" ")
                    self.gaps.append([round(x1, 1), round(bx0, 1)])
            elif changes_direction(ch, self.rtl):
                self.flush()  # a fragment holds one direction (``right_to_left.line_order`` orders them)
            elif self.bars and gap > 0 and self._bar_between(bx1, x0, (y0 + y1) / 2):
                self.flush()  # a table's vertical rule between two cells, however tight
            elif overlap < 0.45 * (by1 - by0 if by1 - by0 < y1 - y0 else y1 - y0) or gap > GAP_SPLIT * unit \
                    or x0 < self.last_x0 - 0.5 * unit or (spaced and bold != self.last_bold and ch.isalnum()
                                                                and math != MATH_FONT and not self.math):
                # (a word in bold after regular ones, or back: a run-in heading "**Setup:** We train"
                # is its own fragment, so its line is no bold heading and its paragraph runs on)
                self.flush()
            elif ch in ACCENTS and x1 > bx0 and (x0 - bx1) < 0:
                pass  # an accent drawn back over the previous letter: handled below
            elif self.space or gap > GAP_SPACE * unit:
                if self.chars[-1] != " ":
                    # (a fragment may open on the comma: ", 1 - ε" after a fraction, dir-llm p9 raised)
                    if self.maths_comma and ch.isdigit() and len(self.chars) > 1 and self.chars[-2].isdigit() \
                            and gap < THIN_SPACE * unit:
                        self.thin.append(len(self.chars))  # ``digit_groups``: $1,203,384$
                    self.chars.append(" ")
                    self.gaps.append([round(bx1, 1), round(x0, 1)])
        spaced = not self.chars or self.chars[-1] == " "
        if self.italic.letters and (spaced or not (math == ITALIC and ch.isalpha())):
            self.math += self._italic_end(spaced)  # (a space, or a character that is no italic letter, ends the run)
        if not self.chars:
            self.box = [x0, y0, x1, y1]
            self.size, self.bold, self.math = size, 0, 0
            self.foot, self.foot_char = y1, 0
            self.rtl = is_rtl(ch)  # a run of a right-to-left script (``right_to_left``)
        else:
            b = self.box  # grown in place: comparisons, not min()/max() calls (four per character)
            if x0 < b[0]:
                b[0] = x0
            if y0 < b[1]:
                b[1] = y0
            if x1 > b[2]:
                b[2] = x1
            if y1 > b[3]:
                b[3] = y1
            # the fragment's size is its body text's: superscripts and subscripts do not lower it
            if len(self.chars) < 3 and size > self.size:
                self.size = size
            elif size < SUP_SIZE * self.size and y1 < b[3] - SUP_RAISE * self.size and (ch.isalnum() or ch in "−+"):
                self.sups.append(len(self.chars))
            elif size < SUP_SIZE * self.size and y1 > self.foot + SUB_DROP * self.size and ch.isdigit() \
                    and self.chars[-1].isdigit() and self.foot_char == len(self.chars) - 1:
                # a number lowered and smaller right after a digit of the text's size: a subscript
                # standard deviation ("96.0\textsubscript{0.1}"), spaced in a table's cells
                self.subs.append([len(self.chars), b[2], x0])  # (``table_marks.space_table_subscripts``)
            if size >= SUP_SIZE * self.size:
                self.foot, self.foot_char = max(self.foot, y1), len(self.chars)
        self.chars.append(ch)
        self.glyphs.append(index)
        # (an italic font's letters are prose here: a theorem's italic words; maths letters of a
        # maths font stay maths)
        self.prose.append(math != MATH_FONT and ch not in MATH_CHARS and not "\U0001d400" <= ch <= "\U0001d7ff")
        self.last_x0 = x0
        self.maths_comma = ch == "," and math == MATH_FONT
        if ch.isalnum():  # (the colon after a run-in heading may be set upright: letters decide)
            self.last_bold = bold
        self.bold += bold
        if math == ITALIC and ch.isalpha():
            if not self.italic.letters:
                self.italic_start = len(self.prose) - 1
            self.italic.add(ch, size, spaced)
        else:  # (Unicode's maths alphabets: Cambria Math's letters, ``math_symbols.math_alphanumeric``)
            self.math += math == MATH_FONT or ch in MATH_CHARS or "\U0001d400" <= ch <= "\U0001d7ff"
        self.fonts[font] = self.fonts.get(font, 0) + 1
        self.space = False


def page_layout(pdf_page: Any, turned_once: bool = False) -> PageLayout:
    """Fragments and rules of a pypdfium2 ``PdfPage`` (its text layer and path objects). A page
    whose text is mostly rotated is turned (in memory) and read again upright (``rotated``)."""
    import pypdfium2.raw as pdfium_c

    width, height = page_size(pdf_page)
    left, bottom = 0.0, 0.0
    try:
        left, bottom, _, _ = pdf_page.get_cropbox()
    except Exception:  # noqa: BLE001 - old pypdfium2: media box at the origin
        pass
    textpage = pdf_page.get_textpage()
    builder = _Builder(height)
    turned = RotatedRuns()
    rules, images = page_geometry(pdf_page, height, left, bottom)
    builder.bars = [((r.x0 + r.x1) / 2, r.y0, r.y1) for r in rules if r.vertical]
    cache: dict = {}
    try:
        raw = textpage.raw
        count = pdfium_c.FPDFText_CountChars(raw)
        rect = pdfium_c.FS_RECTF()
        rect_ref = ctypes.byref(rect)
        get_unicode, get_box = pdfium_c.FPDFText_GetUnicode, pdfium_c.FPDFText_GetLooseCharBox
        get_size = pdfium_c.FPDFText_GetFontSize
        tight = pdfium_c.FPDFText_GetCharBox
        box = [ctypes.c_double() for _ in range(4)]  # left, right, bottom, top
        box_refs = [ctypes.byref(v) for v in box]
        last_key, info, scale = None, (False, NOT_MATH, False, ""), 1.0
        remaps: dict[str, dict[str, str] | None] = {}  # maths font -> its raw characters' readings
        remap = None
        spaced = False  # a space (or line break) since the last character: words of rotated text
        matrix = pdfium_c.FS_MATRIX()
        # fonts whose control codes are glyphs without Unicode (TeX's ligatures): text object -> table
        control = control_tables(textpage, raw, count, cache)
        is_generated = pdfium_c.FPDFText_IsGenerated
        skip, held = -1, False
        for i in range(count):
            if i == skip:
                continue
            code = get_unicode(raw, i)
            if 0xD800 <= code < 0xE000:
                # a character beyond the BMP (math italic 𝑝 of Libertine or unicode-math fonts) arrives
                # as two UTF-16 halves at two indexes; a half on its own cannot be written as UTF-8
                code = astral(get_unicode, raw, i, count)
                if not code:
                    continue
                skip = i + 1
            elif code > 0x10FFFF:  # no code point: a CMap's own code (UTF-8 bytes), see beyond_unicode
                code = beyond_unicode(code)
            if code < 32 and control and code != 2:
                table = control.get(text_object_address(raw, i))
                if table is not None and code in table and not is_generated(raw, i):
                    code = ord(table[code]) if table[code] else -1
                    if code < 0:
                        continue  # T1's compound-word mark: nothing printed
            if code in (10, 13, 32) and cmex_at_break(raw, i, code, cache):
                code += 0xE000  # cmex's \big\langle, \bigg\|, \Bigg( at a line feed's, a return's, a space's code
            if code in (10, 13):
                held = bool(builder.chars) and bool(is_generated(raw, i))  # (maybe a script's edge)
                if not held:
                    builder.flush()
                spaced = True
                continue
            if code in (32, 0xA0):
                builder.space = spaced = True
                continue
            # PDFium marks a line-end hyphen as U+0002; a TeX maths font's code below 32 is read by
            # the font (CMEX's big delimiters, 0x02 is "[", go to the private use area)
            if code < 32:
                read = math_control_code(raw, i, code, cache)
                if read >= 0:
                    code = read
                elif code != 2:
                    continue
            ch = "-" if code == 2 else chr(code)
            if not get_box(raw, i, rect_ref):
                continue
            # the object's address, read without a ctypes pointer per character (the hot loop:
            # consecutive characters mostly share one text object)
            key = text_object_address(raw, i)
            if key != last_key:
                last_key = key
                info = font_info(pdfium_c.FPDFText_GetTextObject(raw, i), cache, key) if key else (
                    False, NOT_MATH, False, "")
                scale, upright = matrix_scale(pdfium_c, raw, i, matrix)
                if upright is not None and upright == info[2]:  # (the object's matrix disagrees)
                    # the character's own matrix says how it is drawn: a text object inside a form
                    # XObject has the form's matrix outside its own (iText's rotated form-field
                    # appearances; after ``turn_page`` only the form is turned)
                    info = (info[0], info[1], not upright, info[3])
                if info[1] != MATH_FONT:
                    remap = None
                elif (remap := remaps.get(info[3], False)) is False:
                    remap = remaps[info[3]] = math_font_chars(info[3])
            bold, math, rotated, font = info
            if "\uf020" <= ch <= "\uf0ff" and (bullet := symbol_bullet(font, ch)):
                ch, math = bullet, NOT_MATH  # a list's bullet, no formula
            if remap is not None:
                ch = remap.get(ch, ch)
            size = (get_size(raw, i) * scale) or (rect.top - rect.bottom)
            if rotated:
                builder.flush()  # rotated text (margin stamps, axis labels, a table's heads) is never body text
                turned.add(ch, (rect.left - left, height - (rect.top - bottom), rect.right - left,
                                height - (rect.bottom - bottom)), size, spaced)
                spaced = False
                continue
            if turned.chars:
                turned.end()
            spaced = False
            if held and builder.chars and not script_edge(pdfium_c, raw, builder.glyphs, i, cache):
                builder.flush()  # a generated break inside the line is kept only at a script's edge
            held = False
            if font.startswith(CMEX_FONTS):
                # an extension font's ascent and descent say nothing of its big glyphs: txfonts'
                # txexa declares 39 pt at 10 pt, and its \\iint's box took the prose lines below into
                # the display's line (read as "... enough to " D f dA (1) fill the column"). The ink.
                tight(raw, i, *box_refs)
                rect.left, rect.right, rect.bottom, rect.top = (v.value for v in box)
            builder.add(ch, rect.left - left, height - (rect.top - bottom), rect.right - left,
                        height - (rect.bottom - bottom), size, bold, math, font, i)
        builder.flush()
        turned.end()
        glyph_geometry(raw, builder.out, height, left, bottom, cache, builder.text_runs)
    finally:
        textpage.close()
    # (not where an accent glyph is to be merged with its letter: a mark between them would keep them apart)
    space_table_subscripts(builder.out, {k: subs for k, subs in builder.subscripts.items()
                                         if k not in builder.superscripts}, rules)
    mark_table_superscripts(builder.out, {k: places for k, places in builder.superscripts.items()
                                          if not any(ch in ACCENTS for ch in builder.out[k].text)}, rules)
    for fragment in builder.out:
        fragment.text = merge_accents(fragment.text)
    keep_table_gaps(builder.out, rules, width, height)
    for fragment in turned.out:
        fragment.text = merge_accents(fragment.text)
    layout = PageLayout(width, height, builder.out, rules, images=images, rotated=turned.out)
    if not turned_once and sideways(layout.fragments, layout.rotated):
        angle = reading_angle(pdf_page)
        if angle:
            turn_page(pdf_page, angle)
            upright = page_layout(pdf_page, turned_once=True)
            if sum(map(len, (f.text for f in upright.fragments))) > sum(map(len, (f.text for f in builder.out))):
                return upright
    return layout
