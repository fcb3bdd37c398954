"""A page's lines (``Line``) and the rules that tell a display formula's lines from prose.

``blocks`` groups a page's fragments into ``Line`` s in reading order, then asks these rules which
lines are a display (``is_display``), which lines after a display's first belong to it
(``joins_display``: a tall formula's limits, a row of cases, a matrix row, its number) and which
short lines before it are its limits (``limit_above``). TeX centres a display in its column (or
fills the line up to its number); prose starts at the column's edge or a paragraph indent.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ocr_ray.layout.math_hook import has_prose
from ocr_ray.layout.math_symbols import OPERATOR_NAMES, italic_font, symbol_font
from ocr_ray.layout.model import TEXT_FONT

EQ_NUMBER = re.compile(r"\s*\(((?:[A-Z]\.?)?\d+(?:\.\d+)*[a-z]?)\)$")  # as math_tags._TAG
_RELATION = re.compile(r"[=<>≤≥≈≡≠∈⊂⊆→⇒∝∼≃≅≔]")
_NUMBER_CELLS = re.compile(r"[-−]?\d+(?:[.,]\d+)?(?: [-−]?\d+(?:[.,]\d+)?)+")  # "1 2 3": a matrix's row of numbers


@dataclass
class Line:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float
    bold: bool
    math: float
    kind: str
    left: float  # column edges
    right: float
    glyphs: list | None = None  # the fragments' glyphs when all carry them (``math``)
    # words in a row beside a formula's glyphs (``math_hook.line_glyphs`` gave none though some of
    # its fragments carry glyphs): a line of prose with inline maths, no row of a display
    prose: bool = False
    # such a line's glyphs all the same, its words of prose laid out (``math_hook.line_glyphs``): a
    # display's row that states a relation in words (``\text{subject to } y \ge 0``) keeps its maths
    laid: list | None = None
    # a line set wholly in a typewriter font: its text laid out at the font's pitch, and that pitch
    # (``code_blocks``: three or more such lines one under the other are a listing)
    code: str | None = None
    pitch: float = 0.0
    # pieces the reading order cut apart at wide gaps and ``blocks.page_lines`` glued back: its
    # ``left``/``right`` are its first piece's block's, no column's (a display cut at its ``\qquad``)
    glued: bool = False

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


Columns = tuple[tuple[float, float], ...]


def page_columns(lines: list[Line]) -> Columns:
    """The (left, right) edges that at least three of the page's lines share: its columns."""
    edges = Counter((round(ln.left), round(ln.right)) for ln in lines if ln.kind == "text")
    return tuple(pair for pair, n in edges.items() if n >= 3)


def is_display(line: Line, text_layer: bool = False, columns: Columns = ()) -> bool:
    """``line`` is (a line of) a display formula by itself, whatever is around it."""
    if line.kind != "text" or text_layer and (_opens_prose(line) or _next_sentence(line)) and not EQ_NUMBER.search(line.text):
        return False  # (rnn-extrapolation p20: "establishing that d/dt(..) = 0.", a third maths, under a display)
    centred = _centred(line, columns)
    if text_layer and has_prose(line.glyphs) and line.x0 - line.left < line.size and line.right - line.x1 < line.size \
            and not centred and not EQ_NUMBER.search(line.text) and not line.glued:
        # a line of the column's full width with a fragment of prose in it (no maths glyphs kept)
        # is prose dense with inline maths (dynamic-gqa: "{W_Q^h}_{h=1}^H ... ⊂ R^{d×d_h} and
        # W_O ∈ ..."), not a display, which TeX centres (or fills up to its number); a line the
        # reading order cut apart on its own is as wide as its block: it is set apart when it is
        # centred in a column of the page (\hat{\theta}_{\mathrm{MLE}} = \arg\max_{\theta} L(\theta),
        # its limit below it); a line glued from pieces the reading order cut at gaps no prose line
        # holds is measured by no block (ri-iclr26's ``R := .. \quad\text{(refuse)},\qquad W := ..``)
        return False
    return line.math >= 0.3 or line.math >= 0.15 and (bool(EQ_NUMBER.search(line.text)) or centred
                                                      or _set_apart(line) or _inset_block(line, columns)) \
        or text_layer and _upright_formula(line)


