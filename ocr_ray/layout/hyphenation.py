"""TeX's own English hyphenation: could pdflatex have broken this word at this place?

A hyphen at the end of a line is either TeX's hyphenation of an ordinary word (to be dropped when
the lines are joined) or the word's own hyphen (``BiMI-enhanced``, ``re-parameterisation``). TeX
only ever breaks a word where its patterns allow, so a break the patterns do not allow is the
word's own hyphen. The patterns are Knuth's ``hyphen.tex`` (shipped unmodified in ``data/``, as its
licence asks: "Unlimited copying and redistribution of this file are permitted as long as this file
is not modified"), the US English patterns pdflatex loads for ``english``; the lookup is Liang's
algorithm (The TeXbook, appendix H). pyphen was tried first: its LibreOffice dictionary is not
TeX's and rejects breaks TeX makes on real papers ("as-pect", "rieman-nian", "fi-nally").

The patterns are not the last word: a paper may add its own exceptions (``\hyphenation{Web-Assembly}``,
``\hyphenation{equi-valent}``), and a compound's own hyphen often falls where the patterns would
break too ("self-generated", "human-centric"). So ``own_hyphen`` asks the paper first: how it writes
the two halves elsewhere (``compounds``: the word whole, the pair hyphenated, either half as part of
another compound), then the shape of the halves, and only then the patterns.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping
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


_COMPOUND = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")
_WORD = re.compile(r"[^\W\d_]+-?")
_LIGATURES = re.compile("[\ufb00-\ufb06]")


def _letters(text: str) -> str:
    return _LIGATURES.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)


def compounds(texts: list[str]) -> Counter:
    """What a paper writes within its lines, counted: hyphenated word pairs (``next-token``: the
    evidence that a hyphen at a line end between the same two words is the compound's own), each
    compound's first and later parts (``self-`` and ``-based`` as keys: "self-supervised" is evidence
    for "self-generated"), and plain words (``finetune`` written whole elsewhere: the hyphen at a
    line end was TeX's). Lower case, ligatures as letters."""
    out: Counter = Counter()
    for text in texts:
        text = _letters(text)
        for word in _COMPOUND.findall(text):
            parts = word.lower().split("-")
            for a, b in zip(parts, parts[1:], strict=False):
                out[f"{a}-{b}"] += 1
                out[f"{a}-"] += 1
                out[f"-{b}"] += 1
        # not a line's first word: it may be the second half of a word hyphenated on the line before
        out.update(w.lower() for w in _WORD.findall(text)[1:] if not w.endswith("-"))
    return out


def _count(known: Mapping[str, int] | set[str] | frozenset, key: str) -> int:
    return known.get(key, 0) if isinstance(known, Mapping) else int(key in known)


def own_hyphen(left: str, token: str, known: Mapping[str, int] | set[str] | frozenset = frozenset()) -> bool:
    """Is a line-end hyphen after ``left`` (the letters before it) the word's own (kept) rather than
    TeX's? ``token`` is the next line's first word as printed (``of-the-art``, ``Stream's``).

    In order: a hyphen inside the next word (``state-`` + ``of-the-art``): pdfTeX does not hyphenate
    a word that holds an explicit hyphen, so the break is at one of its hyphens. Then the paper's
    own spelling: the word whole (``WebAssembly``, ``equivalent``) more often than the hyphenated
    pair -> TeX's; the pair more often -> own. Then the halves' shapes: a capital after it
    (``ensemble-Kalman``) or an acronym before it (``AC-collection``) -> own. Then TeX's patterns:
    a break they do not allow is the word's own (``BiMI-enhanced``). Then, for words long enough
    not to be a particle (``re``, ``in``, ``pre`` also start ordinary words), either half used in
    another compound of the paper (``self-supervised`` -> ``self-generated``; ``model-based`` ->
    ``pull-based``), or both halves words of the paper never written together -> own."""
    tail = re.match(r"[^\W\d_]*", token).group(0)
    if re.match(r"[^\W\d_]+-[^\W\d_]", token):
        return True
    l_low, t_low = _letters(left).lower(), _letters(tail).lower()
    pair, whole = _count(known, f"{l_low}-{t_low}"), _count(known, l_low + t_low)
    if pair != whole:
        return pair > whole
    if not tail[:1].islower() or (len(left) >= 2 and left.isupper()):
        return True
    if not hyphenation_point(_letters(left), _letters(tail)):  # "ﬁ-nally": the ligature is two letters
        return True
    if (len(l_low) >= 4 and _count(known, f"{l_low}-")) or (len(t_low) >= 4 and _count(known, f"-{t_low}")):
        return True
    return len(left) >= 3 and len(tail) >= 3 and _count(known, l_low) > 0 and _count(known, t_low) > 0


_LINE_END_HYPHEN = re.compile(r"(\S*[^\W\d_])-$")  # the word (letters last) before a line-end hyphen

# a hyphen after a digit (TeX hyphenates no number: "5-year", "F1-scores", "50-55%") or a dash set
# close after a word ("training—not"): the line broke inside the word, there is no space to restore
_CLOSE_DASH = re.compile(r"(?:\d-|[^\W_][\u2013\u2014])$")


def join_lines(texts: list[str], known: Mapping[str, int] | set[str] | frozenset = frozenset()) -> str:
    """Reflow: lines joined by spaces. A hyphen at a line end is TeX's hyphenation (dropped, the word
    joined again) or the word's own (kept): ``hyphenation.own_hyphen`` decides from the two halves
    and what the paper writes elsewhere (``known``, from ``compounds``). A digit after it is a
    range or a name (``GPT-4``): kept. Linear in the paragraph: the rules read the joined text's
    tail only (a paragraph of thousands of lines searched its whole text at every line)."""
    parts: list[str] = []
    for text in texts:
        text = text.strip()
        tail = "".join(parts[-4:])[-256:] if parts else ""
        hyphen = _LINE_END_HYPHEN.search(tail) if tail and text else None
        if not parts:
            if text:
                parts.append(text)
        elif hyphen and text[:1].isalpha():
            head = hyphen.group(1)
            left = re.search(r"[^\W\d_]*$", head.rsplit("-", 1)[-1]).group(0)  # "(as-": the word is "as"
            keep = "-" in head or own_hyphen(left, text.split()[0], known)
            if not keep:
                parts[-1] = parts[-1][:-1]
            parts.append(text)
        elif hyphen and text[:1].isdigit() or _CLOSE_DASH.search(tail):
            parts.append(text)  # "GPT-" + "4"; "5-" + "year", "50-" + "55%", "training—" + "not": no space
        else:
            parts.append(f" {text}")
    return "".join(parts)
