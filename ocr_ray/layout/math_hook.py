"""Where the math builder (``ocr_ray.layout.math``) meets the blocks and the routing.

A display block whose glyphs the builder reads becomes ``$$ LaTeX $$``; one it cannot read stays
the glyph text, marked ``<!-- math: unread -->`` (never a ``$$`` block KaTeX would reject). A page's
``unreadable_math`` count (formulas with glyphs the builder has no reading for) is what routes the
page to a VLM engine when one is configured (``ocr_ray.routing``).
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

from ocr_ray.layout.math import build, delimiters_balanced
from ocr_ray.layout.math_aligned import relation_x, stacked
from ocr_ray.layout.math_atoms import ACCENT_GLYPHS, Unreadable, glyph_atom
from ocr_ray.layout.math_rows import matrix_cells, split_rows
from ocr_ray.layout.math_symbols import EXTENSION_FONTS, OPERATOR_NAMES, PROSE_WORDS
from ocr_ray.layout.model import TEXT_FONT, PageLayout, Rule
from ocr_ray.layout.pdffonts import shown

UNREAD_MARK = "<!-- math: unread -->"
# a phrase of words: a line of prose, no formula's
_PHRASE = re.compile(r"\b([a-z]{2,}) (?=([a-z]{2,})\b)")
_NUMBER = re.compile(r"\s*\(((?:[A-Z]\.?)?\d+(?:\.\d+)*[a-z]?)\)\s*")  # an equation number's line
_RELATION = re.compile(r"[=<>≤≥≈≡≠∈⊂⊆→⇒∝∼≃≅≔]")


def display_math(lines: list[Any], rules: list[Rule], text_layer: bool = True) -> str | None:
    """``$$...$$`` for a display block's lines (``display_lines.Line``), None when not all lines carry
    glyphs or the builder cannot read them."""
    if any(ln.glyphs and _stale(ln.glyphs, ln.text) for ln in lines):
        return None  # stale glyphs (a recoded font): the line text stands
    if any(not ln.glyphs for ln in lines):
        # OCR'd lines have none: their text stands; on the text layer a line of the formula
        # without glyphs is a word of the text font alone on its line (a cell of cases,
        # \text{otherwise}): laid out on the baseline of the formula's glyph beside it; a phrase
        # of prose leaves the formula unread
        real = [g for ln in lines for g in (ln.glyphs or ln.laid or [])]
        if not text_layer or not real:
            return None
        if any(not ln.glyphs and _phrase(ln.text) and not _worded_row(ln, lines, rules) for ln in lines):
            return UNREAD_MARK
        glyphs = [g for ln in lines
                  for g in (ln.glyphs or ln.laid and not _stale(ln.laid, ln.text) and ln.laid or _lay_out(ln.text, (ln.x0, ln.y0, ln.x1, ln.y1), ln.size, real))]
    else:
        glyphs = [g for ln in lines for g in ln.glyphs]
    rows = []
    for band in bands(glyphs, rules):
        for row, row_rules in split_rows(band, rules):
            tex = build(row, row_rules)
            if not tex or not delimiters_balanced(tex):
                return UNREAD_MARK
            rows.append((tex, relation_x(row), min(g[1] for g in row), max(g[3] for g in row)))
    # (the rows as one formula: a test of the whole align passes, and so does a test of one row)
    return "$$\n" + stacked(rows) + "\n$$"


def _stale(glyphs: list[list], text: str) -> bool:
    return _squash("".join(shown(g) for g in glyphs)) != _squash(text)


def _worded_row(line: Any, lines: list[Any], rules: list[Rule]) -> bool:
    r"""A display's row that states a relation between words of the text font, its number beside
    it (an align's first row ``\text{loss} &= \text{the cross entropy}``: the blocks took it for a
    display by that number and its place, ``display_lines.numbered_beside``): its phrases are the
    formula's ``\text{..}``, not a paragraph run into the display; a numerator of words likewise.
    A line with maths whose glyphs were not kept ("expp (v) = γp,v(1), (and by extension ...") stays
    unread: its scripts are lost in its text."""
    return line.math < 0.15 and (bool(_RELATION.search(line.text)) and any(
        _NUMBER.fullmatch(n.text) and n.y0 < (line.y0 + line.y1) / 2 < n.y1 for n in lines) or _over_bar(line, rules))


def _over_bar(line: Any, rules: list[Rule]) -> bool:
    r"""A line of words right over a thin rule as wide as it or wider, or right under one: a fraction's
    numerator or denominator (``\frac{\text{covariance of the pair}}{\text{number of items}}``)."""
    return any(r.y1 - r.y0 <= 2.0 and r.x0 <= line.x0 + 1.0 and r.x1 >= line.x1 - 1.0
               and (line.y1 - 1.0 <= r.y0 <= line.y1 + 0.5 * line.size
                    or line.y0 - 0.5 * line.size <= r.y1 <= line.y0 + 1.0) for r in rules)


def line_glyphs(frags: list[Any], phrases: bool = False) -> list[list] | None:
    """The glyphs of a line's fragments (``Fragment.glyphs``), None if none carries any of maths. A
    word set in the text font in a formula's line carries none (``pdftext`` keeps them for maths
    fragments only: "linear CKA =", "mean(GradCAM"): its characters are laid out evenly over its
    box, upright, on the baseline of the line's glyph nearest to it, so the formula can still be
    read. A fragment of prose with maths letters in it ("where W is a matrix") kept its glyphs,
    the prose ones named ``TEXT_FONT``: they stand for its words, and its letters stay maths. A
    fragment with a phrase of words in it is prose: the line is no formula to read (``phrases``: its
    glyphs all the same, for a display's row whose words state its relation)."""
    own = [None if not f.glyphs or _prose_run(f.glyphs) else f.glyphs for f in frags]
    if all(own):
        return [g for glyphs in own for g in glyphs]
    real = [g for glyphs in own if glyphs for g in glyphs] or [g for f in frags if phrases and f.glyphs for g in f.glyphs]
    words = _outside_parentheses([_words(f) for f in frags])
    if not real or not phrases and any(_phrase(w) for w, glyphs in zip(words, own, strict=True) if not glyphs):
        return None  # words in a row ("we get", "for any unit"): a line of prose with maths in it
    out: list[list] = []
    for f, glyphs in zip(frags, own, strict=True):
        out += glyphs or f.glyphs or _lay_out(f.text, (f.x0, f.y0, f.x1, f.y1), f.size, real)
    return out


def _phrase(text: str) -> bool:
    r"""Two words in a row, not both words a display sets between its formulas: ``\quad \text{subject to}
    \quad`` (``PROSE_WORDS``) in a constrained problem's line (``\max_{\theta} \mathbb{E}[r_\theta] \quad
    \text{subject to} \quad D_{\mathrm{KL}}(..) \leq \delta``: the display was unread) is no prose."""
    return any(not (m.group(1) in PROSE_WORDS and m.group(2) in PROSE_WORDS) for m in _PHRASE.finditer(text))


def _words(fragment: Any) -> str:
    """A fragment's text as words of prose: in a fragment of prose with maths letters (its glyphs
    kept) the names of operators set upright are maths (``\hat{\theta}_{\mathrm{MLE}} = \arg\max``:
    "arg max" is no phrase)."""
    if not fragment.glyphs:
        return fragment.text
    return " ".join(w for w in fragment.text.split() if w not in OPERATOR_NAMES)


def _outside_parentheses(texts: list[str]) -> list[str]:
    r"""Each of a line's fragment texts with what its parentheses hold blanked out, the parentheses
    counted across the line (a phrase opened in one fragment closes in another: "(and by extension
    expp" | "(tv) = γp,v(t))"). A phrase a display sets in parentheses beside its formula
    (``\quad \text{(refuse)}``, ``(\text{and by extension } \exp_p(tv) = ..)``, ``\text{(for all $i$)}``)
    is the formula's remark, not a line of prose: its words were read as prose and the display was
    a paragraph, or unread. A line whose parentheses do not close is read as before."""
    out, depth = [], 0
    for text in texts:
        kept = []
        for ch in text:
            depth += ch == "("
            kept.append(ch if depth == 0 else " ")
            depth -= ch == ")" and depth > 0
        out.append("".join(kept))
    return out if depth == 0 else texts


def _prose_run(glyphs: list[list]) -> bool:
    """Whether a fragment's glyphs are those of prose with maths characters in it (``pdftext``)."""
    return any(g[7] == TEXT_FONT for g in glyphs)


def _lay_out(text: str, box: tuple[float, float, float, float], size: float, real: list[list]) -> list[list]:
    """Glyphs for a text-font run that kept none: its characters evenly over its box, upright, on
    the baseline of the glyph (of its size, if any) nearest to its middle."""
    x0, y0, x1, y1 = box
    same = [g for g in real if abs(g[6] - size) < 0.5] or real
    near = min(same, key=lambda g: abs((g[2] + g[4]) / 2 - (y0 + y1) / 2))
    # (a run on a line of its own, no glyph at its height: a numerator of words over its bar, on
    # its own baseline, the loose box's descent under it)
    base = near[5] if y0 <= (near[2] + near[4]) / 2 <= y1 else round(y1 - 0.22 * size, 1)
    chars = unicodedata.normalize("NFKC", text)
    step = (x1 - x0) / max(len(chars), 1)
    return [[ch, round(x0 + k * step, 1), round(base - 0.7 * size, 1), round(x0 + (k + 1) * step, 1),
             round(base + 0.2 * size, 1), base, size, TEXT_FONT] for k, ch in enumerate(chars) if not ch.isspace()]


def has_prose(glyphs: list[list] | None) -> bool:
    """Whether a line holds a fragment of prose (no glyphs of its own)."""
    return glyphs is None or any(g[7] == TEXT_FONT for g in glyphs)


def _squash(text: str) -> str:
    """Text compared without spaces and accents (``pdftext`` merges an accent glyph into its letter)."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    return "".join(c for c in text if not c.isspace() and not unicodedata.combining(c) and c not in ACCENT_GLYPHS)


def bands(glyphs: list[list], rules: list[Rule]) -> list[list[list]]:
    """Glyphs cut into formulas stacked on the page: vertical runs of glyphs (and fraction rules)
    that overlap or nearly touch; consecutive display equations (and align rows) are further apart
    than a limit is from its operator."""
    x0 = min(g[1] for g in glyphs)
    x1 = max(g[3] for g in glyphs)
    items = [(g[2], g[4], g) for g in glyphs]
    items += [(r.y0, r.y1, None) for r in rules if r.y1 - r.y0 <= 2.0 and r.x1 - r.x0 > 1.5 and r.x1 >= x0 and r.x0 <= x1]
    items.sort(key=lambda t: t[0])
    size = max(g[6] for g in glyphs)
    out: list[list[list]] = []
    bottom, brace = None, False
    for y0, y1, g in items:
        # (a horizontal brace's label is set further from its pieces than a limit from its operator:
        # newtx's \overbrace{..}^{n} 0.5 em, its \underbrace's label 0.5 em under the tip)
        if bottom is None or y0 > bottom + (0.7 if brace or _brace_piece(g) else 0.4) * size:
            out.append([])
            bottom, brace = y1, False
        if y1 >= bottom:
            bottom, brace = y1, _brace_piece(g)
        if g is not None:
            out[-1].append(g)
    return _matrix_rows_joined([b for b in out if b], size)


def _brace_piece(glyph: list | None) -> bool:
    """A piece of a horizontal brace: an extension font's 0x7A-0x7D ("z", "{", "|", "}" as PDFium names txex's)."""
    if glyph is None or len(glyph[0]) != 1 or not glyph[7].upper().startswith(EXTENSION_FONTS):
        return False
    code = ord(glyph[0])
    return 0x7A <= (code - 0xE000 if code >= 0xE000 else code) <= 0x7D


def _matrix_rows_joined(out: list[list[list]], size: float) -> list[list[list]]:
    """A band that is one row of a matrix with no delimiters (``math_rows.matrix_cells``: "1 2 3"
    above "M = 4 5 6") set within the extent of the band next to it, less than an em away, is part
    of that band's formula: nothing bridges the gap between a bare matrix's rows."""
    k = 0
    while k < len(out):
        band = out[k]
        for j in (k + 1, k - 1):
            if not 0 <= j < len(out) or not matrix_cells(band, size):
                continue
            other = out[j]
            gap = min(g[2] for g in other) - max(g[4] for g in band) if j > k else \
                min(g[2] for g in band) - max(g[4] for g in other)
            if gap < size and min(g[1] for g in other) <= min(g[1] for g in band) + 0.5 \
                    and max(g[3] for g in band) <= max(g[3] for g in other) + 0.5:
                out[j] = other + band
                del out[k]
                k -= 1
                break
        k += 1
    return out


def unreadable_math(page: PageLayout) -> int:
    """Fragments set mostly in maths with a glyph the builder cannot read."""
    count = 0
    for fragment in page.fragments:
        if fragment.math < 0.3 or not fragment.glyphs:
            continue
        try:
            for glyph in fragment.glyphs:
                glyph_atom(glyph)
        except Unreadable:
            count += 1
    return count
