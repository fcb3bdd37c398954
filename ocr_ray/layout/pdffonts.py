"""Fonts of PDFium's text objects, read once per object: bold, maths, rotated, base font name; the
control codes a font hands over without Unicode (``tex_encodings``), and characters beyond the
BMP that PDFium gives as two UTF-16 halves. Used by ``pdftext`` in its per-character loop."""
from __future__ import annotations

import ctypes
import re
from collections import Counter
from typing import Any

from ocr_ray.layout.math_symbols import CMEX, EXTENSION_FONTS, MATHABX_FONTS, italic_font, mathabx_chars, symbol_font
from ocr_ray.layout.tex_encodings import (
    OML,
    OML_CHARS,
    OMS_CHARS,
    encoding_by_name,
    encoding_by_usage,
    math_encoding_by_name,
)

# TeX's extension fonts (big operators and delimiters, no ToUnicode map: ``math_symbols``)
CMEX_FONTS = EXTENSION_FONTS
_MATH_FONT_PREFIXES = ("CMMI", "CMSY", "CMEX", "MSBM", "MSAM", "EUFM", "EUSM", "RSFS", "TXMI", "TXSY",
                       "TXEX", "PXMI", "PXSY", "STIXMATH", "CAMBRIA MATH", "LMMATH", "SYMBOL", "MTSY",
                       "MTMI", "MTEX", "RMTMI", "ZCMI", "TEX-MATHA", "TEX-MATHB", "TEX-MATHX",
                       "EURM", "EUEX")


# ``font_info``'s maths grade of a font: none, italic (a letter is maths when it stands alone:
# ``italic_maths``), or a maths/symbol font (every glyph is maths)
NOT_MATH, ITALIC, MATH_FONT = 0, 1, 2
_ITALIC_FLAG = 1 << 6  # PDF font descriptor flags, bit 7: Italic


# The standard 14 fonts that are not bold, by the names the PDF gives them: their name says their
# weight. Ghostscript's ps2pdf (groff, any PostScript) writes them unembedded with a descriptor whose
# weight PDFium reads as 645, which made every line of such a document bold.
_BASE14_REGULAR = frozenset({"TIMES-ROMAN", "TIMES-ITALIC", "HELVETICA", "HELVETICA-OBLIQUE", "COURIER",
                             "COURIER-OBLIQUE", "SYMBOL", "ZAPFDINGBATS"})
# A font whose name says its weight is regular (URW's "NimbusRomNo9L-Regu", "TimesNewRomanPSMT",
# "...-Regular", "...-Book") is not bold whatever its descriptor's StemV: Ghostscript's pdfwrite
# writes a StemV of its own (139 for Nimbus Roman's regular, 85 in pdfTeX's copy of the same font),
# which PDFium reads as weight 695, and every line of a re-distilled paper was bold (its author line
# and the lines after a heading became headings).
_REGULAR_BY_NAME = re.compile(r"^(?!.*DEMI).*(REGU|ROMAN|-BOOK\b)")  # (LM Roman Demi is a demi-bold)


def font_info(obj, cache: dict, key: int) -> tuple[bool, int, bool, str]:
    """(bold, maths grade, rotated, base font name) of a text object, cached per object (``key``:
    its address). Maths fonts by name (TeX's and the symbol fonts: ``_MATH_FONT_PREFIXES``,
    ``math_symbols.symbol_font``); italic fonts by name or by their descriptor (italic flag or
    angle), and then named so (",ITALIC" added) for the math builder's alphabet."""
    import pypdfium2.raw as pdfium_c

    info = cache.get(key)
    if info is None:
        bold = rotated = False
        math = NOT_MATH
        name = ""
        font = pdfium_c.FPDFTextObj_GetFont(obj)
        if font:
            buf = ctypes.create_string_buffer(128)
            n = pdfium_c.FPDFFont_GetBaseFontName(font, buf, 128)
            name = buf.value.decode("latin-1", "replace").upper() if n else ""
            name = name.split("+", 1)[-1]
            bold = any(t in name for t in ("BOLD", "CMBX", "-MEDI", "SEMIBOLD", "HEAVY", "BLACK", "CMB10"))
            if not bold and name not in _BASE14_REGULAR and not _REGULAR_BY_NAME.search(name):
                weight = pdfium_c.FPDFFont_GetWeight(font)
                bold = weight >= 600
            if name.startswith(_MATH_FONT_PREFIXES) or symbol_font(name):
                math = MATH_FONT
            elif italic_font(name):
                math = ITALIC
            else:
                angle = ctypes.c_int(0)
                slanted = pdfium_c.FPDFFont_GetItalicAngle(font, ctypes.byref(angle)) and angle.value != 0
                if slanted or pdfium_c.FPDFFont_GetFlags(font) & _ITALIC_FLAG:
                    math, name = ITALIC, f"{name},ITALIC"
        matrix = pdfium_c.FS_MATRIX()
        if pdfium_c.FPDFPageObj_GetMatrix(obj, ctypes.byref(matrix)):
            rotated = abs(matrix.b) > 0.1 * max(abs(matrix.a), 1e-6)
        info = cache[key] = (bold, math, rotated, name)
    return info


