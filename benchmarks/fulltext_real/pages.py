"""Put a paper's tests on the page that prints them (olmOCR-Bench scores each page on its own),
and derive the per-page tests issue 27 asks of every paper: the first and the last paragraph of
each page (``present``, and ``order`` between them) and ``absent`` tests for the page's running
heads, footers and page number.

Input: the typeset PDF's text layer read with pypdfium2 (lines with their position) and the
source-derived tests of ``derive.py``. A source sentence is placed on a page when its letters and
digits occur in that page's text and in no other page's (so a sentence split by a page break, or
one the PDF prints twice, gives no test: its page is not known). Furniture is NOT read from the
page by layout rules (those would agree with the engine's own furniture rules by construction,
issue 36): it is what TeX set in each page's head and foot box (``furniture_truth.py``), and an
``absent`` test is kept only if the page prints its text and the rest of the page does not.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.fulltext_real import derive


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
    # pdfium's text rectangles (bottom, top, left, right, text): a column's line apart from the
    # other column's line on the same baseline, which ``lines`` joins
    rects: list = field(default_factory=list)


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
            pages.append(Page(index + 1, page.get_size()[1], lines, text, rects))
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


def _number_split(part: str, thepage: str) -> tuple[str, str]:
    """(the page number the part prints at its start or end, or "", the rest): LNCS and acmart heads
    set the number beside the title, apart by a ``\\quad`` (no fil glue between them)."""
    words = part.split()
    if thepage and len(words) > 1 and words[0] == thepage:
        return thepage, " ".join(words[1:])
    if thepage and len(words) > 1 and words[-1] == thepage:
        return thepage, " ".join(words[:-1])
    return (part, "") if part == thepage else ("", part)


def furniture_tests(pages: list[Page], furniture: list) -> tuple[list[dict], list[dict]]:
    """``absent`` tests from what TeX set in each page's head and foot box (``furniture_truth``:
    ``Furniture`` records, one a box), each checked against what the page prints. Returns the tests
    and the candidates dropped, each with its reason: ``not-printed`` (the page's text layer does
    not hold it: a glyph without Unicode, a box drawn outside the page), ``printed-twice`` (the body
    prints it too, e.g. the title on page 1: no output can leave it out), ``number-in-prose`` (the
    page number is printed in the text near the page's end or start as well)."""
    tests, dropped = [], []
    for box in furniture:
        if not 1 <= box.page <= len(pages):
            dropped += [{"page": box.page, "text": part, "reason": "page-not-in-pdf"} for part in box.parts]
            continue
        page = pages[box.page - 1]
        printed = letters(page.text)
        for part in box.parts:
            number, words = _number_split(part, box.thepage)
            if words and re.search(r"[a-z]", letters(words)):
                key = letters(words)
                reason = ("not-printed" if key not in printed else "printed-twice" if printed.count(key) > 1 else None)
                if reason:
                    dropped.append({"page": page.number, "text": words, "reason": reason, "where": box.where})
                else:
                    tests.append({"type": "absent", "page": page.number, "text": words})
            if not number:
                continue
            key = letters(number)
            # the box's own line: the top line (head) or the bottom line (foot) that prints the number
            edge = [line for line in (page.lines if box.where == "head" else page.lines[::-1])
                    if key in letters(line.text)][:1]
            body = [line for line in page.lines if line not in edge]
            rest = letters("\n".join(line.text for line in body))
            if not edge:
                dropped.append({"page": page.number, "text": number, "reason": "not-printed", "where": box.where})
            elif key not in rest:
                tests.append({"type": "absent", "page": page.number, "text": number})
            elif not _ends_with(body, key, last=box.where == "foot"):
                # the number is in the page's prose too: only the page's end (start) is read, olmocr's
                # last_n (first_n), where no line of the page prints it
                window = "last_n" if box.where == "foot" else "first_n"
                tests.append({"type": "absent", "page": page.number, "text": number, window: len(number) + 8})
            else:
                dropped.append({"page": page.number, "text": number, "reason": "number-in-prose", "where": box.where})
    return tests, dropped


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


def _line_at(rects: list, bottom: float) -> str:
    """The text of one column's line: its rectangles on the baseline ``bottom``, left to right."""
    return " ".join(r[4] for r in sorted((r for r in rects if abs(r[0] - bottom) < 2.0), key=lambda r: r[2]))


def column_break_tests(fragments: list[str], pages: list[Page]) -> list[dict]:
    """A ``present`` test for each source sentence run a page prints across its column break: it
    starts on the left column's last line and ends on the right column's first line (often
    hyphenated there), so an output that reads the columns apart, or in the wrong order, or drops a
    line at the break fails it. The text is the source's; the page's lines only say where it sits:
    its letters must run on from the left column's lowest line into the right column's top line, and
    no other page may print it."""
    texts = [letters(p.text, keep_case=True) for p in pages]
    tests = []
    for page in pages:
        if len(page.rects) < 6:
            continue
        mid = (min(r[2] for r in page.rects) + max(r[3] for r in page.rects)) / 2
        left = [r for r in page.rects if r[3] < mid]
        right = [r for r in page.rects if r[2] > mid]
        if len(left) < 3 or len(right) < 3:
            continue
        tail = letters(_line_at(left, min(r[0] for r in left)), keep_case=True)
        head = letters(_line_at(right, max(r[0] for r in right)), keep_case=True)
        if len(tail) < 12 or len(head) < 12:
            continue
        seam = tail[-12:] + head[:12]
        for fragment in fragments:
            key = letters(fragment, keep_case=True)
            at = key.find(seam) + 12
            # the run must agree with both lines around the seam, not only share the seam's words
            before, after = key[:at], key[at:]
            if at >= 12 and (tail.endswith(before) or before.endswith(tail)) and (
                    head.startswith(after) or after.startswith(head)) and sum(t.count(key) for t in texts) <= 1 and all(
                    key not in t for i, t in enumerate(texts) if i != page.number - 1):
                tests.append({"type": "present", "page": page.number, "text": fragment})
                break
    return tests


def paper_tests(paper_id: str, tex: str, styles: list[str], pdf: Path, furniture: list | None = None,
                dropped: list | None = None) -> list[dict]:
    """Every test of one paper, each on its page, ids unique across the set (``<id>-<type>-NNN``:
    olmOCR-Bench pools all files and rejects a duplicate id). ``furniture``: the heads and feet TeX
    set (``furniture_truth.witness``); none, no ``absent`` test. ``dropped`` collects the absent
    candidates left out, with their reason."""
    pages = read_pages(pdf)
    body = derive.document_body(tex)
    tests = place(derive.derive(tex, styles), pages)
    fragments = derive.plain_fragments(body)
    tests += first_last_tests(fragments, pages)
    tests += column_break_tests(fragments, pages)
    found, left_out = furniture_tests(pages, furniture or [])
    tests += found
    if dropped is not None:
        dropped += left_out
    out, seen = [], set()
    for test in tests:
        fields = {k: v for k, v in test.items() if k not in ("id", "pdf")}
        key = repr(sorted(fields.items()))
        if key not in seen:
            seen.add(key)
            out.append(fields)
    out.sort(key=lambda t: t["page"])
    return [{"pdf": pdf.name, "id": f"{paper_id}-{t['type']}-{i:03d}", **t} for i, t in enumerate(out)]
