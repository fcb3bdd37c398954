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
import unicodedata
from typing import Any

from ocr_ray.layout.model import Fragment, PageLayout, Rule

# Fragments split at a horizontal gap wider than this many font sizes: table cells (LaTeX puts
# 2 x 6 pt between columns, tight tables less: 7 pt between a \multirow label and the next column
# in DataComp's Table 4) split, justified words (at most ~0.6 em apart) do not. 0.75 measured
# best on the real-paper set (tables 127/173 vs 124 at 0.95 and 126 at 0.6, present unchanged).
GAP_SPLIT = 0.75
# A gap wider than this (in font sizes) between two characters is a space even if PDFium
# generated none.
GAP_SPACE = 0.16
# TeX's extension font (big operators and delimiters, no ToUnicode map): Computer and Latin Modern
CMEX_FONTS = ("CMEX", "LMMATHEXTENSION")
_MATH_FONT_PREFIXES = ("CMMI", "CMSY", "CMEX", "MSBM", "MSAM", "EUFM", "EUSM", "RSFS", "TXMI", "TXSY",
                       "TXEX", "PXMI", "PXSY", "STIXMATH", "CAMBRIA MATH", "LMMATH", "SYMBOL", "MTSY",
                       "MTMI", "MTEX", "RMTMI", "ZCMI", "TEX-MATHA", "TEX-MATHB", "TEX-MATHX")
MATH_CHARS = set("∑∏∫∮∂∇√∞≈≠≡≤≥±×÷∈∉∋⊂⊃⊆⊇∪∩∧∨¬∀∃∅→←↔⇒⇔⊗⊕⊥∥∝′″‖⟨⟩|=+−<>^_"
                  "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩϵϑϕ")
# Spacing accents that TeX's OT1 fonts draw as separate glyphs over a letter -> combining marks.
# One glyph whose ToUnicode entry is several letters (PDFium gives each letter the glyph's box):
# kept as the ligature's own code point, one unit, so ``recode`` can learn what a broken font's
# ligature glyph shows apart from its single letters; ``blocks`` decomposes them at the end (NFKC).
_LIGATURES = {"ff": "\ufb00", "fi": "\ufb01", "fl": "\ufb02", "ffi": "\ufb03", "ffl": "\ufb04", "st": "\ufb06"}
_ACCENTS = {"´": "\u0301", "`": "\u0300", "¨": "\u0308", "ˆ": "\u0302", "^": "\u0302", "˜": "\u0303",
            "~": "\u0303", "ˇ": "\u030c", "˘": "\u0306", "¯": "\u0304", "˙": "\u0307", "˚": "\u030a",
            "¸": "\u0327", "˝": "\u030b", "˛": "\u0328"}


def _font_info(obj, cache: dict, key: int) -> tuple[bool, bool, bool, str]:
    """(bold, math font, rotated, base font name) of a text object, cached per object (``key``:
    its address)."""
    import pypdfium2.raw as pdfium_c

    info = cache.get(key)
    if info is None:
        bold = math = rotated = False
        name = ""
        font = pdfium_c.FPDFTextObj_GetFont(obj)
        if font:
            buf = ctypes.create_string_buffer(128)
            n = pdfium_c.FPDFFont_GetBaseFontName(font, buf, 128)
            name = buf.value.decode("latin-1", "replace").upper() if n else ""
            name = name.split("+", 1)[-1]
            bold = any(t in name for t in ("BOLD", "CMBX", "-MEDI", "SEMIBOLD", "HEAVY", "BLACK", "CMB10"))
            if not bold:
                weight = pdfium_c.FPDFFont_GetWeight(font)
                bold = weight >= 600
            math = name.startswith(_MATH_FONT_PREFIXES)
        matrix = pdfium_c.FS_MATRIX()
        if pdfium_c.FPDFPageObj_GetMatrix(obj, ctypes.byref(matrix)):
            rotated = abs(matrix.b) > 0.1 * max(abs(matrix.a), 1e-6)
        info = cache[key] = (bold, math, rotated, name)
    return info


