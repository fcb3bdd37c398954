"""The glyphs of the fragments that hold maths, read one by one from PDFium's text page: text,
tight box, baseline, size and font of each (the math builder's input), and the scale a character's
matrix gives its font. Split from ``ocr_ray.layout.pdftext``, which calls them while it reads a page.
"""
from __future__ import annotations

import ctypes
import unicodedata
from typing import Any

from ocr_ray.layout.model import TEXT_FONT, Fragment
from ocr_ray.layout.pdffonts import CMEX_FONTS, astral, beyond_unicode, font_info, math_font_char, text_object_address


def matrix_scale(pdfium_c: Any, raw: Any, index: int, matrix: Any) -> tuple[float, bool | None]:
    """How much the character's matrix (text matrix and CTM) scales its font: FPDFText_GetFontSize
    is the `Tf` operand, so a PDF that sets `1 Tf` and scales with `10 0 0 10 Tm` (many non-TeX
    producers) has glyphs of size 1.0 without it. The effective size is Tf x sqrt(|det|). Read once
    per text object (the hot loop's characters mostly share one). With it, whether the character is
    drawn upright (None when PDFium has no matrix for it)."""
    if not pdfium_c.FPDFText_GetMatrix(raw, index, ctypes.byref(matrix)):
        return 1.0, None
    det = abs(matrix.a * matrix.d - matrix.b * matrix.c)
    return (det ** 0.5 if det > 1e-9 else 1.0), abs(matrix.b) <= 0.1 * max(abs(matrix.a), 1e-6)


def glyph_geometry(raw: Any, fragments: list[Fragment], height: float, left: float, bottom: float,
                    cache: dict, text_runs: dict[int, list]) -> None:
    """Text, tight box, baseline, size and font of each glyph of the fragments that hold maths (the
    math builder's input), read only for those: these PDFium calls for every glyph would slow
    every page down. In a fragment of prose with maths characters (``text_runs``) the prose
    characters are named ``TEXT_FONT``: words of text, its maths letters keep their font (an
    inline $W$ in "where W is a matrix" inside a display is maths, not a letter of the words)."""
    import pypdfium2.raw as pdfium_c

    l, r, b, t = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    ox, oy = ctypes.c_double(), ctypes.c_double()
    box_args = (ctypes.byref(l), ctypes.byref(r), ctypes.byref(b), ctypes.byref(t))
    origin_args = (ctypes.byref(ox), ctypes.byref(oy))
    get_box, get_origin = pdfium_c.FPDFText_GetCharBox, pdfium_c.FPDFText_GetCharOrigin
    get_unicode, get_size = pdfium_c.FPDFText_GetUnicode, pdfium_c.FPDFText_GetFontSize
    matrix = pdfium_c.FS_MATRIX()
    top = height + bottom
    for place, fragment in enumerate(fragments):
        if not fragment.glyphs:
            continue
        out = []
        prose = text_runs.get(place)
        for k, index in enumerate(fragment.glyphs):
            if index < 0 or not get_box(raw, index, *box_args):
                continue
            get_origin(raw, index, *origin_args)
            code = get_unicode(raw, index)
            if 0xD800 <= code < 0xE000:
                code = astral(get_unicode, raw, index, index + 2) or 0xFFFD
            elif code > 0x10FFFF:
                code = beyond_unicode(code)
            key = text_object_address(raw, index)
            font = (cache.get(key) or font_info(pdfium_c.FPDFText_GetTextObject(raw, index), cache, key))[3] \
                if key else ""
            ch = chr(0xE000 + code) if code <= 32 and font.startswith(CMEX_FONTS) else "-" if code == 2 else \
                math_font_char(font, chr(code))
            if out and len(ch) == 1 and unicodedata.combining(ch) and abs(out[-1][1] - round(l.value - left, 1)) < 0.05 \
                    and abs(out[-1][3] - round(r.value - left, 1)) < 0.05:
                out[-1][0] += ch  # a mark the ToUnicode adds to one glyph (U+2211 U+0305): its text, no glyph
                continue
            size = (get_size(raw, index) * matrix_scale(pdfium_c, raw, index, matrix)[0]) or (b.value - t.value)
            # tenths of a point: what the builder needs, and a short JSON payload
            out.append([ch, round(l.value - left, 1), round(top - t.value, 1),
                        round(r.value - left, 1), round(top - b.value, 1),
                        round(top - oy.value, 1), round(size, 2), TEXT_FONT if prose and prose[k] else font])
        fragment.glyphs = out or None
