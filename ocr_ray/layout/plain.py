"""The plain reading of a page: what a block, or a page, falls back to when a layout rule fails on
it (``ocr_ray.layout.fallback``). Nothing here may fail on any fragment list: no columns, no
tables, no headings; every fragment kept once, in rows top to bottom."""
from __future__ import annotations

from ocr_ray.layout.model import Fragment, PageLayout


def plain_rows(fragments: list[Fragment]) -> list[list[Fragment]]:
    """Fragments in rows, top to bottom, each row left to right: the reading a failed rule falls
    back to (no columns, no tables; every fragment kept once)."""
    rows: list[list[Fragment]] = []
    top = bottom = 0.0  # the open row's extent
    for f in sorted(fragments, key=lambda f: (f.y0, f.x0)):
        if rows and top < (f.y0 + f.y1) / 2 < bottom:
            rows[-1].append(f)
            top, bottom = min(top, f.y0), max(bottom, f.y1)
        else:
            rows.append([f])
            top, bottom = f.y0, f.y1
    return [sorted(row, key=lambda f: f.x0) for row in rows]


def plain_page(page: PageLayout) -> str:
    """The page's text in plain rows (``plain_rows``): what is left when the page's rules failed."""
    return "\n".join(" ".join(f.text for f in row) for row in plain_rows(page.fragments))