_PHRASE = re.compile(r"\b[a-z]{2,} [a-z]{2,}\b")


def _upright_formula(line: Line) -> bool:
    r"""A formula of upright names (``\Delta_{\mathrm{Sim-NL}} = \mathrm{Acc}(\mathrm{Sim}) - ..``: CMR's
    letters, a tenth of it in maths fonts) centred in its block, stating a relation, no phrase of
    words in it: its fragment is a run of prose with maths in it (``Line.laid``, no ``glyphs``), and
    the reading order left it in the block of the prose around it, so nothing else set it apart."""
    width = line.right - line.left
    return (not line.glyphs and bool(line.laid) and line.math > 0 and bool(_RELATION.search(line.text))
            and not _PHRASE.search(line.text) and line.x0 - line.left > 0.1 * width and line.right - line.x1 > 0.1 * width
            and abs((line.x0 + line.x1) / 2 - (line.left + line.right) / 2) < 0.05 * width)


def _centred(line: Line, columns: Columns) -> bool:
    """Set alone in its block, narrower than a column of the page and centred in it, as TeX sets a display."""
    if not line.glyphs or line.right - line.left > line.x1 - line.x0 + 1.0:
        return False  # (a line in a block of others is judged by the block's edges)
    for c0, c1 in columns:
        width = c1 - c0
        if line.x0 - c0 > 0.1 * width and c1 - line.x1 > 0.1 * width \
                and abs((line.x0 + line.x1) / 2 - (c0 + c1) / 2) < 0.05 * width:
            return bool(_RELATION.search(line.text))
    return False


def _inset_block(line: Line, columns: Columns) -> bool:
    r"""A relation in a block the reading order set apart, inset from a column of the page by an em or
    more on both sides: a display's row (dev3's masterarbeit p33, an ``aligned``'s first row ``\mathbf{z}_0 =
    [\mathbf{x}_{\text{class}}; ..]``, a quarter of it maths, whose block its own longer row sets:
    flush with the block's edge, it was no display, and prose)."""
    return (bool(line.glyphs) and bool(_RELATION.search(line.text))
            and any(c0 + line.size <= line.left and line.right <= c1 - line.size for c0, c1 in columns))


def _matrix_row(line: Line, x0: float, x1: float) -> bool:
    """A row of numbers (two cells or more, glyphs of no text run) starting within a formula's
    extent ``x0``..``x1``: a row of a ``\begin{matrix}`` above or below the formula's line, which
    holds no maths font ("1 2 3": a paragraph of its own before, read into the next one after)."""
    return (bool(line.glyphs) and not has_prose(line.glyphs) and x0 <= line.x0 <= x1
            and bool(_NUMBER_CELLS.fullmatch(line.text.strip())))


def _set_apart(line: Line) -> bool:
    """A relation inset from both column edges, as TeX centres a display: a formula in bold
    letters and roman digits (idempotent-descent's g(K) = 3K^2 - 2K^3: a quarter of its
    characters in maths fonts) is no prose line, which starts at the column's edge or a paragraph
    indent; a centred label in a figure (``np_det``) states no relation."""
    width = line.right - line.left
    return (bool(line.glyphs) and line.x0 - line.left > 0.1 * width and line.right - line.x1 > 0.1 * width
            and bool(_RELATION.search(line.text)))


