"""The control-code half of TeX's text font encodings: what a code below 32 shows when the PDF's
font gives it no Unicode.

pdfTeX puts the ligatures ff, fi, fl, ffi, ffl below 32: 0x0B-0x0F in OT1 (Knuth's Computer Modern,
``\\documentclass`` without ``fontenc``), 0x1B-0x1F in T1 (``\\usepackage[T1]{fontenc}``; T1 also
has its quotes and dashes there). A font with glyph names (an embedded Type 1 program's built-in
encoding, or ``/Differences`` naming ``/fi``) is mapped by PDFium already; one without (pdfTeX's
Type 3 bitmap fonts, what T1 gives where cm-super is missing, named ``/a28`` and carrying no
font name nor ``ToUnicode``) hands the raw code over, and the word loses its ligature: "con
guration", "rst". Its encoding is then the one the font's name implies, or, for a font without a
name, the one its own codes on the page point to.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import cache

_LIGATURES = ("\ufb00", "\ufb01", "\ufb02", "\ufb03", "\ufb04")  # ff fi fl ffi ffl

# The TeX font encodings' tables (fontenc's ot1enc.def / t1enc.def, and the fonts' own layouts).
# Accents are the spacing characters ``pdftext`` merges with the letter they are drawn over.
OT1 = {
    **{i: ch for i, ch in enumerate("ΓΔΘΛΞΠΣΥΦΨΩ")},
    **{0x0B + i: lig for i, lig in enumerate(_LIGATURES)},
    0x10: "ı", 0x11: "ȷ", 0x12: "`", 0x13: "´", 0x14: "ˇ", 0x15: "˘", 0x16: "¯", 0x17: "˚", 0x18: "¸",
    0x19: "ß", 0x1A: "æ", 0x1B: "œ", 0x1C: "ø", 0x1D: "Æ", 0x1E: "Œ", 0x1F: "Ø",
}
# OT1's typewriter fonts (cmtt) have no ligatures: arrows and Spanish marks instead
OT1_TT = {**OT1, 0x0B: "↑", 0x0C: "↓", 0x0D: "'", 0x0E: "¡", 0x0F: "¿"}
T1 = {
    0x00: "`", 0x01: "´", 0x02: "ˆ", 0x03: "˜", 0x04: "¨", 0x05: "˝", 0x06: "˚", 0x07: "ˇ", 0x08: "˘",
    0x09: "¯", 0x0A: "˙", 0x0B: "¸", 0x0C: "˛", 0x0D: "‚", 0x0E: "‹", 0x0F: "›", 0x10: "“", 0x11: "”",
    0x12: "„", 0x13: "«", 0x14: "»", 0x15: "–", 0x16: "—", 0x17: "", 0x18: "0", 0x19: "ı", 0x1A: "ȷ",
    **{0x1B + i: lig for i, lig in enumerate(_LIGATURES)},
}  # (0x17: the compound-word mark, zero width; 0x18: the zero that follows % in a per-mille sign)

# Font names (PostScript names of the Type 1 fonts pdfTeX embeds) -> their encoding. Latin Modern and
# TeX Gyre come in either encoding: their PDFs carry glyph names, and a nameless code in them is
# decided by its page like a font without a name.
_OT1_TT_NAMES = ("CMTT", "CMSLTT", "CMITT", "CMTCSC")
_OT1_NAMES = ("CMR", "CMBX", "CMB", "CMTI", "CMSL", "CMSS", "CMCSC", "CMU", "CMDUNH", "CMFIB", "CMFF", "CMBXTI",
              "CMBXSL", "CMVTT")
_T1_NAMES = ("SF", "EC")  # cm-super (SFRM1000, SFBX1000, SFTT1000...) and the EC fonts (ECRM1000...)


# TeX's maths fonts (OML: cmmi, lmmi; OMS: cmsy, lmsy) name some glyphs outside the Adobe Glyph
# List (epsilon1, latticetop, lscript, circledot...). Without ToUnicode (pdfTeX's default before
# ``\pdfgentounicode``) PDFium then hands the raw code over: \epsilon arrives as U+000F and is
# dropped, \top as ">", \varpi as "$", \ell as "`". Code -> the character pdfTeX's own
# glyphtounicode.tex gives that glyph name, at the places where the font's layout (cmmi10.tfm,
# cmsy10.tfm) holds such a name; a code whose glyph PDFium names right never arrives raw. Only
# codes no other glyph of the font can show as that character are listed (not OML's "." and "/",
# which its period and slash also show), so a mapped character is never a right one.
OML = {
    **{i: ch for i, ch in enumerate("ΓΔΘΛΞΠΣΥΦΨΩαβγδϵζηθικλμνξπρστυφχ")},
    0x24: "ϖ", 0x25: "ϱ", 0x28: "↼", 0x29: "↽", 0x2A: "⇀", 0x2B: "⇁", 0x3F: "⋆", 0x5B: "♭", 0x5C: "♮",
    0x5D: "♯", 0x5E: "⌣", 0x5F: "⌢", 0x60: "ℓ", 0x7E: "\u20d7",
}
OMS = {
    **{i: ch for i, ch in enumerate("−·×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘•≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻")},
    0x25: "↗", 0x26: "↘", 0x27: "≃", 0x2D: "↖", 0x2E: "↙", 0x30: "′", 0x33: "∋", 0x34: "△", 0x35: "▽",
    0x37: "↦",  # (\mapsto's bar, drawn over the arrow's left end: ``math`` makes the pair one \mapsto)
    0x3C: "ℜ", 0x3D: "ℑ", 0x3E: "⊤", 0x5D: "⊎", 0x60: "⊢", 0x61: "⊣", 0x62: "⌊", 0x63: "⌋", 0x64: "⌈",
    0x65: "⌉", 0x6B: "∥", 0x6C: "↕", 0x6D: "⇕", 0x6F: "≀", 0x71: "⨿", 0x74: "⊔", 0x75: "⊓", 0x76: "⊑",
    0x77: "⊒",
}
# the same, keyed by the raw character PDFium gives (what ``pdftext`` replaces past the control codes)
OML_CHARS = {chr(code): ch for code, ch in OML.items() if code >= 32}
OMS_CHARS = {chr(code): ch for code, ch in OMS.items() if code >= 32}


@cache
def math_encoding_by_name(name: str) -> dict[int, str] | None:
    """OML or OMS for a TeX maths font's name (upper case, subset tag removed), else None."""
    name = name.replace(" ", "")
    if _OML_NAME.match(name):
        return OML
    if _OMS_NAME.match(name):
        return OMS
    return None


