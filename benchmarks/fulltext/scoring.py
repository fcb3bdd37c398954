"""Score markdown against olmOCR-Bench-style unit tests (``derive.py`` writes them).

Text is compared after the same normalisation on both sides: NFKC, typographic quotes and dashes
to ASCII, markdown emphasis removed, whitespace collapsed, lower case. A test passes or fails;
the score of a document is the share of its tests that pass.
"""
from __future__ import annotations

import html
import re
import unicodedata

from benchmarks.fulltext.math_score import score_math

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


def grid_neighbour(grid, r: int, c: int, direction: str) -> str | None:
    """The text of the next cell left/right/up/down of (r, c) in a grid of (text, cell id) pairs
    (a spanning cell is one id over several columns): olmOCR-Bench's table neighbours; the test
    generator (benchmarks/fulltext_real/derive.py) derives them with the same function."""
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
                if not all(grid_neighbour(grid, r, c, d) == norm(test[d]) for d in ("left", "right", "up", "down")
                           if d in test):
                    continue
                if "top_heading" in test and not _heading_above(grid, r, c, norm(test["top_heading"])):
                    continue
                # olmOCR's ``left_heading``: the row's first cell
                if "left_heading" in test and (c == 0 or row[0][0] != norm(test["left_heading"])):
                    continue
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
        return score_math(markdown, test, norm)
    raise ValueError(f"unknown test type {kind!r}")


def score(markdown: str, tests: list[dict]) -> dict[str, bool]:
    flat = norm(markdown)
    return {test["id"]: check(markdown, test, flat) for test in tests}
