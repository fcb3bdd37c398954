"""Derive olmOCR-Bench-style tests from a real paper's LaTeX source, deterministically.

``derive(tex, styles)`` reads the flattened source (``latex.flatten``) and the text of the paper's
own style files, and returns tests in olmOCR-Bench's JSON shape (``type`` plus the fields its
test classes take; ``pdf`` names the document, ``checked`` says how the test was made):

* ``present`` (``text``): a sentence of a paragraph whose source is plain words (no command, math,
  citation, reference or footnote left after styles are removed), 6-60 words; at most
  ``MAX_PRESENT`` per paper, evenly spread over the document;
* ``order`` (``before``, ``after``): the first plain sentences of two consecutive paragraphs;
* ``absent`` (``text``): running heads and footers the source or its style sets (``\\fancyhead``,
  ``\\lhead``.., ``\\markboth``, ``\\icmltitlerunning``, the NeurIPS notice string): candidates
  only; ``pages.place`` puts none on a page, the per-page ``absent`` tests come from what TeX set in
  the head and foot boxes (``furniture_truth.py``);
* ``table`` (``cell`` with ``up``/``down``/``left``/``right``/``top_heading``/``left_heading``):
  a cell of a ``tabular`` that is unique in its table, with its plain neighbours;
* ``math`` (``math``): one display equation (an ``align`` line each), when every command in it is
  standard LaTeX (after the paper's own argument-free macros are expanded).

The selection uses only the source's order (no randomness), so the same source gives the same
tests on every machine.
"""
from __future__ import annotations

import re

from benchmarks.fulltext_real import latex

MAX_PRESENT, MAX_ORDER, MAX_TABLE, MAX_MATH, MAX_TABLE_PER_TABULAR = 40, 20, 20, 12, 3
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|al|vs|Fig|Figs|Eq|Eqs|Sec|cf|etc|resp|approx|No)\.)$")
# Environments whose content is not running prose (floats, displays, code, lists of references).
_NON_PROSE = (r"figure\*?|table\*?|wrapfigure|wraptable|equation\*?|align\*?|alignat\*?|gather\*?|multline\*?|"
              r"eqnarray\*?|displaymath|tabular\*?|tabularx|longtable|algorithm\*?|algorithmic|lstlisting|"
              r"verbatim\*?|minted|tikzpicture|thebibliography|center|flushleft|flushright|subfigure|"
              r"minipage|tcolorbox|titlepage|filecontents\*?")
_BREAKS = ("section", "subsection", "subsubsection", "paragraph", "subparagraph", "chapter", "part", "caption",
           "title", "author", "icmltitle", "icmlauthor", "icmlaffiliation", "affiliation", "date", "keywords")
# Commands whose output the PDF prints differently (numbers, citations): a marker that is not plain.
_MARKED = ("cite", "citep", "citet", "citeauthor", "citeyear", "ref", "eqref", "autoref", "cref", "Cref", "url",
           "href", "footnote", "footnotemark", "footnotetext", "thanks", "nameref", "pageref")


def _spread(items: list, k: int) -> list:
    """``k`` items evenly spaced over ``items`` (all of them if there are fewer)."""
    if len(items) <= k:
        return list(items)
    return [items[round(i * (len(items) - 1) / (k - 1))] for i in range(k)] if k > 1 else items[:1]


def document_body(tex: str) -> str:
    body = tex.split("\\begin{document}", 1)[-1].split("\\end{document}", 1)[0]
    body = re.sub(r"\\begin\{thebibliography\}.*?\\end\{thebibliography\}", "\n\n", body, flags=re.S)
    return re.sub(r"\\(?:bibliography|bibliographystyle|printbibliography)\b(\{[^{}]*\})?", "\n\n", body)


def expand_macros(tex: str, letters: str = "A-Za-z", defs_from: str | None = None) -> str:
    """Expand the paper's argument-free ``\\newcommand``/``\\def`` macros in the body (many papers
    write ``\\R`` for ``\\mathbb{R}``), so their equations can be kept. ``letters="A-Za-z@"`` for a
    style file, whose internal macros (``\\@neuripsyear``) hold the venue notice's words; the
    definitions are read from ``defs_from`` (default: ``tex`` itself)."""
    macros: dict[str, str] = {}
    defs = tex if defs_from is None else defs_from
    for m in re.finditer(r"\\(?:re)?newcommand\*?\s*\{?\\([" + letters + r"]+)\}?\s*(?=\{)", defs):
        found = latex.group(defs, m.end())
        if found and "#" not in found[0]:
            macros[m.group(1)] = found[0]
    for m in re.finditer(r"\\def\\([" + letters + r"]+)\s*(?=\{)", defs):
        found = latex.group(defs, m.end())
        if found and "#" not in found[0]:
            macros.setdefault(m.group(1), found[0])
    if not macros:
        return tex
    pattern = re.compile(r"\\(" + "|".join(sorted(map(re.escape, macros), key=len, reverse=True)) + r")(?![" + letters + "])")
    for _ in range(3):  # macros defined through other macros
        tex = pattern.sub(lambda m: macros[m.group(1)], tex)
    return tex


