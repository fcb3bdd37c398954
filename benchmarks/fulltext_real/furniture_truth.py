"""The running heads, footers and page numbers of a typeset paper as TeX itself set them (issue 36 item 4).

Why: ``absent`` tests read from the PDF by rules close to the engine's own furniture rules agree
with the engine by construction. Here the truth is what LaTeX put in each page's head and foot box.
The source is typeset once more (``pdflatex -draftmode``: no PDF written, the tested PDF is untouched)
with a small hook (``HOOK``) that patches LaTeX's ``\\@outputpage``, where every class that keeps
LaTeX's output routine builds the head (``\\hb@xt@\\textwidth{\\@thehead}``) and the foot: the box
is built as before, then ``\\showbox`` writes its contents to the log between ``RBTRUTH`` markers,
with the page's index in the PDF (``\\ReadonlyShipoutCounter`` + 1) and ``\\thepage``. Whatever the
class or package defines them with (``\\pagestyle``, ``\\markboth``/``\\markright``, ``\\titlerunning``/
``\\authorrunning``, fancyhdr's fields, ICML's ``\\icmltitlerunning``, ``\\thispagestyle``), the box
holds what the page prints there. ``parse_log`` turns the box listings back into text: characters
(ligatures by the letters they stand for), a space at each glue, and a new part at each ``fil`` glue
(fancyhdr's left, centre and right fields, a head's title and its page number set apart by ``\\hfil``).

A class that replaces ``\\@outputpage`` (the patch does not apply) gives no truth: the log says
``RBTRUTH NOPATCH`` and the paper gets no ``absent`` tests, with that reason (``witness`` returns it).
"""
from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

HOOK_NAME = "rbtruth-hook.tex"
HOOK = r"""\RequirePackage{etoolbox}
\makeatletter
\newbox\rbtruth@b
\long\def\rbtruth@box#1#2{\setbox\rbtruth@b\hb@xt@\textwidth{#2}%
  \begingroup\let\protect\@unexpandable@protect\showboxdepth=10000 \showboxbreadth=1000000 \tracingonline=0
  \immediate\write-1{RBTRUTH BEGIN #1 \the\numexpr\ReadonlyShipoutCounter+1\relax\space[\thepage]}%
  \showbox\rbtruth@b
  \immediate\write-1{RBTRUTH END}\endgroup
  \box\rbtruth@b}
\def\rbtruth@patch#1#2{\patchcmd\@outputpage{\hb@xt@\textwidth{#2}}{\rbtruth@box{#1}{#2}}%
  {\immediate\write-1{RBTRUTH PATCHED #1}}{\immediate\write-1{RBTRUTH NOPATCH #1}}}
\AddToHook{begindocument/end}{\rbtruth@patch{head}\@thehead\rbtruth@patch{foot}\@thefoot}
\makeatother
"""
# TeX wraps log lines at 79 characters; a box listing must stay one item a line to be read back
LOG_ENV = {"max_print_line": "100000", "error_line": "254", "half_error_line": "238"}


@dataclass
class Furniture:
    page: int  # 1-based index of the page in the PDF
    thepage: str  # \thepage as TeX expanded it
    where: str  # head | foot
    parts: list[str] = field(default_factory=list)  # the box's texts set apart by fil glue


# TeX's text ligatures and quote characters, as the page prints them (what a reader copies)
_LIGATURES = {"--": "\u2013", "---": "\u2014", "``": "\u201c", "''": "\u201d", "!`": "\u00a1", "?`": "\u00bf"}
_QUOTES = {"`": "\u2018", "'": "\u2019"}


def _char(item: str) -> str:
    """The text of one character item of a box listing (``\\OT1/cmr/m/n/10 A``, ``^^L (ligature ffi)``)."""
    lig = re.search(r"\(ligature ([^)]*)\)$", item)
    if lig:
        text = lig.group(1).replace("|", "")
        return _LIGATURES.get(text, text)
    char = item.split(" ", 1)[1] if " " in item else ""
    if char in _QUOTES and not re.match(r"\\\S*tt", item):  # typewriter fonts print the ASCII quote
        return _QUOTES[char]
    hexed = re.fullmatch(r"\^\^([0-9a-f]{2})", char)
    if hexed:
        return bytes([int(hexed.group(1), 16)]).decode("latin-1")
    if re.fullmatch(r"\^\^.", char):  # ^^A .. ^^?: a control code printed by TeX's ^^ convention
        return ""
    return char


def parse_log(log: str) -> tuple[list[Furniture], str | None]:
    """Every head/foot box the hook listed, and why there is none (``None`` when the patch applied)."""
    if "RBTRUTH PATCHED head" not in log and "RBTRUTH PATCHED foot" not in log:
        reason = "patch-not-applied" if "RBTRUTH NOPATCH" in log else "hook-not-run"
        return [], reason
    found = []
    for m in re.finditer(r"RBTRUTH BEGIN (head|foot) (\d+) \[(.*?)\]\n(.*?)RBTRUTH END", log, re.S):
        parts, current = [], ""
        for line in m.group(4).splitlines():
            item = line.lstrip(".")
            if not line.startswith(".") or not item:
                continue
            if item.startswith("\\glue"):
                if "fil" in item:
                    parts.append(current)
                    current = ""
                elif not re.match(r"\\glue(\(\\[a-z]+\))? 0\.0( |$)", item):
                    current += " "
            elif item.startswith("\\") and " " in item and not re.match(
                    r"\\(kern|penalty|mathon|mathoff|rule|special|write|mark|pdf|hbox|vbox|discretionary|"
                    r"glue|leaders|insert|vadjust|accent|localpar|whatsit)", item) and not item.startswith("\\math"):
                current += _char(item)
        parts.append(current)
        texts = [" ".join(p.split()) for p in parts if p.strip()]
        found.append(Furniture(int(m.group(2)), m.group(3).strip(), m.group(1), texts))
    return found, None


def witness(src_dir: Path, main: str, gentounicode: bool = True, timeout: int = 600,
            env: dict[str, str] | None = None) -> tuple[list[Furniture], str | None]:
    """Typeset ``src_dir/main`` once more in draft mode with the hook and read the heads and feet it
    listed. Run after the build's own runs (its .aux holds the references the pages print), with the
    build's environment ``env`` (its SOURCE_DATE_EPOCH: a head that prints ``\\today`` must print
    the build's date)."""
    tex = src_dir / main
    hook = tex.parent / HOOK_NAME
    hook.write_text(HOOK)
    first = f"\\input{{{HOOK_NAME}}}" + (f"\\input{{{tex.name}}}" if gentounicode else
                                          f"\\pdfgentounicode=0\\input{{{tex.name}}}")
    try:
        subprocess.run(["pdflatex", "-draftmode", "-interaction=nonstopmode", f"-jobname={tex.stem}", first],
                       cwd=tex.parent, capture_output=True, timeout=timeout, env={**os.environ, **(env or {}), **LOG_ENV})
    finally:
        hook.unlink(missing_ok=True)
    log = tex.parent / f"{tex.stem}.log"
    if not log.exists():
        return [], "no-log"
    return parse_log(log.read_text(encoding="latin-1"))
