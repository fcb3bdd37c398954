"""Body fragments of a tight table cut at the gutters the other rows show.

``pdftext`` cuts a line into fragments only at gaps wider than ``GAP_SPLIT`` (0.75 em): a table set
with ``\\tabcolsep`` 2 pt in ``\\small`` type leaves 4 pt (0.44 em) between its columns, so a row's
numbers, or a row label and its first score, reach the table grid as one fragment ("76.5% 79.8%
48.9%"). Each fragment keeps where its word spaces are (``Fragment.gaps``); a space is a column
gap when the table says so: it lies in a band of white that crosses every other body row (no word
of theirs reaches into it: a word space inside a row label has the longer labels of other rows
under it); the words on both sides of it stand over words of other rows (columns, not a long cell
running into white); a header row has a word over the right side and none over both sides (two
``\texttt{gpt 4o}`` labels, their spaces aligned under "Name", make no column); and the band is as
wide as a column gap, or the header shows a cell boundary there (its own space or fragment edge
right over the band). A space between a number and its ``± 0.4`` is no wider than a word space
and has one header cell over it: it is kept.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ocr_ray.layout.model import Fragment

# A band of white at least this wide (in font sizes) through every body row is a column gap: two
# \tabcolsep of 2 pt in \footnotesize (0.5 em); TeX's word space is 0.33 em (Computer Modern),
# the space around a ± 0.22 em.
GUTTER_WIDTH = 0.40
# A narrower band is a column gap where a header row has white over it no wider than the band
# and this many font sizes: a header of tight cells, its own spaces over the body's.
GUTTER_HEAD = 1.0

# Never a column gap, whatever the header shows: narrower than this (the ± in "85.62 ± 0.09%" is
# set 0.25 em from its numbers; cheblienet's header "Test F1" has its word space right over one).
GUTTER_MIN = 0.3
# A word that is only an operator stands between two numbers of one cell ("81.2 ± 0.4").
OPERATORS = {"±", "∓", "×", "/", "+", "-", "−", "="}

Box = tuple[float, float]
# A word that is a number: "71.27", "±0.007", "78.44*", "(1.7)", "85%".
_NUMBER = re.compile(r"[(\[]?[-+−±~∼]?\d+(?:[.,]\d+)*[%*†‡]?[)\]]?")


def word_boxes(f: Fragment) -> list[Box]:
    """The x extents of a fragment's words (between its spaces), or its own extent."""
    gaps = f.gaps or []
    if not gaps or len(gaps) != f.text.count(" "):
        return [(f.x0, f.x1)]
    edges = [f.x0, *(v for gap in gaps for v in gap), f.x1]
    return [(edges[k], edges[k + 1]) for k in range(0, len(edges), 2)]


def _white(boxes: list[Box], x: float) -> Box | None:
    """The white interval of a row around ``x`` (None when a word covers ``x``)."""
    left, right = float("-inf"), float("inf")
    for x0, x1 in boxes:
        if x0 < x < x1:
            return None
        if x1 <= x:
            left = max(left, x1)
        else:
            right = min(right, x0)
    return left, right


def _is_gutter(gap: Box, words: tuple[Box, Box], others: list[list[Box]], heads: list[list[Box]],
               em: float) -> bool:
    lo, hi = gap
    centre = (lo + hi) / 2
    whites = []
    for boxes in others:
        white = _white(boxes, centre)
        if white is None:
            return False
        whites.append(white)
        lo, hi = max(lo, white[0]), min(hi, white[1])
    if hi - lo < 0.5:
        return False
    for x0, x1 in words:  # each side stands over a column: words of another row under it
        if not any(b0 < x1 and b1 > x0 for boxes in others for b0, b1 in boxes):
            return False
    if heads and not any(_headed(boxes, *words) for boxes in heads):
        return False
    if hi - lo >= GUTTER_WIDTH * em:
        return True
    if hi - lo < GUTTER_MIN * em:  # a word space, the space around a "±": whatever the header shows
        return _aligned_column(gap, whites, em)
    for boxes in (boxes for boxes in heads if len(boxes) >= 2):
        white = _white(boxes, centre)
        if white is not None and white[0] > float("-inf") and white[1] < float("inf") \
                and (white[1] - white[0] <= hi - lo + GUTTER_HEAD * em or _heads_apart(boxes, white, *words)):
            return True
    return False


def _aligned_column(gap: Box, whites: list[Box], em: float) -> bool:
    """Is the space ``gap`` no wider than a word space, yet a column's edge: the word after it starts
    where the next word starts in every other row (three at least, to a third of a point), while the
    words before it end wherever their text does (their ends at least 0.3 em apart)? A row label set
    a tie's width from its first value (``l@{~~}c``: "RankBoost - 46 0.453", "AdaRank - 46 0.420")
    leaves only that; a space inside one cell's text has no column starting under it in every row."""
    starts = [w[1] for w in whites]
    ends = [gap[0], *(w[0] for w in whites)]
    return len(whites) >= 3 and all(abs(x - gap[1]) < 0.3 for x in starts) and max(ends) - min(ends) >= 0.3 * em


