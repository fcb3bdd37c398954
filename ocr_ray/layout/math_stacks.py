r"""What TeX stacks over or under a symbol: horizontal braces (``\underbrace{x+y}_{\text{label}}``,
``\overbrace{a+b}^{n}``) and relations with a label over them (``\stackrel{\text{def}}{=}``,
``\overset{(i)}{=}``).

TeX builds such a brace from four glyphs of the extension font (cmex 0x7A-0x7D, the layout txex,
lmex and the other followers share): its two ends and the two halves of its tip in the middle,
joined by rules as long as what it spans. The tip points at the brace's label (a limit, set in
script style); what the brace spans is on the other side. Read before fractions: a brace's rules
are no fraction bars, and the label is no script of the letter after the brace (``a+_{n}b``).
"""
from __future__ import annotations

from collections.abc import Callable

from ocr_ray.layout.math_atoms import Atom, union
from ocr_ray.layout.math_symbols import SIDE_LIMITS
from ocr_ray.layout.model import Rule

Row = Callable[[list[Atom], list[Rule]], str]


def horizontal_braces(atoms: list[Atom], rules: list[Rule], size: float, row: Row) -> tuple[list[Atom], list[Rule]]:
    """Each brace of four pieces (``brace`` atoms) and what it spans and its label, one atom
    ``\\underbrace{..}_{..}`` (``\\overbrace{..}^{..}``), and the rules left; pieces that make no
    brace are dropped (as the pieces of a tall delimiter are)."""
    pieces = sorted((a for a in atoms if a.kind == "brace"), key=lambda a: a.x0)
    atoms = [a for a in atoms if a.kind != "brace"]
    while len(pieces) >= 4:
        group, pieces = pieces[:4], pieces[4:]
        if max(a.y1 for a in group) - min(a.y0 for a in group) > 1.5 * size:
            continue  # (four pieces in no line: not one brace)
        atoms, rules = _read(group, atoms, rules, size, row)
    return atoms, rules


def _read(group: list[Atom], atoms: list[Atom], rules: list[Rule], size: float, row: Row) -> tuple[list[Atom], list[Rule]]:
    x0, x1 = group[0].x0, group[-1].x1
    y0, y1 = min(a.y0 for a in group), max(a.y1 for a in group)
    tip = (group[1].y0 + group[1].y1 + group[2].y0 + group[2].y1) / 4
    ends = (group[0].y0 + group[0].y1 + group[3].y0 + group[3].y1) / 4
    under = tip > ends  # the tip below the ends: the label is under the brace
    fill = [r for r in rules if x0 - 1 <= r.x0 and r.x1 <= x1 + 1 and y0 - 1 <= r.y0 and r.y1 <= y1 + 1]
    rules = [r for r in rules if all(r is not f for f in fill)]
    spanned = [a for a in atoms if x0 - 1 <= a.cx <= x1 + 1 and (a.y1 <= y0 + 0.5 if under else a.y0 >= y1 - 0.5)]
    if not spanned:
        return atoms, rules
    label = _label([a for a in atoms if all(a is not s for s in spanned)], x0, x1, y0, y1, under, size)
    inner = [r for r in rules if x0 - 1 <= r.x0 and r.x1 <= x1 + 1 and (r.y1 <= y0 if under else r.y0 >= y1)]
    rules = [r for r in rules if all(r is not i for i in inner)]
    command, script = (r"\underbrace", "_") if under else (r"\overbrace", "^")
    tex = f"{command}{{{row(spanned, inner)}}}" + (f"{script}{{{row(label, [])}}}" if label else "")
    main = max(spanned, key=lambda a: (a.kind != "box", a.size))
    taken = {id(a) for a in spanned + label}
    return [a for a in atoms if id(a) not in taken] + [union(spanned + label + group, tex, main.base, main.size)], rules


def _label(atoms: list[Atom], x0: float, x1: float, y0: float, y1: float, under: bool, size: float) -> list[Atom]:
    """The glyphs on the tip's side, close to it and smaller than the row's type: the brace's
    label, centred on it (a label wider than the brace reaches past its ends: the glyphs on its
    baseline next to those found)."""
    # (a label's top may reach above the tip's box: its middle is past the brace, its top or bottom not past the other edge)
    near = [a for a in atoms if a.size < 0.9 * size and (y1 < (a.y0 + a.y1) / 2 and y0 <= a.y0 < y1 + size if under
                                                         else (a.y0 + a.y1) / 2 < y0 and y0 - size < a.y1 <= y1)]
    return _grown([a for a in near if x0 - 1 <= a.cx <= x1 + 1], near)


# relations TeX sets a label over (\stackrel, \overset): the label was read as a superscript of the
# symbol before the relation ("+^{\mathrm{def}}=1", "a^{(}=^{i)}b")
RELATIONS = frozenset({"=", "<", ">", r"\le", r"\ge", r"\leq", r"\geq", r"\approx", r"\sim", r"\simeq", r"\equiv",
                       r"\to", r"\rightarrow", r"\Rightarrow", r"\Leftrightarrow", r"\propto", r"\cong", r"\ne",
                       r"\neq", r"\longrightarrow", r"\Longrightarrow", r"\preceq", r"\succeq"})


