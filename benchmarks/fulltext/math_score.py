"""The ``math`` test, scored as olmOCR-Bench does: both formulas rendered by KaTeX, then compared.

olmOCR-Bench (``MathTest`` in ``olmocr/bench/tests.py``; ``compare_rendered_equations`` in
``olmocr/bench/katex/render.py``) renders the expected LaTeX and each candidate block with KaTeX in
a browser, tests whether one normalised MathML is contained in the other, and otherwise matches the
rendered symbol spans by the relative positions of their neighbours. So two spellings of one
formula (``\\left(`` or ``(``, ``\\text{x}`` or ``\\mathrm{x}``, ``x_i`` or ``x_{i}``, spacing
commands) pass and a wrong symbol, script or fraction fails. Here, without a browser, KaTeX's
MathML is reduced to the sequence of drawn symbols (with their alphabet: italic, upright, bold,
blackboard, calligraphic...) and the structure that places them (sub/superscript, limits,
fraction, root), spacing and grouping dropped; a test passes when the expected sequence occurs in
one of the markdown's ``$$`` blocks (the containment test; the span-neighbour fallback is not
reproduced).

Tests with ``tokens`` instead of ``math`` (the project's own papers: glyph words in order) are
matched against the blocks read as plain text (LaTeX commands back to their symbols).

KaTeX runs in node from ``benchmarks/fulltext/katex`` (``npm ci`` there; ``make bench`` does it).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

KATEX_DIR = Path(__file__).parent / "katex"
_CACHE: dict[str, list[str] | None] = {}
_TAG = re.compile(r"\\tag\*?\{[^}]*\}|\\(?:label|nonumber|notag)(?:\{[^}]*\})?")
_SAME = {"−": "-", "∣": "|", "∥": "‖", "ϵ": "ϵ", "∗": "*", "⋅": "·", "′": "'", "\u2061": "", "\u2062": "",
         "\u2063": "", "\u200b": "", "\xa0": "", " ": ""}
_VARIANT = {"bold-italic": "bold", "bold-sans-serif": "bold", "sans-serif-italic": "sans-serif",
            "bold-fraktur": "fraktur", "bold-script": "script"}


def katex_available() -> bool:
    return shutil.which("node") is not None and (KATEX_DIR / "node_modules" / "katex").is_dir()


def render_many(latex: list[str]) -> None:
    """KaTeX MathML of each not yet cached formula, reduced to symbols (None: KaTeX rejects it)."""
    todo = sorted({t for t in latex if t not in _CACHE})
    if not todo:
        return
    out = subprocess.run(["node", str(KATEX_DIR / "render.js")], input=json.dumps([_TAG.sub("", t) for t in todo]),
                         capture_output=True, text=True, check=True, cwd=KATEX_DIR).stdout
    for tex, mathml in zip(todo, json.loads(out), strict=True):
        _CACHE[tex] = symbols(mathml) if mathml else None


def symbols(mathml: str) -> list[str]:
    """The drawn symbols of KaTeX MathML, in reading order, with script/fraction structure."""
    body = re.search(r"<math[^>]*>(.*)</math>", mathml, re.S)
    if not body:
        return []
    text = re.sub(r"<annotation[^>]*>.*?</annotation>", "", body.group(1), flags=re.S)
    root = ET.fromstring(f"<math>{text}</math>")
    out: list[str] = []
    _walk(root, out)
    return out


def _walk(node: ET.Element, out: list[str]) -> None:
    tag = node.tag
    kids = list(node)
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        variant = node.get("mathvariant")
        chars = node.text or ""
        for ch in chars:
            ch = _SAME.get(ch, ch)
            if not ch or ch.isspace():  # \, \quad and friends draw nothing
                continue
            if ch.isalpha():
                v = variant or ("italic" if tag == "mi" and len(chars) == 1 else "normal")
                out.append(f"{_VARIANT.get(v, v)}:{ch}")
            else:
                out.append(ch)
        return
    if tag in ("mspace", "annotation"):
        return
    if tag in ("msub", "munder") and len(kids) == 2:
        _walk(kids[0], out)
        _group(kids[1], "_", out)
        return
    if tag in ("msup", "mover") and len(kids) == 2:
        if tag == "mover" and node.get("accent") == "true":
            _group(kids[1], "accent", out)
            _group(kids[0], "", out)
            return
        _walk(kids[0], out)
        _group(kids[1], "^", out)
        return
    if tag in ("msubsup", "munderover") and len(kids) == 3:
        _walk(kids[0], out)
        _group(kids[1], "_", out)
        _group(kids[2], "^", out)
        return
    if tag == "mfrac" and len(kids) == 2:
        out.append("frac")
        _group(kids[0], "", out)
        _group(kids[1], "", out)
        return
    if tag in ("msqrt", "mroot"):
        out.append("sqrt")
        _group(node if tag == "msqrt" else kids[0], "", out, inner=tag == "msqrt")
        return
    for kid in kids:
        _walk(kid, out)


def _group(node: ET.Element, mark: str, out: list[str], inner: bool = False) -> None:
    out.append(mark + "{")
    for kid in (list(node) if inner else [node]):
        _walk(kid, out)
    out.append("}")


def _contains(seq: list[str], part: list[str]) -> bool:
    if not part:
        return False
    n = len(part)
    first = part[0]
    return any(seq[i] == first and seq[i:i + n] == part for i in range(len(seq) - n + 1))


def math_blocks(markdown: str) -> list[str]:
    return [b.strip() for b in re.findall(r"\$\$(.+?)\$\$", markdown, re.S) + re.findall(r"\\\[(.+?)\\\]", markdown, re.S)]


def latex_text(block: str) -> str:
    """A LaTeX block read as the glyph text it draws (``\\rho`` -> ρ, braces and scripts dropped)."""
    from ocr_ray.layout.math_symbols import SYMBOLS

    inverse = {v: k for k, v in SYMBOLS.items() if v.startswith("\\") and v[1:].isalpha()}
    inverse.update({r"\to": "→", r"\phi": "ϕ", r"\epsilon": "ϵ"})
    text = re.sub(r"\\[A-Za-z]+", lambda m: inverse.get(m.group(), " " + m.group()[1:] + " "), block)
    for word in ("mathrm", "mathbf", "mathbb", "mathcal", "mathfrak", "boldsymbol", "mathsf", "mathtt",
                 "operatorname", "frac", "sqrt", "tag", "text"):
        text = text.replace(f" {word} ", " ")
    return re.sub(r"[{}_^]", " ", text)


def score_math(markdown: str, test: dict, norm=lambda s: s) -> bool:
    """One olmOCR-style math test against a markdown document (see the module docstring)."""
    blocks = math_blocks(markdown)
    if "math" not in test:  # glyph words in order (the project's own papers)
        for block in blocks:
            flat = "".join(norm(latex_text(block)).split())
            at = 0
            for token in test["tokens"]:
                at = flat.find("".join(norm(token).split()), at)
                if at < 0:
                    break
                at += 1
            else:
                return True
        return False
    if not blocks:
        return False
    render_many(blocks + [test["math"]])
    want = _CACHE.get(test["math"])
    if not want:
        return False
    return any(_contains(_CACHE.get(b) or [], want) for b in blocks)
