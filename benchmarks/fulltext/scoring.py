"""Score markdown against olmOCR-Bench-style unit tests (``derive.py`` writes them).

Text is compared after the same normalisation on both sides: NFKC, typographic quotes and dashes
to ASCII, markdown emphasis removed, whitespace collapsed, lower case. A test passes or fails;
the score of a document is the share of its tests that pass.
"""
from __future__ import annotations

import html
import re
import unicodedata

_EMPHASIS = re.compile(r"(\*\*|__|`|<br\s*/?>|</?(b|i|em|strong|sup|sub)>)")
_TRANSLATE = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "−": "-", "\u00a0": " "})


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    text = _EMPHASIS.sub("", text)
    return " ".join(text.split()).lower()


def tables(markdown: str) -> list[list[list[tuple[str, int]]]]:
    """Every table (markdown pipe or HTML) as a grid of (normalised text, cell id); a spanning
    cell fills each column it spans with the same id."""
    out = []
    ident = 0
    for match in re.finditer(r"<table.*?>(.*?)</table>", markdown, re.S | re.I):
        grid = []
        for row in re.findall(r"<tr.*?>(.*?)</tr>", match.group(1), re.S | re.I):
            cells = []
            for attrs, text in re.findall(r"<t[hd]([^>]*)>(.*?)</t[hd]>", row, re.S | re.I):
                span = re.search(r'colspan="?(\d+)', attrs)
                ident += 1
                cells += [(norm(html.unescape(re.sub(r"<[^>]+>", " ", text))), ident)] * (int(span.group(1)) if span else 1)
            grid.append(cells)
        out.append(grid)
    block: list[str] = []
    for line in markdown.splitlines() + [""]:
        if line.strip().startswith("|"):
            block.append(line.strip())
            continue
        if len(block) >= 2:
            grid = []
            for row in block:
                if re.fullmatch(r"\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*\|?", row):
                    continue
                cells = []
                for text in re.split(r"(?<!\\)\|", row.strip().strip("|")):
                    ident += 1
                    cells.append((norm(text.replace("\\|", "|")), ident))
                grid.append(cells)
            out.append(grid)
        block = []
    return out


def _neighbour(grid, r: int, c: int, direction: str) -> str | None:
    ident = grid[r][c][1]
    if direction in ("left", "right"):
        step = -1 if direction == "left" else 1
        k = c + step
        while 0 <= k < len(grid[r]) and grid[r][k][1] == ident:
            k += step
        return grid[r][k][0] if 0 <= k < len(grid[r]) else None
    k = r + (-1 if direction == "up" else 1)
    return grid[k][c][0] if 0 <= k < len(grid) and c < len(grid[k]) else None


def _heading_above(grid, r: int, c: int, want: str) -> bool:
    """olmOCR's ``top_heading``: a cell above in the same column (a header may take several rows)."""
    return any(c < len(grid[k]) and grid[k][c][0] == want for k in range(r))


def _table_ok(markdown: str, test: dict) -> bool:
    want = norm(test["cell"])
    for grid in tables(markdown):
        for r, row in enumerate(grid):
            for c, (text, _) in enumerate(row):
                if text != want:
                    continue
                if not all(_neighbour(grid, r, c, d) == norm(test[d]) for d in ("left", "right", "up", "down")
                           if d in test):
                    continue
                if "top_heading" in test and not _heading_above(grid, r, c, norm(test["top_heading"])):
                    continue
                # olmOCR's ``left_heading``: the row's first cell
                if "left_heading" in test and (c == 0 or row[0][0] != norm(test["left_heading"])):
                    continue
                return True
    return False


def math_blocks(markdown: str) -> list[str]:
    found = re.findall(r"\$\$(.+?)\$\$", markdown, re.S) + re.findall(r"\\\[(.+?)\\\]", markdown, re.S)
    found += re.findall(r"<math[^>]*>(.+?)</math>", markdown, re.S)
    return found