def _long_arrows(atoms: list[Atom]) -> list[Atom]:
    r"""An arrow drawn as minus signs overlapping a ``\to`` on its axis (``\longrightarrow``, an
    ``\xrightarrow`` stretched under its label) -> one arrow (it was ``-\to``, ``--\to``)."""
    for arrow in [a for a in atoms if a.tex in (r"\to", r"\rightarrow")]:
        shaft: list[Atom] = []
        x0 = arrow.x0
        for a in sorted((a for a in atoms if a.tex == "-" and abs(a.base - arrow.base) < 0.5
                         and abs(a.size - arrow.size) < 0.3 and a.x0 < arrow.x0), key=lambda a: -a.x1):
            if a.x1 < x0 - 0.1:
                break
            shaft.append(a)
            x0 = a.x0
        if shaft:
            taken = {id(a) for a in shaft}
            atoms = [a for a in atoms if id(a) not in taken and a is not arrow] + [
                union(shaft + [arrow], r"\longrightarrow", arrow.base, arrow.size, "ord")]
    return atoms


_OVER_ARROWS = {r"\to": r"\overrightarrow", r"\rightarrow": r"\overrightarrow", r"\longrightarrow": r"\overrightarrow",
                r"\leftarrow": r"\overleftarrow", r"\gets": r"\overleftarrow", r"\leftrightarrow": r"\overleftrightarrow"}


def arrow_accents(atoms: list[Atom], rules: list[Rule], row: Row) -> list[Atom]:
    r"""An arrow set over what follows it, centred on it (MathML's ``<mover>`` with "→", which
    chromium prints as the arrow glyph; ``\overrightarrow{AB}``, drawn as minus signs and a ``\to``):
    one letter under it is ``\vec{w}``, more ``\overrightarrow{AB}`` (it was ``\to w``, ``A\longrightarrow B``).
    No rule between them (an arrow in a numerator is over the denominator)."""
    atoms = _long_arrows(atoms)
    for arrow in [a for a in atoms if a.tex in _OVER_ARROWS]:
        size = arrow.size
        under = [a for a in atoms if a is not arrow and arrow.x0 - 0.2 * size <= a.cx <= arrow.x1 + 0.2 * size
                 and a.y0 >= arrow.y1 - 0.15 * size and a.y0 - arrow.y1 < 0.5 * size and a.base - arrow.base > 0.4 * size
                 and a.size > 0.8 * size]
        if not under:
            continue
        base = max(under, key=lambda a: a.size)
        group = _centred([a for a in under if abs(a.base - base.base) < 0.1 * size], atoms, arrow)
        x0, x1 = min(a.x0 for a in group), max(a.x1 for a in group)
        # (chromium's stretched arrow over <mrow>AB</mrow> is a small head and a shaft PDFium does not
        # report: it spans no letter, and is left as read)
        if abs((x0 + x1) / 2 - arrow.cx) > 0.3 * size or arrow.x1 - arrow.x0 < 0.7 * (x1 - x0) or any(
                r.y1 - r.y0 <= 2.0 and r.x0 < x1 and r.x1 > x0 and arrow.y1 - 0.5 <= r.y0 <= min(a.y0 for a in group) + 0.5
                for r in rules):
            continue
        tex = (r"\vec" if len(group) == 1 and arrow.tex in (r"\to", r"\rightarrow") else _OVER_ARROWS[arrow.tex]) \
            + f"{{{row(group, [])}}}"
        atoms = [a for a in atoms if a is not arrow and a not in group] + [union(group + [arrow], tex, base.base, base.size, "ord")]
    return atoms


def _centred(group: list[Atom], atoms: list[Atom], arrow: Atom) -> list[Atom]:
    """``group`` grown by the glyphs touching it on its baseline while that brings its middle nearer
    the arrow's (chromium does not stretch "→" over ``<mover><mrow>AB</mrow>``: B sticks out)."""
    def off(g: list[Atom]) -> float:
        return abs((min(a.x0 for a in g) + max(a.x1 for a in g)) / 2 - arrow.cx)

    while True:
        x0, x1 = min(a.x0 for a in group), max(a.x1 for a in group)
        near = [a for a in atoms if a is not arrow and a not in group and abs(a.base - group[0].base) < 0.1 * arrow.size
                and (0 <= x0 - a.x1 < 0.2 * arrow.size or 0 <= a.x0 - x1 < 0.2 * arrow.size)]
        best = min(near, key=lambda a: off(group + [a]), default=None)
        if best is None or off(group + [best]) >= off(group):
            return group
        group = group + [best]


