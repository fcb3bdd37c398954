"""One glyph of a formula -> an ``Atom``: its LaTeX token, box, baseline, size and role.

The math builder (``ocr_ray.layout.math``) places atoms; this module only reads each glyph from
its Unicode value and font (``math_symbols``: the alphabet a font sets, CMEX read by its code).
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ocr_ray.layout.math_symbols import (
    BIG_OPERATORS,
    CMEX,
    CMEX_PIECES,
    DELIMITERS,
    EXA,
    EXA_FONTS,
    EXTENSION_FONTS,
    FOURIER_EXTENSION_HIGH,
    MATHABX_FONTS,
    SYMBOL_PHI,
    SYMBOLS,
    TXEX_HIGH,
    adobe_symbol_font,
    font_alphabet,
    math_alphanumeric,
    mathabx_tex,
)
from ocr_ray.layout.model import TEXT_FONT

# accents TeX draws as a glyph of their own above the letter
_ACCENTS = {"ˆ": r"\hat", "^": r"\hat", "˜": r"\tilde", "~": r"\tilde", "¯": r"\bar", "˙": r"\dot",
            "¨": r"\ddot", "ˇ": r"\check", "´": r"\acute", "`": r"\grave", "˘": r"\breve", "⃗": r"\vec",
            # the combining marks an OpenType maths font's accents map to (unicode-math's \hat is U+0302)
            "\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0307": r"\dot", "\u0308": r"\ddot",
            "\u030c": r"\check", "\u0301": r"\acute", "\u0300": r"\grave", "\u0306": r"\breve"}
ACCENT_GLYPHS = frozenset(_ACCENTS) | {"\u02dc", "\u00af", "\u02d9", "\u00a8"}
# accents a maths font draws as glyphs of their own (mathabx: \dot in mathb, \widehat in mathx)
_ACCENT_COMMANDS = frozenset(_ACCENTS.values()) | {r"\widehat", r"\widetilde", r"\widecheck", r"\ring", r"\dddot",
                                                   r"\ddddot"}


def _accented(ch: str) -> str | None:
    """``\\hat{y}`` for "ŷ": a Latin letter composed with accents TeX draws over it (NFD), else None."""
    parts = unicodedata.normalize("NFD", ch) if len(ch) == 1 else ""
    if len(parts) < 2 or not (parts[0].isascii() and parts[0].isalpha()) or not all(c in _ACCENTS for c in parts[1:]):
        return None
    tex = parts[0]
    for mark in parts[1:]:
        tex = f"{_ACCENTS[mark]}{{{tex}}}"
    return tex


class Unreadable(Exception):
    """A glyph the builder has no reading for."""


@dataclass
class Atom:
    tex: str
    x0: float
    y0: float
    x1: float
    y1: float
    base: float
    size: float
    kind: str = "ord"  # ord | op (big operator) | radical | roman (a letter of an upright font) | box | brace, radical_top (pieces)
    alphabet: str = ""
    scale: str = ""  # a delimiter of the extension font: the size TeX chose (``\big``...: ``_SCALES``)

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2


def _alphanumeric_tex(ch: str) -> str:
    letter, alphabet = math_alphanumeric(ch)
    tex = SYMBOLS.get(letter, letter)
    return rf"\mathrm{{{tex}}}" if alphabet == "rm" and letter.isalpha() else \
        f"{alphabet}{{{tex}}}" if alphabet and alphabet != "rm" else tex


def glyph_atom(glyph: list) -> Atom | None:
    ch, x0, y0, x1, y1, base, size, font = glyph
    name = font.upper()
    # a variation selector after a symbol (newtx's ToUnicode writes \sum as U+2211 U+FE01) is no glyph
    ch = ch.rstrip("\ufe00\ufe01\ufe02\ufe03\ufe0e\ufe0f")
    # the Adobe Glyph List maps TeX's glyph name "Omega" (CMR's capital) to the ohm sign U+2126,
    # which PDFium picks: a character canonically one Greek letter is read as that letter
    ch = unicodedata.normalize("NFC", ch)
    if len(ch) > 1 and unicodedata.category(ch[0]).startswith("S") and all(unicodedata.combining(c) for c in ch[1:]):
        # one glyph whose ToUnicode adds a combining mark to a symbol (\sum as U+2211 U+0305 in a
        # real paper's own font map): the mark is the map's, not a glyph the page draws (an accent
        # over a formula is a glyph of its own), and no symbol of TeX is one with a mark
        ch = ch[0]
    if not ch:
        return None
    if name.startswith(("FOURIER-MATH-SYMBOLS", "KP--M-SY")):
        ch = _UNNAMED_SYMBOLS.get(ch, ch)
    if name.startswith(_SYMBOL_ONLY) and ch.isascii() and ch.isprintable():
        # a symbol font without ToUnicode: PDFium hands over its codes (ASCII), stmaryrd's \llbracket as "J"
        # (read "\mathrm{J}x\mathrm{K}"): no letter of such a font is one, the formula is unread
        raise Unreadable(f"{font} {ch!r}")
    alphabet = font_alphabet(name)
    kind = "ord"
    scale = ""
    code = ord(ch) - 0xE000 if len(ch) == 1 and 0xE000 <= ord(ch) <= 0xE020 else ord(ch) if len(ch) == 1 else -1
    code = CMEX_PIECES.get(code, code)
    if name.startswith("FOURIER-MATH-EXTENSION") and 161 <= code <= 196 and code not in (171, 172):
        # fourier-mex keeps cmex's codes 0-32 (\big( .. \Bigg() where dvips' fonts moved them, 161-196
        # (no ToUnicode: PDFium hands over "Ã" for \Bigg(, read \tilde{A} before)
        code -= 161 if code <= 170 else 163
    if name.startswith(MATHABX_FONTS):
        tex = mathabx_tex(name, ch)
        if tex is None:
            raise Unreadable(f"mathabx {ch!r}")
        if not tex:
            return None  # a piece of a tall delimiter
        if tex == r"\sqrt":
            kind = "radical"
        elif tex in _ACCENT_COMMANDS:
            kind = "accent"
    elif name.startswith(EXA_FONTS) and code in EXA:
        tex = EXA[code]
    elif name.startswith("FOURIER-MATH-EXTENSION") and code in FOURIER_EXTENSION_HIGH:
        tex = FOURIER_EXTENSION_HIGH[code]
    elif name.startswith(("TXEX", "PXEX")) and code in TXEX_HIGH:
        tex = TXEX_HIGH[code]
    elif name.startswith(EXTENSION_FONTS) and 0 <= code < 0x80:
        tex = CMEX.get(code)
        if tex is None:
            raise Unreadable(f"cmex {ord(ch):#x}")
        if not tex:
            return None  # a piece of a tall delimiter
        if tex in ("BRACE", "RADICAL_TOP"):  # a piece read with the others (``math_stacks``, ``stacked_pieces``)
            return Atom("", x0, y0, x1, y1, base, size, tex.lower())
        scale = _scale(code) if tex in DELIMITERS else ""
        if tex in ("HAT", "TILDE"):
            tex, kind = (r"\widehat" if tex == "HAT" else r"\widetilde"), "accent"
        if tex == "RADICAL":
            kind = "radical"
            tex = r"\sqrt"
    elif math_alphanumeric(ch) is not None:  # Cambria Math, STIX: the alphabet is in the character
        letter, alphabet = math_alphanumeric(ch)
        tex = SYMBOLS.get(letter, letter)
        if alphabet == "rm" and letter.isalpha():
            kind = "roman"
        elif alphabet and alphabet != "rm":
            tex = f"{alphabet}{{{tex}}}"
    elif len(ch) > 1 and all(math_alphanumeric(c) for c in ch):
        # one glyph whose ToUnicode gives several maths letters (𝛽𝛾): each letter in turn
        tex = " ".join(_alphanumeric_tex(c) for c in ch)
    elif ch in SYMBOL_PHI and adobe_symbol_font(name):
        tex = SYMBOL_PHI[ch]
    elif ch.isascii() and ch.isalpha():
        tex = ch
        if alphabet == "rm":
            kind = "roman"
        elif alphabet:
            tex = f"{alphabet}{{{ch}}}"
    elif ch.isdigit() and ch.isascii():
        tex = f"{alphabet}{{{ch}}}" if alphabet in (r"\mathbf", r"\boldsymbol") else ch
    elif ch in _OPENTYPE_DELIMITERS and "MATH" in name and not name.startswith(_TYPE1_MATH) \
            and _opentype_scale((y1 - y0) / max(size, 1.0), name) is not None:
        # an OpenType maths font (unicode-math, chromium's MathML) sets \big..\Bigg as taller variants
        # of the same character: read at the text's size (``(\frac{a}{b})``, ``\mid w\mid``) before
        tex, kind, scale = _OPENTYPE_DELIMITERS[ch], "delim", _opentype_scale((y1 - y0) / max(size, 1.0), name)
    elif ch in _ACCENTS:
        tex, kind = _ACCENTS[ch], "accent"
    elif ch == "\u0338":  # CMSY's \not: a slash drawn over the relation after it (``negations``)
        tex = r"\not"
    elif ch == "√":  # CMSY's radical, TeX's smallest \sqrt: read before SYMBOLS, which has it as \surd
        tex, kind = r"\sqrt", "radical"
    elif ch in SYMBOLS:
        tex = SYMBOLS[ch]
    elif ch in "()[]|/.,;:!?+-=<>'*@":
        tex = ch
    elif _accented(ch):  # a letter and its accent in one character (MathML's <mi>ŷ</mi>)
        tex = _accented(ch)
    else:
        raise Unreadable(repr(ch))
    if kind == "accent":
        return Atom(tex, x0, y0, x1, y1, base, size, kind, alphabet)
    if tex in BIG_OPERATORS:
        kind = "op"
    elif kind == "ord" and (name.startswith(EXTENSION_FONTS) or name.startswith("TEX-MATHX")
                            and tex in DELIMITERS):
        kind = "delim"
    if name == TEXT_FONT and (kind == "roman" or tex.isdigit() or tex == "-"):
        # a letter of a prose fragment inside the formula: a word of text (``words``); its digits
        # and hyphens too: \text{F1 Score}, \text{cosine-sim} (read "\text{F }1", "\text{cosine }-\text{sim }")
        kind, alphabet = "roman", "text"
    if alphabet == r"\boldsymbol" and tex.startswith("\\") and not tex.startswith("\\boldsymbol"):
        tex = rf"\boldsymbol{{{tex}}}"
    return Atom(tex, x0, y0, x1, y1, base, size, kind, alphabet, scale if kind == "delim" else "")


# glyphs of fourier's and kpfonts' symbol fonts whose names the Adobe Glyph List lacks (radicallow,
# mapstochar, emptysetstress): with no ToUnicode PDFium hands over their codes ("p", "7", ";"), which
# read \mathrm{p}2\pi for \sqrt{2\pi} and "a7\to b" for \mapsto (no digit or letter is set in these fonts)
_UNNAMED_SYMBOLS = {"p": "√", "7": "↦", ";": "∅"}

_OPENTYPE_DELIMITERS = {"(": "(", ")": ")", "[": "[", "]": "]", "{": r"\{", "}": r"\}", "|": "|", "∣": "|",
                        "‖": r"\|", "⟨": r"\langle", "⟩": r"\rangle"}


# symbol fonts of TeX's packages that set no letters (stmaryrd, wasysym, latexsym, MnSymbol, fdsymbol,
# esint, marvosym, bbding, pifont's dingbats)
_SYMBOL_ONLY = ("STMARY", "WASY", "LASY", "MNSYMBOL", "FDSYMBOL", "ESINT", "MARVOSYM", "BBDING", "ZAPFDINGBATS",
                "PZDR", "DINGBAT")
# TeX's Type 1 maths fonts with "MATH" in their names, their delimiters at the text's size a full em
# tall (lmodern's LMMathSymbols10 "|": read as an OpenType font's \big|, ``q(z\big|x)``)
_TYPE1_MATH = (*EXTENSION_FONTS, "LMMATH", "FOURIER-MATH", "TEX-MATH")
# Latin Modern Math and New Computer Modern Math keep cmex's heights: "(" 1.0 em, \big 1.1, \Big 1.8
_CM_LIKE = ("LATINMODERNMATH", "NEWCMMATH", "NEWCM10MATH")


def _opentype_scale(height: float, name: str = "") -> str | None:
    """The size of an OpenType maths font's delimiter variant by its ink's height in em (Termes Math:
    \big 0.99, \Big 1.40, \bigg 2.05, \Bigg 2.43; a glyph at the text's size 0.82): None for the
    text's size, "" for one taller than \Bigg (an extensible one, ``\left``)."""
    ladder = ((1.05, None), (1.45, r"\big"), (2.1, r"\Big"), (2.7, r"\bigg"), (3.4, r"\Bigg")) \
        if name.startswith(_CM_LIKE) else ((0.95, None), (1.2, r"\big"), (1.7, r"\Big"), (2.2, r"\bigg"), (3.0, r"\Bigg"))
    for limit, scale in ladder:
        if height < limit:
            return scale
    return ""


# the sizes of cmex's delimiters by code (the layout its followers share: txex, pxex, lmex, kpfonts',
# fourier's, euex): \big 0x00-0x0B and 0x0E-0x0F, \Big 0x10-0x11, 0x2E-0x2F, 0x44-0x45 and
# 0x68-0x6F, \bigg 0x12-0x1F, \Bigg 0x20-0x2D; the bars 0x0C, 0x0D are also the pieces of taller
# ones, and the pieces from 0x30 on build a delimiter taller than \Bigg (``\left``): no size
def _scale(code: int) -> str:
    if 0x00 <= code <= 0x0B or code in (0x0E, 0x0F):
        return r"\big"
    if code in (0x10, 0x11, 0x2E, 0x2F, 0x44, 0x45) or 0x68 <= code <= 0x6F:
        return r"\Big"
    if 0x12 <= code <= 0x1F:
        return r"\bigg"
    return r"\Bigg" if 0x20 <= code <= 0x2D else ""


# relations with a symbol of their own once negated (KaTeX knows \not before any other)
_NEGATED = {"=": r"\neq", r"\in": r"\notin"}


def negations(atoms: list[Atom]) -> list[Atom]:
    """TeX's \\not (``\\ne`` is ``\\not=``) is a slash glyph drawn over the relation that follows it,
    and LaTeX's \\notin a "/" centred on the "∈": the two are one negated relation (a "/" of a
    quotient overlaps no neighbour by half)."""
    def over_by_half(a: Atom, slash: Atom) -> bool:
        return min(a.x1, slash.x1) - max(a.x0, slash.x0) > 0.5 * min(a.x1 - a.x0, slash.x1 - slash.x0)

    for slash in [a for a in atoms if a.tex == r"\not" or a.tex == "/" and a.kind == "ord"]:
        over = [a for a in atoms if a is not slash and a.x0 < slash.x1 and slash.x0 < a.x1
                and abs(a.base - slash.base) < 0.3 * a.size
                and (slash.tex == r"\not" or a.tex in _NEGATED and over_by_half(a, slash))]
        if not over:
            continue
        rel = min(over, key=lambda a: abs(a.cx - slash.cx))
        both = (slash, rel)
        atoms = [a for a in atoms if a is not slash and a is not rel] + [Atom(
            _NEGATED.get(rel.tex, r"\not" + rel.tex), min(a.x0 for a in both), min(a.y0 for a in both),
            max(a.x1 for a in both), max(a.y1 for a in both), rel.base, rel.size, rel.kind, rel.alphabet)]
    return atoms


_MULTIPLE = {2: r"\iint", 3: r"\iiint", 4: r"\iiiint"}


def multiple_integrals(atoms: list[Atom]) -> list[Atom]:
    """amsmath sets \\iint and \\iiint from fonts without those glyphs (Computer Modern, Times) as
    \\int signs kerned into each other: overlapping (or touching) integral signs are one multiple integral
    (\\int\\int in a source leaves a space between them)."""
    ints = sorted((a for a in atoms if a.tex == r"\int" and a.kind == "op"), key=lambda a: a.x0)
    runs: list[list[Atom]] = []
    for a in ints:
        # (eulervm's narrow upright signs are set 0.3 pt apart at 10 pt, a source's \int\int 2.4 pt)
        if runs and a.x0 < runs[-1][-1].x1 + 0.1 * a.size and abs(a.base - runs[-1][-1].base) < 0.1 * a.size:
            runs[-1].append(a)
        else:
            runs.append([a])
    for run in runs:
        if len(run) in _MULTIPLE:
            gone = {id(a) for a in run}
            atoms = [a for a in atoms if id(a) not in gone] + [Atom(
                _MULTIPLE[len(run)], run[0].x0, min(a.y0 for a in run), run[-1].x1, max(a.y1 for a in run),
                run[0].base, run[0].size, "op", run[0].alphabet)]
    return atoms


def union(atoms: list[Atom], tex: str, base: float, size: float, kind: str = "box") -> Atom:
    """One atom standing for several (a fraction, a script group, a word): their joint box."""
    return Atom(tex, min(a.x0 for a in atoms), min(a.y0 for a in atoms), max(a.x1 for a in atoms),
                max(a.y1 for a in atoms), base, size, kind)