def _heads_apart(boxes: list[Box], white: Box, left: Box, right: Box) -> bool:
    """Does a header row, white around the cut wider than a tight header's, give each side a head
    of its own: a word ending at the white over the left side only and one starting there over the
    right side only (``$d$`` and ``$r$`` over "64" and "10163", single letters centred over columns
    1.4 pt apart, llncs' \\tabcolsep)?"""
    ends = [(b0, b1) for b0, b1 in boxes if b1 == white[0]]
    starts = [(b0, b1) for b0, b1 in boxes if b0 == white[1]]
    return any(b0 < left[1] and b1 > left[0] and b1 <= right[0] for b0, b1 in ends) \
        and any(b0 < right[1] and b1 > right[0] and b0 >= left[1] for b0, b1 in starts)


def _headed(boxes: list[Box], left: Box, right: Box) -> bool:
    """Does a header row give the cut's right side a head of its own: a word over it, and no word
    over both sides?"""
    over = [(b0, b1) for b0, b1 in boxes if b0 < right[1] and b1 > right[0]]
    return bool(over) and not any(b0 < left[1] and b1 > left[0] for b0, b1 in over)


def split_at_gutters(rows: list[list[Fragment]], head: int) -> list[list[Fragment]]:
    """``rows`` with each body fragment (rows after the first ``head``) cut at the spaces that are
    column gaps (see the module's doc); each piece a fragment of its own, ``kind="cell"``."""
    if len(rows) - head < 2:
        return rows
    ink = [[box for f in row for box in word_boxes(f)] for row in rows]
    heads = ink[:head]
    out = [list(row) for row in rows[:head]]
    labels = _label_rows(rows, head)
    for r in range(head, len(rows)):
        # a body row of one cell (a \multicolumn section label) crosses every gutter: it says nothing
        others = [ink[s] for s in range(head, len(rows)) if s != r and len(ink[s]) >= 2 and s not in labels]
        if not others:
            return rows
        if r in labels:
            out.append(list(rows[r]))
            continue
        row: list[Fragment] = []
        for f in rows[r]:
            boxes = word_boxes(f)
            em = max(f.size, 1.0)
            texts = f.text.split(" ") if len(boxes) > 1 else [f.text]
            cuts = [k for k in range(len(boxes) - 1) if not {texts[k], texts[k + 1]} & OPERATORS
                    and _is_gutter((boxes[k][1], boxes[k + 1][0]), (boxes[k], boxes[k + 1]), others, heads, em)]
            row += cut_at(f, boxes, cuts)
        out.append(row)
    return out


def _label_rows(rows: list[list[Fragment]], head: int) -> set[int]:
    """The body rows of words only in a table of numbers (three rows of numbers at least, two thirds
    of its body): group labels centred over their columns (``& & \\multicolumn{3}{c}{I. EBM-PICO
    gold} & \\multicolumn{3}{c}{II. Physio set}``), whose words cross the gutters the rows of
    numbers show. They say nothing of the gutters and are not cut."""
    numeric = [any(_NUMBER.fullmatch(w) for f in row for w in f.text.split()) for row in rows[head:]]
    if sum(numeric) < 3 or 3 * sum(numeric) < 2 * len(numeric):
        return set()
    return {head + k for k, number in enumerate(numeric) if not number}


def cut_at(f: Fragment, boxes: list[Box], cuts: list[int]) -> list[Fragment]:
    """``f`` cut after each word ``cuts`` holds (its index in ``boxes``, ``word_boxes(f)``)."""
    if not cuts:
        return [f]
    words = f.text.split(" ")
    pieces, first = [], 0
    for k in [*cuts, len(boxes) - 1]:
        gaps = f.gaps[first:k] or None
        pieces.append(replace(f, x0=boxes[first][0], x1=boxes[k][1], text=" ".join(words[first:k + 1]),
                              glyphs=None, gaps=gaps, kind="cell"))
        first = k + 1
    return pieces


def join_justified_head(rows: list[list[Fragment]], head: int) -> list[list[Fragment]]:
    """Header lines with the word spaces of a justified ``p{..}`` cell joined again: a space TeX
    stretched past pdftext's cut ("Number      of" over "training      to-") left a word standing
    over the white between two body columns, taken for a column of its own. Two fragments of one
    header line are one cell when another header line has fragments starting where the first does
    and ending where the second does (a paragraph set flush on both sides), and no body word stands
    under the gap or the second (it is no column)."""
    if head < 2 or len(rows) <= head:
        return rows
    body = [box for row in rows[head:] for f in row for box in word_boxes(f)]
    lines = [sorted(row, key=lambda f: f.x0) for row in rows[:head]]
    out = []
    for i, line in enumerate(lines):
        joined = [line[0]]
        for f in line[1:]:
            a = joined[-1]
            flush = any(abs(p.x0 - a.x0) < 1.0 and abs(q.x1 - f.x1) < 1.0 and q.x0 - p.x1 > 0.5 * q.size
                        for j, other in enumerate(lines) if j != i for p, q in zip(other, other[1:], strict=False))
            # (or a cell wrapped on the next header line, flush under it, that no body column starts
            # under: "Dataset used for" / "the evaluation" in a p{} first column over its labels)
            wrapped = i + 1 < len(lines) and abs(lines[i + 1][0].x0 - a.x0) < 1.0 \
                and not any(a.x1 - 1.0 < x0 < f.x1 + 1.0 for x0, _ in body)
            if flush and not any(x0 < f.x1 and x1 > a.x1 for x0, x1 in body) or wrapped:
                joined[-1] = replace(a, x1=f.x1, y0=min(a.y0, f.y0), y1=max(a.y1, f.y1), text=f"{a.text} {f.text}",
                                     glyphs=None, gaps=None)
            else:
                joined.append(f)
        out.append(joined)
    return out + rows[head:]