_OML_NAME = re.compile(r"CMMIB?\d|LMMATHITALIC")
_OMS_NAME = re.compile(r"CMB?SY\d|LMMATHSYMBOLS")


def _digits_after(name: str, prefix: str) -> bool:
    rest = name[len(prefix):]
    return not rest or rest[0].isdigit()


def encoding_by_name(name: str) -> dict[int, str] | None:
    """The table a font's name implies (``name``: upper case, subset tag removed), None if it
    implies none. A prefix counts when digits follow it (CMR10, SFRM1000), so that no other
    family's name (CMU Serif, a font named "Sfera") is taken for one."""
    name = name.replace(" ", "")
    for prefixes, table in ((_OT1_TT_NAMES, OT1_TT), (_OT1_NAMES, OT1)):
        for prefix in prefixes:
            if name.startswith(prefix) and _digits_after(name, prefix):
                return table
    for prefix in _T1_NAMES:
        if name.startswith(prefix) and any(ch.isdigit() for ch in name[len(prefix):len(prefix) + 6]) \
                and name[len(prefix):].rstrip("0123456789").isalpha():
            return T1
    return None


def encoding_by_usage(codes: Counter) -> dict[int, str] | None:
    """The table the codes a nameless font uses on a page point to: ligatures are the commonest
    control codes of English text in either encoding, T1's quotes and dashes only exist in T1, and
    OT1's letters at T1's ligature places (œ, ø, Æ) are rare. A tie goes to T1: pdfTeX's bitmap
    fonts are mostly T1's (Computer Modern in OT1 is Type 1 on every TeX system). None when the
    codes point nowhere: a bitmap font of one symbol at code 0 (an author mark in an LNCS paper)
    is no text font."""
    ot1 = sum(n for code, n in codes.items() if 0x0B <= code <= 0x0F)
    t1 = sum(n for code, n in codes.items() if 0x10 <= code <= 0x16 or 0x1B <= code <= 0x1F)
    if not ot1 and not t1:
        return None
    return OT1 if ot1 > t1 else T1
