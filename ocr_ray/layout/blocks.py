"""One page's fragments (furniture removed, tables extracted) -> markdown blocks.

Lines in reading order (``order.xy_cut``) are classified as heading, display equation, footnote,
table or body text; body lines are joined into paragraphs (a new paragraph at a first-line indent,
a vertical gap, a change of font size, or a short line ending a sentence), hyphenation at line ends
is undone, and footnotes go after the page's body.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from ocr_ray.layout.code_blocks import listing, listing_end, set_code, typewritten
from ocr_ray.layout.display_lines import (
    EQ_NUMBER,
    Line,
    fraction_beside,
    is_display,
    joins_display,
    limit_above,
    numbered_beside,
    page_columns,
)
from ocr_ray.layout.fallback import OVERSIZE, guarded, skipped
from ocr_ray.layout.floats import CAPTION, float_end, runs_on
from ocr_ray.layout.heading_rules import NUMBERED, OVERLAP, ends_its_column, heading_level, same_run
from ocr_ray.layout.hyphenation import compounds, join_lines  # noqa: F401 - compounds: re-exported (layout, tests)
from ocr_ray.layout.math import numbered as number_display
from ocr_ray.layout.math_hook import UNREAD_MARK, display_math, line_glyphs
from ocr_ray.layout.model import Fragment, PageLayout, Rule
from ocr_ray.layout.order import lines_of, xy_cut
from ocr_ray.layout.pdftext import TEXT_RUN_CHARS
from ocr_ray.layout.plain import plain_rows
from ocr_ray.layout.right_to_left import line_order

# Fragments on a page past which the reading order (xy-cut) is not tried: a dense paper page has a
# few thousand; a font's glyph chart or a data dump has tens of thousands (pdfcpu's Unifont sample:
# 57,199 on one page, more than 10 CPU seconds in the cut); such a page is read in plain rows.
ORDER_MAX_FRAGMENTS = 20_000
_LIGATURES = re.compile("[\ufb00-\ufb06]")
# a footnote's mark, then its text: not "1. Author" (a numbered reference), not "82.10" (a number)
_FOOTNOTE_MARK = re.compile(r"^([0-9]{1,2}|[*†‡§¶])\s*(?=[^\s.,:;\d])")


# Ghostscript's pdfwrite (10.0, Debian 12's: a PDF "re-distilled" or printed through ps2pdf) writes a
# ligature's ToUnicode as UTF-16 with its bytes swapped, <66006900> for "fi": PDFium reads U+6600
# U+6900, "昀椀ne-tuning". Two or three such ideographs in a row (f then i, l or f) are no Chinese
# (U+6600 and U+6900 are rare characters, never one glyph's text), so they are read back as letters.
_SWAPPED_LIGATURE = re.compile("\u6600\u6600?[\u6600\u6900\u6c00]")


def clean_text(text: str) -> str:
    """Ligatures decomposed (NFKC on U+FB00-FB06 only), then NFC (combining accents composed)."""
    text = _LIGATURES.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
    text = _SWAPPED_LIGATURE.sub(lambda m: "".join(chr(ord(c) >> 8) for c in m.group()), text)
    return unicodedata.normalize("NFC", text)


def _line(frags: list[Fragment], edges: tuple[float, float], text_layer: bool = False) -> Line:
    frags = line_order(frags)  # (right to left when its script is)
    chars = sum(len(f.text) for f in frags) or 1
    main = max(frags, key=lambda f: len(f.text))
    line = Line(min(f.x0 for f in frags), min(f.y0 for f in frags), max(f.x1 for f in frags),
                max(f.y1 for f in frags), " ".join(f.text for f in frags), main.size,
                all(f.bold for f in frags if len(f.text) > 1) or main.bold and len(frags) == 1,
                sum(f.math * len(f.text) for f in frags) / chars,
                "table" if any(f.kind == "table" for f in frags) else "text", *edges,
                *_glyphs_and_prose(frags, text_layer))
    set_code(line, frags)
    return line


def _glyphs_and_prose(frags: list[Fragment], text_layer: bool = False) -> tuple[list | None, bool, list | None]:
    """A line's ``glyphs``, ``prose`` and ``laid`` (see ``Line``) from its fragments. On the text layer
    a fragment with maths in it longer than ``TEXT_RUN_CHARS`` that kept no glyphs is a run of prose
    with inline maths (the layer keeps the glyphs of shorter ones): its line is prose too (ri-iclr26:
    "The refusal rate is r := Pr(R = 1) = ..", a sixth maths, was read as a row of the display set
    tight above it, which it left unread). OCR'd lines carry no glyphs: their math share decides."""
    glyphs = line_glyphs(frags)
    prose = glyphs is None and (any(f.glyphs for f in frags) or text_layer and any(
        f.math > 0 and not f.glyphs and len(f.text) > TEXT_RUN_CHARS for f in frags))
    return glyphs, prose, line_glyphs(frags, phrases=True) if prose else None


