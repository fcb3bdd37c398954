"""Glyph -> LaTeX token tables for the math builder (``ocr_ray.layout.math``).

A glyph is read from its Unicode value and its font: Computer Modern and AMS fonts choose the
alphabet (CMSY capitals are calligraphic, MSBM capitals blackboard bold, CMBX bold, EUFM fraktur)
and CMEX, which pdflatex embeds without a ToUnicode map, is read by its code (the TeX font's
layout: TeXbook appendix F, ``cmex10.tfm``).
"""
from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from pathlib import Path

# TeX's extension fonts (big operators and delimiters, read by code: ``CMEX``): Computer and Latin
# Modern's, and txfonts/pxfonts' (txex, pxex), kpfonts' (jkpex) and fourier's: cmex's layout
EXTENSION_FONTS = ("CMEX", "LMMATHEXTENSION", "TXEX", "PXEX", "KP--M-EX", "FOURIER-MATH-EXTENSION", "EUEX")
# Adobe Symbol and its clones name the stroked phi "phi" (U+03C6) and the curly one "phi1"
# (U+03D5), the other way round from TeX's \phi and \varphi (mathptmx sets \phi from Symbol)
SYMBOL_PHI = {"φ": r"\phi", "ϕ": r"\varphi"}
# Unicode symbol -> LaTeX command (KaTeX knows all of them)
SYMBOLS = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ϵ": r"\epsilon", "ε": r"\varepsilon",
    "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "ϑ": r"\vartheta", "ι": r"\iota", "κ": r"\kappa",
    "λ": r"\lambda", "µ": r"\mu", "μ": r"\mu", "ν": r"\nu", "ξ": r"\xi", "π": r"\pi", "ϖ": r"\varpi",
    "ρ": r"\rho", "ϱ": r"\varrho", "σ": r"\sigma", "ς": r"\varsigma", "τ": r"\tau", "υ": r"\upsilon",
    "ϕ": r"\phi", "φ": r"\varphi", "ϰ": r"\varkappa", "ϴ": r"\varTheta", "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega",
    "Γ": r"\Gamma", "∆": r"\Delta", "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi",
    "Π": r"\Pi", "Σ": r"\Sigma", "Υ": r"\Upsilon", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega",
    "∑": r"\sum", "∏": r"\prod", "∐": r"\coprod", "∫": r"\int", "∬": r"\iint", "∭": r"\iiint", "∮": r"\oint", "⋃": r"\bigcup",
    "⋂": r"\bigcap", "⨁": r"\bigoplus", "⨂": r"\bigotimes", "⋁": r"\bigvee", "⋀": r"\bigwedge",
    "∂": r"\partial", "∇": r"\nabla", "∞": r"\infty", "≈": r"\approx", "≠": r"\neq", "≡": r"\equiv",
    "≤": r"\le", "≥": r"\ge", "≪": r"\ll", "≫": r"\gg", "±": r"\pm", "∓": r"\mp", "×": r"\times",
    "÷": r"\div", "·": r"\cdot", "⋅": r"\cdot", "∗": r"\ast", "◦": r"\circ", "∘": r"\circ", "•": r"\bullet",
    "∈": r"\in", "∉": r"\notin", "∋": r"\ni", "⊂": r"\subset", "⊃": r"\supset", "⊆": r"\subseteq",
    "⊇": r"\supseteq", "∪": r"\cup", "∩": r"\cap", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg",
    "∀": r"\forall", "∃": r"\exists", "∅": r"\emptyset", "→": r"\to", "←": r"\leftarrow",
    "↔": r"\leftrightarrow", "⇒": r"\Rightarrow", "⇐": r"\Leftarrow", "⇔": r"\Leftrightarrow",
    "↦": r"\mapsto", "⊗": r"\otimes", "⊕": r"\oplus", "⊙": r"\odot", "⊥": r"\perp", "∥": r"\|",
    "‖": r"\|", "∝": r"\propto", "∼": r"\sim", "≃": r"\simeq", "≅": r"\cong", "′": "'", "″": "''",
    "⟨": r"\langle", "⟩": r"\rangle", "〈": r"\langle", "〉": r"\rangle", "⌊": r"\lfloor", "⌋": r"\rfloor",
    "⌈": r"\lceil", "⌉": r"\rceil", "{": r"\{", "}": r"\}", "−": "-", "∣": r"\mid", "…": r"\ldots",
    "⋯": r"\cdots", "⋮": r"\vdots", "⋱": r"\ddots", "ℓ": r"\ell", "ℝ": r"\mathbb{R}", "√": r"\surd",
    "∶": ":", "⊤": r"\top", "⊺": r"\intercal", "†": r"\dagger", "⋆": r"\star", "≜": r"\triangleq", "≔": r"\coloneqq", "∖": r"\setminus",
    "#": r"\#", "%": r"\%", "&": r"\&", "_": r"\_", "\\": r"\setminus", "~": r"\sim", "^": r"\wedge", "ı": r"\imath", "ȷ": r"\jmath", "∠": r"\angle", "△": r"\triangle", "□": r"\square",
    # the rest of TeX's OMS and OML glyphs (cmsy, cmmi: ``tex_encodings``)
    "⪯": r"\preceq", "⪰": r"\succeq", "≺": r"\prec", "≻": r"\succ", "⊘": r"\oslash", "⊖": r"\ominus",
    "⋄": r"\diamond", "◯": r"\bigcirc", "≍": r"\asymp", "↗": r"\nearrow", "↘": r"\searrow", "↖": r"\nwarrow",
    "↙": r"\swarrow", "▽": r"\triangledown", "ℜ": r"\Re", "ℑ": r"\Im", "⊎": r"\uplus", "⊢": r"\vdash",
    "⊣": r"\dashv", "↕": r"\updownarrow", "⇕": r"\Updownarrow", "≀": r"\wr", "⨿": r"\amalg", "⊔": r"\sqcup",
    "⊓": r"\sqcap", "⊑": r"\sqsubseteq", "⊒": r"\sqsupseteq", "↼": r"\leftharpoonup", "↽": r"\leftharpoondown",
    "⇀": r"\rightharpoonup", "⇁": r"\rightharpoondown", "♭": r"\flat", "♮": r"\natural", "♯": r"\sharp",
    "⌣": r"\smile", "⌢": r"\frown", "ℵ": r"\aleph", "↑": r"\uparrow", "↓": r"\downarrow", "⇑": r"\Uparrow",
    "⇓": r"\Downarrow", "▷": r"\triangleright", "◁": r"\triangleleft",
}
BIG_OPERATORS = {r"\sum", r"\prod", r"\coprod", r"\int", r"\iint", r"\iiint", r"\iiiint", r"\oint", r"\oiint",
                 r"\oiiint", r"\bigcup", r"\bigcap", r"\bigoplus",
                 r"\bigotimes", r"\bigvee", r"\bigwedge", r"\biguplus", r"\bigsqcup", r"\bigodot"}