class _Builder:
    def __init__(self, height: float):
        self.height = height
        self.out: list[Fragment] = []
        self.chars: list[str] = []
        self.box = [0.0, 0.0, 0.0, 0.0]
        self.size = self.bold = self.math = 0.0
        self.fonts: dict[str, int] = {}
        self.space = False
        self.last_x0 = 0.0
        self.last_bold = False
        self.bars: list[tuple[float, float, float]] = []  # the page's vertical rules: (x, y0, y1)
        self.last_box = (0.0, 0.0, 0.0, 0.0)
        self.unit = ""  # letters of the current glyph so far (a ligature gives several)
        self.glyphs: list = []  # PDFium's index of each character, kept for fragments with maths

    def _bar_between(self, left: float, right: float, y: float) -> bool:
        return any(left - 0.5 <= x <= right + 0.5 and y0 <= y <= y1 for x, y0, y1 in self.bars)

    def flush(self) -> None:
        if self.chars:
            text = "".join(self.chars).strip()
            if text:
                n = len(self.chars)
                font = max(self.fonts, key=self.fonts.__getitem__) if self.fonts else ""
                self.out.append(Fragment(*self.box, text, self.size, self.bold / n > 0.5, self.math / n, font=font,
                                         glyphs=self.glyphs if self.math >= 0.15 * n or n <= 8 else None))
        self.chars = []
        self.glyphs = []
        self.fonts = {}
        self.space = False

    def add(self, ch: str, x0: float, y0: float, x1: float, y1: float, size: float, bold: bool, math: bool,
            font: str = "", index: int = -1):
        box = (x0, y0, x1, y1)
        last = self.last_box
        if abs(x0 - last[0]) < 0.01 and abs(x1 - last[2]) < 0.01 and abs(y0 - last[1]) < 0.01 \
                and abs(y1 - last[3]) < 0.01 and self.chars and not self.space and ch.isalpha() \
                and self.chars[-1].isalpha():
            self.unit += ch  # another letter of the same glyph: a ligature
            self.chars[-1] = _LIGATURES.get(self.unit, self.unit)
            # each letter keeps its index: the maths glyphs then spell the fragment's text ("fixed"
            # in a subscript), which the math builder checks before it trusts them
            self.glyphs.append(index)
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
            if self.bars and gap > 0 and self._bar_between(bx1, x0, (y0 + y1) / 2):
                self.flush()  # a table's vertical rule between two cells, however tight
            elif overlap < 0.45 * (by1 - by0 if by1 - by0 < y1 - y0 else y1 - y0) or gap > GAP_SPLIT * unit \
                    or x0 < self.last_x0 - 0.5 * unit or (spaced and bold != self.last_bold and ch.isalnum()
                                                                and not math and not self.math):
                # (a word in bold after regular ones, or back: a run-in heading "**Setup:** We train"
                # is its own fragment, so its line is no bold heading and its paragraph runs on)
                self.flush()
            elif ch in _ACCENTS and x1 > bx0 and (x0 - bx1) < 0:
                pass  # an accent drawn back over the previous letter: handled below
            elif self.space or gap > GAP_SPACE * unit:
                if self.chars[-1] != " ":
                    self.chars.append(" ")
        if not self.chars:
            self.box = [x0, y0, x1, y1]
            self.size, self.bold, self.math = size, 0, 0
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
        self.chars.append(ch)
        self.glyphs.append(index)
        self.last_x0 = x0
        if ch.isalnum():  # (the colon after a run-in heading may be set upright: letters decide)
            self.last_bold = bold
        self.bold += bold
        self.math += math or ch in MATH_CHARS
        self.fonts[font] = self.fonts.get(font, 0) + 1
        self.space = False


def _merge_accents(text: str) -> str:
    """'´a' or 'a´' (OT1 accent glyphs next to their letter) -> 'á'; then NFC."""
    if not any(ch in _ACCENTS for ch in text):
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in _ACCENTS and i + 1 < len(text) and text[i + 1].isalpha():
            out.append(text[i + 1] + _ACCENTS[ch])
            i += 2
            continue
        out.append(ch)
        i += 1
    return unicodedata.normalize("NFC", "".join(out))


def _is_cmex(raw: Any, index: int, cache: dict) -> bool:
    """A code below 33 in TeX's extension font is a big delimiter (0x20: the biggest "("), not a
    space or a control character."""
    import pypdfium2.raw as pdfium_c

    key = _text_object_address(raw, index)
    if not key:
        return False
    info = cache.get(key) or _font_info(pdfium_c.FPDFText_GetTextObject(raw, index), cache, key)
    return info[3].startswith(CMEX_FONTS)