def join_justified_body(rows: list[list[Fragment]], head: int) -> list[list[Fragment]]:
    """Body lines of a justified ``p{..}`` cell joined again where TeX stretched a word space past
    pdftext's cut ("Prompt      injec-" over "Model      extrac-"): two fragments of one line are
    one cell when another line has two fragments flush with them on both sides, its gap elsewhere
    (a paragraph set flush left and right), and a third line starts where they start and runs on
    into where the second fragments start, not past their right edge (a cell of that column: a
    column gap would be white in every row; not a section label alone on its line).
    Words only: a number beside a row label is a column of its own."""
    lines = [sorted(row, key=lambda f: f.x0) for row in rows[head:]]
    heads = [[box for f in row for box in word_boxes(f)] for row in rows[:head]]
    cells = sorted((f.x0, f.x1) for row in rows[:head] for f in row)  # the header's cells
    out = []
    for i, line in enumerate(lines):
        joined = [line[0]]
        for f in line[1:]:
            a = joined[-1]
            # (its spaces kept, the stretched one among them: ``stretched`` reads the line as one TeX
            # broke inside its paragraph, whose next line goes on in the same cell; and the gutters
            # of the rows of numbers beside it are read through its word spaces, ``word_boxes``)
            gaps = [*(a.gaps or []), (a.x1, f.x0), *(f.gaps or [])] \
                if len(a.gaps or []) == a.text.count(" ") and len(f.gaps or []) == f.text.count(" ") else None
            if _inked(joined, f, [other for j, other in enumerate(lines) if j != i], heads, cells):
                joined[-1] = replace(a, x1=f.x1, y0=min(a.y0, f.y0), y1=max(a.y1, f.y1), text=f"{a.text} {f.text}",
                                     glyphs=None, gaps=gaps)
                continue
            pairs = [(p, q) for j, other in enumerate(lines) if j != i
                     for p, q in zip(other, other[1:], strict=False)
                     if abs(p.x0 - a.x0) < 1.0 and abs(q.x1 - f.x1) < 1.0 and abs(p.x1 - a.x1) > 1.0]
            crossed = pairs and a.text[:1].isalpha() and f.text[:1].isalpha() and any(
                abs(c.x0 - a.x0) < 1.0 and c.x1 > min(f.x0, *(q.x0 for _, q in pairs)) + 1.0 and c.x1 < f.x1 + 1.0
                for j, other in enumerate(lines) if j != i and len(other) > 1 for c in other)
            if crossed:
                joined[-1] = replace(a, x1=f.x1, y0=min(a.y0, f.y0), y1=max(a.y1, f.y1), text=f"{a.text} {f.text}",
                                     glyphs=None, gaps=gaps)
            else:
                joined.append(f)
        out.append(joined)
    return rows[:head] + out


def _inked(joined: list[Fragment], f: Fragment, others: list[list[Fragment]], heads: list[list[Box]],
           cells: list[Box]) -> bool:
    """Is the white before ``f`` a justified cell's stretched word space, not a column gap: the cell
    (``joined[-1]``, not the row's label) has, in another body line, a line of its own column set
    flush with its start that runs on into that white (a column gap is white in every row: "Mild
    drift; +3.4% over 3000 steps" under "Catastrophic   collapse;   +6.18   to", a ``p{5.2cm}``
    cell's first line stretched to its width), and the header gives ``f`` no head of its own (a
    spanning section label runs into white too, but the numbers beside it have their heads). The
    cell stands under a head of its own, flush with its left edge, and ``f`` ends before the next
    head starts (a ``p{..}`` column's head and cells; a box of lines under one title is no such)."""
    a = joined[-1]
    if len(joined) < 2 or not any(heads) or any(_headed(boxes, (a.x0, a.x1), (f.x0, f.x1)) for boxes in heads):
        return False
    own = [k for k, (x0, _) in enumerate(cells) if abs(x0 - a.x0) < 1.0]
    if len(cells) < 2 or not own or any(f.x1 > x0 for x0, _ in cells[own[0] + 1:]):
        return False
    return any(abs(c.x0 - a.x0) < 1.0 and c.x1 > a.x1 + 1.0 for other in others for c in other)


def stretched(f: Fragment) -> bool:
    """Is ``f`` a line TeX stretched to its paragraph's width: a word space wider than pdftext's cut
    (0.75 em) between two words, not a column gap (``join_justified_body`` kept it in the cell)?"""
    return any(b - a > 0.75 * f.size for a, b in f.gaps or [])