# operators that take limits at the side in display style
SIDE_LIMITS = {r"\int", r"\iint", r"\iiint", r"\iiiint", r"\oint", r"\oiint", r"\oiiint"}

_D = ["(", ")", "[", "]", r"\lfloor", r"\rfloor", r"\lceil", r"\rceil", r"\{", r"\}", r"\langle", r"\rangle"]
# cmex10 by code: 0x00-0x0F big, 0x10-0x1F Big/bigg, 0x20-0x2F Bigg, 0x30-0x4F delimiter pieces
CMEX: dict[int, str] = {}
for _i, _t in enumerate(_D):
    CMEX[_i] = _t
CMEX.update({0x0C: "|", 0x0D: r"\|", 0x0E: "/", 0x0F: r"\backslash"})
for _i, _t in enumerate(["(", ")", "(", ")", "[", "]", r"\lfloor", r"\rfloor", r"\lceil", r"\rceil", r"\{",
                         r"\}", r"\langle", r"\rangle", "/", r"\backslash"]):
    CMEX[0x10 + _i] = _t
for _i, _t in enumerate(["(", ")", "[", "]", r"\lfloor", r"\rfloor", r"\lceil", r"\rceil", r"\{", r"\}",
                         r"\langle", r"\rangle", "/", r"\backslash", "/", r"\backslash"]):
    CMEX[0x20 + _i] = _t
