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
from ocr_ray.layout.figure_grids import extract_figure_grids
from ocr_ray.layout.furniture import remove_furniture
from ocr_ray.layout.model import Fragment, PageLayout, Rule, body_size, is_layout_json
from ocr_ray.layout.tables import extract_tables

__all__ = ["Fragment", "PageLayout", "Rule", "body_size", "compose_pages", "is_layout_json"]

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


def compose_pages(pages: list[str]) -> list[str]:
    """Each page's payload (layout JSON or text) -> that page's markdown, using the whole paper."""
    layouts = {i: PageLayout.from_json(p) for i, p in enumerate(pages) if is_layout_json(p)}
    texts = {i: p for i, p in enumerate(pages) if i not in layouts}
    out = [""] * len(pages)
    if texts:
        for i, text in zip(texts, _text_pages(list(texts.values())), strict=False):
            out[i] = text
    if layouts:
        ordered = [layouts[i] for i in sorted(layouts)]
        for page in ordered:  # glyphs without Unicode (a figure's labels): nothing a reader can use
            page.fragments = [f for f in page.fragments if f.text.count("\ufffd") * 2 <= len(f.text)]
        remove_furniture(ordered)
        body = body_size(ordered)
        known = compounds([f.text for page in ordered for f in page.fragments])
        for i in sorted(layouts):
            page = layouts[i]
            extract_tables(page)
            if page.images:
                extract_figure_grids(page)
            # OCR'd sizes are box heights, estimated per page (``ocr_lines.ocr_layout``): such a
            # page is compared with its own body size, not with the paper's font sizes
            page_body = body if page.source == "text-layer" else body_size([page])
            out[i] = "\n\n".join(page_blocks(page, page_body, first_page=i == 0, known=known))
    return out
