"""Table tests from the ICDAR 2013 Table Competition's hand-made structure truth (issue 36, item 3/6).

The competition's organisers marked every table cell of 67 public EU and US government documents by hand
(``<doc>-str.xml``: for each table, its regions (one per page), each cell's ``start-row``/``start-col``
(``end-row``/``end-col`` when it spans), its bounding box and its text). This turns the cells of one page
into olmOCR-Bench ``TableTest`` rows (``cell`` plus the cell right/left of it, below/above it and the head
of its column), only for cells whose text is unique on the page, so a test names one cell.

The organisers' text often drops the spaces the page prints ("CzechRepublic", "domestic(%)" under
"Domestic (%)"): a cell's text is the one printed in its box (PDFium's characters there, as the PDF
holds them), and a cell is used only when that agrees with the organisers' text but for spaces and
case. The cells and their neighbours are the organisers' marking, never an engine's output. Run once
when the set was made (``python -m benchmarks.fulltext_tables_world.derive PDF STR_XML PAGE ID``); the
tests are kept in ``tests/``.
"""
from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

PER_PAGE = 10  # table tests per page: enough to see a table's shape, few enough that one table does not outweigh


def _text(raw: str | None) -> str:
    return re.sub(r"\s+", " ", raw or "").strip()


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


def regions(xml: str, printed: Callable[[int, tuple[float, float, float, float]], str] | None = None) -> list[dict]:
    """Every region (one table's part on one page): its 1-based ``page``, whether it is its table's first
    part, and its cells as ``(row0, col0, row1, col1, text)`` with rows counted from the region's top.
    With ``printed(page, (x0, y0, x1, y1))`` (the text printed in a box, PDF points), a cell's text is the
    printed one when it agrees with the organisers' but for spaces and case, else ``""`` (not used)."""
    out = []
    for table in ET.fromstring(xml).iter("table"):
        for n, region in enumerate(table.iter("region")):
            cells = []
            for cell in region.iter("cell"):
                r0, c0 = int(cell.get("start-row")), int(cell.get("start-col"))
                r1, c1 = int(cell.get("end-row", r0)), int(cell.get("end-col", c0))
                text = _text(cell.findtext("content"))
                box = cell.find("bounding-box")
                if printed is not None:
                    corners = [box.get(k, "") for k in ("x1", "y1", "x2", "y2")] if box is not None else []
                    seen = _text(printed(int(region.get("page")), tuple(map(float, corners))))  \
                        if corners and all(re.fullmatch(r"-?\d+(\.\d+)?", c) for c in corners) else ""
                    text = seen if _squeezed(seen) == _squeezed(text) else ""  # (a box mistyped: not used)
                cells.append((r0, c0, r1, c1, text))
            if cells:
                top = min(c[0] for c in cells)
                cells = [(r0 - top, c0, r1 - top, c1, t) for r0, c0, r1, c1, t in cells]
                out.append({"page": int(region.get("page")), "first": n == 0, "cells": cells})
    return out


def _neighbours(cells: list[tuple], cell: tuple) -> dict[str, str]:
    """The texts of the single cells right, left, below and above ``cell`` that share its rows (or
    columns) exactly, and the head of its column (row 0, that column only) in a table's first region."""
    r0, c0, r1, c1, _ = cell
    at = {(c[0], c[1]): c for c in cells}
    found = {}
    for key, (r, c) in (("right", (r0, c1 + 1)), ("left", (r0, c0 - 1)), ("down", (r1 + 1, c0)), ("up", (r0 - 1, c0))):
        other = at.get((r, c))
        if other is None or not other[4]:
            continue
        if key in ("right", "left") and (other[0], other[2]) != (r0, r1):
            continue
        if key in ("down", "up") and (other[1], other[3]) != (c0, c1):
            continue
        found[key] = other[4]
    return found


def page_tests(xml: str, page: int, page_id: str, per_page: int = PER_PAGE,
               printed: Callable[[int, tuple[float, float, float, float]], str] | None = None) -> list[dict]:
    """olmOCR-Bench TableTests for the cells of ``page`` (1-based in the source) whose text is unique on it."""
    parts = [r for r in regions(xml, printed) if r["page"] == page]
    squeezed = [_squeezed(t) for t in (c[4] for r in regions(xml) if r["page"] == page for c in r["cells"])]
    texts = [c[4] for r in parts for c in r["cells"]]
    candidates = []
    for part in parts:
        heads = {(c[1], c[3]): c[4] for c in part["cells"] if c[0] == 0 and c[2] == 0}
        for cell in part["cells"]:
            text = cell[4]
            if len(text) < 2 or texts.count(text) != 1 or squeezed.count(_squeezed(text)) != 1:
                continue
            rel = _neighbours(part["cells"], cell)
            test = {"cell": text}
            for pair in (("right", "left"), ("down", "up")):
                for key in pair:
                    if key in rel and texts.count(rel[key]) == 1:
                        test[key] = rel[key]
                        break
            head = heads.get((cell[1], cell[3]))
            if part["first"] and cell[0] > 0 and head and texts.count(head) == 1 and head not in test.values():
                test["top_heading"] = head
            if len(test) > 1:
                candidates.append(test)
    step = max(1, len(candidates) // per_page)  # spread over the page's tables, top to bottom
    chosen = candidates[::step][:per_page]
    return [{"pdf": f"{page_id}.pdf", "page": 1, "id": f"{page_id}-table-{n:03d}", "type": "table", "max_diffs": 0, **t}
            for n, t in enumerate(chosen)]


def pdfium_printed(pdf: Path) -> Callable[[int, tuple[float, float, float, float]], str]:
    """``printed`` for ``regions``: PDFium's characters in a box (1 pt wider) of a page of ``pdf``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))

    def printed(page: int, box: tuple[float, float, float, float]) -> str:
        x0, y0, x1, y1 = box
        return doc[page - 1].get_textpage().get_text_bounded(x0 - 1, y0 - 1, x1 + 1, y1 + 1)

    return printed


if __name__ == "__main__":
    pdf_path, xml_path, page_no, ident = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    for row in page_tests(xml_path.read_text(encoding="utf-8"), page_no, ident, printed=pdfium_printed(pdf_path)):
        print(json.dumps(row, ensure_ascii=False))