# pieces of very tall delimiters: the top piece stands for the delimiter, the others are dropped ("")
CMEX.update({0x30: "(", 0x31: ")", 0x32: "[", 0x33: "]", 0x34: "", 0x35: "", 0x36: "", 0x37: "",
             0x38: r"\{", 0x39: r"\}", 0x3A: "", 0x3B: "", 0x3C: "", 0x3D: "", 0x3E: "", 0x3F: "",
             0x40: "", 0x41: "", 0x42: "", 0x43: "", 0x44: r"\langle", 0x45: r"\rangle"})
for _base, _ops in ((0x46, [r"\bigsqcup", r"\bigsqcup", r"\oint", r"\oint", r"\bigodot", r"\bigodot",
                            r"\bigoplus", r"\bigoplus", r"\bigotimes", r"\bigotimes"]),
                    (0x50, [r"\sum", r"\prod", r"\int", r"\bigcup", r"\bigcap", r"\biguplus", r"\bigwedge",
                            r"\bigvee", r"\sum", r"\prod", r"\int", r"\bigcup", r"\bigcap", r"\biguplus",
                            r"\bigwedge", r"\bigvee", r"\coprod", r"\coprod"])):
    for _i, _t in enumerate(_ops):
        CMEX[_base + _i] = _t
CMEX.update({0x62: "HAT", 0x63: "HAT", 0x64: "HAT", 0x65: "TILDE", 0x66: "TILDE", 0x67: "TILDE",
             0x68: "[", 0x69: "]", 0x6A: r"\lfloor", 0x6B: r"\rfloor", 0x6C: r"\lceil", 0x6D: r"\rceil",
             0x6E: r"\{", 0x6F: r"\}", 0x70: "RADICAL", 0x71: "RADICAL", 0x72: "RADICAL", 0x73: "RADICAL",
             0x74: "RADICAL", 0x75: "", 0x76: "RADICAL_TOP", 0x77: "", 0x78: "", 0x79: "", 0x7A: "BRACE", 0x7B: "BRACE",
             0x7C: "BRACE", 0x7D: "BRACE", 0x7E: "", 0x7F: ""})  # (BRACE: a horizontal brace's pieces, ``math_stacks``)
# Pieces of tall delimiters whose CMEX glyph names are in the Adobe Glyph List (parenlefttp...):
# with no ToUnicode map PDFium reads those names into the private use area -> the CMEX code
CMEX_PIECES = {0xF8EB: 0x30, 0xF8F6: 0x31, 0xF8EE: 0x32, 0xF8F9: 0x33, 0xF8F0: 0x34, 0xF8FB: 0x35,
               0xF8EF: 0x36, 0xF8FA: 0x37, 0xF8F1: 0x38, 0xF8FC: 0x39, 0xF8F3: 0x3A, 0xF8FE: 0x3B,
               0xF8F2: 0x3C, 0xF8FD: 0x3D, 0xF8F4: 0x3E, 0xF8ED: 0x40, 0xF8F8: 0x41, 0xF8EC: 0x42,
               0xF8F7: 0x43}
