"""Which glyphs of a formula's row are scripts, and of what (the math builder's row,
``ocr_ray.layout.math._row``): a glyph set smaller and raised from the row's baseline is a
superscript, a lowered one a subscript; a glyph smaller still, right after a script, that script's
own script.

Delimiters and the scripts they hold or carry are placed as TeX placed them:

* ``\\left( .. \\right)`` inside a script takes the smallest delimiter that covers its content, which
  for a script with a script of its own is the text size's (``\\mathbb{R}^{\\left(P^2 \\cdot C\\right)
  \\times D}``: CMR10's parentheses around 7 pt letters). By its size it was no script and the
  superscript broke at it: ``\\mathbb{R}(^{P^{2}\\cdot C})^{\\times D}``. TeX centres such a delimiter
  on the maths axis of the style it is set in: a delimiter centred on a script's axis, away from
  the row's, beside that script's glyphs, is set at their size and on their baseline
  (``script_delimiters``).
* Scripts on a braced group (``{\\{R_t, \\tilde{R}_t\\}}_1^N``) are placed from the group's box, a
  script on a closing delimiter alone from the delimiter (TeX's rule 18a: a character's superscript
  is raised by its font's ``sup1``, 0.41 em in display style, a box's by its height less
  ``sup_drop``). A superscript raised past the most TeX lifts a character's (0.49 em, over a
  subscript) on a closing delimiter of the text's size is the group's: the group is written in
  braces (``braced_group``). KaTeX places the two spellings' scripts apart when the group is taller
  than its delimiters (the tilde) and olmocr's MathTest fails the one for the other; a group no
  taller it takes either way."""
from __future__ import annotations

import re

from ocr_ray.layout.math_atoms import Atom


def script_kind(a: Atom, base: float, size: float, tiny: bool = False) -> str:
    # (a big operator drawn taller than the row's type is no script, whatever its font's size: mathpazo
    # sets \int from cmex at 9 pt beside 10 pt letters, and a CMEX glyph's baseline is its top)
    if a.kind == "box" or a.size > 0.9 * size and not tiny or a.kind == "op" and a.y1 - a.y0 > 1.5 * size:
        return ""
    lift = base - a.base
    if lift > 0.12 * size:
        return "^"
    if lift < -0.05 * size:
        return "_"
    return ""


def deeper_script(a: Atom, subs: list[Atom], sups: list[Atom]) -> str:
    """A glyph smaller than the scripts it follows, right after them, is their own script (the
    ``-1`` of ``L_{g^{-1}}``, the prime of ``z_{j'}``): it joins their group, wherever it sits
    against the row's baseline, and is placed when that group is read as a row."""
    scripts = subs + sups
    if not scripts or a.size >= 0.9 * max(s.size for s in scripts):
        return ""
    # the script it follows: the one ending last before it (in ``j'`` under ``\sum^M_{j'}`` the
    # superscript M ends further right), else the one nearest its baseline
    before = [s for s in scripts if s.x1 <= a.x0 + 0.5 * a.size]
    last = max(before, key=lambda s: s.x1) if before else min(scripts, key=lambda s: abs(s.base - a.base))
    if a.x0 - last.x1 > 0.6 * last.size:
        return ""
    return "_" if last in subs else "^"


# TeX's maths axis stands a quarter em above the baseline
_AXIS = 0.25
_OPENERS = {"(": ")", "[": "]", r"\{": r"\}", r"\langle": r"\rangle", r"\lfloor": r"\rfloor", r"\lceil": r"\rceil"}
_CLOSERS = {close: open_ for open_, close in _OPENERS.items()}
_SAME = {"|", r"\|"}  # drawn alike on both sides
_SCALE = re.compile(r"^\\(?:big|Big|bigg|Bigg)[lr]?(?=[^a-z])")
# a character's superscript in display style stands 0.41 em up (cmsy's sup1), 0.49 em at most when
# TeX lifts it over a subscript below: past this a superscript was placed from a box's height
_GROUP_LIFT = 0.52


def _bare(tex: str) -> str:
    return _SCALE.sub("", tex)


def script_delimiters(atoms: list[Atom], base: float, size: float) -> None:
    """Delimiters of the row's size centred on a script's axis, beside that script's glyphs, take the
    script's size and baseline (in place), so the script reads them as its own."""
    row_axis = base - _AXIS * size
    for a in atoms:
        tex = _bare(a.tex)
        if tex not in _OPENERS and tex not in _CLOSERS and tex not in _SAME or a.size < 0.9 * size:
            continue
        middle = (a.y0 + a.y1) / 2
        if abs(middle - row_axis) < 0.15 * size:
            continue
        beside = [s for s in atoms if s is not a and s.size < 0.85 * size and s.kind not in ("box", "op")
                  and min(abs(s.x0 - a.x1), abs(a.x0 - s.x1)) < 0.5 * s.size
                  and abs(s.base - _AXIS * s.size - middle) < 0.1 * size]
        if beside:
            script = max(beside, key=lambda s: s.size)
            a.size, a.base = script.size, script.base


def braced_group(placed: list[tuple[int, Atom]], close: Atom, sups: list[Atom], base: float,
                 size: float) -> int | None:
    """Where the group a closing delimiter with superscripts ends starts (an index into ``placed``'s
    token positions: (position, atom) in the row's order, the closing delimiter last) when the
    scripts were placed from the group's box; else None."""
    # (a \big or taller delimiter's scripts sit on its own box, which KaTeX sets alike: a \right) of
    # mathabx, read at no size, keeps its square)
    tex = close.tex
    if not sups or tex not in _CLOSERS and tex not in _SAME or close.y1 - close.y0 > 1.25 * size:
        return None
    script = max(sups, key=lambda s: s.size)
    if base - script.base < _GROUP_LIFT * size:
        return None
    opener = _CLOSERS.get(tex, tex)
    depth = 0
    for i in range(len(placed) - 2, -1, -1):
        own = _bare(placed[i][1].tex)
        if own == opener and (depth == 0 or tex in _SAME):
            return placed[i][0] if i < len(placed) - 2 else None
        if own == tex and tex not in _SAME:
            depth += 1
        elif own == opener:
            depth -= 1
    return None
