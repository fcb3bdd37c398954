"""Code listings: lines set in a typewriter font, read as one fenced block with their indents.

A listing (pandoc's highlighted code block, LaTeX's ``verbatim`` and ``listings``, a browser's
``<pre>``) is lines of a fixed-pitch font whose line breaks and indents carry its meaning. Read as
prose, each indented line opened a paragraph of its own and the indents were lost, and a line
set back to the left ran into the line above ("data = handle.read() return data.decode(..)":
pandoc 2.17's Python block through pdflatex). A run of three or more lines set wholly in a
typewriter font, one under the other in one column, is one block: each line is indented by its
distance from the block's left edge counted in the font's pitch, and the white between a line's
fragments (a keyword in a bold face of the font, an aligned comment) is kept the same way.

The font is known by its name only (the text layer's; OCR'd lines have none and are never code).
One or two such lines are no listing (a URL, an e-mail address, an inline ``\\texttt`` line), nor is a run
every line of which is centred (an author block's addresses), nor any run on a page typed mostly in
such a font (a typewritten memo or filing in Courier: its body type, read as prose).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from ocr_ray.layout.fallback import guarded
from ocr_ray.layout.model import Fragment

# Typewriter faces by name: TeX's (cmtt, sftt/ectt/tctt of cm-super, txtt, Courier as pcrr, Latin
# Modern Mono as LMMono or lmtt), the office and system ones (Courier, Liberation/DejaVu/Nimbus
# Mono, Consolas, Menlo), the programmers' (Inconsolata, Source Code, Fira Code, JetBrains Mono)
_MONO = re.compile(r"MONO|COURIER|CMTT|SFTT|ECTT|TCTT|TXTT|PCRR|LMTT|CONSOL|INCONSOLATA|MENLO|SOURCECODE"
                   r"|FIRACODE|TYPEWRITER", re.IGNORECASE)
# a listing's lines at least: two lines wholly in a typewriter font are as often a reference whose
# URL fills its line and runs into the next ("... URL https://api.semanticscholar.org/CorpusID:" over
# "268032763."; a fragment's font is the one most of its characters are set in)
MIN_LINES = 3
# how far below the line above a listing's next line may start, in its type size: a blank line
# inside the listing (one line's pitch of white) stays in it, a paragraph's skip after it ends it
_MAX_GAP = 2.2


def is_mono(font: str) -> bool:
    return bool(_MONO.search(font or ""))


def mono_text(frags: Sequence[Fragment]) -> tuple[str, float] | None:
    """A line's text and its font's pitch (points a character) when every fragment of the line
    that holds text is set in a typewriter font, the white between fragments written as that many
    spaces; None otherwise."""
    words = sorted((f for f in frags if f.text.strip()), key=lambda f: f.x0)
    if not words or not all(f.kind == "text" and is_mono(f.font) for f in words):
        return None
    widths = sorted((f.x1 - f.x0) / len(f.text) for f in words if len(f.text) >= 2)
    if not widths or widths[len(widths) // 2] <= 0:
        return None
    pitch = widths[len(widths) // 2]
    text = words[0].text
    for prev, f in pairwise(words):
        text += " " * max(1, round((f.x0 - prev.x1) / pitch)) + f.text
    return text, pitch


def set_code(line, frags: Sequence[Fragment]) -> None:
    """``line.code`` and ``line.pitch`` from its fragments (``mono_text``), guarded: the rule
    failing leaves the line prose."""
    code = guarded("code", lambda: mono_text(frags), lambda: None, seconds=0)
    line.code, line.pitch = code if code else (None, 0.0)


def _centred(line) -> bool:
    middle = (line.left + line.right) / 2
    return abs((line.x0 + line.x1) / 2 - middle) < line.size and line.x0 - line.left > 2 * line.size


# the share of a page's text in a typewriter font past which that font is the page's body type
TYPEWRITTEN = 0.8


def typewritten(lines: Sequence) -> bool:
    """Is nearly all of the page's text set in a typewriter font (a memo, a court filing or a form
    typed in Courier)? Then that font is the page's body type and its lines are prose, no listing
    (a page of listings between a few lines of prose keeps a fifth or more of prose)."""
    chars = sum(len(ln.text) for ln in lines if ln.kind == "text")
    return sum(len(ln.text) for ln in lines if ln.kind == "text" and ln.code is not None) > TYPEWRITTEN * chars


def listing_end(lines: Sequence, i: int) -> int:
    """The index after the listing that opens at ``lines[i]`` (``i`` itself when none opens there):
    lines with ``code``, each under the ones above, of their size, no further below the last
    than a blank line's white, starting no further left than the listing's first line (the reading
    order may give an aligned line, "engine  = text-layer   # the default", edges of its own)."""
    if lines[i].code is None or lines[i].kind != "text":
        return i
    j = i + 1
    left, right = lines[i].x0, lines[i].x1
    while j < len(lines):
        prev, line = lines[j - 1], lines[j]
        if (line.code is None or line.kind != "text" or not left - 0.5 * line.size <= line.x0 < right
                or abs(line.size - prev.size) > 0.15 * prev.size
                or not -0.3 * line.size <= line.y0 - prev.y1 < _MAX_GAP * line.size):
            break
        right = max(right, line.x1)
        j += 1
    if j - i < MIN_LINES or all(_centred(ln) for ln in lines[i:j]):
        return i
    return j


def listing(lines: Sequence) -> str:
    """The fenced markdown block of a listing's lines (``listing_end``), indents in its pitch."""
    pitches = sorted(ln.pitch for ln in lines)
    pitch = pitches[len(pitches) // 2]
    left = min(ln.x0 for ln in lines)
    out: list[str] = []
    for k, ln in enumerate(lines):
        if k and ln.y0 - lines[k - 1].y1 > 0.8 * ln.size:  # a blank line of the listing
            out.append("")
        out.append(" " * max(0, round((ln.x0 - left) / pitch)) + ln.code)
    return "```\n" + "\n".join(out) + "\n```"