# newtx's extension fonts (txexs, as acmart and newtxmath set them) hold upright/alternate big
# operators and delimiters past 127 under names no glyph list knows (summationtext.1, uni222B.dsp):
# PDFium hands their raw code over ("Í" for \sum). Code -> LaTeX, from txexs.pfb's encoding.
TXEX_HIGH = {
    **{128 + i: t for i, t in enumerate(["(", ")", "[", "]", r"\lfloor", r"\rfloor", r"\lceil", r"\rceil", r"\{",
                                         r"\}", r"\langle", r"\rangle", "|", r"\|"])},
    **{c: r"\int" for c in (175, 180, 185, 190)}, **{c: r"\iint" for c in (176, 181, 186, 191)},
    **{c: r"\iiint" for c in (177, 182, 187, 192)}, **{c: r"\oint" for c in (178, 183, 188, 193)},
    195: r"\bigsqcup", 196: r"\bigsqcup", 199: r"\bigodot", 200: r"\bigodot", 201: r"\bigoplus", 202: r"\bigoplus",
    203: r"\bigotimes", 204: r"\bigotimes", 205: r"\sum", 206: r"\prod", 208: r"\bigcup", 209: r"\bigcap",
    210: r"\biguplus", 211: r"\bigwedge", 212: r"\bigvee", 213: r"\sum", 214: r"\prod", 216: r"\bigcup",
    217: r"\bigcap", 218: r"\biguplus", 219: r"\bigwedge", 220: r"\bigvee", 221: r"\coprod", 222: r"\coprod",
}
# Multiple integrals in the extension fonts that hold them past cmex's layout, each at text size and
# at display size (the next code): txfonts'/pxfonts' "A" font (txexa, pxexa; txfonts.sty's
# largesymbolsA: \oiintop 8, \iintop 33, \iiintop 35, \iiiintop 37, \oiiintop 41), kpfonts' (Kp--M-Exa:
# the same codes, 100 more for \oiint and 100 more for the others with its narrowiints option) and
# fourier's extension font (fourier.sty: \iintop 206, \iiintop 208, \oiintop 210, \oiiintop 212).
# Read by cmex's layout they were delimiters ("[_{D}f dA") or no maths at all.
_MULTIPLE = {8: r"\oiint", 33: r"\iint", 35: r"\iiint", 37: r"\iiiint", 41: r"\oiiint"}
EXA_FONTS = ("TXEXA", "PXEXA", "KP--M-EXA")
EXA = {code + step: tex for code, tex in _MULTIPLE.items() for step in (0, 1)}
EXA.update({code + 100 + step: tex for code, tex in _MULTIPLE.items() for step in (0, 1)})
FOURIER_EXTENSION_HIGH = {code + step: tex for code, tex in ((206, r"\iint"), (208, r"\iiint"), (210, r"\oiint"),
                                                             (212, r"\oiiint")) for step in (0, 1)}
DELIMITERS = {"(", ")", "[", "]", r"\lfloor", r"\rfloor", r"\lceil", r"\rceil", r"\{", r"\}", r"\langle",
              r"\rangle", "|", r"\|", "/", r"\backslash"}
# Roman words KaTeX has as operators
OPERATOR_NAMES = {"log", "exp", "max", "min", "sup", "inf", "lim", "arg", "det", "sin", "cos", "tan", "ln",
                  "dim", "ker", "deg", "gcd", "hom", "Pr", "sinh", "cosh", "tanh", "liminf", "limsup", "argmax",
                  "argmin", "cot", "coth", "sec", "csc", "arcsin", "arccos", "arctan"}  # (LaTeX's named operators)

# Words that displays set as prose between their formulas (``\text{where}``, ``\text{s.t.}``,
# ``\quad\text{for all}``, cases' ``\text{otherwise}``): upright runs of these letters are words.
PROSE_WORDS = frozenset({"where", "for", "and", "or", "if", "iff", "otherwise", "when", "with", "all", "such",
                         "that", "else", "then", "since", "as", "is", "are", "subject", "to", "whenever",
                         "each", "every", "some", "any", "given", "unless", "on", "of"})


