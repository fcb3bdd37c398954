"""Does a page's text layer read as language? Routing for ``auto``.

A broken font encoding (a ToUnicode map shifted by one: ``Oqnbddchmfr`` for ``Proceedings``) gives
text without U+FFFD that no count of replacement characters flags. Two language statistics do:
the letter distribution (cosine similarity to English letter frequencies; text in other Latin
languages stays above ~0.8, shifted or scrambled letters fall far below) and the share of words
that are among the most frequent English words (function words make ~40 % of running English).

The letters are counted on a page's distinct words as well, without their accents: a list of names,
addresses or part numbers repeats a few words ("SUS GmbH" 12 times, "XXXXXXXXXX" as a placeholder) that
weighed as much as the rest of the page (an Excel list of German firms fell to 0.49, its distinct words
read 0.77), and accented letters (Polish, Turkish, Vietnamese) were no letters. Where either count
falls short of a language's, or a long page has no function words (a list has none), the words are
asked two more things a broken map's letters fail: syllables, and a language's case. In the languages
written in Latin letters vowels and consonants alternate (0.56 or more of the letter pairs of distinct
words in names, codes and prose of German, French, Spanish, Polish, Turkish, Vietnamese, Azerbaijani,
Swahili) where a shifted or permuted alphabet puts its vowels on other letters (0.12 under the fault
suite's pdfTeX map, at most 0.54 under other shifts and permutations of those lists but for the
Vietnamese one, whose short syllables survive a few); and a word is
written in small letters, capitalised or in capitals, where a font mapping Cyrillic glyphs to Latin
look-alikes writes "CyMMa" and "TeHHe". A page whose words are mostly of another script is read when
they are of one script (``one_script``) and its Han and Hangul read as a language's (``readable_cjk``);
else its few Latin letters are judged as printed.
"""
from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter

# Relative letter frequencies of English (a..z), a published general-corpus table.
_ENGLISH = [8.17, 1.49, 2.78, 4.25, 12.70, 2.23, 2.02, 6.09, 6.97, 0.15, 0.77, 4.03, 2.41, 6.75, 7.51,
            1.93, 0.10, 5.99, 6.33, 9.06, 2.76, 0.98, 2.36, 0.15, 1.97, 0.07]
_FUNCTION_WORDS = frozenset(
    "the of and to in a is that for it as with was on be by are this we an or from at which not can "
    "have has our these their its than more also but been were such each all one two between when "
    "where there into only both other most may over how they then so if no".split())
_WORD = re.compile(r"[^\W\d_]+")
_VOWELS = frozenset("aeiouy")
# words whose letters are only half a language's read as language when their vowels and consonants
# alternate this much (see above: 0.56 the least of the lists, 0.54 the most of most garbles)
SYLLABIC = 0.55
# ... and fewer of its words than this turn to capitals after a small letter (a name's "GmbH", "McKay")
MIXED_CASE = 0.2


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