def math_control_code(raw: Any, index: int, code: int, cache: dict) -> int:
    """A control code (below 32) of a TeX maths font -> the code to keep, -1 if none: CMEX's big
    delimiters go to the private use area (0x02 is "[", where ``math`` reads them back by code);
    OML's and OMS's (\\epsilon, \\odot, \\preceq: glyph names PDFium does not know) are read by the
    font's layout (``tex_encodings``)."""
    import pypdfium2.raw as pdfium_c

    key = text_object_address(raw, index)
    if not key:
        return -1
    name = (cache.get(key) or font_info(pdfium_c.FPDFText_GetTextObject(raw, index), cache, key))[3]
    if name.startswith(CMEX_FONTS):
        return code + 0xE000
    table = math_encoding_by_name(name)
    # (OMS's 0x02, \\times, has a known name: a U+0002 there is PDFium's line-end hyphen)
    return ord(table[code]) if table is not None and code in table and code != 2 else -1


def cmex_at_break(raw: Any, index: int, code: int, cache: dict) -> bool:
    """Whether a line feed, return or space (``code`` 0x0A, 0x0D, 0x20) PDFium did not generate is
    an extension font's tall glyph: cmex's \\big\\langle, \\bigg\\| piece, \\Bigg( (they were lost). A flat
    one is no delimiter (txexas' horizontal brace pieces at 0x20 stay spaces)."""
    import pypdfium2.raw as pdfium_c

    if pdfium_c.FPDFText_IsGenerated(raw, index) or math_control_code(raw, index, code, cache) < 0xE000:
        return False
    box = [ctypes.c_double() for _ in range(4)]  # left, right, bottom, top
    return bool(pdfium_c.FPDFText_GetCharBox(raw, index, *(ctypes.byref(v) for v in box))) \
        and box[3].value - box[2].value > box[1].value - box[0].value


# CMEX's big operators (codes 0x46-0x61: text and display sizes) by what they show. Without a
# ToUnicode map PDFium names them by their code ("P" for summationtext, "R" for integraltext): an
# inline \\sum in prose read "Pn i=1 xi". Their glyph names (summationtext...) are no Adobe names.
_BIG_OPERATORS = {r"\bigsqcup": "⨆", r"\oint": "∮", r"\bigodot": "⨀", r"\bigoplus": "⨁", r"\bigotimes": "⨂",
                  r"\sum": "∑", r"\prod": "∏", r"\int": "∫", r"\bigcup": "⋃", r"\bigcap": "⋂", r"\biguplus": "⨄",
                  r"\bigwedge": "⋀", r"\bigvee": "⋁", r"\coprod": "∐"}
CMEX_CHARS = {chr(code): _BIG_OPERATORS[tex] for code, tex in CMEX.items() if tex in _BIG_OPERATORS}
# the fonts laid out as cmex10 is (other families' extension fonts put other glyphs at these codes:
# txfonts' txexa its multiple integrals, read by their own tables in ``math_atoms``)
_CMEX_LAYOUT = ("CMEX", "LMMATHEXTENSION")


def math_font_chars(name: str) -> dict[str, str] | None:
    """The characters PDFium gives raw for a TeX maths font's glyphs past the control codes (">"
    for CMSY's \\top, "$" for CMMI's \\varpi, "P" for CMEX's text-size \\sum, "p" for mathabx's "(")
    -> what they show;
    None for any other font. (The math builder reads the extension font's glyphs by their code:
    ``math_font_char`` leaves them raw, and ``shown`` reads a glyph as the text shows it.)"""
    if name.startswith(_CMEX_LAYOUT):
        return CMEX_CHARS
    if name.startswith(MATHABX_FONTS):
        return mathabx_chars(name)
    table = math_encoding_by_name(name)
    return None if table is None else OML_CHARS if table is OML else OMS_CHARS


def shown(glyph: list) -> str:
    """A maths glyph's character as the page's text shows it (``math_font_chars``)."""
    table = math_font_chars(glyph[7]) if glyph[7].startswith((*_CMEX_LAYOUT, *MATHABX_FONTS)) else None
    return table.get(glyph[0], glyph[0]) if table else glyph[0]


def math_font_char(name: str, ch: str) -> str:
    """One character PDFium gives for a glyph of font ``name``, read as ``math_control_code`` and
    ``math_font_chars`` read it (the math builder's glyphs are read apart from the text)."""
    table = math_encoding_by_name(name)
    if table is None or ch == "\x02":
        return ch
    if ch < " ":
        return table.get(ord(ch), ch)
    return (OML_CHARS if table is OML else OMS_CHARS).get(ch, ch)


