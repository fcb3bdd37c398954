"""Does a page's text layer read as language? Routing for ``auto``.

A broken font encoding (a ToUnicode map shifted by one: ``Oqnbddchmfr`` for ``Proceedings``) gives
text without U+FFFD that no count of replacement characters flags. Two language statistics do:
the letter distribution (cosine similarity to English letter frequencies; text in other Latin
languages stays above ~0.8, shifted or scrambled letters fall far below) and the share of words
that are among the most frequent English words (function words make ~40 % of running English).
"""
from __future__ import annotations

import math
import re

# Relative letter frequencies of English (a..z), a published general-corpus table.
_ENGLISH = [8.17, 1.49, 2.78, 4.25, 12.70, 2.23, 2.02, 6.09, 6.97, 0.15, 0.77, 4.03, 2.41, 6.75, 7.51,
            1.93, 0.10, 5.99, 6.33, 9.06, 2.76, 0.98, 2.36, 0.15, 1.97, 0.07]
_FUNCTION_WORDS = frozenset(
    "the of and to in a is that for it as with was on be by are this we an or from at which not can "
    "have has our these their its than more also but been were such each all one two between when "
    "where there into only both other most may over how they then so if no".split())
_WORD = re.compile(r"[^\W\d_]+")


def letter_similarity(text: str) -> float:
    counts = [0] * 26
    for ch in text.lower():
        index = ord(ch) - 97
        if 0 <= index < 26:
            counts[index] += 1
    norm = math.sqrt(sum(c * c for c in counts))
    if not norm:
        return 0.0
    english = math.sqrt(sum(e * e for e in _ENGLISH))
    return sum(c * e for c, e in zip(counts, _ENGLISH, strict=False)) / (norm * english)


def classify_text(text: str, images: int = 0) -> str:
    """``prose`` (trust the text layer), ``no_text``, ``image_only`` or ``garbled``."""
    visible = [c for c in text if not c.isspace()]
    if len(visible) < 80:
        # a short page: a scan (an image, a stamp of text) or nothing is OCR'd; a page whose text
        # layer holds a line of words (a paper's last line, an appendix stub) is that line
        if images or sum(1 for w in _WORD.findall(text) if len(w) >= 3) < 2:  # ("Figure 3": a label)
            return "image_only" if images else "no_text"
        return "prose"
    # (U+E000-E020: TeX's big delimiters, which ``pdftext`` itself keeps there by code)
    bad = sum(1 for c in visible if c == "\ufffd" or "\ue020" < c <= "\uf8ff" or ord(c) < 32)
    words = [w.lower() for w in _WORD.findall(text)]
    # letters of words, not of formulas: a page of mathematics is mostly one-letter variables
    long_words = [w for w in words if len(w) >= 3]
    function_share = sum(w in _FUNCTION_WORDS for w in words) / len(words) if words else 0.0
    similarity = letter_similarity(" ".join(long_words)) if len(long_words) >= 8 else letter_similarity(text)
    if bad / len(visible) > 0.05:
        # unreadable glyphs on a page whose words read as English: a figure's labels set in a font
        # without Unicode, the body is fine (OCR of the whole page would read it worse and 100x slower)
        if len(words) >= 100 and similarity >= 0.9 and function_share >= 0.2:
            return "prose"
        return "garbled"
    if len(words) < 8 or len(long_words) < 0.2 * len(words):
        return "prose"  # (a page of formulas: variables and subscripts, no language to measure)
    if similarity < 0.6 or (len(long_words) >= 30 and function_share < 0.04 and similarity < 0.8):
        return "garbled"
    return "prose"
