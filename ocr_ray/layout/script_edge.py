"""A line break PDFium generates at a superscript's or subscript's edge in prose is no line break.

Chromium, reportlab and Word-like producers set each script as a text object on its own baseline
(``10<sup>-3</sup>``, ``H<sub>2</sub>O``); PDFium generates a line break (CR LF) where the baseline
moves, before the script (chromium) or after it (reportlab), which ended the fragment there: the
reader got "10 -3", "H2 O", "x 2", and in reportlab's print the pieces of one line in the wrong
order. A generated break is kept inside the line when the geometry says the next character is the
previous one's script or the text after a script: one of the two is set smaller, its baseline is
raised or lowered by part of the line's height (not a line's pitch), and it starts where the other
ends (no gap wider than a word space, no step back). A new line, a column's next line on the same
baseline or an equation number in the margin fail one of these and still end the fragment. Maths
is left as it was: a fragment with a maths font's character (or starting right after one) keeps
its breaks, since the math builder reads a formula's scripts from their glyphs.
"""
from __future__ import annotations

import ctypes
from typing import Any

from ocr_ray.layout.pdffonts import MATH_FONT, text_object_address

# the script is smaller than this share of the other's size (CSS's "smaller" is 0.83, reportlab's
# and TeX's 0.7-0.8, Word's 0.65): a change of size alone, on one baseline, is no script
SCRIPT_SIZE = 0.9
# and larger than this share: a script is half its base's size at least (TeX's scriptscript); an
# initial two lines high (IEEEtran's \IEEEPARstart "D" before "EEP") is no base of a script
SCRIPT_MIN = 0.45
# its baseline moved by this share of the larger size at least (rounding of one baseline stays
# under it) and at most (a line's pitch is 1.1-1.5 sizes: the next line moves further)
SHIFT_MIN, SHIFT_MAX = 0.1, 0.6
# the next character starts no more than a word space after the last one's right edge, no further
# back than a kerned pair
GAP_MAX, GAP_BACK = 0.4, 0.15
OVERLAP = 0.3
_NO_FONT = (False, 0, False, "")


def _glyph(pdfium_c: Any, raw: Any, index: int) -> tuple[float, ...] | None:
    """left, right, bottom and top of the loose box, baseline (PDF coordinates, y up) and size."""
    rect = pdfium_c.FS_RECTF()
    x, y = ctypes.c_double(), ctypes.c_double()
    if index < 0 or not pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect)) \
            or not pdfium_c.FPDFText_GetCharOrigin(raw, index, ctypes.byref(x), ctypes.byref(y)):
        return None
    size = pdfium_c.FPDFText_GetFontSize(raw, index)
    matrix = pdfium_c.FS_MATRIX()
    if pdfium_c.FPDFText_GetMatrix(raw, index, ctypes.byref(matrix)):
        det = abs(matrix.a * matrix.d - matrix.b * matrix.c)
        if abs(matrix.b) > 0.1 * max(abs(matrix.a), 1e-6):
            return None  # turned text: not a line's script
        size *= det ** 0.5 if det > 1e-9 else 1.0
    return rect.left, rect.right, rect.bottom, rect.top, y.value, size


def _base(ch: str) -> bool:
    return ch.isalnum() or ch in ")]}'\u2019\"%"


def script_edge(pdfium_c: Any, raw: Any, glyphs: list[int], index: int, cache: dict) -> bool:
    """Whether the generated line break between the fragment so far (``glyphs``: PDFium's index of
    each of its characters) and character ``index`` is a script's edge inside one line of prose,
    not the end of the line. Not in maths (a character of the fragment or the next one set in a
    maths font): the math builder reads a formula's scripts from their glyphs, and a display's
    stacked scripts (``x_i^{12}``: the subscript after the superscript, a step back) are no prose."""
    before, after = _glyph(pdfium_c, raw, glyphs[-1]), _glyph(pdfium_c, raw, index)
    if before is None or after is None:
        return False
    big = max(before[5], after[5])
    if big <= 0 or not SCRIPT_MIN * big <= min(before[5], after[5]) < SCRIPT_SIZE * big:
        return False
    gap = after[0] - before[1]
    if not -GAP_BACK * big <= gap <= GAP_MAX * big:
        return False
    if not SHIFT_MIN * big <= abs(after[4] - before[4]) <= SHIFT_MAX * big:
        return False
    if before[5] > after[5]:
        # base to script: a script follows a word, a number or a closing bracket (a sign before a
        # raised digit is a fraction's numerator, \nicefrac's "+2/3": no script of the sign)
        if not _base(chr(pdfium_c.FPDFText_GetUnicode(raw, glyphs[-1]))):
            return False
    else:
        # script to base: the script's own base is in the fragment (a script that starts it was
        # split from its base by a break not kept, a formula's: "\rho" | "2" "I_D" stay apart)
        first = _glyph(pdfium_c, raw, glyphs[0])
        if first is None or first[5] < SCRIPT_SIZE * big:
            return False
    # the smaller one's box overlaps the larger one's by 0.3 of its height at least: a script of
    # this line (a subscript hangs below the line's box, a superscript over it, by part of their height)
    small, large = (before, after) if before[5] < after[5] else (after, before)
    overlap = min(small[3], large[3]) - max(small[2], large[2])
    if overlap < OVERLAP * (small[3] - small[2]):
        return False
    # (each text object's font was read by ``font_info`` before: its grade is in ``cache``)
    grade = lambda i: cache.get(text_object_address(raw, i), _NO_FONT)[1]  # noqa: E731
    if any(grade(i) == MATH_FONT for i in (*glyphs, index) if i >= 0):
        return False
    # a fragment that starts right after a maths character on its line continues a formula (a
    # script of a script: a^{2^{1}-1}, the "2" split from its base "a")
    previous = _previous(pdfium_c, raw, glyphs[0])
    if previous >= 0 and grade(previous) == MATH_FONT:
        start, prior = _glyph(pdfium_c, raw, glyphs[0]), _glyph(pdfium_c, raw, previous)
        return start is None or prior is None or not -GAP_BACK * big <= start[0] - prior[1] <= GAP_MAX * big
    return True


def _previous(pdfium_c: Any, raw: Any, index: int) -> int:
    """The character before ``index`` that PDFium did not generate (a break, a space), or -1."""
    for i in range(index - 1, max(index - 4, -1), -1):
        if not pdfium_c.FPDFText_IsGenerated(raw, i) and pdfium_c.FPDFText_GetUnicode(raw, i) > 32:
            return i
    return -1
