"""Just enough LaTeX reading for the test generator: flatten ``\\input``, drop comments, match
braces, and turn simple markup into the text it prints. Pure functions on strings.

Nothing here tries to be a TeX engine: whatever it cannot render plainly is reported as such
(``None`` / not plain) and the generator leaves it out rather than guess what the PDF shows.
"""
from __future__ import annotations

import re
from pathlib import Path

_INPUT = re.compile(r"\\(?:input|include|subfile)\s*\{([^{}]+)\}")
# "%" starts a comment unless escaped by an odd number of backslashes: a row end "\\" followed
# by "%" is a row end and a comment (datacomp's "0.653 \\% & 0.695\\": the row ends at 0.653)
_COMMENT = re.compile(r"(?<!\\)((?:\\\\)*)%.*$", re.M)


def strip_comments(tex: str) -> str:
    tex = _COMMENT.sub(r"\1", tex)
    # blocks the source switches off: \iffalse ... \fi and the comment environment
    tex = re.sub(r"\\iffalse\b.*?\\fi\b", "", tex, flags=re.S)
    return re.sub(r"\\begin\{comment\}.*?\\end\{comment\}", "", tex, flags=re.S)


def flatten(main: Path, root: Path | None = None, _depth: int = 0) -> str:
    """The main file with every ``\\input``/``\\include`` replaced by the file's text (comments
    stripped first, so a commented-out ``\\input`` stays out)."""
    text = strip_comments(main.read_text(errors="replace"))
    if _depth > 8:
        return text
    root = root or main.parent  # TeX resolves every \input against the main file's folder

    def sub(m: re.Match) -> str:
        name = m.group(1).strip()
        candidates = [root / name] if name.endswith(".tex") else [root / f"{name}.tex", root / name]
        for candidate in candidates:
            if candidate.is_file():
                return "\n" + flatten(candidate, root, _depth + 1) + "\n"
        return ""

    return _INPUT.sub(sub, text)


def group(text: str, start: int) -> tuple[str, int] | None:
    """The balanced ``{...}`` group opening at ``text[start]``: (inside, index after it)."""
    if start >= len(text) or text[start] != "{":
        return None
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "\\":
            continue
        if ch == "{" and text[i - 1] != "\\":
            depth += 1
        elif ch == "}" and text[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
    return None


def commands_with_args(text: str, name: str) -> list[str]:
    """The first argument of every ``\\name{...}`` (optional ``[..]`` and ``*`` skipped)."""
    out = []
    for m in re.finditer(r"\\" + re.escape(name) + r"\*?\s*(?:\[[^\]]*\]\s*)*(?=\{)", text):
        found = group(text, m.end())
        if found:
            out.append(found[0])
    return out


# Markup that prints its argument unchanged (the PDF shows the words, styled).
# (\textsc is not among them: small capitals print "BiMI" as BIMI, and a reader may give either)
_STYLE = ("emph", "textbf", "textit", "texttt", "textsf", "textrm", "textnormal", "underline",
          "mbox", "text", "textup", "textmd", "uline", "hl")
_SYMBOLS = {r"\%": "%", r"\&": "&", r"\_": "_", r"\#": "#", r"\$": "$", "~": " ", "``": '"', "''": '"', "`": "'",
            "---": "-", "--": "-", r"\ldots": "...", r"\dots": "...", r"\textendash": "-", r"\textemdash": "-",
            r"\@": "", r"\/": "", r"\,": " ", r"\ ": " ", r"\xspace": "", r"\noindent": "", r"\centering": "",
            r"\bf": "", r"\it": "", r"\small": "", r"\footnotesize": "", r"\scriptsize": "", r"\tiny": "",
            r"\normalsize": "", r"\bfseries": "", r"\itshape": "", r"\quad": " ", r"\qquad": " "}
_MATH_PLAIN = {r"\pm": "±", r"\times": "×", r"\%": "%", r"\sim": "∼", r"\approx": "≈", r"\leq": "≤",
               r"\geq": "≥", r"\le": "≤", r"\ge": "≥", r"\uparrow": "↑", r"\downarrow": "↓", "-": "-", "+": "+"}


def unstyle(text: str) -> str:
    """Replace style commands by their argument and escaped symbols by what they print; inline
    math that is a plain number (``$85.3\\pm0.2$``) becomes its text; other math stays ``$..$``."""
    for _ in range(4):  # nested styles: \textbf{\emph{x}}
        for name in _STYLE:
            text = re.sub(r"\\" + name + r"\s*\{([^{}]*)\}", r"\1", text)
        text = re.sub(r"\{\\(?:bf|it|em|sc|tt|bfseries|itshape)\s+([^{}]*)\}", r"\1", text)

    def math(m: re.Match) -> str:
        body = m.group(1)
        plain = body
        for key in sorted(_MATH_PLAIN, key=len, reverse=True):
            plain = plain.replace(key, _MATH_PLAIN[key])
        plain = plain.replace("{", "").replace("}", "").replace(" ", "")
        if not (re.fullmatch(r"[0-9.,±×%∼≈≤≥↑↓+\-]*", plain) and plain):
            return m.group(0)
        # TeX's math spacing, as printed: a binary operator between two operands and a relation
        # after one are set apart ("85.3 ± 0.2", "512 × 512"); a sign before a number is not ("-0.24")
        plain = re.sub(r"(?<=[0-9.%])([±×+\-])(?=[0-9.])", r" \1 ", plain)
        return re.sub(r"(?<=[0-9.%])([≈≤≥∼])", r" \1 ", plain).strip()

    text = re.sub(r"(?<!\\)\$([^$]+)\$", math, text)
    for key in sorted(_SYMBOLS, key=len, reverse=True):
        if re.fullmatch(r"\\[A-Za-z]+", key):  # a command name: \it must not eat \item
            text = re.sub(re.escape(key) + r"(?![A-Za-z])\s*", lambda _m, k=key: _SYMBOLS[k], text)
        else:
            text = text.replace(key, _SYMBOLS[key])
    return " ".join(text.split())


def is_plain(text: str) -> bool:
    """Nothing left that the PDF would print differently from the source: no command, no math,
    no braces, no reference or citation placeholder; no ``<`` or ``>``, which an OT1 font prints
    as ``¡`` and ``¿`` (only T1 has them in those slots)."""
    return not re.search(r"[\\${}^_<>]", text)
