"""Put a paper's tests on the page that prints them (olmOCR-Bench scores each page on its own),
and derive the per-page tests issue 27 asks of every paper: the first and the last paragraph of
each page (``present``, and ``order`` between them) and ``absent`` tests for the page's running
heads, footers and page number.

Input: the typeset PDF's text layer read with pypdfium2 (lines with their position) and the
source-derived tests of ``derive.py``. A source sentence is placed on a page when its letters and
digits occur in that page's text and in no other page's (so a sentence split by a page break, or
one the PDF prints twice, gives no test: its page is not known). Furniture is read from the page
itself: the line above the body (header) and the line below it (footer), kept when it repeats on
other pages in the same place (digits aside), is a page number, or is text the source sets as a
running head; an ``absent`` test is kept only if the rest of the page does not print its text.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from benchmarks.fulltext_real import derive, latex

# A running head sits \headsep (about 2 baselines) above the body, a footer \footskip below it:
# a wider gap than between two body lines. 14 pt: above a 12 pt baselineskip's 2-3 pt of leading.
FURNITURE_GAP = 14.0
MAX_FURNITURE_CHARS = 160


def letters(text: str, keep_case: bool = False) -> str:
    """Letters and digits only, lower case, ligatures unfolded (NFKC): line breaks, hyphenation
    and spacing differ between a source and its PDF; the words do not. ``keep_case``: for placing
    present/order tests, which olmocr matches case-sensitively ("The main ..." is not printed where
    the page says "Note that the main ...")."""
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"[^A-Za-z0-9]", "", text) if keep_case else re.sub(r"[^a-z0-9]", "", text.lower())


@dataclass
class Line:
    top: float
    bottom: float
    left: float
    text: str
    parts: list[str] | None = None  # the line's pieces set apart by a wide gap (a head's left and right)
    right: float = float("inf")  # unknown: as wide as the page


@dataclass
class Page:
    number: int  # 1-based
    height: float
    lines: list[Line]  # positioned lines, for the furniture
    text: str  # the page's text in content order (pdfium's text range), for placing sentences


def read_pages(pdf: Path) -> list[Page]:
    """Each page's text lines, top to bottom (pdfium's text rectangles on one baseline joined)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    pages = []
    try:
        for index in range(len(doc)):
            page = doc[index]
            textpage = page.get_textpage()
            rects = []
            for i in range(textpage.count_rects()):
                left, bottom, right, top = textpage.get_rect(i)
                text = textpage.get_text_bounded(left, bottom, right, top).replace("\ufffe", "-")
                if text.strip():
                    # pdfium ends a rectangle with the space it inferred after it, if any
                    rects.append((bottom, top, left, right, " ".join(text.split()) + (" " if text[-1:].isspace() else "")))
            lines: list[Line] = []
            right_edge = 0.0
            for bottom, top, left, right, text in sorted(rects, key=lambda r: (-r[0], r[2])):
                if lines and abs(lines[-1].bottom - bottom) < 2.0:
                    # pdfium cuts a line into rectangles at each font change: "DistilDoc" (typewriter)
                    # and ": Knowledge" touch; a space only where pdfium inferred one or a gap shows it
                    wide = left - right_edge > 0.4 * (top - bottom)
                    glue = " " if wide and not lines[-1].text.endswith(" ") else ""
                    lines[-1].text += glue + text
                    lines[-1].top = max(lines[-1].top, top)
                    lines[-1].right = max(lines[-1].right, right)
                    if left - right_edge > 3 * (top - bottom):  # a head's left and right parts
                        lines[-1].parts.append(text)
                    else:
                        lines[-1].parts[-1] += glue + text
                else:
                    lines.append(Line(top, bottom, left, text, [text], right))
                right_edge = right
            for line in lines:
                line.text = line.text.strip()
                line.parts = [part.strip() for part in line.parts or [] if part.strip()]
            for line in lines[:1] + lines[-1:]:  # furniture candidates: split at wide gaps char by char
                line.parts = _parts(textpage, line) or line.parts
            # a line's bounded text may take in a tall symbol of the next line; the text range
            # does not, so sentences are placed on it
            text = textpage.get_text_range().replace("\ufffe", "-")
            pages.append(Page(index + 1, page.get_size()[1], lines, text))
    finally:
        doc.close()
    return pages