# Italic and slanted fonts by name, as producers spell them: NimbusRomNo9L-ReguItal (mathptmx,
# txfonts), LMRoman10-Italic, TimesNewRomanPS-ItalicMT, MinionPro-It, LinLibertineTI / -I,
# Helvetica-Oblique, CMTI10 / CMSL10, NewTXMI / txmia (maths italic). ``pdftext`` adds ",ITALIC"
# to a font whose descriptor says italic (flag or angle) when its name does not.
_ITALIC_NAME = re.compile(r"ITAL|OBLIQUE|SLANT|-IT\b|-IT(?=[A-Z]{0,2}$)|^CMTI|^CMSL|^CMBXTI|^CMMI|"
                          r"(?:LIBERTINE|BIOLINUM)[A-Z]*?B?I$|^R?(?:NEW)?[TP]XB?MI|^NTXB?MI|^MTMI|^ZTMCMI")
# Symbol fonts: Adobe Symbol and its URW clone (StandardSymL), MT Extra, fonts named for maths
_SYMBOL_NAME = re.compile(r"SYMBOL|SYML|SYM\b|MATH|MTEXTRA")


def italic_font(font: str) -> bool:
    """Whether a font's name says its letters are italic (slanted): in a formula, maths italic."""
    return bool(_ITALIC_NAME.search(font.upper()))


def adobe_symbol_font(font: str) -> bool:
    """Adobe Symbol or a clone (URW's StandardSymL, Word's Symbol): its Greek is named by Adobe."""
    return bool(re.search(r"SYMBOL|SYML", font.upper())) and "MATH" not in font.upper()


def symbol_font(font: str) -> bool:
    """Whether a font's name says it is a symbol or maths font (any of its glyphs is maths)."""
    return bool(_SYMBOL_NAME.search(font.upper().replace(" ", "")))


# the letters Unicode's maths alphabets leave to the Letterlike Symbols block (the block's holes): STIX
# Two sets \mathcal{L} as U+2112. Not the black-letter I and R, TeX's \Im and \Re (``SYMBOLS``), nor the
# script small e, g, o (\mathcal has no small letters).
_LETTERLIKE = frozenset("ℎℬℰℱℋℐℒℳℛℭℌℨℂℍℕℙℚℝℤ")


_GREEK_VARIANT = re.compile(r"(CAPITAL )?(EPSILON|THETA|KAPPA|PHI|RHO|PI) SYMBOL$")
_LUNATE = {"EPSILON SYMBOL": "LUNATE EPSILON SYMBOL"}


def math_alphanumeric(ch: str) -> tuple[str, str] | None:
    """A character of Unicode's Mathematical Alphanumeric Symbols (what Word's Cambria Math and
    STIX set: 𝑎, 𝐱, 𝔼, ℎ) -> (its plain letter or digit, the LaTeX alphabet: '' for italic), or
    None for any other character, and for a string of several (a ligature's letters, ``math_tags.ligatures``:
    a font whose ToUnicode maps one glyph to two code points; ``unicodedata.name`` takes one)."""
    if len(ch) != 1 or not ("\U0001d400" <= ch <= "\U0001d7ff" or ch in _LETTERLIKE):
        return None
    plain = unicodedata.normalize("NFKC", ch)
    words = unicodedata.name(ch, "")
    variant = _GREEK_VARIANT.search(words)
    if variant:
        # (NFKC folds the maths alphabets' variant letters into the plain ones: newtx's, STIX Two's and
        # unicode-math's \epsilon, 𝜖, came back as ε, \varepsilon, and \phi, 𝜙, as φ, \varphi)
        plain = unicodedata.lookup(f"GREEK {_LUNATE.get(variant.group(0), variant.group(0))}")
    for key, alphabet in (("DOUBLE-STRUCK", r"\mathbb"), ("FRAKTUR", r"\mathfrak"), ("BLACK-LETTER", r"\mathfrak"),
                          ("SCRIPT", r"\mathcal"),
                          ("MONOSPACE", r"\mathtt"), ("SANS-SERIF", r"\mathsf"), ("BOLD ITALIC", r"\boldsymbol"),
                          ("BOLD", r"\mathbf")):
        if key in words:
            # (STIX Two's Type 1 \ell is U+1D4C1, a script small l: KaTeX's \mathcal has no small letters)
            return ("ℓ", "") if alphabet == r"\mathcal" and plain == "l" else (plain, alphabet)
    return plain, "" if "ITALIC" in words or ch == "ℎ" else "rm"