def joins_display(line: Line, math: list[Line], columns: Columns = ()) -> bool:
    """``line`` belongs to the display whose lines so far are ``math`` (not empty)."""
    # (a line of words in a row, no formula's glyphs, is prose however much maths it holds: the
    # "where A in R^{d x d}, ..." under a display set tight above it)
    if _next_sentence(line):
        return False
    return bool((line.y0 - math[-1].y1 < 0.6 * line.size and not _opens_prose(line) and (
        line.x1 - line.x0 < 0.45 * (line.right - line.left) or line.math >= 0.15 and not line.prose))
        or (EQ_NUMBER.fullmatch(" " + line.text) and any(m.y0 <= line.cy <= m.y1 for m in math))
        # its number set on the line under it, at its right end (a display that fills the column)
        or (EQ_NUMBER.fullmatch(" " + line.text) and 0 <= line.y0 - math[-1].y1 < 0.6 * line.size
            and line.x0 > (min(m.x0 for m in math) + _right(math)) / 2)
        # a line inside the display's height (its tall brace's): a row of cases whose cell is a word
        # (not the next column's first line, above the display's top: physics-ntp)
        or line.kind == "text" and line.y1 <= math[-1].y1 + 0.2 * line.size and line.x0 >= math[-1].x0
        and line.y0 >= min(m.y0 for m in math) - 0.2 * line.size
        # a row of a matrix with no delimiters, of numbers alone (no maths font), right below
        or line.y0 - math[-1].y1 < 0.6 * line.size and _matrix_row(line, min(m.x0 for m in math), _right(math))
        or _label_under(line, math) or _same_inset_block(line, math[-1], columns))


def _same_inset_block(line: Line, last: Line, columns: Columns) -> bool:
    r"""A line with maths in it in the display's own block, that block inset from a column's edges
    by an em or more: the reading order set the display's rows apart from the prose, and the rows
    of an ``aligned`` in bold letters (CMBX, a text font: a fifth of the row in maths) sit 15 pt
    apart, their glyph boxes 6 pt (0.6 em, ``joins_display``'s reach), "z = Wx" a paragraph's; a
    denominator of words (mathptmx: "Precision+Recall", a twentieth of it maths) under its display."""
    return (line.kind == "text" and line.math > 0 and line.left == last.left and line.right == last.right
            and line.y0 - last.y1 < 1.2 * line.size
            and any(c0 + line.size <= line.left and line.right <= c1 - line.size for c0, c1 in columns))


_OPENING_PHRASE = re.compile(r"[A-Za-z][a-z]+ [a-z]{2,}\b")
_OPENING_WORD = re.compile(r"([A-Za-z][a-z]{3,}) ")


def _opens_prose(line: Line) -> bool:
    """A line at the column's edge that opens with two words in an upright text font ("We make use of
    the fact that $\\forall x>0$ ... to bound,"; "establishing that $\\frac{d}{dt}(..) = 0$."): the
    sentence after a display, set tight under it (rnn-extrapolation p27: it joined the display,
    "\\mathrm{We}\\ \\text{make}..."; p20: a third of it maths, a display of its own that took the
    one above it), not a row of it, which TeX centres or indents (an ``\\intertext`` paragraph is
    prose too). A line of the text font that kept no glyphs (``prose``) opens with its words. A
    line that fills its column from edge to edge, as a justified paragraph's does, opens prose with one
    word of the text font ("Because E[1[k = π∗t(yi)] | yi] = γt(k|yi) — γt(k|yi) is": dev6's rbpo-icml25
    p8, a column's first line, nearly half maths, was read as a row of the display ending the column
    before it, which it left unread); an operator's name is no word of prose."""
    font = line.glyphs[0][7] if line.glyphs else TEXT_FONT if line.prose else ""
    if not (font and (font == TEXT_FONT or not (symbol_font(font) or italic_font(font)))
            and line.x0 - line.left < 0.5 * line.size):
        return False
    word = _OPENING_WORD.match(line.text)
    return bool(_OPENING_PHRASE.match(line.text) or word and line.right - line.x1 < line.size
                and word.group(1).lower() not in OPERATOR_NAMES)


_SENTENCE_START = re.compile(r"[.!?]([A-Z][a-z]+)")