def _text_object_address(raw: Any, index: int) -> int:
    """``FPDFText_GetTextObject`` as a plain address (0: none)."""
    global _GET_OBJECT_ADDRESS
    if _GET_OBJECT_ADDRESS is None:
        import pypdfium2.raw as pdfium_c

        function = pdfium_c.FPDFText_GetTextObject
        prototype = ctypes.CFUNCTYPE(ctypes.c_void_p, type(raw), ctypes.c_int)
        _GET_OBJECT_ADDRESS = prototype(ctypes.cast(function, ctypes.c_void_p).value)
    return _GET_OBJECT_ADDRESS(raw, index) or 0


_GET_OBJECT_ADDRESS = None


def page_layout(pdf_page: Any) -> PageLayout:
    """Fragments and rules of a pypdfium2 ``PdfPage`` (its text layer and path objects)."""
    import pypdfium2.raw as pdfium_c

    width, height = pdf_page.get_size()
    left, bottom = 0.0, 0.0
    try:
        left, bottom, _, _ = pdf_page.get_cropbox()
    except Exception:  # noqa: BLE001 - old pypdfium2: media box at the origin
        pass
    textpage = pdf_page.get_textpage()
    builder = _Builder(height)
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
        last_key, info, scale = None, (False, False, False, ""), 1.0
        matrix = pdfium_c.FS_MATRIX()
        for i in range(count):
            code = get_unicode(raw, i)
            if 0xD800 <= code < 0xE000:  # half of a character beyond U+FFFF: one character, or none
                code = _joined(code, get_unicode(raw, i + 1) if i + 1 < count else 0)
                if code is None:
                    continue
            if code in (10, 13):
                builder.flush()
                continue
            # (CMEX's 0x20, the biggest "(", is lost here: asking every space for its font costs
            # more than that glyph is worth)
            if code in (32, 0xA0):
                builder.space = True
                continue
            # PDFium marks a line-end hyphen as U+0002; a CMEX code below 32 (a big delimiter,
            # 0x02 is "[") is kept in the private use area, where ``math`` reads it back by code
            if code < 32:
                if _is_cmex(raw, i, cache):
                    code += 0xE000
                elif code != 2:
                    continue
            ch = "-" if code == 2 else chr(code)
            if not get_box(raw, i, rect_ref):
                continue
            # the object's address, read without a ctypes pointer per character (the hot loop:
            # consecutive characters mostly share one text object)
            key = _text_object_address(raw, i)
            if key != last_key:
                last_key = key
                info = _font_info(pdfium_c.FPDFText_GetTextObject(raw, i), cache, key) if key else (
                    False, False, False, "")
                scale = _matrix_scale(pdfium_c, raw, i, matrix)
            bold, math, rotated, font = info
            if rotated:
                builder.flush()  # rotated text (margin stamps, axis labels) is never body text
                continue
            size = (get_size(raw, i) * scale) or (rect.top - rect.bottom)
            builder.add(ch, rect.left - left, height - (rect.top - bottom), rect.right - left,
                        height - (rect.bottom - bottom), size, bold, math, font, i)
        builder.flush()
        _glyph_geometry(raw, builder.out, height, left, bottom, cache)
    finally:
        textpage.close()
    for fragment in builder.out:
        fragment.text = _merge_accents(fragment.text)
    return PageLayout(width, height, builder.out, rules, images=images)


def _matrix_scale(pdfium_c: Any, raw: Any, index: int, matrix: Any) -> float:
    """How much the character's matrix (text matrix and CTM) scales its font: FPDFText_GetFontSize
    is the `Tf` operand, so a PDF that sets `1 Tf` and scales with `10 0 0 10 Tm` (many non-TeX
    producers) has glyphs of size 1.0 without it. The effective size is Tf x sqrt(|det|). Read once
    per text object (the hot loop's characters mostly share one)."""
    if not pdfium_c.FPDFText_GetMatrix(raw, index, ctypes.byref(matrix)):
        return 1.0
    det = abs(matrix.a * matrix.d - matrix.b * matrix.c)
    return det ** 0.5 if det > 1e-9 else 1.0


