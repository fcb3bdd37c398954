"""Which letters of an italic text font are maths (``pdftext``'s share of maths per fragment).

TeX's maths italic comes in fonts that say so (CMMI, txmi...), but Times-like maths (mathptmx,
txfonts' letters), Word (TimesNewRoman-Italic, Cambria) and many journal pipelines set a formula's
letters in the same italic font as emphasised prose and theorem statements. A letter of such a font
is maths when it stands alone (``f``, ``c``, the ``a`` of ``a^2``), or when its run of letters
changes size inside (a letter with its script: ``x_k``, ``w_t``); a run of letters of one size is
a word (``is``, ``of``, ``continuous``), and so are the one-letter words ``a`` and ``I`` between
spaces.
"""
from __future__ import annotations

_ONE_LETTER_WORDS = frozenset("aAI")
SCRIPT_STEP = 0.5  # points: a script is set at least this much smaller than its nucleus


class ItalicRun:
    """The run of italic letters the text layer is reading (one per fragment builder)."""

    def __init__(self) -> None:
        self.letters = ""
        self.spaced_before = True
        self.low = self.high = 0.0

    def add(self, ch: str, size: float, spaced_before: bool) -> None:
        """One more italic letter; ``spaced_before``: a space (or the fragment's start) is right
        before it."""
        if not self.letters:
            self.spaced_before, self.low, self.high = spaced_before, size, size
        self.letters += ch
        self.low, self.high = min(self.low, size), max(self.high, size)

    def end(self, spaced_after: bool) -> int:
        """The run ends (``spaced_after``: at a space or the fragment's end): how many of its
        letters are maths."""
        letters, self.letters = self.letters, ""
        if not letters:
            return 0
        if self.high - self.low >= SCRIPT_STEP:
            return len(letters)  # a letter and its script
        if len(letters) == 1 and not (letters in _ONE_LETTER_WORDS and self.spaced_before and spaced_after):
            return 1
        return 0