def _next_sentence(line: Line) -> bool:
    """A line that holds a sentence's end and the next sentence's first word in a text font ("(B, UC,
    ηN). Thus E[ε | B, Ur] = 0 for r ∈ {C, N}. The": dev4's bayes-tools p5, a line of prose opening on
    inline maths under a display, two fifths of it maths, was read as a row of the display above,
    ``\mathrm{Thus}``): a display ends one sentence at most, and prose opens the next. A word of two
    letters opens one where a maths letter follows it ("triplet Tk. If M[i][j] = M[i′][j′] = Lk,": the
    real set's miniacongts p12, a list item's line, was an unread display; the page's spaces are not in
    its glyphs, and an operator's name, "Pr(", goes on in its own font)."""
    if not line.glyphs:
        return False
    chars = [(ch, g[7]) for g in line.glyphs for ch in g[0] if not ch.isspace()]
    text = "".join(ch for ch, _ in chars)
    for m in _SENTENCE_START.finditer(text):
        font = chars[m.start(1)][1]
        if font != TEXT_FONT and (symbol_font(font) or italic_font(font)):
            continue
        after = chars[m.end(1)][1] if m.end(1) < len(chars) else None
        if len(m.group(1)) >= 3 or after is not None and after != font and italic_font(after):
            return True
    return False


def _right(math: list[Line]) -> float:
    """The right end of a display's lines, its number's line aside."""
    return max((m.x1 for m in math if not EQ_NUMBER.fullmatch(" " + m.text)), default=math[-1].x1)


def _label_under(line: Line, math: list[Line]) -> bool:
    r"""A line in script type right under a display's lines and within their extent: the label
    of an ``\underbrace`` (``_{\text{label}}``, upright letters: no maths font). The display's
    number, a line read after its formula, is no line of its body to measure from."""
    body = [m for m in math if not EQ_NUMBER.fullmatch(" " + m.text)]
    return bool(body and line.glyphs and line.kind == "text" and line.size < 0.85 * max(m.size for m in body)
                and 0 <= line.y0 - max(m.y1 for m in body) < 0.7 * line.size  # (newtx's: 0.66)
                and min(m.x0 for m in body) <= line.x0 and line.x1 <= _right(math))


def numbered_beside(lines: list[Line], i: int, columns: Columns = ()) -> bool:
    """Line ``i`` is a formula numbered beside it (its number a line of its own at its height, right after)."""
    line = lines[i]
    if line.kind != "text" or i + 1 >= len(lines):
        return False
    if line.math >= 0.15:
        return bool(EQ_NUMBER.fullmatch(" " + lines[i + 1].text) and lines[i + 1].y0 < line.cy < lines[i + 1].y1)
    # a relation between words of the text font, centred, its number beside it: an align's first
    # row (``\text{loss} &= \text{..}``), or over a fraction of words whose denominator the
    # reading order gave before the number (``\text{coefficient} = \frac{\text{..}}{\text{..}}``)
    return bool(line.math > 0 and _RELATION.search(line.text) and _inset(line, columns)) and any(
        EQ_NUMBER.fullmatch(" " + n.text) and n.y0 < line.cy < n.y1 for n in lines[i + 1:i + 3])


def fraction_beside(line: Line, rules, columns: Columns = ()) -> bool:
    r"""A line stating a relation that ends right before a fraction's bar, the bar on its height, inset from
    its column's edges as TeX centres a display: the left-hand side of a display whose fraction is set
    on lines of its own (``	ext{Precision} = rac{	ext{True Positives}}{..}``: words of the text
    font, no maths share to tell it from prose; the numerator and denominator join it, ``limit_above``,
    ``joins_display``), or with them in its line (newpx's Palatino: the three rows' boxes overlap). A
    prose line with an inline fraction fills its column: it is no display's, inset from both edges."""
    if line.kind != "text" or not _RELATION.search(line.text) or not _inset(line, columns):
        return False
    return any(r.y1 - r.y0 <= 2.0 and r.x1 - r.x0 > line.size and line.x0 + line.size <= r.x0 < line.x1 + 1.5 * line.size
               and line.y0 <= r.y0 <= line.y1 for r in rules)


