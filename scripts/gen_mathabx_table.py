"""Generate ocr_ray/layout/data/mathabx.json: mathabx's fonts read back from their text layer.

Run once where TeX Live (mathabx, pdftex's glyphtounicode.tex), olmocr and chromium are installed
(``make test`` installs both):
``python -m scripts.gen_mathabx_table > ocr_ray/layout/data/mathabx.json``.

mathabx's Type 1 fonts (matha, mathb, mathx) carry the glyph names of the T1 (Cork) text encoding
as placeholders, so pdfTeX's ToUnicode map claims "“" where the page shows "=". The map is undone
here: T1 glyph name (the fonts' /Encoding) -> the Unicode value pdfTeX wrote
(glyphtounicode.tex) -> the font code -> what mathabx.dcl declares at that code; mathx's bigger
sizes follow the TFM's charlists, extensible pieces keep the delimiter at the top piece only.
"""
import json
import re
import struct
import subprocess
import sys
from pathlib import Path

from scripts.olmocr_chromium import use_debian_chromium


def kpse(name: str) -> str:
    return subprocess.run(["kpsewhich", name], capture_output=True, text=True, check=True).stdout.strip()


# T1 code -> unicode as pdfTeX's ToUnicode writes it
pfb = Path(kpse("matha10.pfb")).read_bytes()
names = {int(a): b.decode() for a, b in re.findall(rb"dup (\d+) /(\S+) put", pfb[:20000])}
g2u = {}
for name, hexes in re.findall(r"\\pdfglyphtounicode\{([^}]+)\}\{([0-9A-F ]+)\}", Path(kpse("glyphtounicode.tex")).read_text()):
    g2u[name] = "".join(chr(int(h, 16)) for h in hexes.split())
unicode_to_code = {}
for code, name in names.items():
    u = g2u.get(name) or (name if len(name) == 1 else None)
    if u and u not in unicode_to_code:  # (a ligature name gives several letters: "fi")
        unicode_to_code[u] = code

# code -> command, per font
dcl = Path(kpse("mathabx.dcl")).read_text("latin-1").split("% UNAVAILABLE")[0]  # then undeclared sketches
dcl = re.sub(r"(?<!\\)%.*", "", dcl)  # comments out
fonts = {"matha": {}, "mathb": {}, "mathx": {}}
for cmd, font, code in re.findall(r'\\DeclareMathSymbol\{(\\?[^}]+)\}\s*\{\d\}\{(math[abx])\}\{"([0-9A-F]+)\}', dcl):
    fonts[font].setdefault(int(code, 16), cmd.strip())
delims = re.findall(r'\\DeclareMathDelimiter\{(\\?[^}]+)\}\s*(?:\{\d\})?\{(math[abx])\}\{"([0-9A-F]+)\}\{(math[abx])\}\{"([0-9A-F]+)\}', dcl)
delims += re.findall(r'\\DeclareMathRadical\{(\\sqrt)\}\{(math[abx])\}\{"([0-9A-F]+)\}\{(math[abx])\}\{"([0-9A-F]+)\}', dcl)[:1]
big = {}
for cmd, f1, c1, _f2, c2 in delims:
    fonts[f1].setdefault(int(c1, 16), cmd.strip())
    big.setdefault(int(c2, 16), cmd.strip())
# accents over a letter (\dot in mathb; \widehat and friends in mathx, in growing sizes)
accents = set()
for cmd, font, code in re.findall(r'\\DeclareMathAccent\{(\\[A-Za-z]+)\}\s*\{\d\}\{(math[abx])\}\{"([0-9A-F]+)\}', dcl):
    accents.add(cmd)
    (big if font == "mathx" else fonts[font]).setdefault(int(code, 16), cmd)

# mathx TFM: follow charlists (tag 2) and extensible recipes (tag 3)
tfm = Path(kpse("mathx10.tfm")).read_bytes()
lf, lh, bc, ec, nw, nh, nd, ni, nl, nk, ne, np_ = struct.unpack(">12H", tfm[:24])
info = lambda c: tfm[24 + 4 * lh + 4 * (c - bc): 24 + 4 * lh + 4 * (c - bc) + 4]
exten_at = 24 + 4 * (lh + (ec - bc + 1) + nw + nh + nd + ni + nl + nk)
def tag(c):
    b = info(c); return b[2] & 3, b[3]
pieces = {}
for base, cmd in list(big.items()) + [(c, v) for c, v in fonts["mathx"].items()]:
    c, seen = base, set()
    while bc <= c <= ec and c not in seen:
        seen.add(c)
        fonts["mathx"].setdefault(c, cmd)
        t, rem = tag(c)
        if t == 2:
            c = rem
        elif t == 3:
            top, mid, bot, rep = tfm[exten_at + 4 * rem: exten_at + 4 * rem + 4]
            # pieces are shared ([ and the ceiling share a top): the first declared delimiter
            # keeps a piece; the top piece stands for the delimiter, the others are dropped
            for k, p in enumerate((top, mid, bot, rep)):
                if p:
                    pieces.setdefault(p, cmd if k == 0 or k == 2 and not top or k == 3 and not top and not bot else "")
            break
        else:
            break
for p, cmd in pieces.items():  # a piece is drawn as itself: it overrides a charlist's claim
    fonts["mathx"][p] = cmd

# keep what KaTeX renders: the KaTeX olmOCR-Bench's math tests render with (olmocr.bench.katex, in chromium)
cmds = sorted({v for f in fonts.values() for v in f.values() if v})
probes = [c + "{x}" if c in accents or c == "\\sqrt" else c for c in cmds]  # an accent needs its letter
use_debian_chromium()
from olmocr.bench.katex.render import render_equation  # noqa: E402

# olmocr prints KaTeX's errors (and, at exit, its browser's clean-up) on stdout, where the table goes
table_out, sys.stdout = sys.stdout, sys.stderr
ok = {c for c, probe in zip(cmds, probes, strict=True) if not render_equation(probe).error}
ok |= {"\\lbrace", "\\rbrace"}
alias = {"\\intop": "\\int", "\\ointop": "\\oint", "\\lbrace": "\\{", "\\rbrace": "\\}", "\\vert": "|", "\\Vert": "\\|", "\\leq": "\\le", "\\geq": "\\ge"}
table = {f: {str(c): alias.get(v, v) for c, v in sorted(m.items()) if v == "" or v in ok} for f, m in fonts.items()}
json.dump({"unicode_to_code": {u: c for u, c in sorted(unicode_to_code.items(), key=lambda x: x[1])}, "fonts": table},
          table_out, ensure_ascii=False, indent=0, sort_keys=False)
