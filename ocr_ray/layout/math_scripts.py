"""Which glyphs of a formula's row are scripts, and of what (the math builder's row,
``ocr_ray.layout.math._row``): a glyph set smaller and raised from the row's baseline is a
superscript, a lowered one a subscript; a glyph smaller still, right after a script, that script's
own script."""
from __future__ import annotations

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
