"""Bounded work per PDF (issue 13), each cap configurable by environment variable: read by the byte
checks before PDFium parses a PDF (``pdf_pages``) and by the renderer before it draws a page
(``engine_base.render_page_jpeg``)."""
from __future__ import annotations

import os

PDF_LIMIT_VARS = {"max_inflated_mb": ("REVIEWBENCH_PDF_MAX_INFLATED_MB", 512),
                  "max_pages": ("REVIEWBENCH_PDF_MAX_PAGES", 2000),
                  "max_image_mb": ("REVIEWBENCH_PDF_MAX_IMAGE_MB", 512)}


def pdf_limits() -> dict[str, int]:
    return {k: int(os.environ.get(var, default)) for k, (var, default) in PDF_LIMIT_VARS.items()}


class RenderCapError(Exception):
    """A page whose rendering would allocate more than the image cap; the message is the reason."""


def image_render_problem(width: int, height: int) -> str | None:
    """The reason an image of this size may not be rendered (4 bytes a pixel), or None."""
    cap = pdf_limits()["max_image_mb"]
    size = width * height * 4
    if size <= cap << 20:
        return None
    return (f"over a cap: an image of {width}x{height} pixels needs {size >> 20} MiB to render, more than "
            f"{cap} MiB ({PDF_LIMIT_VARS['max_image_mb'][0]})")
