"""OCR'd lines -> the layout step's ``PageLayout``: what every line-reading OCR engine (RapidOCR,
tesseract) shares.

``ocr_layout`` scales an engine's line boxes to PDF points, estimates type sizes, marks formulas
(``ocr_math_share``) and numbered headings (a scan has no fonts), and adds the ruling lines seen on
the page image (``ocr_ray.layout.image_rules``), so an OCR'd page goes through the same furniture,
order, tables and blocks steps as a born-digital one.
"""
from __future__ import annotations

import io
import re
from typing import Any

from ocr_ray.engine_base import normalize_page_text
from ocr_ray.layout.image_rules import rules_from_jpeg
from ocr_ray.layout.model import Fragment, PageLayout
from ocr_ray.layout.pdftext import MATH_CHARS

_NUMBERED_HEADING = re.compile(r"^\d+(\.\d+)*\.?\s+[A-Z][^.,;:]*$")
# a section number alone ("3", "3.1", "A.2"): OCR often reads it apart from its title
SECTION_NUMBER = re.compile(r"^(\d+(\.\d+)*|[A-Z](\.\d+)+)\.?$")
_EQUATION_NUMBER = re.compile(r"^\(\d+[a-z]?\)$")
# a centred line of large type continued by the line under it (a title's lines): see
# ``_continue_display_lines``
CONTINUED_SIZE = 0.8
CENTRED = 0.03

# Short English words that are prose, not variables, in ``ocr_math_share`` (with the "et al." of
# citations, "vs", "cf", "eg", "ie").
_SHORT_WORDS = frozenset("a an as at be by do if in is it no of on or so to up we us he me my am go et al vs cf eg "
                         "ie".split())
_TOKEN_EDGES = ".,;:!?\"'"
_BRACKETS = "()[]{}"
# what brackets hold in prose: a word ("(GP)", "(Wilson", "(Growth-Rate"), a citation's number or year
# ("[12,", "2021a)."), an abbreviation ("(i.e.,"); a formula's brackets hold a variable or an
# argument ("p(yi", "L(w)", "(x1,")
_PROSE_IN_BRACKETS = re.compile(r"^([A-Za-z][a-z]+(-[A-Za-z]+)*|[A-Z][A-Za-z]+\d*(-[A-Za-z\d]+)*|\d+[a-z]?|([A-Za-z]\.)+[A-Za-z]?)$")
# an initial or a section's roman numeral, with its full stop: "P.", "D.", "II.", "ii."
_INITIAL = re.compile(r"^([A-Z]|[IVX]{1,4}|[ivx]{1,4})\.$")
_DASHES = frozenset("-–—·•")


def _mathy(token: str) -> str:
    """What makes one token of an OCR'd line a formula's (see ``ocr_math_share``): "symbol" (a maths
    symbol, or brackets holding no prose), "letter" (a one- or two-letter variable: "xi", "n") or ""."""
    bare = token.strip(_TOKEN_EDGES)
    if any(ch in MATH_CHARS for ch in bare):
        return "symbol"
    core = bare.strip(_BRACKETS + _TOKEN_EDGES)
    if core != bare:  # in brackets: maths unless they hold prose (a citation, a word, an aside)
        return "symbol" if any(ch in _BRACKETS for ch in core) or not _PROSE_IN_BRACKETS.match(core) else ""
    if not bare or len(bare) > 2 or bare.isdigit() or set(bare) <= _DASHES:
        return ""
    # one or two letters: a variable ("xi", "n"), unless a short word, an initial ("P.", "II."), or
    # two capitals (an acronym: "AI", "ML")
    short_word = bare.lower() in _SHORT_WORDS or _INITIAL.match(token.rstrip(",;:")) or (bare.isupper() and len(bare) == 2)
    return "" if short_word else "letter"


