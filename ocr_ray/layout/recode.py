"""Recoding a text layer whose font lies about its characters, from a few OCR'd lines.

A broken ``ToUnicode`` map (a font subset that names its glyphs wrongly, a custom encoding without
a map) is a property of one font: the glyph drawn as "P" always claims the same wrong code, so
the text layer reads ``Oqnbddchmfr`` for "Proceedings" on every page. The positions, sizes,
fonts, table cells and ruling lines of those characters are all still right; only their codes
are wrong. So, rather than OCR every page (and lose tables and equations to a CPU OCR engine,
and ~10 s a page), a few of the page's own lines are OCR'd, each OCR'd line is lined up with
its text-layer fragment word by word, and every (font, code) pair votes for the character OCR
saw. The winning votes form a substitution table per font that recodes every fragment of the
paper. The table is used only if it explains the OCR'd sample (``RECODE_MIN_AGREEMENT``) and the
recoded text reads as language; otherwise the pages are OCR'd whole, as before.

Pure functions: choosing the sample, learning the table, applying it. Cropping and OCR live in
``ocr_ray.text_repair``.
"""
from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher

from ocr_ray.layout.model import Fragment

# A (font, code) entry needs this many votes and this share of them for one character; a code
# seen once (a capital that starts one heading) is taken when nothing contradicts its one vote.
MIN_VOTES = 2
MIN_SHARE = 0.6
# The recoded sample must match what OCR read this well (difflib ratio, length-weighted).
RECODE_MIN_AGREEMENT = 0.9
# Votes wanted per (font, code) before the sample stops looking for lines that contain it.
WANTED_VOTES = 3
MAX_CANDIDATES = 600
# OCR cost of a line beyond its characters, in characters: a gain per cost picks short lines
# that hold what is still needed rather than long lines of letters already voted for
LINE_COST = 20


@dataclass
class Recoding:
    """Per font (``""``: all fonts pooled), code -> the character the page shows."""
    tables: dict[str, dict[str, str]] = field(default_factory=dict)

    def char(self, font: str, ch: str) -> str:
        table = self.tables.get(font)
        if table is not None and ch in table:
            return table[ch]
        return self.tables.get("", {}).get(ch, ch)

    def text(self, font: str, text: str) -> str:
        return "".join(self.char(font, ch) for ch in text)

    def fragment(self, fragment: Fragment) -> Fragment:
        return replace(fragment, text=self.text(fragment.font, fragment.text))


def _sampleable(fragment: Fragment) -> bool:
    # OCR reads formulas badly and very short fragments (a page number, "(1)") tell little; a
    # single word is kept: a heading or a table's header may hold the only capital "M" or "B".
    letters = sum(ch.isalpha() for ch in fragment.text)
    return fragment.math < 0.3 and letters >= 4


def choose_sample(fragments: list[tuple[int, Fragment]], budget: int) -> list[tuple[int, Fragment]]:
    """Up to ``budget`` (page, fragment) pairs whose characters cover as many (font, code) keys as
    possible, each wanted ``WANTED_VOTES`` times: greedy cover, first of the keys without any vote
    (the one word holding a rare capital beats a long line of common letters), longer lines first
    on ties."""
    candidates = [(page, f) for page, f in fragments if _sampleable(f)]
    candidates.sort(key=lambda item: -len(item[1].text))
    del candidates[MAX_CANDIDATES:]  # the greedy cover is quadratic; a long paper has thousands of lines
    # each candidate's (font, code) keys and how often it holds them, counted once
    counted = [(item, Counter((item[1].font, ch) for ch in item[1].text if ch != " ")) for item in candidates]
    need: Counter = Counter({key: WANTED_VOTES for _, counts in counted for key in counts})

    def gain(counts: Counter) -> int:
        # a key not voted on at all outweighs any number of extra votes for common letters
        unseen = sum(need[key] == WANTED_VOTES for key in counts)
        return 1000 * unseen + sum(min(n, need[key]) for key, n in counts.items())

    chosen: list[tuple[int, Fragment]] = []
    while counted and len(chosen) < budget:
        best = max(counted, key=lambda entry: gain(entry[1]) / (len(entry[0][1].text) + LINE_COST))
        if gain(best[1]) == 0:
            break
        counted.remove(best)
        chosen.append(best[0])
        for key, n in best[1].items():
            need[key] = max(0, need[key] - n)
    return chosen


def _words(text: str) -> list[str]:
    return unicodedata.normalize("NFKC", text).split()


def aligned_pairs(garbled: str, seen: str) -> list[tuple[str, str]]:
    """Character pairs (text-layer code, OCR'd character) of words that line up: words are matched
    by their lengths (a substitution keeps a word's length; OCR may merge or split a word, which
    the matcher skips), then characters by position."""
    g_words, o_words = garbled.split(), _words(seen)
    matcher = SequenceMatcher(None, [len(w) for w in g_words], [len(w) for w in o_words], autojunk=False)
    pairs = []
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            pairs += zip(g_words[block.a + k], o_words[block.b + k], strict=False)
    return pairs


def learn(samples: list[tuple[Fragment, str]]) -> Recoding:
    """A substitution table per font from (text-layer fragment, what OCR read on its box)."""
    votes: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for fragment, seen in samples:
        for code, ch in aligned_pairs(fragment.text, seen):
            if len(unicodedata.normalize("NFKC", code)) > 1:
                continue  # a ligature glyph (``pdftext``) is several letters: a word of it never lines up
            votes[fragment.font][code][ch] += 1
            votes[""][code][ch] += 1
    tables: dict[str, dict[str, str]] = {}
    for font, by_code in votes.items():
        table = {}
        for code, counter in by_code.items():
            ch, n = counter.most_common(1)[0]
            if (n >= MIN_VOTES and n / sum(counter.values()) >= MIN_SHARE) or len(counter) == 1:
                table[code] = ch
        tables[font] = table
    return Recoding(tables)


def cross_agreement(samples: list[tuple[Fragment, str]]) -> float:
    """Agreement of a table learnt on one half of the sample with the other half, both ways: a
    table always explains the lines it was learnt from, a real substitution also explains others."""
    halves = samples[0::2], samples[1::2]
    if not halves[1]:
        return 0.0
    scores = [agreement(learn(train), test) for train, test in (halves, halves[::-1])]
    return sum(scores) / len(scores)


def agreement(recoding: Recoding, samples: list[tuple[Fragment, str]]) -> float:
    """How well the recoded sample matches what OCR read (length-weighted difflib ratio, compared
    without spaces: OCR's word breaks are not the question here)."""
    weighted = length = 0.0
    for fragment, seen in samples:
        ours = recoding.text(fragment.font, fragment.text).replace(" ", "")
        theirs = "".join(_words(seen))
        if not ours and not theirs:
            continue
        n = max(len(ours), len(theirs))
        weighted += SequenceMatcher(None, ours, theirs, autojunk=False).ratio() * n
        length += n
    return weighted / length if length else 0.0