# LaTeX commands and the character a renderer draws for them; a command not listed draws nothing of
# its own (\frac, \left, \mathbb{...} wrappers, spacing) and only its arguments count.
_MATH_CHARS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ",
    "phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ",
    "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "sum": "∑", "prod": "∏", "int": "∫", "oint": "∮", "infty": "∞", "partial": "∂", "nabla": "∇", "cdot": "·",
    "times": "×", "div": "÷", "pm": "±", "mp": "∓", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠",
    "approx": "≈", "sim": "∼", "simeq": "≃", "equiv": "≡", "propto": "∝", "in": "∈", "notin": "∉",
    "subset": "⊂", "subseteq": "⊆", "supset": "⊃", "supseteq": "⊇", "cup": "∪", "cap": "∩", "setminus": "∖",
    "emptyset": "∅", "forall": "∀", "exists": "∃", "to": "→", "rightarrow": "→", "leftarrow": "←",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "leftrightarrow": "↔", "iff": "⟺", "mapsto": "↦", "langle": "⟨",
    "rangle": "⟩", "circ": "∘", "star": "⋆", "ast": "∗", "odot": "⊙", "oplus": "⊕", "otimes": "⊗",
    "bullet": "∙", "ell": "ℓ", "top": "⊤", "intercal": "⊺", "perp": "⊥", "bot": "⊥", "neg": "¬", "land": "∧",
    "wedge": "∧", "lor": "∨", "vee": "∨", "mid": "∣", "parallel": "∥", "lfloor": "⌊", "rfloor": "⌋",
    "lceil": "⌈", "rceil": "⌉", "cdots": "⋯", "ldots": "…", "dots": "…", "prime": "′", "Vert": "‖",
    "lVert": "‖", "rVert": "‖", "vert": "|", "lvert": "|", "rvert": "|", "coloneqq": ":=", "triangleq": "≜",
    "log": "log", "ln": "ln", "exp": "exp", "max": "max", "min": "min", "arg": "arg", "sup": "sup",
    "inf": "inf", "lim": "lim", "det": "det", "sin": "sin", "cos": "cos", "tan": "tan", "argmax": "argmax",
    "argmin": "argmin",
}
_FOLD = str.maketrans({"ε": "ϵ", "φ": "ϕ", "−": "-", "∗": "*", "∙": "·", "∣": "|", "‖": "||", "…": "...",
                       "⋯": "..."})


def math_symbols(source: str) -> str:
    """What a rendered formula shows, in order, as one string: LaTeX commands become the character
    they draw, structure (``^``, ``_``, braces, ``\\frac``, ``\\left``, spacing) and whitespace
    go. Applied to the test's LaTeX and to the engine's math block alike, so an engine that writes
    LaTeX and one that writes the glyphs (``λ = ∑``) are compared on the same footing.

    A stand-in for olmOCR-Bench's KaTeX rendering comparison (issue 21 item 4 replaces it): it
    ignores layout (which symbol is a superscript), so it is more lenient than a rendering."""
    source = unicodedata.normalize("NFKC", source)
    source = re.sub(r"\\(?:text|textrm|mathrm|operatorname)\s*\{([^{}]*)\}", r"\1", source)
    source = re.sub(r"\\([A-Za-z]+)", lambda m: _MATH_CHARS.get(m.group(1), ""), source)
    source = re.sub(r"\\[,;:!> ]|[{}^_&\s$]|\\\\", "", source)
    return source.translate(_FOLD)


def _math_ok(markdown: str, test: dict) -> bool:
    if "math" in test:  # olmOCR-Bench's shape: the formula as LaTeX
        want = math_symbols(test["math"])
        return bool(want) and any(want in math_symbols(block) for block in math_blocks(markdown))
    for block in math_blocks(markdown):
        flat = "".join(norm(block).split())
        at = 0
        for token in test["tokens"]:
            at = flat.find("".join(norm(token).split()), at)
            if at < 0:
                break
            at += 1
        else:
            return True
    return False


def _heading_ok(markdown: str, test: dict) -> bool:
    want = norm(test["text"])
    return any(want in norm(m) for m in re.findall(r"^#{1,6}\s+(.+)$", markdown, re.M))


def check(markdown: str, test: dict, flat: str | None = None) -> bool:
    flat = norm(markdown) if flat is None else flat
    kind = test["type"]
    if kind in ("present", "footnote"):
        return norm(test["text"]) in flat
    if kind == "absent":
        return norm(test["text"]) not in flat
    if kind == "order":
        a, b = flat.find(norm(test["before"])), flat.find(norm(test["after"]))
        return 0 <= a < b
    if kind == "heading":
        return _heading_ok(markdown, test)
    if kind == "table":
        return _table_ok(markdown, test)
    if kind == "math":
        return _math_ok(markdown, test)
    raise ValueError(f"unknown test type {kind!r}")


def score(markdown: str, tests: list[dict]) -> dict[str, bool]:
    flat = norm(markdown)
    return {test["id"]: check(markdown, test, flat) for test in tests}