def text_object_address(raw: Any, index: int) -> int:
    """``FPDFText_GetTextObject`` as a plain address (0: none)."""
    global _GET_OBJECT_ADDRESS
    if _GET_OBJECT_ADDRESS is None:
        import pypdfium2.raw as pdfium_c

        function = pdfium_c.FPDFText_GetTextObject
        prototype = ctypes.CFUNCTYPE(ctypes.c_void_p, type(raw), ctypes.c_int)
        _GET_OBJECT_ADDRESS = prototype(ctypes.cast(function, ctypes.c_void_p).value)
    return _GET_OBJECT_ADDRESS(raw, index) or 0


_GET_OBJECT_ADDRESS = None


def control_tables(textpage: Any, raw: Any, count: int, cache: dict) -> dict[int, dict[int, str]]:
    """Text object -> the table of control codes (below 32) of its font, for the fonts that hand
    such codes over as they are (no glyph names, no ToUnicode: ``tex_encodings``). Only a page
    whose text holds such a code (a CR or LF that is no line break of PDFium's counts) is looked
    at character by character."""
    import pypdfium2.raw as pdfium_c

    if not _CONTROL_CODES.search(textpage.get_text_range()):
        return {}
    get_unicode, is_generated = pdfium_c.FPDFText_GetUnicode, pdfium_c.FPDFText_IsGenerated
    usage: dict[int, Counter] = {}  # font -> its control codes on the page
    fonts: dict[int, tuple[int, str]] = {}  # text object -> (font, font name; None: a math font)
    for i in range(count):
        code = get_unicode(raw, i)
        if code >= 32 or code == 2 or (code in (10, 13) and is_generated(raw, i)):
            continue
        key = text_object_address(raw, i)
        if not key:
            continue
        if key not in fonts:
            obj = pdfium_c.FPDFText_GetTextObject(raw, i)
            font = pdfium_c.FPDFTextObj_GetFont(obj)
            _, math, _, name = cache.get(key) or font_info(obj, cache, key)
            # (a maths font's control codes are symbols PDFium has no name for: \preceq, \ll in
            # CMSY; no text encoding tells them)
            fonts[key] = (ctypes.cast(font, ctypes.c_void_p).value or 0, None if math == MATH_FONT else name)
        if fonts[key][1] is not None:
            usage.setdefault(fonts[key][0], Counter())[code] += 1
    tables: dict[int, dict[int, str]] = {}
    for key, (font, name) in fonts.items():
        if font in usage:
            # a named font whose name implies no TeX text encoding keeps its codes unread: only a
            # nameless one (pdfTeX's bitmap fonts) is judged by its codes
            table = encoding_by_name(name.removesuffix(",ITALIC")) if name else encoding_by_usage(usage[font])
            if table:
                tables[key] = table
    return tables


# a control code in a page's text: any but PDFium's hyphen mark (2) and its CR LF line breaks
_CONTROL_CODES = re.compile("[\x00\x01\x03-\x09\x0b\x0c\x0e-\x1f]|\r(?!\n)|(?<!\r)\n")


def beyond_unicode(code: int) -> int:
    """A code PDFium gives past U+10FFFF, as a code point: the code itself when the font has no
    Unicode for it, which for a CMap of UTF-8 codes (``UniJIS-UTF8-H``, ``Uni-Utf8-H``: 1 to 4 bytes
    a character) is the character's UTF-8 bytes (0xE38081 is "、"); U+FFFD when those bytes are no
    UTF-8. ``chr()`` of such a code raised and lost the paper (pdf.js's issue18117.pdf)."""
    try:
        text = code.to_bytes((code.bit_length() + 7) // 8, "big").decode("utf-8")
    except (UnicodeDecodeError, OverflowError):
        return 0xFFFD
    return ord(text) if len(text) == 1 else 0xFFFD


def astral(get_unicode: Any, raw: Any, index: int, count: int) -> int:
    """The character whose UTF-16 high half is at ``index`` and low half at the next index; 0 for a
    lone half."""
    high = get_unicode(raw, index)
    low = get_unicode(raw, index + 1) if index + 1 < count and high < 0xDC00 else 0
    if 0xDC00 <= low < 0xE000:
        return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    return 0


# A list's bullet in a symbol font without ToUnicode: PDFium gives a symbolic TrueType font's code
# as U+F000 + code, a private-use character, and the font being a symbol font made the bullet a
# formula (LibreOffice Impress' OpenSymbol bullets: each list a "<!-- math: unread -->" block; Word's
# Symbol bullet is the same code's U+F0B7). By the font, the codes its bullets have.
_SYMBOL_BULLETS = (("OPENSYMBOL", {0x95: "•"}), ("SYMBOL", {0xB7: "•"}),
                   ("WINGDINGS", {0xA7: "▪", 0xD8: "➢", 0xFC: "✓", 0x6C: "●", 0x6E: "■", 0x71: "❑", 0x76: "❖"}))


def symbol_bullet(font: str, ch: str) -> str | None:
    """The bullet a symbol font's private-use character ``ch`` draws, or None."""
    name = font.replace(" ", "")
    for key, table in _SYMBOL_BULLETS:
        if key in name:
            return table.get(ord(ch) - 0xF000)
    return None

