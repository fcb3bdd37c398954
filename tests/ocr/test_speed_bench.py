"""The speed benchmark's corpus cutter (benchmarks/bench_speed.py): N ten-page PDFs, the distinct ones
each a different window of the sources' pages in a ring. Truth from the sources: every source page gets a
page size of its own, written here by hand, so each output page names the source page it came from."""
from __future__ import annotations

import pypdfium2 as pdfium

from benchmarks.bench_speed import cut_ring

# Two sources, 3 + 4 pages; page j of the ring is (100 + j) pt wide.
WIDTHS = [[100, 101, 102], [103, 104, 105, 106]]


def _source(path, widths):
    doc = pdfium.PdfDocument.new()
    for w in widths:
        doc.new_page(w, 200)
    doc.save(str(path))
    doc.close()
    return path


def _widths(path):
    doc = pdfium.PdfDocument(str(path))
    try:
        return [round(doc[i].get_width()) for i in range(len(doc))]
    finally:
        doc.close()


def test_the_cutter_makes_ten_page_windows_of_the_ring_then_repeats_them_under_other_names(tmp_path):
    sources = [_source(tmp_path / f"src{i}.pdf", w) for i, w in enumerate(WIDTHS)]
    paths = cut_ring(sources, tmp_path / "out", 9)

    assert len(paths) == 9 and len(set(paths)) == 9 and all(p.exists() for p in paths)
    # the 7 distinct windows, written out by hand: ring pages k..k+9 (mod 7)
    assert _widths(paths[0]) == [100, 101, 102, 103, 104, 105, 106, 100, 101, 102]
    assert _widths(paths[1]) == [101, 102, 103, 104, 105, 106, 100, 101, 102, 103]
    assert _widths(paths[6]) == [106, 100, 101, 102, 103, 104, 105, 106, 100, 101]
    assert len({tuple(_widths(p)) for p in paths[:7]}) == 7
    # then the first windows again, under new names
    assert paths[7].read_bytes() == paths[0].read_bytes()
    assert paths[8].read_bytes() == paths[1].read_bytes()
