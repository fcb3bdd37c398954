"""Bounded work per PDF: inflated streams, pages and image size are capped before PDFium parses."""
from __future__ import annotations

import pytest

from openreview_replica.faults import _inflate_bomb_pdf, _many_pages_pdf
from reviewbench_assets.stages.pdf_fetch import BadPdf, inspect_pdf


def test_an_inflate_bomb_is_refused_with_the_cap_and_its_variable(monkeypatch):
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_INFLATED_MB", "16")
    with pytest.raises(BadPdf, match=r"over a cap: streams inflate to more than 16 MiB \(REVIEWBENCH_PDF_MAX_INFLATED_MB\)"):
        inspect_pdf(_inflate_bomb_pdf())
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_INFLATED_MB", "128")  # under the cap: a readable PDF
    assert inspect_pdf(_inflate_bomb_pdf()) == 1


def test_page_count_cap(monkeypatch):
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_PAGES", "100")
    with pytest.raises(BadPdf, match="500 pages, more than 100"):
        inspect_pdf(_many_pages_pdf(500))
    monkeypatch.delenv("REVIEWBENCH_PDF_MAX_PAGES")
    assert inspect_pdf(_many_pages_pdf(500)) == 500


def _typeset_with_image(tmp_path, body: str):
    """``m.pdf`` typeset by pdflatex from ``body`` (after the preamble, up to ``\\end{document}``), with
    ``img.png`` a 1000x1000 grey image beside it: 4 MiB to render, over a 1 MiB cap."""
    import shutil
    import subprocess

    from PIL import Image

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    Image.new("L", (1000, 1000), 128).save(tmp_path / "img.png")
    (tmp_path / "m.tex").write_text("\\documentclass{article}\\usepackage{graphicx}" + body + "\\end{document}\n")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "m.tex"], cwd=tmp_path, check=True, capture_output=True)
    return tmp_path / "m.pdf"


def test_image_render_size_cap(monkeypatch, tmp_path):
    """A page is rendered only when it is read as an image (OCR); an image too large to decode refuses
    that rendering with the cap, never the text layer of the paper (a real cas-dc paper with an
    18286x8997 figure was refused whole)."""

    import pypdfium2

    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engine_base import render_page_jpeg
    from ocr_ray.engines import get_engine
    from ocr_ray.pdf_limits import RenderCapError

    pdf = _typeset_with_image(tmp_path, "\\begin{document}\n" + "Figures are read around, never decoded for the text. " * 30
                              + "\n\n\\includegraphics[width=3cm]{img.png}\n").read_bytes()
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_IMAGE_MB", "1")
    assert inspect_pdf(pdf) == 1  # stored and read
    doc = pypdfium2.PdfDocument(pdf)
    with pytest.raises(RenderCapError, match=r"1000x1000 pixels needs 3 MiB to render, more than 1 MiB"):
        render_page_jpeg(doc[0], 1288)
    import pyarrow.fs as pafs

    engine = get_engine("text-layer")
    paper = convert_pdf({"task_index": 0, "forum_id": "f", "pdf_path": str(tmp_path / "m.pdf")},
                        filesystem=pafs.LocalFileSystem(), engine=engine)
    assert paper["error"] == "" and "never decoded for the text" in paper["markdown"]


def _figures_pdf(images: list[tuple[int, int, int]]) -> bytes:
    """A one-page PDF drawing gray images, each (width, height, inflated MiB of its Flate stream)."""
    import zlib

    from openreview_replica.faults import _pdf_of

    names = " ".join(f"/Im{i} {5 + i} 0 R" for i in range(len(images))).encode()
    draw = b" ".join(b"q 100 0 0 100 0 %d cm /Im%d Do Q" % (110 * i, i) for i in range(len(images)))
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << "
            + names + b" >> >> >>",
            b"<< /Length %d >>\nstream\n" % len(draw) + draw + b"\nendstream"]
    for w, h, mib in images:
        body = zlib.compress(b"\x80" * (mib << 20), 9)
        objs.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                    b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % (w, h, len(body))
                    + body + b"\nendstream")
    return _pdf_of(objs)


def test_a_paper_with_many_large_figures_is_read(monkeypatch):
    """A real cas-dc paper of the dev set (43 figures, 1.6 GiB of images, 5 MiB of everything else)
    was refused whole by the document's inflation budget: images have a budget each, the image cap."""
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_INFLATED_MB", "16")
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_IMAGE_MB", "40")
    pdf = _figures_pdf([(4096, 2048, 8)] * 3)  # 24 MiB of figures, each 8 MiB (32 MiB to render)
    assert inspect_pdf(pdf) == 1
    # a bomb in an image stream (declared 10x10, inflating to 48 MiB) is still refused, by the image cap
    with pytest.raises(BadPdf, match=r"an image stream inflates to more than 40 MiB \(REVIEWBENCH_PDF_MAX_IMAGE_MB\)"):
        inspect_pdf(_figures_pdf([(10, 10, 48)]))


def test_a_page_routed_to_ocr_with_an_over_cap_image_does_not_fail_its_paper(monkeypatch, tmp_path):
    """Issue 27: a page with no text layer (a scanned page, a full-page figure) is routed to OCR,
    which renders it; an image over the cap refused that rendering and turned the whole paper into
    an error row. The page keeps what its text layer has (nothing), the paper its other pages."""

    import pyarrow.fs as pafs

    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    _typeset_with_image(tmp_path, "\\pagestyle{empty}\\begin{document}\n" + "The first page is text and stays read. " * 30
                        + "\n\n\\newpage\n\\noindent\\includegraphics[width=\\textwidth]{img.png}\n")
    monkeypatch.setenv("REVIEWBENCH_PDF_MAX_IMAGE_MB", "1")
    paper = convert_pdf({"task_index": 0, "forum_id": "f", "pdf_path": str(tmp_path / "m.pdf")},
                        filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
    assert paper["error"] == "" and paper["num_pages"] == 2, paper["error"]
    assert "The first page is text and stays read." in paper["markdown"]