def _pictures(page: PageLayout) -> list[Rule]:
    """The page's pictures that hold no text of the page (a raster or included figure, not a scan
    under its own text layer nor a background), at least two lines high and wide: they take part
    in the reading order as the column space they fill, then are dropped. Without them the lines
    of the other column beside a picture stood alone at their height and were read before the
    picture's column (stoic p7: the right column's paragraph cut in two by the left one's caption)."""
    out = []
    for image in page.images:
        w, h = image.x1 - image.x0, image.y1 - image.y0
        if min(w, h) < 20.0 or w * h > 0.5 * page.width * page.height:
            continue
        inside = sum(image.x0 <= f.cx <= image.x1 and image.y0 <= f.cy <= image.y1 for f in page.fragments)
        if inside <= 3:
            out.append(image)
    return out


def _plain_lines(page: PageLayout) -> list[Line]:
    """The reading order's fallback: plain rows across the page's full width."""
    return [_line(row, (0.0, page.width)) for row in plain_rows(page.fragments)]


def page_lines(page: PageLayout) -> list[Line]:
    lines: list[Line] = []
    pictures = _pictures(page)
    text_layer = page.source == "text-layer"
    last_frags: list[Fragment] = []  # the fragments of the last line
    for leaf, edges in xy_cut(page.fragments + pictures):
        if pictures:
            leaf = [f for f in leaf if isinstance(f, Fragment)]
            if not leaf:
                continue
        # a table is a block of its own: text beside it (a figure's tick label at its height) is
        # another line, never glued before its first row
        groups = lines_of(leaf)
        if any(f.kind == "table" for f in leaf):
            groups = [part for frags in groups for part in
                      ([[f for f in frags if f.kind != "table"]] if any(f.kind != "table" for f in frags) else [])
                      + [[f] for f in frags if f.kind == "table"]]
        for frags in groups:
            line = _line(frags, edges, text_layer)
            prev = lines[-1] if lines else None
            prev_frags, last_frags = last_frags, frags
            # "1" | "Introduction": one line cut in two by a wide gap, not two columns
            if (prev and prev.kind == line.kind == "text" and min(prev.y1, line.y1) - max(prev.y0, line.y0)
                    > 0.5 * min(prev.y1 - prev.y0, line.y1 - line.y0) and 0 <= line.x0 - prev.x1 < 3 * line.size
                    and prev.bold == line.bold):
                prev.text, prev.x1 = f"{prev.text} {line.text}", line.x1
                prev.y0, prev.y1 = min(prev.y0, line.y0), max(prev.y1, line.y1)
                prev.math = max(prev.math, line.math)
                # the glyphs of the whole line: a display cut at its \quad before prose ("y = Wx + b,"
                # | "where W is a matrix") had none, the words alone having no maths to lay out by
                last_frags = prev_frags + frags
                prev.glyphs, prev.prose, prev.laid = _glyphs_and_prose(last_frags, text_layer)
                prev.glued = True
                set_code(prev, last_frags)
                continue
            lines.append(line)
    return lines