def labelled_relations(atoms: list[Atom], size: float, row: Row) -> list[Atom]:
    r"""A relation with glyphs in script type centred right above it -> ``\overset{label}{=}``, an
    arrow ``\xrightarrow{label}``."""
    atoms = _long_arrows(atoms)
    for rel in [a for a in atoms if a.tex in RELATIONS and a.size > 0.9 * size]:
        seed = [a for a in atoms if a is not rel and a.size < 0.9 * size and a.y1 <= rel.y0 + 0.5
                and rel.y0 - a.y1 < 0.8 * size and rel.x0 - 0.3 * size <= a.cx <= rel.x1 + 0.3 * size]
        # (a box wholly over the relation's top is in its label: a \tfrac's parts are at script size,
        # its box at the row's, \overset{\alpha=\tfrac{3}{4}}{=})
        label = _grown(seed, [a for a in atoms if (a.size < 0.9 * size or a.kind == "box") and a.y1 <= rel.y0 + 0.5])
        if not label or abs((min(a.x0 for a in label) + max(a.x1 for a in label)) / 2 - rel.cx) > 0.2 * size:
            continue
        taken = {id(a) for a in label}
        tex = (rf"\xrightarrow{{{row(label, [])}}}" if rel.tex in (r"\to", r"\rightarrow", r"\longrightarrow")
               else rf"\overset{{{row(label, [])}}}{{{rel.tex}}}")
        atoms = [a for a in atoms if id(a) not in taken and a is not rel] + [union(label + [rel], tex, rel.base, rel.size, "ord")]
    return atoms


def _grown(label: list[Atom], near: list[Atom]) -> list[Atom]:
    """``label`` and the glyphs of ``near`` on its baseline that touch it, in turn (a label wider
    than what it is set against)."""
    grew = True
    while label and grew:
        grew = False
        lx0, lx1 = min(a.x0 for a in label), max(a.x1 for a in label)
        for a in near:
            if a not in label and abs(a.base - label[0].base) < 0.3 * a.size \
                    and lx0 - 0.6 * a.size <= a.x1 and a.x0 <= lx1 + 0.6 * a.size:
                label.append(a)
                grew = True
    return label


def limit_rows(atoms: list[Atom], row: Row) -> str:
    r"""A big operator's limit: one row, or lines stacked in it (``\substack{i=1 \\ j\neq i}``, its
    lines' glyphs read as one row interleaved in x: ``\sum_{ji=\neq1i}``). A line is the glyphs of
    the limit's type on one baseline, a line's height from the next; each smaller glyph (a script)
    goes with the line whose baseline is nearest."""
    size = max(a.size for a in atoms)
    lines: list[list[Atom]] = []
    for a in sorted((a for a in atoms if a.size > 0.9 * size), key=lambda a: a.base):
        if lines and a.base - lines[-1][-1].base <= 0.8 * size:
            lines[-1].append(a)
        else:
            lines.append([a])
    if len(lines) < 2:
        return row(atoms, [])
    bases = [sorted(a.base for a in line)[len(line) // 2] for line in lines]
    groups: list[list[Atom]] = [[] for _ in lines]
    for a in atoms:
        groups[min(range(len(bases)), key=lambda k: abs(a.base - bases[k]))].append(a)
    return r"\substack{" + r" \\ ".join(row(group, []) for group in groups) + "}"


def limit_lines(limit: list[Atom], atoms: list[Atom], op: Atom, size: float, below: bool) -> list[Atom]:
    """A limit and its further lines (``\\substack``): glyphs in script type right under its last
    line (over its first, ``below`` False) within its extent, with those on their baseline."""
    while limit:
        edge = max(a.y1 for a in limit) if below else min(a.y0 for a in limit)
        x0, x1 = min(a.x0 for a in limit), max(a.x1 for a in limit)
        free = [a for a in atoms if a is not op and a.size < 0.9 * size and all(a is not b for b in limit)
                and (a.y0 >= edge - 0.5 if below else a.y1 <= edge + 0.5)]
        more = [a for a in free if x0 - 0.3 * size <= a.cx <= x1 + 0.3 * size
                and (a.y0 - edge if below else edge - a.y1) < 0.5 * size]
        if not more:
            return limit
        limit = limit + _grown(more, free)
    return limit


def limit_of_another(a: Atom, op: Atom, atoms: list[Atom]) -> bool:
    r"""Whether ``a`` is under or over another operator (taking limits), or just outside it and
    nearer its middle than ``op``'s: KaTeX printed without its fonts sets a \sum narrower than its
    limit "i=1", whose "i" was taken into the \max's before it (``\max_{i}{}_{\theta}\sum_{=1}``)."""
    slack = 0.3 * op.size
    return any(o.x0 <= a.cx <= o.x1 or o.x0 - slack <= a.cx <= o.x1 + slack and abs(a.cx - o.cx) < abs(a.cx - op.cx)
               for o in atoms if o.kind == "op" and o is not op and o.tex not in SIDE_LIMITS)
