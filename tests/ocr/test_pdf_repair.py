"""Issue 36 item 2: a PDF PDFium cannot open, but qpdf (pikepdf) can rebuild, is read, not refused:
its paper has markdown and its record says ``pdf/repaired`` with PDFium's reason. A file nothing
opens stays an error row with its reason. The broken files are made here from a correct one, each
with the damage of a file of the robustness corpus (PDFium's ``trailer_unterminated.pdf``, pdf-lib's
``missing_xref_trailer_dict.pdf``)."""
from __future__ import annotations

import io
import json

import pyarrow.fs as pafs
import pypdfium2 as pdfium
import pytest

from ocr_ray.conversion import convert_pdf
from ocr_ray.routing import TextLayerEngine
from tests.ocr.handmade_pdf import one_page

SENTENCE = "A paper whose trailer was lost on the way"


def _paper() -> bytes:
    return one_page(b"BT /F1 12 Tf 72 700 Td (%s) Tj ET" % SENTENCE.encode(),
                    [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])


def _unterminated_trailer() -> bytes:
    data = _paper()
    return data.replace(b"/Root 1 0 R >>", b"/Root 1 0 R")


def _cut_before_its_xref() -> bytes:
    data = _paper()
    return data[:data.index(b"xref")]


def _convert(tmp_path, data: bytes) -> dict:
    path = tmp_path / "p.pdf"
    path.write_bytes(data)
    return convert_pdf({"task_index": 0, "forum_id": "f", "pdf_path": str(path)},
                       filesystem=pafs.LocalFileSystem(), engine=TextLayerEngine(fallback=None))


@pytest.mark.parametrize("damaged, file_notes", [
    (_unterminated_trailer, [("repaired", "corrupt PDF (PDFium: data format error)")]),
    (_cut_before_its_xref, [("truncated", ""), ("repaired", "truncated PDF (no %%EOF at end)")]),
])
def test_a_pdf_pdfium_refuses_is_read_once_qpdf_rebuilt_it(tmp_path, damaged, file_notes):
    data = damaged()
    with pytest.raises(pdfium.PdfiumError):  # the damage is one PDFium does not read through
        pdfium.PdfDocument(data)
    paper = _convert(tmp_path, data)
    assert paper["error"] == "" and paper["num_pages"] == 1, paper
    assert SENTENCE in paper["markdown"], paper["markdown"]
    records = json.loads(paper["fallbacks"])
    assert [(f["rule"], f["reason"]) for f in records] == [("pdf", code) for code, _ in file_notes]
    for record, (_, why) in zip(records, file_notes, strict=True):
        assert why in record["detail"], record


def test_a_file_nothing_can_open_stays_an_error_row_with_its_reason(tmp_path):
    data = b"%PDF-1.4\n" + b"no objects here, only words\n" * 40 + b"%%EOF\n"
    paper = _convert(tmp_path, data)
    assert paper["markdown"] == "" and paper["error"] == "corrupt PDF (PDFium: data format error)", paper


def _cut_inside_its_page_content() -> bytes:
    # the page object survives, its content stream is cut off: qpdf keeps the page, drops the
    # stream it cannot find, and the rebuilt page has nothing drawn (test_pipeline's half file)
    data = _paper()
    return data[:data.index(b"stream") + len(b"stream\n") + 4]


def test_a_rebuilt_file_with_nothing_drawn_on_any_page_is_an_error_row_not_an_empty_paper(tmp_path):
    data = _cut_inside_its_page_content()
    with pytest.raises(pdfium.PdfiumError):
        pdfium.PdfDocument(data)
    paper = _convert(tmp_path, data)
    assert paper["markdown"] == "" and paper["num_pages"] == 0, paper
    assert "truncated PDF" in paper["error"] and "pdf/rebuilt_empty" in paper["error"], paper


def _guarded_by_a_user_password_with_an_empty_owner_password() -> bytes:
    import pikepdf

    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(_paper())) as pdf:
        pdf.save(out, encryption=pikepdf.Encryption(owner="", user="secret", R=6))
    return out.getvalue()


def test_a_file_guarded_by_a_user_password_stays_refused_though_its_owner_password_is_empty(tmp_path):
    # pypdf's r5/r6-user-password.pdf and pdf.js's pr6531_2.pdf: qpdf opens them with no password
    # because the empty string is their owner password; their author asked for a password to read
    import pikepdf

    data = _guarded_by_a_user_password_with_an_empty_owner_password()
    with pikepdf.open(io.BytesIO(data)) as pdf:  # what qpdf alone would do
        assert pdf.owner_password_matched and not pdf.user_password_matched
    paper = _convert(tmp_path, data)
    assert paper["markdown"] == "" and "password" in paper["error"].lower(), paper


def test_a_rebuilt_file_whose_pages_never_had_content_is_a_blank_paper_not_a_damaged_one(tmp_path):
    # PDFium's trailer_as_hexstring.pdf: one page without /Contents, a trailer PDFium refuses; qpdf
    # rebuilds a blank page, which is the file's page, not content the damage lost
    from tests.ocr.handmade_pdf import pdf

    data = pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"])
    data = data[:data.index(b"trailer")] + b"trailer <0000deadbabe0000>\n" + data[data.index(b"startxref"):]
    with pytest.raises(pdfium.PdfiumError):
        pdfium.PdfDocument(data)
    paper = _convert(tmp_path, data)
    # a blank paper as any blank PDF is (its one page empty in place), its record saying it was rebuilt
    assert paper["error"] == "" and paper["num_pages"] == 1 and paper["markdown"] == "", paper
    assert [(f["rule"], f["reason"]) for f in json.loads(paper["fallbacks"])] == [("pdf", "repaired")]