def prose_paragraphs(body: str) -> list[str]:
    text = re.sub(r"\\begin\{(" + _NON_PROSE + r")\}.*?\\end\{\1\}", "\n\n", body, flags=re.S)
    text = re.sub(r"\\\[.*?\\\]|\$\$.*?\$\$", lambda _m: " \\DISPLAY ", text, flags=re.S)
    for name in _MARKED:
        text = _mark(text, name)
    for name in _BREAKS:  # a heading, caption or title ends the paragraph before it
        text = _mark(text, name, "\n\n")
    text = re.sub(r"\\item\b(\[[^\]]*\])?", "\n\n", text)
    text = re.sub(r"\\(?:label|vspace|hspace|input|newpage|clearpage|appendix|maketitle)\*?(\{[^{}]*\})?", " ", text)
    # an environment's optional title ("\\begin{remark}[What the theory does]") is printed in the
    # theorem's head, in parentheses: not prose
    text = re.sub(r"\\begin\{[^}]*\}(\s*\[[^\]]*\])?|\\end\{[^}]*\}", "\n\n", text)
    out = []
    for block in re.split(r"\n\s*\n", text):
        para = latex.unstyle(block)
        if para:
            out.append(para)
    return out


def _mark(text: str, name: str, marker: str = " \\MARK ") -> str:
    """Replace ``\\name[..]{..}`` by ``marker``: by default one that is not plain (the PDF prints a
    number or a citation there, not the source's argument)."""
    out, at = [], 0
    for m in re.finditer(r"\\" + re.escape(name) + r"\*?\s*(?:\[[^\]]*\]\s*)*(?=\{)", text):
        if m.start() < at:
            continue
        found = latex.group(text, m.end())
        if not found:
            continue
        out += [text[at:m.start()], marker]
        at = found[1]
    out.append(text[at:])
    return "".join(out)


def sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(paragraph) if s.strip()]


def plain_sentence(sentence: str) -> bool:
    words = sentence.split()
    return (latex.is_plain(sentence) and 6 <= len(words) <= 60 and sentence[0].isupper()
            and sentence[-1] in ".!?" and not _ABBREV.search(sentence) and "\\" not in sentence)


def plain_sentences(body: str) -> list[str]:
    """Every plain sentence of the running prose, in source order (the per-page tests pick the
    first and last of each page among them)."""
    return [s for p in prose_paragraphs(body) for s in sentences(p) if plain_sentence(s)]


# A run ends at a marker, a formula, a command, and at a symbol inline maths printed (≈ ± × ∼ ≤ ≥ ↑ ↓):
# TeX's spacing around those depends on what surrounds them, a test should not
_NOT_PLAIN_RUN = re.compile(r"\s*(?:\\MARK|\\DISPLAY|(?<!\\)\$[^$]*\$|\S*[\\{}^_$±×∼≈≤≥↑↓]\S*)\s*")


def plain_fragments(body: str) -> list[str]:
    """The plain runs of every sentence of the running prose, in source order: a sentence cut
    at each citation, reference, footnote mark, inline formula or command it holds, each run of
    at least 6 words kept. A page's first and last paragraph rarely hold a fully plain sentence;
    their plain runs are what the PDF prints word for word."""
    out = []
    for paragraph in prose_paragraphs(body):
        for sentence in sentences(paragraph):
            for run in _NOT_PLAIN_RUN.split(sentence):
                run = run.strip(" ,;:(")
                if len(run.split()) >= 6 and latex.is_plain(run) and run.count("(") == run.count(")"):
                    out.append(run)
    return out


