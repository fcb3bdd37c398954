"""TeX's own English hyphenation: could pdflatex have broken this word at this place?

A hyphen at the end of a line is either TeX's hyphenation of an ordinary word (to be dropped when
the lines are joined) or the word's own hyphen (``BiMI-enhanced``, ``re-parameterisation``). TeX
only ever breaks a word where its patterns allow, so a break the patterns do not allow is the
word's own hyphen. The patterns are Knuth's ``hyphen.tex`` (shipped unmodified in ``data/``, as its
licence asks: "Unlimited copying and redistribution of this file are permitted as long as this file
is not modified"), the US English patterns pdflatex loads for ``english``; the lookup is Liang's
algorithm (The TeXbook, appendix H). pyphen was tried first: its LibreOffice dictionary is not
TeX's and rejects breaks TeX makes on real papers ("as-pect", "rieman-nian", "fi-nally").
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

PATTERNS_FILE = Path(__file__).parent / "data" / "hyphen.tex"


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, list[int]], dict[str, set[int]], int]:
    """Patterns (letters -> inter-letter values), exceptions (word -> break positions), longest pattern."""
    text = PATTERNS_FILE.read_text(encoding="latin-1")
    body = re.sub(r"%.*", "", text)
    patterns_part = re.search(r"\\patterns\{(.*?)\}", body, re.S).group(1)
    exceptions_part = re.search(r"\\hyphenation\{(.*?)\}", body, re.S).group(1)
    patterns: dict[str, list[int]] = {}
    for pattern in patterns_part.split():
        letters = re.sub(r"\d", "", pattern)
        values = [0] * (len(letters) + 1)
        position = 0
        for ch in pattern:
            if ch.isdigit():
                values[position] = int(ch)
            else:
                position += 1
        patterns[letters] = values
    exceptions = {}
    for word in exceptions_part.split():
        parts = word.split("-")
        exceptions["".join(parts)] = {sum(len(p) for p in parts[:i]) for i in range(1, len(parts))}
    return patterns, exceptions, max(map(len, patterns))


@functools.lru_cache(maxsize=65536)
def break_points(word: str) -> frozenset[int]:
    """Where TeX may hyphenate ``word`` (letters before the break), lefthyphenmin 2, righthyphenmin 2."""
    word = word.lower()
    patterns, exceptions, longest = _tables()
    if word in exceptions:
        return frozenset(exceptions[word])
    padded = f".{word}."
    values = [0] * (len(padded) + 1)
    for start in range(len(padded)):
        for end in range(start + 1, min(len(padded), start + longest) + 1):
            found = patterns.get(padded[start:end])
            if found:
                for k, v in enumerate(found):
                    if v > values[start + k]:
                        values[start + k] = v
    # values[i] sits before padded[i]; a break after the word's j-th letter is values[j + 1]
    return frozenset(j for j in range(2, len(word) - 1) if values[j + 1] % 2)


def hyphenation_point(left: str, right: str) -> bool:
    """Could TeX have broken ``left + right`` between the two?"""
    return len(left) in break_points(left + right)
