"""Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms).

A browser (chromium's print, Skia) and most producers write an RTL line's characters in logical
order, each glyph placed left of the one before. The text layer's builder cut a fragment wherever
the next character stood left of the last (a line going back), so such a line came out glyph by
glyph, each glyph a fragment, then sorted left to right into visual order, its letters spaced
("ת. ברי ע ב ט פ ש מ" for "שלום עולם, זהו משפט בעברית."). Here an RTL run goes on while each next
character (a letter of an RTL script, or a mark, digit or punctuation inside such a run) stands
left of the run's box, no wider apart than a fragment's gap; its text stays in logical order. A
number inside the run is written left to right and goes on as text does. A line whose letters
are mostly RTL reads its fragments right to left (``line_order``).
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ocr_ray.layout.model import Fragment


def is_rtl(ch: str) -> bool:
    """A character of an RTL script (U+0590-U+08FF: Hebrew to Arabic Extended; U+FB1D-U+FEFC:
    Hebrew and Arabic presentation forms)."""
    return "\u0590" <= ch <= "\u08ff" or "\ufb1d" <= ch <= "\ufefc"


def goes_on_leftward(ch: str, x0: float, x1: float, box: list[float], unit: float, split: float) -> bool:
    """Does character ``ch`` (``x0``-``x1``) continue an RTL run whose box is ``box``: an RTL letter,
    or no letter at all, standing left of the box (by half a character at most into it: Arabic's
    joined glyphs overlap) within ``split`` ems of it, or a combining mark (a vowel point, a harakat)
    over the run's glyphs?"""
    if unicodedata.combining(ch):
        return box[0] - split * unit <= x0 and x1 <= box[2] + 0.5 * unit
    return (is_rtl(ch) or not ch.isalpha()) and x1 <= box[0] + 0.5 * unit and box[0] - x1 <= split * unit


def changes_direction(ch: str, rtl: bool) -> bool:
    """Does ``ch`` not go on the current fragment (running right to left when ``rtl``) by its
    direction: an RTL letter that did not go on leftward, or a letter of another script after an
    RTL run? Each fragment then holds one direction: Writer's PDF gives an Arabic phrase inside a
    Latin sentence word by word left to right ("العربية إله لا" for "لا إله العربية"), each word a
    fragment that ``line_order`` reads in the phrase's own direction."""
    return is_rtl(ch) or rtl and ch.isalpha()


def _rtl(f: Fragment) -> bool | None:
    """A fragment's direction by its letters: True (mostly RTL), False (mostly not), None (no letters)."""
    letters = [ch for ch in f.text if ch.isalpha()]
    return 2 * sum(map(is_rtl, letters)) > len(letters) if letters else None


def line_order(frags: Sequence[Fragment]) -> list[Fragment]:
    """A line's fragments in reading order. Left to right, or right to left when two thirds of its
    letters belong to an RTL script ("Hebrew: שלום עולם" is a Latin line); inside it, a run of
    fragments one after the other in the other direction (Writer writes an Arabic phrase inside a
    Latin sentence word by word, left to right: "العربية إله لا" for "لا إله العربية") is read in
    its own direction."""
    if not any(is_rtl(ch) for f in frags for ch in f.text):
        return list(frags)
    letters = [ch for f in frags for ch in f.text if ch.isalpha()]
    base = 3 * sum(map(is_rtl, letters)) > 2 * len(letters)
    ordered = sorted(frags, key=lambda f: -f.x1 if base else f.x0)
    out: list[Fragment] = []
    run: list[Fragment] = []
    for f in ordered + [None]:
        if f is not None and _rtl(f) is (not base):
            run.append(f)
            continue
        out += run[::-1]
        run = []
        if f is not None:
            out.append(f)
    return out