def font_alphabet(font: str) -> str:
    """The LaTeX alphabet command a font's letters are set in ('' for italic maths letters,
    'rm' for upright roman)."""
    name = font.upper()
    # (txfonts' and newtx's msbm: txsyb; bbm's Type 3 bitmap fonts: BBM10, BBMSS10...)
    if name.startswith(("MSBM", "BBOLD", "DSROM", "TXSYB", "PXSYB", "BBM")):
        return r"\mathbb"
    if name.startswith(("EUFM", "EUFB")):
        return r"\mathfrak"
    # TeX's symbol fonts (OMS: their only letters are calligraphic capitals) of Computer and Latin
    # Modern, txfonts/newtx (TXSY, TXSYS, as acmart sets them), pxfonts, kpfonts; fourier's calligraphic
    if name.startswith(("CMSY", "EUSM", "RSFS", "LMMATHSYMBOLS", "TXSY", "PXSY", "KP--M-SY", "FOURIER-MATH-CAL")):
        return r"\mathcal"
    if name.startswith(("CMMIB", "CMBSY")) or name.startswith("LMMATHITALIC") and "BOLD" in name:
        return r"\boldsymbol"
    if name.startswith(("CMBX", "CMB10")) or "BOLD" in name and not name.startswith("CMMI"):
        return r"\boldsymbol" if italic_font(name) else r"\mathbf"
    if name.startswith("CMSS"):
        return r"\mathsf"
    if name.startswith("CMTT"):
        return r"\mathtt"
    # (Euler's maths letters, eulervm's EURM, are upright by design: TeX's maths letters all the same)
    if name.startswith(("CMMI", "TXMI", "PXMI", "LMMATH", "CMEX", "MSAM", "EURM", "EUEX")) or italic_font(name):
        return ""  # maths italic in any italic font (Times, Latin Modern, Libertine, Word's)
    return "rm"


# mathabx's fonts (TeX-matha, -mathb, -mathx): their ToUnicode map names T1 text characters ("“"
# for "="); ``data/mathabx.json`` (scripts/gen_mathabx_table.py) undoes it: character -> font
# code -> the LaTeX that mathabx.dcl declares there ("" for a piece of a tall delimiter)
MATHABX_FONTS = ("TEX-MATHA", "TEX-MATHB", "TEX-MATHX")


@cache
def _mathabx() -> dict:
    return json.loads((Path(__file__).parent / "data" / "mathabx.json").read_text())


def mathabx_tex(font: str, ch: str) -> str | None:
    """The LaTeX of a mathabx glyph ("" for a delimiter piece), None if the table has no reading."""
    table = _mathabx()
    code = table["unicode_to_code"].get(ch)
    family = "math" + font[len("TEX-MATH"):len("TEX-MATH") + 1].lower()
    return None if code is None else table["fonts"].get(family, {}).get(str(code))


@cache
def mathabx_chars(font: str) -> dict[str, str]:
    """What a mathabx font's raw characters show, as text: PDFium names its glyphs by T1's layout
    ("p" for matha's "(", "ă" for its "<"; rnn-extrapolation's prose read "@x ą 0, lnpxq ă x" for
    "∀x > 0, ln(x) < x"): a glyph whose LaTeX is one character, or a symbol ``SYMBOLS`` names."""
    table = _mathabx()
    family = table["fonts"].get("math" + font[len("TEX-MATH"):len("TEX-MATH") + 1].lower(), {})
    named = {tex: ch for ch, tex in SYMBOLS.items()}
    out = {}
    for ch, code in table["unicode_to_code"].items():
        tex = family.get(str(code))
        shown = tex if tex and len(tex) == 1 else named.get(tex or "")
        if shown and shown != ch and len(ch) == 1:
            out[ch] = shown
    return out
