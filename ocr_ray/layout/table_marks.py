"""What the text layer keeps of a line where a table may be (between two horizontal rules): its
word spaces (where ``tables`` may cut a header whose columns are closer than ``pdftext.GAP_SPLIT``)
and its superscripts, marked ``<sup>..</sup>`` (``tables`` keeps the marks in a table's cells only)."""
from __future__ import annotations

import re

from ocr_ray.layout.floats import CAPTION
from ocr_ray.layout.model import Fragment, Rule

# A letter or digit of a text font after others, smaller than this share of their size and its foot
# raised by more than SUP_RAISE sizes: a superscript (threeparttable's \tnote{a}, \textsuperscript,
# a \footnotemark), marked in a table's cells (``mark_table_superscripts``)
SUP_SIZE = 0.8
SUP_RAISE = 0.2
# a smaller number whose foot is this share of the size below the text's: a subscript
# (``\textsubscript`` drops it by 0.15 em; a smaller number on the baseline has its foot above)
SUB_DROP = 0.05
# word spaces kept near a table's caption: in a fragment narrower than this share of the page (a
# cell; table_unruled.PROSE_SHARE) within this share of the page's height of the caption
CELL_SHARE, CAPTION_REACH = 0.4, 0.3
# a run of numbers and nothing else ("1204.5 1310.2 1288.7"): a spreadsheet's row of tight columns
# (a word processor or Calc sets them 3 pt apart, under pdftext's cut), never prose
_NUMBERS = re.compile(r"[-−+(]?\d[\d.,]*%?\)?(?: [-−+(]?\d[\d.,]*%?\)?)+")


def _table_zone(rules: list[Rule]):
    """Is a fragment where a table may be: between a horizontal rule above and one below, both
    across its centre (booktabs' top and mid rule around a header, or ``\\hline``s)?"""
    across = [r for r in rules if r.horizontal and r.x1 - r.x0 >= 40]

    def inside(f: Fragment) -> bool:
        cx, cy = f.cx, f.cy
        ruled = [r for r in across if r.x0 <= cx <= r.x1]
        return any(r.y1 <= cy for r in ruled) and any(r.y0 >= cy for r in ruled)
    return inside


def mark_table_superscripts(fragments: list[Fragment], superscripts: dict[int, list[int]], rules: list[Rule]) -> None:
    """A superscript after a table cell's value is marked ``<sup>..</sup>``: threeparttable's
    ``\\tnote{c}`` after "28.9" read "28.9c", another number. Prose keeps its superscripts as
    letters after the word (a footnote mark), as before; a maths font's (``$^\\dagger$``) is no
    such letter (``pdftext._Builder.add``)."""
    if not superscripts:
        return
    inside = _table_zone(rules)
    for k, places in superscripts.items():
        f = fragments[k]
        if not inside(f):
            continue
        marked, text = set(places), f.text
        f.text = "".join((("<sup>" if i in marked and i - 1 not in marked else "") + ch
                          + ("</sup>" if i in marked and i + 1 not in marked else "")) for i, ch in enumerate(text))


def space_table_subscripts(fragments: list[Fragment], subscripts: dict[int, list], rules: list[Rule]) -> None:
    """A subscript number right after a table cell's value is set apart by a space (a word space
    there, ``gaps`` too): "96.0\\textsubscript{0.1}", a mean and its standard deviation, read
    "96.00.1", another number. ``subscripts``: fragment's place -> [place in its text, x after the
    value, x of the script] of each. Prose keeps its scripts against their base, as before."""
    inside = _table_zone(rules)
    for k, subs in subscripts.items():
        f = fragments[k]
        if not inside(f) or f.math or any(place >= len(f.text) for place, _, _ in subs):  # (a formula's own)
            continue
        text, gaps = f.text, list(f.gaps or [])
        for place, left, right in sorted(subs, reverse=True):
            spaces = text[:place].count(" ")
            text = text[:place] + " " + text[place:]
            gaps.insert(spaces, [round(left, 1), round(right, 1)])
        f.text, f.gaps = text, gaps


def keep_table_gaps(fragments: list[Fragment], rules: list[Rule], width: float, height: float) -> None:
    """Word spaces are kept only where a table may be: between a horizontal rule above and one below,
    both across the fragment's centre (booktabs' top and mid rule around a header, or ``\\hline``s),
    or, for a fragment narrower than a line of prose, near a "Table N" caption (a table set without
    rules, ``table_unruled``: its tight header "MMLU GSM8K HumanEval ARC" is cut at its spaces),
    or in a run of numbers alone (``_NUMBERS``: a table with neither, ``captionless_boxes``). Elsewhere they are dropped: every line of prose would carry them into the layout payload."""
    inside = _table_zone(rules)
    captions = [f.cy for f in fragments if f.text.startswith("Table") and CAPTION.match(f.text)]
    for f in fragments:
        if f.gaps and not inside(f) and not _NUMBERS.fullmatch(f.text) and not (
                f.x1 - f.x0 < CELL_SHARE * width and any(abs(f.cy - c) < CAPTION_REACH * height for c in captions)):
            f.gaps = None