def text_tests(body: str) -> list[dict]:
    paragraphs = prose_paragraphs(body)
    plain = [s for p in paragraphs for s in sentences(p) if plain_sentence(s)]
    tests = [{"type": "present", "text": s} for s in _spread(list(dict.fromkeys(plain)), MAX_PRESENT)]
    firsts = []
    for p in paragraphs:
        first = (sentences(p) or [""])[0]
        firsts.append(first if plain_sentence(first) else None)
    pairs = [(a, b) for a, b in zip(firsts, firsts[1:], strict=False) if a and b and a != b]
    tests += [{"type": "order", "before": a, "after": b} for a, b in _spread(pairs, MAX_ORDER)]
    return tests


_HEAD_COMMANDS = ("fancyhead", "fancyfoot", "lhead", "chead", "rhead", "lfoot", "cfoot", "rfoot",
                  "icmltitlerunning", "runningtitle", "shorttitle", "titlerunning", "authorrunning", "runninghead")


def furniture_candidates(tex: str, styles: list[str]) -> list[str]:
    """Texts the source or its styles set as running heads, footers or the venue notice."""
    found = []
    for source in [tex, *styles]:
        source = latex.strip_comments(source)
        start = len(found)
        for name in _HEAD_COMMANDS:
            found += latex.commands_with_args(source, name)
        for m in re.finditer(r"\\(?:markboth|ShortHeadings)\s*(?=\{)", source):
            first = latex.group(source, m.end())
            if first:
                found.append(first[0])
                second = latex.group(source, first[1])
                found += [second[0]] if second else []
        for m in re.finditer(r"\\(?:re)?newcommand\{?\\@noticestring\}?\s*(?=\{)|\\def\\@noticestring\s*(?=\{)", source):
            notice = latex.group(source, m.end())
            found += [notice[0]] if notice else []
        # the style's own macros hold words of its heads (\@neuripsordinal, \@neuripsyear)
        found[start:] = [expand_macros(text, "A-Za-z@", defs_from=source) for text in found[start:]]
    out = []
    for text in found:
        text = latex.unstyle(text)
        if latex.is_plain(text) and len(text.split()) >= 2 and text not in out:
            out.append(text)
    return out


_RULES = re.compile(r"\\(?:toprule|midrule|bottomrule|hline|specialrule\{[^}]*\}\{[^}]*\}\{[^}]*\}|"
                    r"cmidrule(?:\([^)]*\))?\{[^}]*\}|cline\{[^}]*\}|addlinespace(?:\[[^\]]*\])?|"
                    r"rowcolor(?:\[[^\]]*\])?\{[^}]*\}|cellcolor(?:\[[^\]]*\])?\{[^}]*\}|centering|"
                    r"hhline\{[^}]*\}|arrayrulecolor\{[^}]*\}|noalign\{[^}]*\})")


def tabular_grid(body: str) -> tuple[list[list[tuple[str | None, int]]], bool]:
    """Rows of (plain cell text or None, cell id) of one tabular's body (after its column spec);
    a ``\\multicolumn`` fills each column it spans with one id. Second value: a ``\\multirow``
    is present (its rows' vertical neighbours are then unknown)."""
    grid, ident = [], 0
    has_multirow = "\\multirow" in body
    for raw in re.split(r"\\\\(?:\[[^\]]*\])?", _RULES.sub(" ", body)):
        if not raw.strip():
            continue
        row = []
        for cell in re.split(r"(?<!\\)&", raw):
            span = 1
            m = re.match(r"\s*\\multicolumn\s*\{(\d+)\}\s*\{[^{}]*\}\s*(?=\{)", cell)
            if m:
                found = latex.group(cell, m.end())
                span, cell = int(m.group(1)), found[0] if found else ""
            m = re.match(r"\s*\\multirow\s*(?:\[[^\]]*\])?\{[^{}]*\}\s*(?:\[[^\]]*\])?\{[^{}]*\}\s*(?=\{)", cell)
            if m:
                found = latex.group(cell, m.end())
                cell = found[0] if found else ""
            text = latex.unstyle(cell)
            ident += 1
            ok = text and latex.is_plain(text) and len(text) <= 60
            row += [(text if ok else None, ident)] * span
        grid.append(row)
    return grid, has_multirow



def grid_neighbour(grid, r: int, c: int, direction: str) -> str | None:
    """The text of the next cell left/right/up/down of (r, c) in the source tabular's grid of
    (text, cell id) pairs: a spanning cell is one id over several columns, so its left/right
    neighbour is the first cell past the span (what a reader calls the next cell, and what
    olmOCR-Bench's ``TableTest`` checks)."""
    ident = grid[r][c][1]
    if direction in ("left", "right"):
        step = -1 if direction == "left" else 1
        k = c + step
        while 0 <= k < len(grid[r]) and grid[r][k][1] == ident:
            k += step
        return grid[r][k][0] if 0 <= k < len(grid[r]) else None
    k = r + (-1 if direction == "up" else 1)
    return grid[k][c][0] if 0 <= k < len(grid) and c < len(grid[k]) else None