def ocr_math_share(text: str) -> float:
    """How much of an OCR'd line looks like a formula: the share of its tokens that hold a maths
    symbol or a bracket, or are one- or two-letter variables ("xi", "n"). A scan has no maths fonts
    (the text layer's signal), and a formula's letters are mostly variables, so the symbol share
    alone (``=`` and ``+`` among many letters) leaves "L(w) = -Σ log p(yi | xi, w) + λ|w|" looking like prose.
    Prose's brackets, initials and citations are no formula's: a line of citations
    ("(Wilson et al., 2020, 2021; Borovitskiy et al., 2023).") read as maths became a display of
    its own, cutting its paragraph in two on every scanned page that cites. An e-mail address or
    a URL counts as no token of either."""
    tokens = text.split()
    if not tokens:
        return 0.0
    # "(1)": belongs to a formula (``blocks`` joins it to one) but is none itself
    kinds = [_mathy(t) for t in tokens if not _EQUATION_NUMBER.match(t.strip(_TOKEN_EDGES))
             and "@" not in t and "://" not in t]
    # short words alone make no formula: a line with no maths symbol is prose, whatever its short
    # words (the list above is English: French "ce", "au", German "Nr.", old print's "3d Session.",
    # "Mr. De Long" were a third of their lines and each became a display on real scans)
    if "symbol" not in kinds:
        return 0.0
    return sum(bool(k) for k in kinds) / len(tokens)