def _parts(textpage, line: Line) -> list[str]:
    """A line's pieces set apart by more than twice its height: pdfium may keep an acmart
    head's left part (venue) and right part (authors) in one rectangle."""
    chars = []
    for i in range(textpage.count_chars()):
        left, bottom, right, top = textpage.get_charbox(i)
        if bottom >= line.bottom - 2.0 and top <= line.top + 2.0 and right > left:
            chars.append((left, right, textpage.get_text_range(i, 1)))
    spans: list[list[float]] = []
    for left, right, _char in sorted(chars):
        if spans and left - spans[-1][1] <= 2 * (line.top - line.bottom):
            spans[-1][1] = max(spans[-1][1], right)
        else:
            spans.append([left, right])
    # each span's text as pdfium reads it (its inferred spaces, not ours)
    texts = [textpage.get_text_bounded(left - 0.5, line.bottom - 2.0, right + 0.5, line.top + 2.0)
             for left, right in spans]
    return [" ".join(t.replace("\ufffe", "-").split()) for t in texts if t.strip()]


def _edge_lines(page: Page) -> list[tuple[str, Line]]:
    """The header and footer candidates: the top and bottom lines when set apart from the body."""
    out = []
    lines = page.lines
    if len(lines) >= 3:
        # a line that is only the page number is a candidate however close (acmart's footer);
        # furniture_tests keeps it where other pages print theirs in the same place
        number = str(page.number)
        if lines[0].bottom - lines[1].top >= FURNITURE_GAP or lines[0].text == number:
            out.append(("head", lines[0]))
        if lines[-2].bottom - lines[-1].top >= FURNITURE_GAP or lines[-1].text == number:
            out.append(("foot", lines[-1]))
    return out


def _skeleton(text: str) -> str:
    """A furniture line with its digits removed: LNCS and ICML heads carry the page number."""
    return re.sub(r"[0-9ivxlc]+", "", letters(text)) if re.search(r"[a-z]", letters(text)) else ""


def _without_number(text: str, number: str) -> str:
    """The head without its page number, which is its first or last word (LNCS, acmart), never a
    year inside it."""
    words = text.split()
    words = words[1:] if words[:1] == [number] else words
    return " ".join(words[:-1] if words[-1:] == [number] else words)


def _ends_with(lines: list[Line], number: str, last: bool) -> bool:
    """Does a line that may end (``last``; else start) a right output of the page print ``number``
    within the window olmocr's ``last_n``/``first_n`` test reads? Such a line is the last (first) of
    its column: no line below (above) it across its width. In reading order a page ends with its
    right column, a footnote or a float, not necessarily with the line pdfium reads last
    (cryoem-orientation p8's left column ends "resolution of 8 to" above a figure). A short line is
    read with the one before (after) it."""
    window = len(number) + 12
    for i, line in enumerate(lines):
        beyond = [o for o in lines if o is not line and o.left < line.right and line.left < o.right
                  and (o.top <= line.bottom if last else o.bottom >= line.top)]
        if beyond:
            continue
        near = (lines[i - 1].text + " " + line.text if i else line.text) if last else \
            (line.text + " " + lines[i + 1].text if i + 1 < len(lines) else line.text)
        key = letters(near)
        if number in (key[-window:] if last else key[:window]):
            return True
    return False


def furniture_tests(pages: list[Page], candidates: list[str]) -> list[dict]:
    """``absent`` tests for each page's running head, footer and page number."""
    edges = {p.number: _edge_lines(p) for p in pages}
    seen: dict[tuple[str, str], int] = {}
    for found in edges.values():
        for where, line in found:
            key = (where, _skeleton(line.text), round(line.bottom / 3))
            seen[key] = seen.get(key, 0) + 1
    # where page numbers are printed: a number is furniture where the page number of other pages
    # sits too (a figure's "3" at the top of page 3 is not)
    numbered: dict[tuple[str, int], int] = {}
    for number, found in edges.items():
        for where, line in found:
            if str(number) in line.text.split():
                numbered[(where, round(line.bottom / 3))] = numbered.get((where, round(line.bottom / 3)), 0) + 1
    known = [letters(c) for c in candidates if letters(c)]
    tests = []
    for page in pages:
        for where, line in edges[page.number]:
            text = line.text
            if len(text) > MAX_FURNITURE_CHARS:
                continue
            number = str(page.number)
            tokens = text.split()
            # repeated in the same place: the title on page 1 repeats the ICML running title's
            # words, but lower on the page and in larger type; it is the paper's, not furniture
            repeated = seen.get((where, _skeleton(text), round(line.bottom / 3)), 0) >= 2 and _skeleton(text) != ""
            is_known = any(k and k in letters(text) for k in known)
            rest = letters("\n".join(l.text for l in page.lines if l is not line))
            if number in tokens and numbered.get((where, round(line.bottom / 3)), 0) >= 2:
                body = [l for l in page.lines if l is not line]
                if number not in rest:
                    tests.append({"type": "absent", "page": page.number, "text": number})
                elif where == "foot" and not _ends_with(body, number, last=True):
                    # the number is in the page's prose too: only the page's end is checked (olmocr's
                    # last_n), where no line of the page prints it
                    tests.append({"type": "absent", "page": page.number, "text": number,
                                  "last_n": len(number) + 8})
                elif where == "head" and not _ends_with(body, number, last=False):
                    tests.append({"type": "absent", "page": page.number, "text": number,
                                  "first_n": len(number) + 8})
            # one test per part: an output that keeps both parts of an acmart head in another order
            # must fail each test, not pass one joined in print order
            heads = [_without_number(part, number) for part in (line.parts if len(line.parts or []) > 1 else [text])]
            for head in heads:
                if (repeated or is_known) and len(head.split()) >= 2 and letters(head) not in rest:
                    tests.append({"type": "absent", "page": page.number, "text": head})
        # a notice the source or its style sets ("Preprint. Under review.") on a line of its own
        # anywhere on the page (above the page number, it is no edge line)
        for line in page.lines:
            if letters(line.text) in known and len(line.text.split()) >= 2 and not any(
                    t["page"] == page.number and t["text"] == line.text for t in tests):
                rest = letters("\n".join(other.text for other in page.lines if other is not line))
                if letters(line.text) not in rest:
                    tests.append({"type": "absent", "page": page.number, "text": line.text})
    return tests


