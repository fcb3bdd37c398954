"""A display's glyphs before the builder reads them, and its LaTeX after: the equation number at the
right end peeled off (``equation_number``), letters sharing one box joined (``ligatures``), the number
written beside the formula (``numbered``). Moved from ``math`` (the row reader) as a concern of its own."""
from __future__ import annotations

import re

# an equation number: (3), (3a), numbered within sections (3.1) or an appendix (A.2)
_TAG = re.compile(r"^\(((?:[A-Z]\.?)?\d+(?:\.\d+)*[a-z]?)\)$")


def equation_number(glyphs: list[list]) -> tuple[list[list], str]:
    """An equation number "(3)" at the right end, apart from the formula."""
    ordered = sorted(glyphs, key=lambda g: g[1])
    text = ""
    for k in range(len(ordered) - 1, -1, -1):
        text = ordered[k][0] + text
        if ordered[k][0] == "(":
            m = _TAG.match(text)
            gap = ordered[k][1] - ordered[k - 1][3] if k else 0
            if m and k and gap > 1.5 * ordered[k][6]:
                return ordered[:k], m.group(1)
            break
        if len(text) > 9:
            break
    return glyphs, ""


def ligatures(glyphs: list[list]) -> list[list]:
    """Letters that share one box are one glyph, a ligature ("fi"): in a maths font its name may
    stand for a symbol (mathabx's mathx draws a tall bracket's top under the name "fi")."""
    out: list[list] = []
    for g in glyphs:
        last = out[-1] if out else None
        if last is not None and g[1:5] == last[1:5] and g[0].isalpha() and last[0].isalpha() and g[7] == last[7]:
            out[-1] = [last[0] + g[0], *last[1:]]
            continue
        out.append(g)
    return out


def numbered(tex: str, number: str) -> str:
    """A display's LaTeX with its equation number beside it, as ``\\qquad (n)``, not ``\\tag{n}``:
    KaTeX sets a tagged equation in a labelled table row, and olmOCR-Bench's MathTest (KaTeX
    renderings compared) then fails a formula that ends in the sentence's "," or "." (most do)."""
    return tex + (rf" \qquad ({number})" if number else "")


__all__ = ["equation_number", "ligatures", "numbered"]