_TABULAR = re.compile(r"\\(begin|end)\{(tabular\*?|tabularx)\}")


def _tabular_end(body: str, start: int, name: str) -> int:
    """Where the ``\\end{name}`` closing the tabular opened before ``start`` begins, past the
    tabulars nested in its cells (-1 if none)."""
    depth = 1
    for m in _TABULAR.finditer(body, start):
        if m.group(2) == name:
            depth += 1 if m.group(1) == "begin" else -1
            if depth == 0:
                return m.start()
    return -1


def _flatten_nested(body: str) -> str:
    """A tabular's body with each tabular nested in a cell replaced by its lines joined with a
    space: ``\\begin{tabular}[c]{@{}c@{}}CSMR-\\\\WCRE\\\\ / SANER\\end{tabular}``, a line break
    inside one cell, prints one cell of three lines ("CSMR- WCRE / SANER"), not a table of its own."""
    while True:
        inner = None
        for m in re.finditer(r"\\begin\{(tabular\*?|tabularx)\}", body):
            end = body.find("\\end{" + m.group(1) + "}", m.end())
            if end >= 0 and not _TABULAR.search(body, m.end(), end):
                inner = m, end
                break
        if inner is None:
            return body
        m, end = inner
        at = _after_spec(body, m.end(), m.group(1))
        lines = re.split(r"\\\\(?:\[[^\]]*\])?|(?<!\\)&", _RULES.sub(" ", body[at:end]))
        body = body[:m.start()] + " ".join(x.strip() for x in lines if x.strip()) + body[end + len(m.group(1)) + 6:]


def _after_spec(body: str, at: int, name: str) -> int:
    """Index after a tabular's position, width and column spec, from just after its \\begin."""
    for _ in range(1 if name == "tabular" else 2):  # tabular*/tabularx: width, then spec
        at += len(body[at:]) - len(body[at:].lstrip())
        if body.startswith("[", at):  # position: \\begin{tabular}[t]{ll}
            at = body.find("]", at) + 1
            at += len(body[at:]) - len(body[at:].lstrip())
        found = latex.group(body, at)
        at = found[1] if found else at
    return at


def table_tests(body: str) -> list[dict]:
    tests = []
    done = -1
    for m in re.finditer(r"\\begin\{(tabular\*?|tabularx)\}", body):
        if m.start() < done:
            continue  # nested in a cell of the tabular before: that cell's text
        end = _tabular_end(body, m.end(), m.group(1))
        if end < 0:
            continue
        done = end
        at = _after_spec(body, m.end(), m.group(1))
        if "\\includegraphics" in body[at:end]:
            continue  # a figure grid (pictures set side by side, a label under each): no table
        grid, multirow = tabular_grid(_flatten_nested(body[at:end]))
        counts: dict[str, int] = {}
        for row in grid:
            for text, _ in dict.fromkeys(row):  # a spanning cell counts once
                if text:
                    counts[text] = counts.get(text, 0) + 1
        candidates = []
        for r, row in enumerate(grid):
            for c, (text, ident) in enumerate(row):
                if not text or counts.get(text) != 1 or (c and row[c - 1][1] == ident):
                    continue
                test = {"type": "table", "cell": text}
                directions = ("left", "right") if multirow else ("left", "right", "up", "down")
                for d in directions:
                    value = grid_neighbour(grid, r, c, d)
                    if value:
                        test[d] = value
                if not multirow and r > 0 and c < len(grid[0]) and grid[0][c][0] and grid[0][c][1] != ident:
                    test["top_heading"] = grid[0][c][0]
                if c > 0 and row[0][0] and row[0][1] != ident:
                    test["left_heading"] = row[0][0]
                if len(test) > 2:
                    candidates.append(test)
        tests += _spread(candidates, MAX_TABLE_PER_TABULAR)
    return _spread(tests, MAX_TABLE)