def place(tests: list[dict], pages: list[Page]) -> list[dict]:
    """Give each source-derived test its page; drop the ones whose page is not certain."""
    texts = [letters(p.text, keep_case=True) for p in pages]

    def page_of(*parts: str) -> int | None:
        keys = [letters(p, keep_case=True) for p in parts if p]
        hits = [i + 1 for i, t in enumerate(texts) if all(k in t for k in keys)]
        total = sum(t.count(keys[0]) for t in texts) if keys else 0
        return hits[0] if len(hits) == 1 and total == 1 else None

    placed = []
    for test in tests:
        kind = test["type"]
        if kind == "present":
            page = page_of(test["text"])
        elif kind == "order":
            page = page_of(test["before"], test["after"])
            if page and page_of(test["before"]) != page_of(test["after"]):
                page = None
        elif kind == "table":
            page = page_of(test["cell"], *(test.get(k, "") for k in ("up", "down", "left", "right",
                                                                       "top_heading", "left_heading")))
        elif kind == "math" and test.get("near"):
            before, after = test["near"]
            page = page_of(before) if before and page_of(before) == page_of(after) else None
        else:  # absent candidates from the source are replaced by the per-page furniture tests
            page = None
        if page:
            placed.append({**{k: v for k, v in test.items() if k != "near"}, "page": page})
    return placed


def first_last_tests(sentences: list[str], pages: list[Page]) -> list[dict]:
    """Per page: the first and the last source sentence (or plain run of one) printed on it, each a
    ``present`` test, and an ``order`` test between them when the page's text agrees."""
    texts = [letters(p.text, keep_case=True) for p in pages]
    by_page: dict[int, list[tuple[int, str]]] = {}
    for index, sentence in enumerate(sentences):
        key = letters(sentence, keep_case=True)
        if len(key) < 20:
            continue
        hits = [i for i, t in enumerate(texts) if key in t]
        if len(hits) == 1 and texts[hits[0]].count(key) == 1:
            by_page.setdefault(hits[0] + 1, []).append((index, sentence))
    tests = []
    for number, found in sorted(by_page.items()):
        found.sort()
        first, last = found[0][1], found[-1][1]
        tests.append({"type": "present", "page": number, "text": first})
        if last != first:
            tests.append({"type": "present", "page": number, "text": last})
            text = texts[number - 1]
            if text.find(letters(first, keep_case=True)) < text.find(letters(last, keep_case=True)):
                tests.append({"type": "order", "page": number, "before": first, "after": last})
    return tests


def paper_tests(paper_id: str, tex: str, styles: list[str], pdf: Path) -> list[dict]:
    """Every test of one paper, each on its page, ids unique across the set (``<id>-<type>-NNN``:
    olmOCR-Bench pools all files and rejects a duplicate id)."""
    pages = read_pages(pdf)
    body = derive.document_body(tex)
    tests = place(derive.derive(tex, styles), pages)
    tests += first_last_tests(derive.plain_fragments(body), pages)
    # a running head that repeats the title is printed in the body too: it is known furniture only
    # where it repeats in place (furniture_tests), not by its words
    printed = letters(latex.unstyle(body))
    known = [c for c in derive.furniture_candidates(tex, styles) if letters(c) not in printed]
    tests += furniture_tests(pages, known)
    out, seen = [], set()
    for test in tests:
        fields = {k: v for k, v in test.items() if k not in ("id", "pdf")}
        key = repr(sorted(fields.items()))
        if key not in seen:
            seen.add(key)
            out.append(fields)
    out.sort(key=lambda t: t["page"])
    return [{"pdf": pdf.name, "id": f"{paper_id}-{t['type']}-{i:03d}", **t} for i, t in enumerate(out)]