def _inset(line: Line, columns: Columns) -> bool:
    """Inset from both edges of a column of the page by a tenth of its width, as TeX centres a display."""
    return any(c0 <= line.x0 and line.x1 <= c1 and line.x0 - c0 > 0.1 * (c1 - c0) and c1 - line.x1 > 0.1 * (c1 - c0)
               for c0, c1 in columns)


def _numerator(prev: Line, line: Line, rules) -> bool:
    r"""Is ``prev`` a fraction's numerator set over the display's first line: a fraction bar right
    under it, as wide as it or wider, within the formula line's height. A numerator of words in
    the text font (``\frac{\text{accuracy}}{n}``) holds no maths to tell it from a paragraph's
    short last line, nor a Times italic letter (mathptmx's ``\frac{a}{b}``: its bar, 6 pt wide, is
    no ``Rule.horizontal``); a paragraph's line has no rule under it."""
    return any(r.y1 - r.y0 <= 2.0 and r.x0 <= prev.x0 + 1.0 and r.x1 >= prev.x1 - 1.0
               and prev.y1 - 1.0 <= r.y0 <= prev.y1 + 0.5 * prev.size and line.y0 <= r.y0 <= line.y1 for r in rules)


def limit_above(prev: Line, line: Line, rules=()) -> bool:
    """``prev``, the line just before a display's first line ``line``, is part of the formula.

    Limits above a sum are read before it: short lines just before (or a numerator that reaches
    into the formula's line); not a paragraph's short last line of prose, which TeX sets close
    above a display (abovedisplayshortskip) (a limit holds maths: "n", "i=1"; a short last line
    of prose, "at all.", holds none; a limit of digits alone, the "2" of \\sum_{i=1}^{2}, is set at
    script size, and so is an ``\\overbrace``'s label in upright letters, ``^{\\text{data}}``, over the
    formula's line) (a matrix's first row of numbers is set close above its formula's line, within it)
    (a numerator over its fraction bar, ``_numerator``: ``rules``, the page's)."""
    return bool(_numerator(prev, line, rules) and line.y0 - prev.y1 < 0.6 * line.size) or _operator_over(prev, line) or bool(prev.glyphs and ((prev.math > 0 or prev.size < 0.8 * line.size and (
        prev.text.replace(" ", "").isdigit() or line.x0 <= prev.x0 and prev.x1 <= line.x1))
                                 and (prev.x1 - prev.x0 < 0.2 * (line.right - line.left)
                                      # (not a line of prose reaching into it: an OpenType font's tall
                                      # boxes overlap, "covariance proxy Σp ∈ R^{p×p}:" over its display)
                                      or prev.math >= 0.15 and line.y0 < prev.y1 and not _PHRASE.search(
                                          " ".join(w for w in prev.text.split() if w not in OPERATOR_NAMES)))
                                 or _matrix_row(prev, line.x0, line.x1) or _numerator(prev, line, rules))
                and line.y0 - prev.y1 < 0.6 * line.size)


def _operator_over(prev: Line, line: Line) -> bool:
    r"""``prev`` holds names of operators alone (``\operatorname*{arg\,max}``, ``\max``: upright
    letters of the text font, no maths share) and the display's first line ``line``, in script type,
    is centred under it, right below: the operator's limit (dev5's conformal-icml25, ``\argmax_{A_t}
    \quad R_t``: the reading order cut "arg max" and its limit from the rest of the display, and "arg
    max" closed the paragraph above it)."""
    words = prev.text.split()
    return bool(prev.glyphs and words and all(w in OPERATOR_NAMES for w in words) and line.size < 0.85 * prev.size
                and prev.x0 <= (line.x0 + line.x1) / 2 <= prev.x1 and -0.1 * prev.size <= line.y0 - prev.y1 < 0.6 * prev.size)