def _glyph_geometry(raw: Any, fragments: list[Fragment], height: float, left: float, bottom: float,
                    cache: dict) -> None:
    """Text, tight box, baseline, size and font of each glyph of the fragments that hold maths (the
    math builder's input), read only for those: these PDFium calls for every glyph would slow
    every page down."""
    import pypdfium2.raw as pdfium_c

    l, r, b, t = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    ox, oy = ctypes.c_double(), ctypes.c_double()
    box_args = (ctypes.byref(l), ctypes.byref(r), ctypes.byref(b), ctypes.byref(t))
    origin_args = (ctypes.byref(ox), ctypes.byref(oy))
    get_box, get_origin = pdfium_c.FPDFText_GetCharBox, pdfium_c.FPDFText_GetCharOrigin
    get_unicode, get_size = pdfium_c.FPDFText_GetUnicode, pdfium_c.FPDFText_GetFontSize
    matrix = pdfium_c.FS_MATRIX()
    top = height + bottom
    for fragment in fragments:
        if not fragment.glyphs:
            continue
        out = []
        for index in fragment.glyphs:
            if index < 0 or not get_box(raw, index, *box_args):
                continue
            get_origin(raw, index, *origin_args)
            code = get_unicode(raw, index)
            if 0xD800 <= code < 0xE000:  # half of a character beyond U+FFFF: one character, or none
                code = _joined(code, get_unicode(raw, index + 1))
                if code is None:
                    continue
            key = _text_object_address(raw, index)
            font = (cache.get(key) or _font_info(pdfium_c.FPDFText_GetTextObject(raw, index), cache, key))[3] \
                if key else ""
            ch = chr(0xE000 + code) if code <= 32 and font.startswith(CMEX_FONTS) else "-" if code == 2 else chr(code)
            size = (get_size(raw, index) * _matrix_scale(pdfium_c, raw, index, matrix)) or (b.value - t.value)
            # tenths of a point: what the builder needs, and a short JSON payload
            out.append([ch, round(l.value - left, 1), round(top - t.value, 1),
                        round(r.value - left, 1), round(top - b.value, 1),
                        round(top - oy.value, 1), round(size, 2), font])
        fragment.glyphs = out or None


def _joined(code: int, following: int) -> int | None:
    """PDFium reports a character beyond U+FFFF (math italic 𝑝 is U+1D45D) as its two UTF-16 code
    units at consecutive indices. The high half followed by a low half is that character; the low
    half (already joined) and a lone half are none: a lone surrogate is no text, and no UTF-8
    writer (Arrow, a file) accepts it."""
    if code < 0xDC00 and 0xDC00 <= following < 0xE000:
        return 0x10000 + ((code - 0xD800) << 10) + (following - 0xDC00)
    return None


def page_rules(pdf_page: Any, height: float, left: float = 0.0, bottom: float = 0.0) -> list[Rule]:
    return page_geometry(pdf_page, height, left, bottom)[0]


def page_geometry(pdf_page: Any, height: float, left: float = 0.0,
                  bottom: float = 0.0) -> tuple[list[Rule], list[Rule]]:
    """Ruling lines (thin path objects) and the boxes of images and included figures (image and
    form objects at least 20 pt on each side: a figure grid's pictures), in one pass."""
    import pypdfium2.raw as pdfium_c

    rules, images = [], []
    kinds = [pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM]
    for obj in pdf_page.get_objects(filter=kinds, max_depth=1):
        x0, y0, x1, y1 = obj.get_bounds() if hasattr(obj, "get_bounds") else obj.get_pos()
        rule = Rule(x0 - left, height - (y1 - bottom), x1 - left, height - (y0 - bottom))
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            if rule.x1 - rule.x0 >= 20 and rule.y1 - rule.y0 >= 20:
                images.append(rule)
        # short thin bars too: the rule of a 1/2 in a formula, the vinculum of a short root
        elif rule.horizontal or rule.vertical or (rule.y1 - rule.y0 <= 1.5 and rule.x1 - rule.x0 > 1.5):
            rules.append(rule)
    return rules, images


def count_images(pdf_page: Any) -> int:
    import pypdfium2.raw as pdfium_c

    return sum(1 for _ in pdf_page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2))
