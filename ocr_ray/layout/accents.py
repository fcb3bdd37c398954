"""Characters PDFium reads as more than one unit or as a unit apart from its letter: a ligature
glyph whose ToUnicode entry is several letters, and the spacing accents TeX's OT1 fonts draw as
glyphs of their own over a letter (``pdftext`` joins them into one accented letter)."""
from __future__ import annotations

import unicodedata

# Spacing accents that TeX's OT1 fonts draw as separate glyphs over a letter -> combining marks.
# One glyph whose ToUnicode entry is several letters (PDFium gives each letter the glyph's box):
# kept as the ligature's own code point, one unit, so ``recode`` can learn what a broken font's
# ligature glyph shows apart from its single letters; ``blocks`` decomposes them at the end (NFKC).
LIGATURES = {"ff": "\ufb00", "fi": "\ufb01", "fl": "\ufb02", "ffi": "\ufb03", "ffl": "\ufb04", "st": "\ufb06"}
ACCENTS = {"´": "\u0301", "`": "\u0300", "¨": "\u0308", "ˆ": "\u0302", "^": "\u0302", "˜": "\u0303",
           "~": "\u0303", "ˇ": "\u030c", "˘": "\u0306", "¯": "\u0304", "˙": "\u0307", "˚": "\u030a",
           "¸": "\u0327", "˝": "\u030b", "˛": "\u0328"}


def merge_accents(text: str) -> str:
    """'´a' or 'a´' (OT1 accent glyphs next to their letter) -> 'á'; then NFC."""
    if not any(ch in ACCENTS for ch in text):
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in ACCENTS and i + 1 < len(text) and text[i + 1].isalpha():
            out.append(text[i + 1] + ACCENTS[ch])
            i += 2
            continue
        out.append(ch)
        i += 1
    return unicodedata.normalize("NFC", "".join(out))
