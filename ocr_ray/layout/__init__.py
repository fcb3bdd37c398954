"""The layout step: positioned text of every page of a paper -> structured markdown per page.

    fragments (text layer: ``pdftext``; OCR engines: their line boxes)
      -> furniture removed across the paper's pages (``furniture``)
      -> tables from rules and gaps (``tables``)
      -> reading order, headings, paragraphs, equations, footnotes (``order``, ``blocks``)

Every line stays on the page it is printed on, a paragraph or a word that runs over a page break
included (a hyphen at a page's end is kept as printed): the corpus marks page boundaries and
olmOCR-Bench scores each page's markdown alone (its "present" and "order" tests search that page's
text), so text moved to the previous page, even the tail of a hyphenated word, fails the next
page's tests and gains nothing on its own page (a test written from the printed "opti-" matches a
page ending "opti-", not one ending "optimization"). A reader who wants the sentence whole joins
the two pages.

Engines hand each page over as ``PageLayout.to_json()``; pages that arrive as text (the ``vllm``
engine writes markdown itself) get the text-only part: Unicode cleaning and removal of lines that
repeat at the top or bottom of most pages.
"""
from __future__ import annotations

import re
from collections import Counter

from ocr_ray.layout.blocks import clean_text, compounds, page_blocks
from ocr_ray.layout.fallback import PAGE_SECONDS, PAPER_SECONDS, Fallbacks, guarded, recording
from ocr_ray.layout.figure_grids import extract_figure_grids
from ocr_ray.layout.furniture import remove_furniture
from ocr_ray.layout.model import Fragment, PageLayout, Rule, body_size, is_layout_json
from ocr_ray.layout.plain import plain_page
from ocr_ray.layout.tables import extract_tables

__all__ = ["Fallbacks", "Fragment", "PageLayout", "Rule", "body_size", "compose_pages", "is_layout_json"]

_DIGITS = re.compile(r"\d+")


def _text_pages(texts: list[str]) -> list[str]:
    """Markdown written by a model: drop first/last lines that repeat (digits aside) on most pages."""
    split = [[line for line in text.splitlines()] for text in texts]
    edges: Counter = Counter()
    for lines in split:
        body = [ln for ln in lines if ln.strip()]
        for ln in set(body[:2] + body[-2:]):
            edges[_DIGITS.sub("#", ln.strip().lower())] += 1
    need = max(2, (len(texts) + 1) // 2)
    out = []
    for lines in split:
        body = [ln for ln in lines if ln.strip()]
        edge = set(body[:2] + body[-2:])
        keep = [ln for ln in lines if not (ln in edge and len(texts) > 1 and len(body) >= 4
                                           and edges[_DIGITS.sub("#", ln.strip().lower())] >= need)]
        out.append(clean_text("\n".join(keep).strip()))
    return out


def compose_pages(pages: list[str], fallbacks: Fallbacks | None = None) -> list[str]:
    """Each page's payload (layout JSON or text) -> that page's markdown, using the whole paper.

    Every rule runs guarded (``fallback``): one that raises or overruns on a block costs that block
    (its plain text), never the page or the paper; ``fallbacks`` (a new record if None) says which."""
    record = fallbacks if fallbacks is not None else Fallbacks()
    with recording(record):
        return _compose(pages, record)


def _compose(pages: list[str], record: Fallbacks) -> list[str]:
    layouts: dict[int, PageLayout] = {}
    for i, p in enumerate(pages):
        if is_layout_json(p):
            record.page = i
            layout = guarded("page", lambda p=p: PageLayout.from_json(p), lambda: None, seconds=PAGE_SECONDS)
            if layout is not None:
                layouts[i] = layout
    texts = {i: p for i, p in enumerate(pages) if i not in layouts and not is_layout_json(p)}
    out = [""] * len(pages)
    if texts:
        record.page = -1
        plain = [clean_text(t) for t in texts.values()]
        for i, text in zip(texts, guarded("furniture", lambda: _text_pages(list(texts.values())),
                                          lambda: plain, seconds=PAPER_SECONDS), strict=False):
            out[i] = text
    if layouts:
        ordered = [layouts[i] for i in sorted(layouts)]
        for page in ordered:  # glyphs without Unicode (a figure's labels): nothing a reader can use
            page.fragments = [f for f in page.fragments if f.text.count("\ufffd") * 2 <= len(f.text)]
        record.page = -1
        kept = [list(page.fragments) for page in ordered]

        def keep_all() -> None:  # the furniture rule failed: every line stays, heads and numbers too
            for page, fragments in zip(ordered, kept, strict=True):
                page.fragments = fragments

        guarded("furniture", lambda: remove_furniture(ordered), keep_all, seconds=PAPER_SECONDS)
        body = guarded("body_size", lambda: body_size(ordered), lambda: 10.0)
        known = guarded("hyphenation", lambda: compounds([f.text for page in ordered for f in page.fragments]),
                        frozenset)
        for i in sorted(layouts):
            record.page = i
            out[i] = guarded("page", lambda i=i: _page_markdown(layouts[i], body, i == 0, known),
                             lambda i=i: clean_text(plain_page(layouts[i])), seconds=PAGE_SECONDS)
    return out


def _page_markdown(page: PageLayout, body: float, first_page: bool, known) -> str:
    extract_tables(page)  # each table guarded on its own (``tables``)
    if page.images:
        fragments = list(page.fragments)

        def no_grids() -> None:
            page.fragments = fragments

        guarded("figures", lambda: extract_figure_grids(page), no_grids)
    # OCR'd sizes are box heights, estimated per page (``ocr_lines.ocr_layout``): such a
    # page is compared with its own body size, not with the paper's font sizes
    page_body = body if page.source == "text-layer" else guarded("body_size", lambda: body_size([page]), lambda: body)
    return "\n\n".join(guarded("blocks", lambda: page_blocks(page, page_body, first_page=first_page, known=known),
                                lambda: _plain_blocks(page), seconds=PAGE_SECONDS))


def _plain_blocks(page: PageLayout) -> list[str]:
    text = clean_text(plain_page(page))
    return [text] if text.strip() else []
