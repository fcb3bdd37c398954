"""Typeset LaTeX made a scan, for the OCR route's tests: pdflatex's PDF rendered to grey page images
(a scanner's dpi, a slight rotation, JPEG) and wrapped into an image-only PDF, read by the default
engine as a user's scanned paper is (every page routed to OCR as ``image_only``)."""
from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest


def typeset_pdf(tmp: Path, body: str, preamble: str = "", options: str = "", runs: int = 1) -> Path:
    """``body`` in an article (class ``options``, then ``preamble``) typeset by pdflatex in ``tmp``,
    ``runs`` times (a second run sets what the first wrote to the .aux, as a longtable's widths)."""
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    (tmp / "m.tex").write_text(f"\\documentclass[{options}]{{article}}\n{preamble}\n"
                               f"\\begin{{document}}\n{body}\n\\end{{document}}\n")
    for _ in range(runs):
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "m.tex"], cwd=tmp, check=True,
                       capture_output=True, timeout=120)
    return tmp / "m.pdf"


def scan(pdf: Path, out: Path, dpi: int = 200, angle: float = 0.6,
         feed: list[tuple[float, float]] | None = None) -> Path:
    """Every page of ``pdf`` as a grey JPEG image at ``dpi``, turned by ``angle`` degrees, in an
    image-only PDF; ``feed``: per page (in turn), its own angle and how far down the sheet was fed
    (points), as a scanner's feeder moves each sheet a little differently."""
    import pypdfium2 as pdfium
    from PIL import Image

    doc = pdfium.PdfDocument(str(pdf))
    images = []
    try:
        for i, page in enumerate(doc):
            turn, down = feed[i % len(feed)] if feed else (angle, 0.0)
            image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            image = image.rotate(turn, resample=Image.BICUBIC, fillcolor=255)
            if down:
                fed = Image.new("L", image.size, 255)
                fed.paste(image, (0, round(down * dpi / 72)))
                image = fed
            buf = io.BytesIO()
            image.save(buf, "JPEG", quality=75)
            images.append(Image.open(io.BytesIO(buf.getvalue())))
    finally:
        doc.close()
    images[0].save(out, "PDF", resolution=float(dpi), save_all=True, append_images=images[1:])
    return out


def scanned_pages(tmp: Path, body: str, preamble: str = "", options: str = "", engine: str = "text-layer",
                  angle: float = 0.6, feed: list[tuple[float, float]] | None = None) -> list[str]:
    """The markdown of each page of ``body`` typeset, scanned (see ``scan``), and read by ``engine``;
    asserts every page was OCR'd."""
    import json

    import pyarrow.fs as pafs

    from ocr_ray.conversion import PAGE_SEPARATOR, convert_pdf
    from ocr_ray.engines import get_engine

    pdf = scan(typeset_pdf(tmp, body, preamble, options), tmp / "scan.pdf", angle=angle, feed=feed)
    row = convert_pdf({"task_index": 0, "forum_id": "scan", "pdf_path": str(pdf)},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine(engine))
    assert not row["error"], row["error"]
    assert all(route.endswith(":image_only") for route in json.loads(row["engine_pages"])), row["engine_pages"]
    return row["markdown"].split(PAGE_SEPARATOR)