def _unaccented(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def syllabic_share(words: list[str]) -> float:
    """Of the pairs of Latin letters inside ``words`` (lower case, unaccented), the share of a vowel
    beside a consonant (other scripts have no such pairs)."""
    pairs = alternating = 0
    for word in words:
        for a, b in zip(word, word[1:], strict=False):
            if "a" <= a <= "z" and "a" <= b <= "z":
                pairs += 1
                alternating += (a in _VOWELS) != (b in _VOWELS)
    return alternating / pairs if pairs else 1.0


def mixed_case_share(words: set[str]) -> float:
    """The share of ``words`` (as printed) with a capital right after a small letter."""
    mixed = sum(any(a.islower() and b.isupper() for a, b in zip(w, w[1:], strict=False)) for w in words)
    return mixed / len(words) if words else 0.0


# scripts one language writes together in a word or a page (Japanese: kanji and both kana)
_FAMILY = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK", "IDEOGRAPHIC": "CJK", "BOPOMOFO": "CJK"}
# a page's words in another script than Latin read as its text when this share of them is of one
# script, each word of one script alone
ONE_SCRIPT = 0.9


def _script(ch: str) -> str:
    """A letter's script, by the first word of its Unicode name ("CYRILLIC SMALL LETTER A")."""
    first = unicodedata.name(ch, "?").split(" ")[0]
    return _FAMILY.get(first, first)


def one_script(words: list[str]) -> bool:
    """Are ``words`` (a page's distinct words, mostly not Latin) written in one script, each word in
    one script alone? A text layer in Russian, Greek, Arabic, Hebrew, Chinese, Japanese or Hindi is
    that: their fonts map glyphs to their letters. A broken map writes letters of any script, and a
    font mapping Cyrillic glyphs to Latin look-alikes mixes both in a word ("Mосква"), so its words
    mix scripts. (The Latin-letter test below cannot judge these pages: they have no Latin letters.)"""
    scripts = [{_script(c) for c in w} for w in words]
    single = [next(iter(s)) for s in scripts if len(s) == 1]
    if not words or len(single) < ONE_SCRIPT * len(words):
        return False
    top = max(set(single), key=single.count)
    return top != "LATIN" and single.count(top) >= ONE_SCRIPT * len(words)


def _common_han(ch: str) -> bool:
    """A Han character among the frequent ones of Chinese or Japanese: the first level of GB 2312
    (3,755 characters, rows 16-55), Big5's frequent block (5,401, lead bytes A4-C6) or JIS X 0208's
    first level (2,965, rows 16-47)."""
    for codec, low, high in (("gb2312", 0xB0, 0xD7), ("big5", 0xA4, 0xC6), ("euc_jp", 0xB0, 0xCF)):
        try:
            code = ch.encode(codec)
        except UnicodeEncodeError:
            continue
        if len(code) == 2 and low <= code[0] <= high:
            return True
    return False


def readable_cjk(text: str) -> bool:
    """Do a page's Han characters and Hangul syllables read as a language's? In running Chinese and
    Japanese 99 % of the Han characters are frequent ones (``_common_han``; the robustness corpus'
    real pages: 0.994 and more), where a broken CID map that draws the right glyphs under other
    characters gives rare ones (its Chinese declaration of human rights: 0.68); Korean spreads its
    syllables over many first consonants, where an alphabet shifted into the Hangul block lands on one
    or two (a shifted Russian page: all its syllables open on ㅋ or ㅌ)."""
    han = [c for c in text if "\u4e00" <= c <= "\u9fff"]
    if len(han) >= 20 and sum(map(_common_han, han)) < 0.9 * len(han):
        return False
    initials = [(ord(c) - 0xAC00) // 588 for c in text if "\uac00" <= c <= "\ud7a3"]
    if len(initials) >= 20:
        top_two = sum(n for _, n in Counter(initials).most_common(2))
        return top_two <= 0.7 * len(initials)
    return True


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
    distinct = sorted({_unaccented(w) for w in long_words})  # (a repeated name counts once)
    similarity = letter_similarity(" ".join(distinct)) if len(distinct) >= 8 else letter_similarity(text)
    # ... and as printed, repeats and all
    printed_similarity = letter_similarity(" ".join(long_words)) if len(long_words) >= 8 else similarity
    if bad / len(visible) > 0.05:
        # unreadable glyphs on a page whose words read as English: a figure's labels set in a font
        # without Unicode, the body is fine (OCR of the whole page would read it worse and 100x slower)
        if len(words) >= 100 and printed_similarity >= 0.9 and function_share >= 0.2:
            return "prose"
        return "garbled"
    if len(words) < 8 or len(long_words) < 0.2 * len(words):
        return "prose"  # (a page of formulas: variables and subscripts, no language to measure)
    latin = [w for w in distinct if all("LATIN" in unicodedata.name(c, "") for c in w)]
    if 2 * len(latin) < len(distinct):
        if one_script(distinct) and readable_cjk(text):
            return "prose"  # a text layer in Cyrillic, Greek, Arabic, Hebrew, CJK, Devanagari...
        # words of no one script: its few Latin letters are judged as printed, as before
        if printed_similarity < 0.6 or (len(long_words) >= 30 and function_share < 0.04 and printed_similarity < 0.8):
            return "garbled"
        return "prose"
    if similarity < 0.6:
        return "garbled"
    least = min(similarity, printed_similarity)
    if least < 0.6 or (len(long_words) >= 30 and function_share < 0.04 and least < 0.8):
        # letters half like a language's, counted either way (or no function words on a long page): a
        # list of names still shows syllables and a language's case, a broken map's letters do not
        printed = {w for w in _WORD.findall(text) if len(w) >= 3}
        if syllabic_share(latin) < SYLLABIC or mixed_case_share(printed) >= MIXED_CASE:
            return "garbled"
    return "prose"
