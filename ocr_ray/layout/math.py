"""Display and inline maths of a born-digital page -> LaTeX, from glyph geometry and fonts.

Input: the glyphs of a candidate region (``Fragment.glyphs``: text, tight box, baseline, size,
font; only fragments that hold maths carry them) and the page's horizontal rules. A formula is
read as TeX sets it:

* a rule with glyphs just above and below, inside its span, is a fraction bar; a rule that starts
  where a radical sign ends is the radical's vinculum (``\\sqrt``);
* a big operator (CMEX sum, product, union...) takes the glyphs centred above and below it as its
  limits; integrals take them at the side;
* on the remaining row, glyphs set smaller and raised from the row's baseline are superscripts,
  lowered ones subscripts (each script read again as a row of its own: ``e^{x_i}``); a glyph
  smaller still, right after a script, is that script's own script wherever it sits against the
  row's baseline (``L_{g^{-1}}``), and at TeX's smallest size, where scripts cannot shrink, a
  script is told by its shift from its nucleus (``\\pi_{\\theta_{-1}}``);
* the font picks the alphabet (``math_symbols.font_alphabet``), CMEX is read by code (each glyph
  is read into an atom by ``math_atoms``).

``build`` returns None when a glyph cannot be read (an unmapped CMEX code, a private-use
character): the caller then keeps the glyph text and counts the formula as unreadable, the signal
that routes a page to a VLM engine.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ocr_ray.layout.math_atoms import Atom, Unreadable, glyph_atom, multiple_integrals, negations, union
from ocr_ray.layout.math_matrix import matrices, tall_delimiters
from ocr_ray.layout.math_scripts import braced_group, deeper_script, script_delimiters, script_kind
from ocr_ray.layout.math_stacks import (
    arrow_accents,
    horizontal_braces,
    labelled_relations,
    limit_lines,
    limit_of_another,
    limit_rows,
)
from ocr_ray.layout.math_symbols import BIG_OPERATORS, DELIMITERS, SIDE_LIMITS
from ocr_ray.layout.math_tags import equation_number, ligatures, numbered
from ocr_ray.layout.math_words import TIGHT_DOTS, colon_equals, mapsto, ord_dots, spaced_bars, stacked_pieces, words
from ocr_ray.layout.model import Rule

# TeX's scriptscript size at 10 pt (5 pt) and below
SCRIPTSCRIPT = 6.0
_TEXT_END = re.compile(r"(\\text\{[^{}]*?) \}(?=$| &| \\\\|\\end\{|\}|_|\^)")


def _main_size(atoms: list[Atom]) -> float:
    sizes = [a.size for a in atoms if a.kind not in ("op", "radical", "box", "delim")] or [a.size for a in atoms]
    return max(sizes)


def _main_base(atoms: list[Atom], size: float) -> float:
    counts: dict[float, int] = {}
    for a in atoms:
        # CMEX glyphs hang from their origin: their baseline is not the row's
        if a.kind not in ("op", "radical", "delim") and abs(a.size - size) < 0.5:
            key = round(a.base, 0)
            counts[key] = counts.get(key, 0) + 1
    if not counts:
        return atoms[0].base
    return max(counts, key=lambda k: (counts[k], -k))


def _take(atoms: list[Atom], keep) -> tuple[list[Atom], list[Atom]]:
    inside = [a for a in atoms if keep(a)]
    return inside, [a for a in atoms if not keep(a)]


# a fraction's parts against its row's size: TeX's script size is 0.66-0.76 of the text size
# (7/10, 6/9, 8/12 pt; STIX Two, kpfonts, fourier 0.75-0.76), scriptscript 0.5-0.6 (5/10, 6/12,
# 5/9 pt; STIX Two, kpfonts, fourier 0.6)
_TEXT_FRACTION, _SCRIPT_FRACTION, _SCRIPT_STEP = 0.85, 0.63, 0.7


def _script_of(rest: list[Atom], parts: list[Atom], size: float, row: float) -> tuple[float, float | None]:
    """The size and baseline of the script a fraction at scriptscript size sits in: those of the
    script glyph set right beside it (the "-" of ``e^{-\\frac{x^2}{2}}``), else its parts' size one
    step up and no baseline (the caller puts it on the maths axis). With its parts' own step (fourier
    and STIX Two set scripts at 0.76 and 0.75, not 0.7) the fraction stood below that "-" and made
    it a subscript: ``e^{{}_{-}\\frac{x^{2}}{2}}``."""
    x0, x1 = min(a.x0 for a in parts), max(a.x1 for a in parts)
    beside = [a for a in rest if size * 1.05 < a.size < 0.9 * row and a.kind != "box"
              and min(abs(a.x1 - x0), abs(x1 - a.x0)) < 0.5 * a.size]
    if not beside:
        return size / _SCRIPT_STEP, None
    near = min(beside, key=lambda a: min(abs(a.x1 - x0), abs(x1 - a.x0)))
    return near.size, near.base


def _fractions_and_roots(atoms: list[Atom], rules: list[Rule], size: float) -> list[Atom]:
    # the widest rule first: a fraction inside a numerator is read when the numerator is
    for rule in sorted(rules, key=lambda r: r.x0 - r.x1):
        if not atoms:
            break
        inside = [r for r in rules if r is not rule and rule.x0 - 1 <= r.x0 and r.x1 <= rule.x1 + 1]
        radical = next((a for a in atoms if a.kind == "radical" and _vinculum(a, [rule])), None)
        if radical is not None:
            body, rest = _take(atoms, lambda a, r=rule, rad=radical: a is not rad and r.x0 - 1 <= a.cx <= r.x1 + 1
                               and r.y1 - 1 <= a.y0 and a.y1 <= rad.y1 + 1)
            if not body:
                continue
            rest = [a for a in rest if a is not radical]
            # an index (\sqrt[n]{x}): script type kerned into the sign's upper left part
            index, rest = _take(rest, lambda a, rad=radical: a.size < 0.8 * size and rad.x0 <= a.cx and a.x1 <= rad.x1
                                and a.base <= rad.y0 + 0.55 * (rad.y1 - rad.y0) and a.y0 >= rad.y0 - size)
            head = rf"\sqrt[{_row(index, [])}]" if index else r"\sqrt"
            base = _main_base(body, _main_size(body))
            atoms = rest + [union(body + [radical] + index, f"{head}{{{_row(body, inside)}}}", base, _main_size(body))]
            continue
        # a radical sign above a bar is in the numerator only with its own vinculum inside the
        # fraction (\frac{\sqrt{s}e}{\mu}); otherwise the bar may be that radical's vinculum
        num, rest = _take(atoms, lambda a, r=rule, reach=2.6 * size, inner=inside: r.x0 - 1 <= a.cx <= r.x1 + 1
                          and r.y0 - reach <= a.y1 <= r.y0 + 1.0 and (a.kind != "radical" or _vinculum(a, inner)))
        den, rest = _take(rest, lambda a, r=rule, reach=2.6 * size: r.x0 - 1 <= a.cx <= r.x1 + 1 and a.y0 >= r.y1 - 1.0
                          and a.y0 <= r.y1 + reach)
        if not num or not den:
            lined = _line_over(rule, atoms, num, den, inside, size)
            if lined is not None:
                atoms = [a for a in atoms if all(a is not c for c in lined.covered)] + [lined.atom]
            continue
        top, bottom = _row(num, inside), _row(den, inside)
        # TeX's maths axis sits a quarter em above the baseline. Numerator and denominator at the
        # row's size: a display fraction; at script size (7 of 10 pt): a text-style one, \tfrac
        # (KaTeX would draw a \frac at full size); at scriptscript size (5 of 10 pt): a fraction
        # in a script, which takes its place as one (e^{\frac{c}{d}})
        parts = _main_size(num + den)
        ratio = parts / size
        if ratio <= _SCRIPT_FRACTION:
            own, base = _script_of(rest, num + den, parts, size)
            if base is None:
                base = rule.y0 + 0.25 * own
            atoms = rest + [union(num + den, rf"\frac{{{top}}}{{{bottom}}}", base, own, "ord")]
            continue
        command = r"\tfrac" if ratio < _TEXT_FRACTION else r"\frac"
        atoms = rest + [union(num + den, rf"{command}{{{top}}}{{{bottom}}}", rule.y0 + 0.25 * size, size)]
    return atoms


class _Lined(NamedTuple):
    covered: list[Atom]
    atom: Atom


def _line_over(rule: Rule, atoms: list[Atom], num: list[Atom], den: list[Atom], inside: list[Rule],
               size: float) -> _Lined | None:
    r"""A rule with glyphs close under it and none above is an ``\overline``, no fraction (the bar
    was dropped, "m=x+y" for ``m = \overline{x} + \overline{y}``). It spans its glyphs and no more
    (a table's rule near a display is wider), its glyphs are wholly under it (a radical's vinculum
    inside a fraction read before it is inside that fraction's box), and no radical sign ends where
    it starts (a vinculum whose radical was not read)."""
    if num or not den or any(abs(a.x1 - rule.x0) < 0.3 * size and a.y0 <= rule.y1 + 0.1 * size
                             and (a.kind == "radical" or a.y1 > rule.y1 + 0.5 * size) for a in atoms):
        return None  # (a sign reaching up to the rule's start: a radical, read or not, and its vinculum)
    close = [a for a in den if 0 <= a.y0 - rule.y1 <= 0.35 * size]
    if not close or rule.x0 < min(a.x0 for a in close) - 0.3 * size or rule.x1 > max(a.x1 for a in close) + 0.3 * size:
        return None
    own = _main_size(close)
    return _Lined(close, union(close, rf"\overline{{{_row(close, inside)}}}", _main_base(close, own), own))


def _vinculum(radical: Atom, rules: list[Rule]) -> bool:
    return any(abs(radical.x1 - r.x0) < 2.0 and abs(radical.y0 - r.y0) < 2.0 for r in rules)


# a big operator this many times the row's type size high is the display style's (cmex's \sum:
# 1.0 em in text style, 1.4 em in display style)
DISPLAY_OP = 1.25


def _limits(atoms: list[Atom], size: float) -> list[Atom]:
    ops = sorted((a for a in atoms if a.kind == "op"), key=lambda a: a.x0)
    for op in ops:
        if op not in atoms:
            continue
        # an integral's scripts sit beside it; limits centred under and over it are ``\limits``
        side = op.tex in SIDE_LIMITS
        slack = -0.1 * (op.x1 - op.x0) if side else 0.3 * size
        near = [a for a in atoms if a is not op and op.x0 - slack <= a.cx <= op.x1 + slack
                and not limit_of_another(a, op, atoms)]
        # limits are a smaller size; a fraction or a whole line above is not one
        upper = [a for a in near if a.y1 <= op.y0 + 0.5 and op.y0 - a.y1 < 0.8 * size and a.size < 0.9 * op.size
                 or a.y1 <= op.y0 + 0.5 and op.y0 - a.y1 < 0.8 * size and a.kind == "ord" and a.size < size]
        floor = _floor(op)
        lower = [a for a in near if a.y0 >= floor - 0.5 and a.y0 - floor < 0.8 * size and a.size < size]
        upper = limit_lines(_grow(upper, atoms, op, above=True), atoms, op, size, below=False)
        lower = limit_lines(_grow(lower, atoms, op, above=False), atoms, op, size, below=True)
        if not upper and not lower:
            continue
        gone = {id(a) for a in upper + lower}
        tex = (op.tex + (r"\limits" if side else "") + (f"_{{{limit_rows(lower, _row)}}}" if lower else "")
               + (f"^{{{limit_rows(upper, _row)}}}" if upper else ""))
        merged = union([op] + upper + lower, tex, op.base, op.size, "op")
        merged.x0, merged.x1 = op.x0, op.x1
        atoms = [merged if a is op else a for a in atoms if id(a) not in gone]
    return atoms


def _floor(op: Atom) -> float:
    r"""Where an operator's limits below may start: its box's bottom, or for a name set in letters just
    under its baseline: the "g" of ``\arg\min`` reaches past the top of the limit's letters (STIX Two,
    kpfonts, fourier: ``\arg\min_{\in\Theta}{}_{\theta}``). A symbol's box is its own (STIX Two's
    \int stands on the baseline with its foot below it, and its lower limit beside the foot)."""
    if op.tex not in BIG_OPERATORS and op.base > (op.y0 + op.y1) / 2:
        return min(op.y1, op.base + 0.1 * op.size)
    return op.y1


def _grow(limit: list[Atom], atoms: list[Atom], op: Atom, above: bool) -> list[Atom]:
    """A limit wider than its operator ("j in T_t"): the small glyphs on the same baseline that
    touch the ones found, never those centred on another operator, which are its own limits
    (``\lim_{n\to\infty}\max_{\theta}``: newtx sets the two limits a thin space apart)."""
    if not limit:
        return limit
    base = limit[0].base
    changed = True
    while changed:
        changed = False
        x0, x1 = min(a.x0 for a in limit), max(a.x1 for a in limit)
        for a in atoms:
            if a is op or a in limit or a.size >= op.size * 0.95 and a.kind != "box" or limit_of_another(a, op, atoms):
                continue
            if (a.y1 <= op.y0 + 0.5) != above or (a.y0 >= _floor(op) - 0.5) == above:
                continue
            if abs(a.base - base) < 0.6 * a.size + 2 and x0 - 0.6 * a.size <= a.x1 and a.x0 <= x1 + 0.6 * a.size:
                limit.append(a)
                changed = True
    return limit


def _accents(atoms: list[Atom]) -> list[Atom] | None:
    """An accent glyph over a letter (``\\hat{q}``): the letter takes it; None if it is over nothing."""
    accents = [a for a in atoms if a.kind == "accent"]
    rest = [a for a in atoms if a.kind != "accent"]
    for acc in accents:
        under = [a for a in rest if a.x0 - 1 <= acc.cx <= a.x1 + 1 and a.y0 >= acc.y0 and a.y0 - acc.y1 < 0.6 * a.size]
        if not under:
            return None
        target = min(under, key=lambda a: a.y0 - acc.y1)
        # a wide accent spans what it is over, scripts included (\widehat{d_p}: TeX picks the
        # widest hat that fits the nucleus, so a hat over d alone ends before d's subscript)
        covered = [a for a in rest if acc.tex.startswith(r"\wide") and acc.x0 - 0.5 <= a.cx <= acc.x1 + 0.5
                   and a.y0 >= acc.y0 and a.y0 - acc.y1 < 1.2 * a.size]
        if target in covered and len(covered) > 1:
            box = union(covered, f"{acc.tex}{{{_row(covered, [])}}}", target.base, target.size, "ord")
            rest = [box if a is target else a for a in rest if a is target or a not in covered]
            continue
        target.tex = f"{acc.tex}{{{target.tex}}}"
        if target.kind == "roman":
            target.kind = "ord"
    return rest


def _row(atoms: list[Atom], rules: list[Rule]) -> str:
    """One row of atoms (sub-rows for fractions, roots, limits) -> LaTeX."""
    if not atoms:
        return ""
    size = _main_size(atoms)
    if rules:
        atoms = _fractions_and_roots(atoms, rules, size)
        size = _main_size(atoms)
    atoms = _limits(labelled_relations(atoms, size, _row), size)  # (a label's fraction read: \overset{\alpha=\frac34}{=})
    base = _main_base(atoms, size)
    script_delimiters(atoms, base, size)
    atoms.sort(key=lambda a: (a.x0, a.y0))
    # TeX sets scripts of scripts at its smallest size (5 pt) too: at that size a script is told by
    # its shift from the nucleus alone, which comes first (\pi_{\theta_{-1}})
    tiny = size < SCRIPTSCRIPT and all(abs(a.size - size) < 0.3 for a in atoms)
    if tiny:
        base = atoms[0].base
    out: list[str] = []
    placed: list[tuple[int, Atom]] = []
    i = 0
    while i < len(atoms):
        a = atoms[i]
        script = script_kind(a, base, size, tiny)
        if script:  # a script with no nucleus: TeX allows it ("{}^{2}")
            out.append("{}")
        else:
            placed.append((len(out), a))
            # a prime after a superscript needs a nucleus of its own
            out.append("{}'" if a.tex == "'" and out and out[-1].startswith("^") else a.tex)
            i += 1
        subs: list[Atom] = []
        sups: list[Atom] = []
        while i < len(atoms):
            kind = script_kind(atoms[i], base, size, tiny) or deeper_script(atoms[i], subs, sups)
            if not kind:
                break
            (sups if kind == "^" else subs).append(atoms[i])
            i += 1
        if (subs or sups) and not script and a.kind == "op" and ("_{" in a.tex or "^{" in a.tex):
            out.append("{}")  # scripts after an operator's limits: not a double script
        elif (subs or sups) and not script and a.kind == "op" and a.tex not in SIDE_LIMITS \
                and a.y1 - a.y0 > DISPLAY_OP * size:
            # a display-size \sum (in text style it is smaller) whose scripts sit beside it:
            # ``\nolimits``, else KaTeX sets them under and over it
            out.append(r"\nolimits")
        start = None if script else braced_group(placed, a, sups, base, size)
        if start is not None:  # scripts on a braced group: {\{R_t, \tilde{R}_t\}}_1^N
            out.insert(start, "{")
            placed = [(k + (k >= start), b) for k, b in placed]
            out.append("}")
        if subs:
            out.append(f"_{{{_row(subs, [])}}}")
        if sups:
            sup = _row(sups, [])
            out.append(sup if set(sup) == {"'"} else f"^{{{sup}}}")  # a prime is drawn raised
    return _join(out)


def _join(tokens: list[str]) -> str:
    text = ""
    for tok in tokens:
        if text and text[-1].isalpha() and re.search(r"\\[A-Za-z]+$", text) and tok[:1].isalpha():
            text += " "
        text += tok
    return text


def build(glyphs: list[list], rules: list[Rule]) -> str | None:
    """LaTeX of a formula's glyphs (with its number: ``numbered``), or None if unreadable."""
    glyphs, tag = equation_number(ligatures(glyphs))
    if not glyphs:
        return None
    try:
        atoms = [a for a in (glyph_atom(g) for g in glyphs if g[0].strip()) if a is not None]
    except Unreadable:
        return None
    if not atoms:
        return None
    atoms = _accents(words(spaced_bars(colon_equals(mapsto(negations(multiple_integrals(stacked_pieces(ord_dots(atoms)))))))))
    if atoms is None:
        return None
    atoms = arrow_accents(atoms, rules, _row)
    x0, x1 = min(a.x0 for a in atoms), max(a.x1 for a in atoms)
    y0, y1 = min(a.y0 for a in atoms), max(a.y1 for a in atoms)
    size = _main_size(atoms)
    # a bar may reach past its glyphs' ink: TeX's by its \nulldelimiterspace (1.2 pt) and, after a
    # script, \scriptspace (0.5 pt) and the glyph's side bearing (a radical's vinculum over a fraction
    # ending in a script, \sqrt{\frac{..}{2n}}, and the bar of \frac{e^{z_i}}{\sum_{j=1}^{K} e^{z_j}}
    # reach 2.1-2.4 pt past: left out at 2.0, read \surd\frac{..} and a row of scripts); LibreOffice
    # Math's by a sixth of an em (2.1 pt at its 12 pt, scaled with the formula's frame); a vinculum
    # starts at its radical sign and spans the radicand's box (newtx: 2.8 pt past a fraction's ink)
    pad = max(2.6, 0.2 * size)
    radicals = [a for a in atoms if a.kind == "radical"]
    near = [r for r in rules if r.y1 - r.y0 <= 2.0 and r.x1 - r.x0 > 1.5 and r.x0 >= x0 - pad and y0 - 2 <= r.y0 <= y1 + 2
            and (r.x1 <= x1 + pad or r.x1 <= x1 + 0.5 * size and any(_vinculum(a, [r]) for a in radicals))]
    atoms, near = horizontal_braces(atoms, near, size, _row)
    atoms = matrices(atoms, near, size, _row, tall_delimiters(glyphs, size))
    for a in atoms:
        # a delimiter at the size TeX chose (\left(\frac{a}{b}\right)^2 read as (\frac{a}{b})^{2}:
        # KaTeX set it at the text's size with the square on its small parenthesis, and olmocr's
        # MathTest failed it); matrices took the tall delimiters around arrays before
        if a.kind == "delim" and a.scale:
            a.tex, a.scale = a.scale + a.tex, ""
    tex = _row(atoms, near)
    if any(a.kind == "radical" for a in atoms) and r"\sqrt" not in tex:
        return None
    # (a letter right after \ldots is no part of its name: "1\ldotsL" was a macro KaTeX does not know)
    tex = re.sub(r"\.\.\.(?=[A-Za-z])", r"\\ldots ", tex.replace(r"\cdot\cdot\cdot", r"\cdots"))
    tex = tex.replace("...", r"\ldots").replace(TIGHT_DOTS, "...")
    tex = tex.replace(r"\sqrt_", r"\surd_").replace(r"\sqrt^", r"\surd^")
    tex = re.sub(r"\\sqrt(?![{[])", r"\\surd", tex)
    # a word of prose keeps its space only before what follows it: at the end of the formula or of
    # an array's cell or of a script KaTeX draws it (olmocr's MathTest failed "0 & \text{otherwise }"),
    # and before the word's own script (``\text{Mean Feature Vector}_{A}``)
    tex = _TEXT_END.sub(r"\1}", tex)
    return numbered(tex, tag)


def delimiters_balanced(tex: str) -> bool:
    return tex.count("{") - tex.count(r"\{") == tex.count("}") - tex.count(r"\}")


__all__ = ["DELIMITERS", "build", "delimiters_balanced", "numbered"]