_MATH_ENVS = r"equation\*?|align\*?|gather\*?|multline\*?|eqnarray\*?|displaymath|alignat\*?|flalign\*?"
# Commands KaTeX renders (a conservative subset): an equation using any other is left out.
KNOWN_MATH = set("""alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi
varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon
Phi Psi Omega frac dfrac tfrac sum prod int oint log exp max min arg argmax argmin sup inf lim det sin cos tan
mathbb mathcal mathbf mathrm mathit boldsymbol bm mathsf mathscr text textrm textbf operatorname left right big
Big bigg Bigg bigl bigr Bigl Bigr cdot cdots ldots dots vdots ddots times div pm mp leq geq le ge neq approx sim
simeq equiv propto in notin subset subseteq supset supseteq cup cap setminus emptyset forall exists infty partial
nabla sqrt hat tilde bar vec dot ddot widehat widetilde overline underline top intercal prime to rightarrow
leftarrow Rightarrow Leftarrow leftrightarrow iff mapsto quad qquad langle rangle lVert rVert lvert rvert Vert vert
mid parallel circ star ast odot oplus otimes bullet ell log ln mathop limits nolimits displaystyle textstyle
lfloor rfloor lceil rceil binom choose coloneqq triangleq neg land lor wedge vee not perp top bot
""".split())


def _near(body: str, start: int, end: int) -> tuple[str | None, str | None]:
    """The plain sentences just before and just after a display: the page that prints both
    prints the display (a float would not be, but a display is not a float)."""
    before = plain_sentences(body[max(0, start - 3000):start])
    after = plain_sentences(body[end:end + 3000])
    return (before[-1] if before else None, after[0] if after else None)


# an environment of rows inside a display (innermost first: no \\begin inside the match)
_NESTED_ROWS = re.compile(r"\\begin\{(?:[pbBvV]?matrix|smallmatrix|cases|dcases|rcases|array|subarray)\*?\}"
                          r"(?:(?!\\begin\{).)*?\\end\{(?:[pbBvV]?matrix|smallmatrix|cases|dcases|rcases|array|"
                          r"subarray)\*?\}", re.S)


def math_tests(body: str) -> list[dict]:
    found, near = [], {}
    displays = [(m.group(1), m.group(2), m.start(), m.end()) for m in
                re.finditer(r"\\begin\{(" + _MATH_ENVS + r")\}(.*?)\\end\{\1\}", body, re.S)]
    displays += [("bracket", m.group(1), m.start(), m.end()) for m in re.finditer(r"\\\[(.*?)\\\]", body, re.S)]
    for name, content, start, end in displays:
        content = re.sub(r"\\(?:label|tag)\{[^{}]*\}|\\(?:nonumber|notag)\b", " ", content)
        content = re.sub(r"\\begin\{(?:split|aligned|gathered)\}(\[[a-z]\])?|\\end\{(?:split|aligned|gathered)\}", " ",
                         content)
        # rows of a matrix, cases or array inside the display are no formulas on their own: their
        # row ends are not split at (the line then holds \\begin and is left out)
        content = _NESTED_ROWS.sub(lambda m: m.group().replace("\\\\", "\0"), content)
        lines = re.split(r"\\\\(?:\[[^\]]*\])?", content) if re.match(r"align|gather|eqnarray|flalign|multline",
                                                                       name) or "\\\\" in content else [content]
        for line in lines:
            line = " ".join(line.replace("&", " ").split()).strip(" ,.;")
            commands = set(re.findall(r"\\([A-Za-z]+)", line))
            symbols = re.sub(r"\\[A-Za-z]+|[{}\s^_&\\]", "", line)
            if commands <= KNOWN_MATH and 5 <= len(symbols) and len(line) <= 300 and "\\begin" not in line:
                if line not in found:
                    found.append(line)
                    near[line] = _near(body, start, end)
    return [{"type": "math", "math": m, "near": list(near[m])} for m in _spread(found, MAX_MATH)]


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def derive(tex: str, styles: list[str] | None = None, pdf: str | None = None) -> list[dict]:
    """Every test of one paper (``tex``: flattened source), ids in order."""
    body = document_body(tex)
    tests = text_tests(body)
    # a running head that repeats the title (ICML's \icmltitlerunning) is printed in the body too:
    # no output can leave it out, so it is no absent test
    printed = _letters(latex.unstyle(body))
    tests += [{"type": "absent", "text": t} for t in furniture_candidates(tex, styles or [])
              if _letters(t) not in printed]
    tests += table_tests(body)
    tests += math_tests(document_body(expand_macros(tex)))
    for i, test in enumerate(tests):
        test["id"] = f"{test['type']}-{i:03d}"
        if pdf:
            test["pdf"] = pdf
    return tests