_LIST_ITEM = re.compile(r"^(\d{1,2}[.)]|[•◦▪‣∗*–\-●○■□►▶➢✓✔]|\((\d{1,2}|[a-z]|[ivx]{1,4})\))\s")
# a bullet opens an item, wherever the last one ended (a dash may open a line of prose); "2." after
# a sentence's end does too ("(b)" may go on a caption's or a sentence's enumeration)
_BULLET = re.compile(r"^[•◦▪‣∗●○■□►▶➢✓✔]\s")
_NUMBERED_ITEM = re.compile(r"^(\d{1,2}[.)]|[•◦▪‣∗●○■□►▶➢✓✔])\s")


def _float_blocks(lines: list[Line]) -> list[str | list[Line]]:
    """A float's parts in order: each table's markdown, each caption's lines."""
    out: list[str | list[Line]] = []
    for line in lines:
        if line.kind == "table":
            out.append(line.text)
        elif out and isinstance(out[-1], list) and not CAPTION.match(line.text):
            out[-1].append(line)
        else:
            out.append([line])
    return out


def _runs(lines: list[Line]) -> list[tuple[int, int]]:
    """Per line, the (first, last) index of its run of lines set alike (``heading_rules.same_run``):
    a heading is a short run set apart (at most two lines, three for a title); a longer run in a larger type is
    a paragraph (an abstract in ``\\large``), not a heading per line."""
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(lines) + 1):
        if i == len(lines) or not same_run(lines[i - 1], lines[i]):
            out += [(start, i - 1)] * (i - start)
            start = i
    return out


def _set_apart_level(lines: list[Line], runs: list[tuple[int, int]], i: int, body: float,
                     title_size: float | None) -> int:
    """The heading level of line ``i`` (0: none): its type says heading
    (``heading_rules.heading_level``) and its run is a heading's: short, and not ending a sentence (a paragraph's last line does)."""
    level = heading_level(lines[i], body, title_size)
    if not level:
        return 0
    first, last = runs[i]
    if level == 1:  # the title (the first page's largest type): up to three lines, whatever they end
        # with but a full stop after more than one line (a sentence set large and bold in the body)
        return level if last - first < 3 and not (last > first and lines[last].text.rstrip().endswith(".")) else 0
    if last - first + 1 > 2 or lines[last].text.rstrip().endswith((".", ",", ";")):
        return 0
    if not NUMBERED.match(lines[first].text) and ends_its_column(lines, last):
        return 0  # type alone says heading, and nothing follows it in its column: a broken paragraph
    return level


def _heading(lines: list[Line], runs: list[tuple[int, int]], i: int, body: float, title_size: float | None) -> int:
    """``_set_apart_level``, guarded: a heading rule that fails leaves the line body text."""
    return guarded("headings", lambda: _set_apart_level(lines, runs, i, body, title_size), lambda: 0, seconds=0)


def _display(math: list[Line], page: PageLayout) -> str | None:
    """``display_math``, guarded: a formula the builder fails on stays its glyph text, marked unread."""
    return guarded("math", lambda: display_math(math, page.rules, page.source == "text-layer"), lambda: UNREAD_MARK)


def _join(lines: list[Line], known) -> str:
    return guarded("paragraphs", lambda: join_lines([ln.text for ln in lines], known),
                   lambda: " ".join(ln.text for ln in lines))


