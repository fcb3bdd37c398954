"""Failures the robustness corpus (``benchmarks/robustness``: public PDF libraries' test files, and
fuzzed variants) found in the production path, each reproduced on a PDF made here: a paper whose PDF
PDFium reads must come out with markdown, not an error row."""
from __future__ import annotations

import pyarrow.fs as pafs

from ocr_ray.conversion import convert_pdf
from ocr_ray.routing import TextLayerEngine
from tests.ocr.handmade_pdf import utf8_cmap_pdf


def convert(tmp_path, data: bytes) -> dict:
    path = tmp_path / "p.pdf"
    path.write_bytes(data)
    return convert_pdf({"task_index": 0, "forum_id": "f", "pdf_path": str(path)},
                       filesystem=pafs.LocalFileSystem(), engine=TextLayerEngine(fallback=None))


def test_a_font_whose_cmap_reads_utf8_codes_keeps_its_paper_and_its_text(tmp_path):
    # pdf.js's issue18117.pdf and issue11768_reduced.pdf: PDFium hands over codes past U+10FFFF
    # (0xE38081), chr() raised ValueError/OverflowError and the paper was an error row
    paper = convert(tmp_path, utf8_cmap_pdf("Tokyo 日本、東京"))
    assert paper["error"] == "", paper["error"]
    assert "Tokyo" in paper["markdown"] and "日本、東京" in paper["markdown"], paper["markdown"]