def box_geometry(box: Any) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of an OCR box given as its corner points."""
    xs = [float(point[0]) for point in box]
    ys = [float(point[1]) for point in box]
    return min(xs), min(ys), max(xs), max(ys)


def ocr_layout(page_json: str, boxes: list[Any], texts: list[str], image_width: float, source: str,
               *, image: bytes = b"", ascender_heights: list[float] | None = None) -> str:
    """OCR'd lines (pixel boxes) -> the page's ``PageLayout`` JSON in PDF points.

    ``page_json`` is the text layer's layout (for the page size). A line's font size is taken as
    0.8 of its box height (OCR boxes include ascenders and descenders), or, when the engine
    measures them (tesseract's baselines: ``ascender_heights``, pixels), as ascender height / 0.7
    (Computer Modern's and Times' ascenders and capitals are ~0.7 em). ``image``: the page as
    OCR'd, whose ruling lines (``image_rules``) let the tables step rebuild tables on scans."""
    try:
        base = PageLayout.from_json(page_json)
        width, height = image_frame(base.width, base.height, image)
    except (ValueError, KeyError, TypeError):
        width = height = 0.0
    scale = (width / image_width) if width and image_width else 1.0
    geometries = [box_geometry(box) for box in boxes]
    if ascender_heights is None:
        sizes, snap = [0.8 * (y1 - y0) for _, y0, _, y1 in geometries], (0.0, 1.3)
    else:
        # ascender heights vary less than boxes: only +-12 % is noise (\large headings are +20 %,
        # footnotes -20 %)
        sizes, snap = [h / 0.7 for h in ascender_heights], (0.88, 1.12)
    lines = [(tuple(v * scale for v in geometry), normalize_page_text(text), size * scale)
             for geometry, text, size in zip(geometries, texts, sizes, strict=False)]
    lines = [line for line in _without_stray_ideographs(lines) if line[1]]
    # every line within the snap range of the page's median size gets the median, so only really
    # larger type (titles, headings) or smaller type (footnotes) stands out
    ordered = sorted(size for *_, size in lines)
    median = ordered[len(ordered) // 2] if ordered else 8.0
    sizes = [median if snap[0] * median <= size <= snap[1] * median else size for *_, size in lines]
    _continue_display_lines(lines, sizes, snap[1] * median, width or image_width * scale)
    fragments = []
    for ((x0, y0, x1, y1), text, _), size in zip(lines, sizes, strict=True):
        # no font weights in a scan: a short numbered line ("3.1 Page partition") is set like a heading
        heading_like = bool(_NUMBERED_HEADING.match(text)) and len(text.split()) <= 7
        if ascender_heights is None:
            # a detector's box carries a margin: shrunk to the type's height around its centre, or
            # the rows of a tight table (or lines of small print) overlap and merge; tesseract's
            # boxes are the ink's own
            core, middle = 0.4 * (y1 - y0), (y0 + y1) / 2
            y0, y1 = middle - core, middle + core
        fragments.append(Fragment(x0, y0, x1, y1, text, max(1.0, size), heading_like, ocr_math_share(text)))
    _mark_split_headings(fragments)
    rules = rules_from_jpeg(image, width) if width else []
    return PageLayout(width or image_width, height or image_width, fragments, rules, source).to_json()


def image_frame(width: float, height: float, image: bytes) -> tuple[float, float]:
    """The page's sides (points) in the order of the image the OCR read: the OCR'd lines are in that
    image's frame. The text layer's layout is in the page's own, unrotated frame (``rotated.page_size``),
    but a page is rendered as displayed: under ``/Rotate 90`` or ``270`` (a scanner's landscape sheet
    shown upright) and after ``ocr_orientation`` turned a sideways scan upright, the image's wide side
    is the layout's high one. Scaled by the layout's width, such a page's lines were read in a frame
    a third too large, off the page's foot, and its lines were grouped into other blocks (the real
    scans' linn-rotated-skew). A square page or no image keeps the layout's order."""
    if not image or not width or not height:
        return width, height
    from PIL import Image

    try:
        pixels_wide, pixels_high = Image.open(io.BytesIO(image)).size
    except (OSError, ValueError):
        return width, height
    if (pixels_wide - pixels_high) * (width - height) < 0:
        return height, width
    return width, height


_IDEOGRAPH = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# a page whose ideographs and kana are fewer than this share of its letters is written in another script
STRAY_IDEOGRAPHS = 0.02


def _without_stray_ideographs(lines: list[tuple[tuple[float, ...], str, float]]) -> list[tuple[tuple[float, ...], str, float]]:
    """RapidOCR's recogniser is trained on Chinese and English: on a page of Latin script it reads a
    smudge, a dash or a letter set vertically as an ideograph ("R Y K 一 T" down a typewritten
    bulletin's margin). Where ideographs and kana are a stray few among the page's letters, they are
    dropped (a Chinese or Japanese page is mostly ideographs: kept as read)."""
    letters = sum(ch.isalpha() for _, text, _ in lines for ch in text)
    strays = sum(len(_IDEOGRAPH.findall(text)) for _, text, _ in lines)
    if not strays or strays > STRAY_IDEOGRAPHS * letters:
        return lines
    return [(box, " ".join(_IDEOGRAPH.sub("", text).split()), size) for box, text, size in lines]


def _continue_display_lines(lines: list[tuple[tuple[float, ...], str, float]], sizes: list[float], large: float,
                            page_width: float) -> None:
    """A title set over two or three centred lines is of one size, but a detector's boxes differ by a
    line's ascenders and descenders, so its second line fell within the body's snap range (joined to
    the authors' line) or stood a size below the first (a ``##`` heading of its own). A line right
    under a line of larger type (``sizes`` above ``large``), centred under it (middles within
    ``CENTRED`` of the page width), its own box giving at least ``CONTINUED_SIZE`` of that size, takes
    that size (``sizes`` is updated in place, top down: a third line continues the second)."""
    order = sorted(range(len(lines)), key=lambda i: lines[i][0][1])
    for k, i in enumerate(order):
        (x0, y0, x1, y1), _, raw = lines[i]
        above = [j for j in order[:k]
                 if lines[j][0][0] < x1 and x0 < lines[j][0][2] and lines[j][0][3] <= y0 + 0.5 * (y1 - y0)]
        if not above:
            continue
        j = max(above, key=lambda j: lines[j][0][3])
        (a0, _, a1, b1), _, _ = lines[j]
        if (sizes[j] > large and y0 - b1 <= 0.5 * sizes[j] and abs((x0 + x1) - (a0 + a1)) / 2 <= CENTRED * page_width
                and CONTINUED_SIZE * sizes[j] <= raw <= sizes[j] / CONTINUED_SIZE):
            sizes[i] = sizes[j]


def _mark_split_headings(fragments: list[Fragment]) -> None:
    """A section number and its title are set a quad apart, so OCR often reads them as two boxes
    ("6" | "Conclusion"): a box holding only a section number and the next box to its right on the
    same line that together read as a numbered heading are both marked heading-like."""
    for number in fragments:
        if not SECTION_NUMBER.match(number.text):
            continue
        height = number.y1 - number.y0
        # OCR boxes carry margins that may overlap: the title starts right of the number's middle
        right = [f for f in fragments if f is not number and number.cx < f.x0 <= number.x1 + 3 * height
                 and abs(f.cy - number.cy) <= 0.5 * height]
        if not right:
            continue
        title = min(right, key=lambda f: f.x0)
        if _NUMBERED_HEADING.match(f"{number.text} {title.text}") and len(title.text.split()) <= 6:
            number.bold = title.bold = True