def page_blocks(page: PageLayout, body: float, first_page: bool, known: Mapping[str, int] | frozenset = frozenset()) -> list[str]:
    if len(page.fragments) > ORDER_MAX_FRAGMENTS:
        skipped("order", OVERSIZE, f"{len(page.fragments)} fragments on the page")
        lines = _plain_lines(page)
    else:
        lines = guarded("order", lambda: page_lines(page), lambda: _plain_lines(page))
    title_size = max((ln.size for ln in lines if ln.kind == "text"), default=None) if first_page else None
    columns = page_columns(lines)  # (``is_display``)
    runs = _runs(lines)
    listings = not guarded("code", lambda: typewritten(lines), lambda: True, seconds=0)  # (``code_blocks``)
    blocks: list[str] = []
    footnotes: list[str] = []
    para: list[Line] = []
    math: list[Line] = []
    last_note: Line | None = None
    floats: list[str] = []  # a float set inside the running paragraph: written after it
    resumed = False  # the line after such a float continues the paragraph, whatever the gap

    def flush() -> None:
        if para:
            blocks.append(_join(para, known))
            para.clear()
        blocks.extend(floats)
        floats.clear()
        if math:
            built = _display(math, page)
            if built is not None and built != UNREAD_MARK:
                blocks.append(built)
                math.clear()
                return
            text = " ".join(ln.text for ln in math)
            if built == UNREAD_MARK:  # the builder could not read it: the glyph text, marked, not as LaTeX
                blocks.append(UNREAD_MARK + "\n" + text)
                math.clear()
                return
            number = EQ_NUMBER.search(text)
            body_text = EQ_NUMBER.sub("", text) if number else text
            blocks.append("$$\n" + number_display(body_text.strip(), number.group(1) if number else "") + "\n$$")
            math.clear()

    i = 0
    taken: set[int] = set()  # a display's number read ahead (below)
    while i < len(lines):
        if i in taken:
            i += 1
            continue
        line = lines[i]
        end = float_end(lines, i) if para and not math and (line.kind == "table" or line.text[:1] in "TF") else None
        if end is not None and end < len(lines) and runs_on(para[-1], lines[end]) \
                and heading_level(lines[end], body, title_size) == 0:
            # a table (and its caption) inside a paragraph: the paragraph reads on, the float after it
            floats.extend(join_lines([ln.text for ln in caption], known) if isinstance(caption, list) else caption
                          for caption in _float_blocks(lines[i:end]))
            i, resumed = end, True
            continue
        if resumed:
            resumed = False
            if not is_display(line, page.source == "text-layer", columns):
                para.append(line)
                i += 1
                continue
        if line.kind == "table":
            flush()
            blocks.append(line.text)
            i += 1
            continue
        end = guarded("code", lambda i=i: listing_end(lines, i), lambda i=i: i, seconds=0) if listings else i
        if end > i:  # a code listing: its lines as set, in a fenced block
            flush()
            blocks.append(guarded("code", lambda i=i, end=end: listing(lines[i:end]),
                                  lambda i=i, end=end: "\n".join(ln.text for ln in lines[i:end]), seconds=0))
            i = end
            continue
        small = line.size <= 0.92 * body  # (LNCS: an 8 pt footnote whose URL is set in 9 pt typewriter)
        # a footnote's next line: in its column, or starting at or left of the line above (a note's
        # first line is indented by its mark; its column edges may be that line's own)
        continues = (last_note is not None and 0 <= line.y0 - last_note.y1 < line.size and not para and not math
                     and (line.left == last_note.left or last_note.x0 - 3 * line.size <= line.x0 <= last_note.x0 + 1))
        if small and line.y0 > 0.55 * page.height and (continues or _FOOTNOTE_MARK.match(line.text)):
            # a footnote: small type low on the page, numbered; kept apart from the body
            flush()
            mark = _FOOTNOTE_MARK.match(line.text)
            if mark or not footnotes:
                footnotes.append(f"[^{mark.group(1)}]: {line.text[mark.end():]}" if mark else line.text)
            else:
                footnotes[-1] = join_lines([footnotes[-1], line.text], known)
            last_note = line
            i += 1
            continue
        level = _heading(lines, runs, i, body, title_size)
        if level:
            flush()
            text = line.text
            # a title's next line in its run of type continues it whatever its first word ("...
            # Crawling, Parsing" | "and Splitting Every Venue"), as ``_set_apart_level`` takes a
            # title's lines whatever they end with
            while (i + 1 < len(lines) and (_heading(lines, runs, i + 1, body, title_size) == level
                                           or level == 1 and runs[i + 1] == runs[i])
                   and abs(lines[i + 1].size - line.size) < 0.3
                   and -OVERLAP * line.size <= lines[i + 1].y0 - line.y1 < line.size
                   and not NUMBERED.match(lines[i + 1].text)):
                i += 1
                # (a heading's line broken after a hyphen: "GPT-" | "3", "Multi-" | "Agent")
                pair = [text, lines[i].text]
                text = guarded("paragraphs", lambda pair=pair: join_lines(pair, known), lambda pair=pair: " ".join(pair))
            blocks.append("#" * level + " " + text)
            i += 1
            continue
        near_math = bool(math) and joins_display(line, math, columns)
        numbered = numbered_beside(lines, i, columns) or page.source == "text-layer" and fraction_beside(
            line, page.rules, columns)
        if is_display(line, page.source == "text-layer", columns) or near_math or numbered:
            if para and not math:
                # limits above a sum are read before it (``limit_above``)
                while para and limit_above(para[-1], line, page.rules):
                    math.insert(0, para.pop())
                flush_para = para[:]
                para.clear()
                if flush_para:
                    blocks.append(_join(flush_para, known))
                blocks.extend(floats)
                floats.clear()
            math.append(line)
            i += 1
            continue
        if math and i + 1 < len(lines) and EQ_NUMBER.fullmatch(" " + lines[i + 1].text) \
                and joins_display(lines[i + 1], math, columns):
            # the display's number at its height, read after a sentence set tight under it
            # (rnn-extrapolation p20): the display's, not the next paragraph's first words
            math.append(lines[i + 1])
            taken.add(i + 1)
        if math:
            flush()
        if para:
            prev = para[-1]
            # a list item's hanging indent ("1. Text" then lines under "Text") is no new paragraph
            indent = (line.x0 - line.left > 0.7 * line.size and line.x0 - prev.x0 > 0.7 * line.size
                      and not _LIST_ITEM.match(prev.text))
            gap = line.y0 - prev.y1
            new_column = line.left != prev.left
            short_end = prev.x1 < prev.right - 2.5 * prev.size and prev.text.rstrip().endswith((".", ":", "?", "!"))
            # a change to or from bold starts a block when the bold line is short (a heading on its
            # own line), not when a bold sentence fills the column and runs on (emphasis mid-paragraph)
            bold = line if line.bold else prev
            bold_break = prev.bold != line.bold and bold.x1 < bold.right - 2.5 * bold.size
            # a short label centred alone over text that starts ems further left ("Abstract" over an
            # abstract, where a Type 3 font tells no weight): a paragraph's next line starts an indent left at most
            label = (len(para) == 1 and prev.x1 - prev.x0 < 0.5 * (prev.right - prev.left) and line.x0 < prev.x0 - 3 * line.size
                     and abs(prev.x0 + prev.x1 - prev.left - prev.right) < 2 * prev.size)
            if prev.text.endswith("-") and line.text[:1].islower():
                pass  # a word hyphenated across the two lines: the same paragraph
            elif (indent or (not new_column and gap > 0.75 * line.size) or abs(line.size - prev.size) > 0.15 * prev.size
                    or short_end or bold_break or label or (_LIST_ITEM.match(line.text) and line.x0 < prev.x0 - 0.3 * line.size)
                    or (_BULLET.match(line.text) and line.x0 < prev.x0 + 0.3 * line.size)
                    or (_NUMBERED_ITEM.match(line.text) and prev.text.rstrip().endswith((".", ":", "?", "!")))):
                flush()
        para.append(line)
        i += 1
    flush()
    return [clean_text(b) for b in blocks + footnotes if b.strip()]
