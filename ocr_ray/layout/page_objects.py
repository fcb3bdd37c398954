"""What a page draws besides text, read from PDFium's page objects: ruling lines, the boxes of
images and included figures, whether anything is drawn at all, how many images there are.
"""
from __future__ import annotations

from typing import Any

from ocr_ray.layout.model import Rule


def page_geometry(pdf_page: Any, height: float, left: float = 0.0,
                  bottom: float = 0.0) -> tuple[list[Rule], list[Rule]]:
    """Ruling lines (thin path objects) and the boxes of images and included figures (image and
    form objects at least 20 pt on each side: a figure grid's pictures), in one pass."""
    import pypdfium2.raw as pdfium_c

    rules, images = [], []
    kinds = [pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM]
    for obj in pdf_page.get_objects(filter=kinds, max_depth=1):
        x0, y0, x1, y1 = obj.get_bounds() if hasattr(obj, "get_bounds") else obj.get_pos()
        rule = Rule(x0 - left, height - (y1 - bottom), x1 - left, height - (y0 - bottom))
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            if rule.x1 - rule.x0 >= 20 and rule.y1 - rule.y0 >= 20:
                images.append(rule)
            elif obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE and _bar(rule):
                # a bar drawn as a one-bit image: dvips sets TeX's rules (a fraction's bar, a table's
                # rules, the footnote rule) with imagemask, which ps2pdf keeps as images
                rules.append(rule)
        elif _bar(rule):
            rules.append(rule)
    return rules, images


def _bar(rule: Rule) -> bool:
    """A ruling line, or a short thin bar: the rule of a 1/2 in a formula, the vinculum of a short root."""
    return rule.horizontal or rule.vertical or (rule.y1 - rule.y0 <= 1.5 and rule.x1 - rule.x0 > 1.5)


def blank_page(pdf_page: Any) -> bool:
    """Nothing is drawn on the page (no text, image, path or form object): a page left empty on
    purpose (``\\newpage\\mbox{}``, Word's blank page), which is an empty page of the paper, not a
    page whose text could not be read. Anything drawn (a scan, vector outlines of text) is read or
    OCR'd as before."""
    import pypdfium2.raw as pdfium_c

    return pdfium_c.FPDFPage_CountObjects(pdf_page.raw) == 0


def count_images(pdf_page: Any) -> int:
    import pypdfium2.raw as pdfium_c

    return sum(1 for _ in pdf_page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2))
